/**
 * The mode form's live preview (POST …/rsm-maintenance/preview, asked again a moment after each
 * change): the CIs the mode would cover and through which scope entry, the next windows in the
 * mode's zone and in UTC, a window on a clock-change night said as such, and the modes it
 * overlaps. Nothing is saved.
 */
import { useEffect, useState } from 'preact/hooks';
import { type ApiProblem, api, problemOf } from '../app/api.js';
import type { operations } from '../app/api-schema.js';

export type PreviewBody = operations['maintenance.previewMode']['requestBody']['content']['application/json'];
type PreviewData = operations['maintenance.previewMode']['responses'][200]['content']['application/json'];
type Window = PreviewData['occurrences'][number];

export type PreviewState = { state: 'idle'; why: string } | { state: 'loading' } | { state: 'ok'; data: PreviewData } | { state: 'error'; problem: ApiProblem };

const WAIT_MS = 300;
const OCCURRENCES = 10;

/** The preview of `body`, asked WAIT_MS after it last changed; `why` says what is missing when it is null. */
export function usePreview(body: PreviewBody | null, why: string): PreviewState {
  const [state, setState] = useState<PreviewState>({ state: 'idle', why });
  const key = body ? JSON.stringify(body) : `idle:${why}`;
  useEffect(() => {
    if (!body) {
      setState({ state: 'idle', why });
      return;
    }
    const abort = new AbortController();
    const timer = setTimeout(() => {
      setState({ state: 'loading' });
      api.POST('/api/public/sm/v1/rsm-maintenance/preview', { params: { query: { occurrences: OCCURRENCES } }, body, signal: abort.signal }).then(
        ({ data, error, response }) => {
          if (abort.signal.aborted) return;
          setState(data ? { state: 'ok', data } : { state: 'error', problem: problemOf(error, response.status) });
        },
        () => undefined,
      );
    }, WAIT_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [key]);
  return state;
}

/** The zone's offset (local − UTC, minutes) at an instant, from the API's local and UTC forms. */
const offsetMinutes = (local: string, iso: string): number => Math.round((Date.parse(`${local}Z`) - Date.parse(iso)) / 60_000);
const offsetText = (minutes: number): string => {
  const sign = minutes < 0 ? '−' : '+';
  const m = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};
const wall = (local: string): string => local.slice(0, 16).replace('T', ' ');
const utcText = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
const hours = (ms: number): string => `${+(ms / 3_600_000).toFixed(2)} h`;

/** What is unusual about a window: a clock change inside it, or a wall time the night skipped. */
function dstNote(w: Window, first: Window): string | undefined {
  const atStart = offsetMinutes(w.localStart, w.dateStart);
  const atEnd = offsetMinutes(w.localEnd, w.dateEnd);
  const nominalTime = first.localStart.slice(11, 16);
  const notes: string[] = [];
  if (atStart !== atEnd)
    notes.push(`Clock change during the window (${offsetText(atStart)} → ${offsetText(atEnd)}): it lasts ${hours(Date.parse(w.dateEnd) - Date.parse(w.dateStart))}`);
  if (w.localStart.slice(11, 16) !== nominalTime) notes.push(`${nominalTime} does not exist that night: starts at ${w.localStart.slice(11, 16)}`);
  return notes.length > 0 ? `DST night. ${notes.join('; ')}` : undefined;
}

function Windows({ data }: { data: PreviewData }) {
  const first = data.occurrences[0];
  if (!first) return <p class="muted">No window: every occurrence is skipped or already over.</p>;
  return (
    <div class="table-scroll" role="region" aria-label="Next windows table" tabIndex={0}>
      <table class="mpreview-windows">
        <caption class="visually-hidden">Next windows</caption>
        <thead>
          <tr>
            <th scope="col">Local ({data.timeZone})</th>
            <th scope="col">UTC</th>
            <th scope="col">Offset</th>
            <th scope="col">Note</th>
          </tr>
        </thead>
        <tbody>
          {data.occurrences.map((w) => {
            const note = dstNote(w, first);
            const atStart = offsetMinutes(w.localStart, w.dateStart);
            const atEnd = offsetMinutes(w.localEnd, w.dateEnd);
            return (
              <tr key={w.dateStart} class={note ? 'dst' : undefined}>
                <td>
                  {wall(w.localStart)} – {wall(w.localEnd)}
                </td>
                <td>
                  <time dateTime={w.dateStart}>{utcText(w.dateStart)}</time> – <time dateTime={w.dateEnd}>{utcText(w.dateEnd)}</time>
                </td>
                <td>{atStart === atEnd ? offsetText(atStart) : `${offsetText(atStart)} → ${offsetText(atEnd)}`}</td>
                <td>{note ? <strong class="mpreview-dst">{note}</strong> : <span class="muted">—</span>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

const SHOWN_CIS = 50;

export function Preview({ preview }: { preview: PreviewState }) {
  return (
    <section class="mpreview" aria-labelledby="mpreview-h" aria-busy={preview.state === 'loading'}>
      <h2 id="mpreview-h">Preview</h2>
      {preview.state === 'idle' && <p class="muted">{preview.why}</p>}
      {preview.state === 'loading' && <p class="loading">Working out the preview…</p>}
      {preview.state === 'error' && (
        <p class="error">
          No preview: {preview.problem.detail ?? preview.problem.title ?? 'the request failed'}
          {preview.problem.errors?.length ? ' (see the fields marked above)' : ''}
        </p>
      )}
      {preview.state === 'ok' && (
        <>
          <h3>CIs covered</h3>
          {preview.data.configItems.length === 0 ? (
            <p class="muted">No CI you may see.</p>
          ) : (
            <ul class="mpreview-cis" aria-label="CIs covered">
              {preview.data.configItems.slice(0, SHOWN_CIS).map((ci) => (
                <li key={ci.id}>
                  <a href={`/cmdb/ci/${ci.id}`}>{ci.name}</a>
                  {ci.via.id !== ci.id && <span class="muted"> through CI {ci.via.id}</span>}
                </li>
              ))}
            </ul>
          )}
          <p class="muted">
            {preview.data.configItems.length} {preview.data.configItems.length === 1 ? 'CI' : 'CIs'}
            {preview.data.configItems.length > SHOWN_CIS ? ` (the first ${SHOWN_CIS} listed)` : ''}
            {preview.data.hiddenConfigItems > 0 ? `, and ${preview.data.hiddenConfigItems} you may not see` : ''}.
            {preview.data.dropped.length > 0 ? ` Left out, unknown or not readable by you: CI ${preview.data.dropped.join(', CI ')}.` : ''}
          </p>
          <h3>Next windows</h3>
          <Windows data={preview.data} />
          <h3>Overlapping modes</h3>
          {preview.data.overlaps.length === 0 ? (
            <p class="muted">None: no mode you may see covers these CIs in these windows.</p>
          ) : (
            <ul aria-label="Overlapping modes">
              {preview.data.overlaps.map((m) => (
                <li key={m.id}>
                  <a href={`/maintenance/${m.id}`}>{m.title || `Mode ${m.id}`}</a>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
