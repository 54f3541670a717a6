/**
 * A stream's activity over the last hour (GET …/streams/{id}/activity: records stored and dead
 * letters per minute, by receipt): as rates, and as a small chart of one bar per minute, dead
 * letters stacked on records in the danger colour so a parsing problem shows at a glance. Asked
 * again every minute while shown.
 */
import { useEffect } from 'preact/hooks';
import { api } from '../app/api.js';
import type { operations } from '../app/api-schema.js';
import { showTime } from '../app/time.js';
import { ApiAlert, type Loaded, useLoad } from './load.js';

export type Activity = operations['streams.activity']['responses'][200]['content']['application/json'];

const MINUTES = 60;
const REFRESH_MS = 60_000;

export function useActivity(id: string): Loaded<Activity> {
  const [loaded, reload] = useLoad((signal) => api.GET('/api/public/cl/v1/streams/{id}/activity', { params: { path: { id }, query: { minutes: MINUTES } }, signal }), [id]);
  useEffect(() => {
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [id]);
  return loaded;
}

/** Per second, with as many decimals as a small rate needs. */
export function perSecond(count: number, seconds: number): string {
  const rate = seconds > 0 ? count / seconds : 0;
  if (rate === 0) return '0';
  if (rate >= 10) return rate.toFixed(0);
  if (rate >= 0.1) return String(+rate.toFixed(2));
  return '< 0.1';
}

export interface Rates {
  /** The last whole minute (the current one is partial). */
  lastRecords: string;
  lastDeadLetters: string;
  hourRecords: string;
  hourDeadLetters: string;
  totalRecords: number;
  totalDeadLetters: number;
}

export function ratesOf(a: Activity): Rates {
  const whole = a.buckets.length > 1 ? a.buckets[a.buckets.length - 2]! : a.buckets[0];
  const totalRecords = a.buckets.reduce((n, b) => n + b.records, 0);
  const totalDeadLetters = a.buckets.reduce((n, b) => n + b.deadLetters, 0);
  const seconds = Math.max(1, (Date.parse(a.to) - Date.parse(a.from)) / 1000);
  return {
    lastRecords: perSecond(whole?.records ?? 0, a.bucketSeconds),
    lastDeadLetters: perSecond(whole?.deadLetters ?? 0, a.bucketSeconds),
    hourRecords: perSecond(totalRecords, seconds),
    hourDeadLetters: perSecond(totalDeadLetters, seconds),
    totalRecords,
    totalDeadLetters,
  };
}

/** The bars, as SVG: drawn to a fixed view box and scaled by CSS. */
function Bars({ a, width, height, class: className }: { a: Activity; width: number; height: number; class: string }) {
  const top = Math.max(1, ...a.buckets.map((b) => b.records + b.deadLetters));
  const step = width / Math.max(1, a.buckets.length);
  const h = (n: number): number => (n / top) * (height - 1);
  return (
    <svg class={className} viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
      <line class="stream-axis" x1={0} x2={width} y1={height - 0.5} y2={height - 0.5} />
      {a.buckets.map((b, i) => {
        const records = h(b.records);
        const dead = h(b.deadLetters);
        return (
          <g key={b.at}>
            {b.records > 0 && <rect class="stream-bar-records" x={i * step + step * 0.1} width={step * 0.8} y={height - records} height={records} />}
            {b.deadLetters > 0 && <rect class="stream-bar-dead" x={i * step + step * 0.1} width={step * 0.8} y={height - records - dead} height={dead} />}
            <title>{`${showTime(b.at)}: ${b.records} records, ${b.deadLetters} dead letters`}</title>
          </g>
        );
      })}
    </svg>
  );
}

/** The list's cell: the last hour's rates with a sparkline. */
export function ActivityCell({ id }: { id: string }) {
  const loaded = useActivity(id);
  if (loaded.state === 'loading') return <span class="muted">…</span>;
  if (loaded.state === 'error') return <span class="muted">unavailable</span>;
  const r = ratesOf(loaded.data);
  return (
    <span class="stream-activity-cell">
      <Bars a={loaded.data} width={120} height={24} class="stream-spark" />
      <span>
        {r.hourRecords}/s
        {r.totalDeadLetters > 0 && <span class="stream-dead-text"> · {r.hourDeadLetters} dead/s</span>}
      </span>
    </span>
  );
}

/** The stream page's panel: rates in words, the chart with its legend. */
export function ActivityPanel({ id }: { id: string }) {
  const loaded = useActivity(id);
  return (
    <section class="stream-activity" aria-labelledby="stream-activity-h">
      <h2 id="stream-activity-h">Last hour</h2>
      {loaded.state === 'loading' && <p class="loading">Loading activity…</p>}
      {loaded.state === 'error' && <ApiAlert problem={loaded.problem} />}
      {loaded.state === 'ok' &&
        (() => {
          const r = ratesOf(loaded.data);
          return (
            <>
              <dl class="facts stream-rates">
                <dt>Records</dt>
                <dd>
                  {r.lastRecords}/s in the last minute, {r.hourRecords}/s over the hour ({r.totalRecords} stored)
                </dd>
                <dt>Dead letters</dt>
                <dd class={r.totalDeadLetters > 0 ? 'stream-dead-text' : undefined}>
                  {r.lastDeadLetters}/s in the last minute, {r.hourDeadLetters}/s over the hour ({r.totalDeadLetters} in all)
                </dd>
              </dl>
              <figure class="stream-chart">
                <Bars a={loaded.data} width={600} height={80} class="stream-chart-svg" />
                <figcaption class="muted">
                  <span class="stream-key stream-key-records" aria-hidden="true" /> records <span class="stream-key stream-key-dead" aria-hidden="true" /> dead letters, per minute
                  from <time dateTime={loaded.data.from}>{showTime(loaded.data.from)}</time> to now
                </figcaption>
              </figure>
            </>
          );
        })()}
    </section>
  );
}
