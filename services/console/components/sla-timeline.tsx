/**
 * One CI's timeline in a report (GET …/ordered/{id}/timeline): its range as segments coloured by
 * bucket (ok, problem, maintenance, unattended); hovering a segment, or moving along them with
 * the arrow keys, shows the problems and maintenance modes behind it. Below, the segments summed
 * as the report sums them beside the report's own figures for the CI, which must agree.
 */
import { useMemo, useState } from 'preact/hooks';
import { api } from '../app/api.js';
import { showDuration } from '../app/time.js';
import { Load, useLoad } from './load.js';
import { Time } from './time.js';
import { BUCKETS, bucketLabel, type CiRow, segmentAt, segmentTotals, type Timeline } from './sla-model.js';

const WIDTH = 1000;
const HEIGHT = 36;
/** A problem of minutes in a month is a fraction of a pixel: what is not ok is drawn at least this wide. */
const MIN_MARK = 3;
/** The not-ok segments listed under the chart, so the smallest are a click away; the arrow keys reach all. */
const LISTED = 50;

function SegmentDetails({ timeline, index }: { timeline: Timeline; index: number }) {
  const problems = useMemo(() => new Map(timeline.problems.map((p) => [p.id, p])), [timeline]);
  const s = timeline.segments[index];
  if (!s) return <p class="muted">Point at a segment, or focus the timeline and use the arrow keys, to see what is behind it.</p>;
  return (
    <div>
      <p>
        <span class={`sla-key sla-key-${s.bucket}`} aria-hidden="true" /> <strong>{bucketLabel(s.bucket)}</strong> · <Time iso={s.dateStart} /> – <Time iso={s.dateEnd} /> ·{' '}
        {showDuration(s.durationMs)}
        {s.bucket === 'problem' && ` · weight ${s.weightPercent} %, so ${showDuration(s.problemMs)} of problem time`}
      </p>
      {s.problems.length > 0 && (
        <ul class="sla-why">
          {s.problems.map((id) => {
            const p = problems.get(id);
            return (
              <li key={id}>
                Problem <a href={`/problems/${encodeURIComponent(id)}`}>{p?.trigger.name ?? id}</a>
                {p && (
                  <span class="muted">
                    {' '}
                    · {p.priority} · influence {p.influence.value} %{p.influence.maxInfluence ? ' (max)' : ''} · from <Time iso={p.dateStart} /> to{' '}
                    {p.dateEnd ? <Time iso={p.dateEnd} /> : 'still open when calculated'}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {s.maintenanceModes.length > 0 && (
        <ul class="sla-why">
          {s.maintenanceModes.map((m) => (
            <li key={m.id}>
              Maintenance <a href={`/maintenance?mode=${m.id}`}>{m.title ?? `mode #${m.id}`}</a>
            </li>
          ))}
        </ul>
      )}
      {s.calendar && (
        <p class="muted">
          Outside the template’s working hours ({s.calendar.timeZone}){s.calendar.holidays.length > 0 ? `; holidays: ${s.calendar.holidays.join(', ')}` : ''}.
        </p>
      )}
    </div>
  );
}

/** The segments' sums beside the report's figures for the CI. */
function Agreement({ timeline, row }: { timeline: Timeline; row: CiRow | undefined }) {
  const sums = useMemo(() => segmentTotals(timeline.segments), [timeline]);
  const lines = [
    { label: 'OK time', segments: sums.okMs, report: row?.okTime.value },
    { label: 'Problem time', segments: sums.problemMs, report: row?.problemTime.value },
    { label: 'Maintenance', segments: sums.maintenanceMs, report: row?.maintenanceTime.value },
    { label: 'Unattended', segments: sums.unattendedMs, report: row?.unattendedTime.value },
    { label: 'Longest outage', segments: Math.round(sums.maxDowntimeMs / 1000) * 1000, report: row ? row.maxDowntime * 1000 : undefined },
  ];
  const agree = lines.every((l) => l.report === undefined || l.report === l.segments);
  return (
    <div class="table-scroll" role="region" aria-label="Timeline against the report" tabIndex={0}>
      <table class="sla-agreement">
        <caption>
          {row ? (agree ? 'The segments add up to the report’s figures for this CI.' : 'The segments do not add up to the report’s figures.') : 'The segments summed.'}
        </caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Summed from the segments</th>
            <th scope="col">In the report</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.label} class={l.report !== undefined && l.report !== l.segments ? 'error' : ''}>
              <th scope="row">{l.label}</th>
              <td data-ms={l.segments}>{showDuration(l.segments)}</td>
              <td data-ms={l.report}>{l.report === undefined ? '—' : showDuration(l.report)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TimelineChart({ timeline }: { timeline: Timeline }) {
  const [at, setAt] = useState(-1);
  const range = { start: Date.parse(timeline.range.start), end: Date.parse(timeline.range.end) };
  const total = Math.max(1, range.end - range.start);
  const starts = useMemo(() => timeline.segments.map((s) => Date.parse(s.dateStart)), [timeline]);
  const order = useMemo(() => {
    const ok: number[] = [];
    const marks: number[] = [];
    timeline.segments.forEach((s, i) => (s.bucket === 'ok' ? ok : marks).push(i));
    return [...ok, ...marks];
  }, [timeline]);
  const notOk = order.slice(order.length - timeline.segments.filter((s) => s.bucket !== 'ok').length);
  const x = (ms: number) => ((ms - range.start) / total) * WIDTH;
  const last = timeline.segments.length - 1;
  const focused = timeline.segments[at];
  const summary = BUCKETS.map((b) => `${b.label} ${timeline.segments.filter((s) => s.bucket === b.bucket).length}`).join(', ');
  return (
    <>
      <div
        class="sla-timeline"
        tabIndex={0}
        role="group"
        aria-label={`Timeline of ${timeline.configItem.name}: ${timeline.segments.length} segments (${summary}); arrow keys move between them`}
        onKeyDown={(e) => {
          const step = { ArrowRight: 1, ArrowLeft: -1, Home: -Infinity, End: Infinity }[e.key];
          if (step === undefined) return;
          e.preventDefault();
          setAt((i) => Math.max(0, Math.min(last, i < 0 ? (step > 0 ? 0 : last) : i + step)));
        }}
        onMouseMove={(e) => {
          const box = e.currentTarget.getBoundingClientRect();
          setAt(segmentAt(timeline.segments, starts, range.start + ((e.clientX - box.left) / box.width) * total));
        }}
      >
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" aria-hidden="true">
          {order.map((i) => {
            const s = timeline.segments[i]!;
            return (
              <rect
                key={s.dateStart}
                x={x(starts[i]!)}
                width={Math.max(s.bucket === 'ok' ? 0.5 : MIN_MARK, x(Date.parse(s.dateEnd)) - x(starts[i]!))}
                y={0}
                height={HEIGHT}
                class={`sla-seg sla-seg-${s.bucket}`}
                data-bucket={s.bucket}
                data-duration-ms={s.durationMs}
                data-weight={s.weightPercent}
              />
            );
          })}
          {focused && <rect x={x(starts[at]!)} width={Math.max(2, x(Date.parse(focused.dateEnd)) - x(starts[at]!))} y={1} height={HEIGHT - 2} class="sla-seg-focus" />}
        </svg>
        <div class="sla-timeline-axis" aria-hidden="true">
          <Time iso={timeline.range.start} />
          <Time iso={timeline.range.end} />
        </div>
      </div>
      <ul class="sla-legend" aria-label="Colours">
        {BUCKETS.map((b) => (
          <li key={b.bucket}>
            <span class={`sla-key sla-key-${b.bucket}`} aria-hidden="true" /> {b.label}
          </li>
        ))}
      </ul>
      <div class="sla-segment" aria-live="polite">
        <SegmentDetails timeline={timeline} index={at} />
      </div>
      {notOk.length > 0 && (
        <details class="sla-marks">
          <summary>
            {notOk.length} {notOk.length === 1 ? 'stretch' : 'stretches'} not ok
          </summary>
          <ul class="plain">
            {notOk.slice(0, LISTED).map((i) => {
              const s = timeline.segments[i]!;
              return (
                <li key={s.dateStart}>
                  <button type="button" class="small" aria-pressed={at === i} onClick={() => setAt(i)}>
                    <span class={`sla-key sla-key-${s.bucket}`} aria-hidden="true" /> {bucketLabel(s.bucket)}, <Time iso={s.dateStart} />, {showDuration(s.durationMs)}
                  </button>
                </li>
              );
            })}
          </ul>
          {notOk.length > LISTED && <p class="muted">And {notOk.length - LISTED} more: focus the timeline and use the arrow keys.</p>}
        </details>
      )}
    </>
  );
}

export function SlaTimeline({ reportId, ciId, row }: { reportId: string; ciId: number; row: CiRow | undefined }) {
  const [loaded] = useLoad(
    (signal) => api.GET('/api/public/sm/v1/sla/ordered/{id}/timeline', { params: { path: { id: reportId }, query: { configItemId: ciId } }, signal }),
    [reportId, ciId],
  );
  return (
    <Load loaded={loaded} label="the timeline">
      {(timeline) => (
        <>
          <p class="muted">
            {timeline.excludeMaintenance ? 'Maintenance is not counted against the CI' : 'Maintenance counts like any other time'}; priorities counted:{' '}
            {timeline.priorities.map((p) => `P${p}`).join(', ') || 'none'}. Calculated <Time iso={timeline.calculatedAt} />.
          </p>
          <TimelineChart timeline={timeline} />
          <Agreement timeline={timeline} row={row} />
        </>
      )}
    </Load>
  );
}
