/**
 * What a stream stored, a page at a time and newest first: its events (optionally narrowed by a
 * record filter and a route label) or its dead letters with their reasons, over a range ending
 * when the view was opened, so later pages do not shift under the reader.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, type ApiProblem, problemOf } from '../app/api.js';
import type { operations } from '../app/api-schema.js';
import { ApiAlert, TableScroll } from './load.js';
import { Time } from './time.js';

export type EventItem = operations['streams.listEvents']['responses'][200]['content']['application/json']['items'][number];
type DeadLetter = operations['streams.listDeadLetters']['responses'][200]['content']['application/json']['items'][number];

export const RANGES = [
  { id: '1h', label: 'Last hour', ms: 3_600_000 },
  { id: '24h', label: 'Last 24 hours', ms: 86_400_000 },
  { id: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { id: '31d', label: 'Last 31 days', ms: 31 * 86_400_000 },
] as const;
export type Range = (typeof RANGES)[number];
const PAGE = 100;

export const json = (value: unknown): string => JSON.stringify(value) ?? '';

/** A record or payload: its first characters in the table, all of it on demand. */
export function Payload({ text }: { text: string }) {
  if (text.length <= 160) return <code class="payload">{text}</code>;
  return (
    <details class="payload">
      <summary>
        <code>{text.slice(0, 160)}…</code>
      </summary>
      <pre>{text}</pre>
    </details>
  );
}

type PageAnswer<T> = Promise<{ data?: { items: T[]; nextCursor: string | null }; error?: unknown; response: Response }>;

/** Pages of items: the first on every change of `key`, more on demand. */
function usePages<T>(key: string, fetchPage: (cursor: string | undefined) => PageAnswer<T>) {
  const [page, setPage] = useState<{ items: T[]; cursor: string | null } | undefined>();
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const load = async (cursor: string | undefined, before: T[], isCurrent: () => boolean): Promise<void> => {
    setBusy(true);
    const answer = await fetchPage(cursor).catch((error: unknown) => error as Error);
    if (!isCurrent()) return;
    setBusy(false);
    if (answer instanceof Error) return setProblem({ status: 0, title: 'Network error', detail: answer.message });
    if (!answer.data) return setProblem(problemOf(answer.error, answer.response.status));
    setProblem(undefined);
    setPage({ items: [...before, ...answer.data.items], cursor: answer.data.nextCursor });
  };
  useEffect(() => {
    let current = true;
    setPage(undefined);
    setProblem(undefined);
    void load(undefined, [], () => current);
    return () => {
      current = false;
    };
  }, [key]);
  return { page, problem, busy, more: () => page?.cursor && void load(page.cursor, page.items, () => true) };
}

/** One event as a table row (the pages and the live tail show events alike). */
export function EventRow({ item }: { item: EventItem }) {
  return (
    <tr>
      <td>
        <Time iso={item.ts} />
      </td>
      <td>
        <Time iso={item.receivedAt} />
      </td>
      <td>{item.route}</td>
      <td>
        <Payload text={json(item.record)} />
      </td>
    </tr>
  );
}

export function EventHead() {
  return (
    <thead>
      <tr>
        <th scope="col">Time</th>
        <th scope="col">Received</th>
        <th scope="col">Route</th>
        <th scope="col">Record</th>
      </tr>
    </thead>
  );
}

function useRange(key: string, range: Range): { from: string; to: string; key: string } {
  const end = useMemo(() => Date.now(), [key]);
  const to = new Date(end).toISOString();
  return { from: new Date(end - range.ms).toISOString(), to, key: `${key}:${to}` };
}

function MoreButton({ cursor, busy, more }: { cursor: string | null | undefined; busy: boolean; more: () => void }) {
  if (!cursor) return null;
  return (
    <button type="button" onClick={more} disabled={busy}>
      {busy ? 'Loading…' : 'Load older'}
    </button>
  );
}

export function StreamEvents({ id, range, filter, route }: { id: string; range: Range; filter: string; route: string }) {
  const r = useRange(JSON.stringify([id, range.id, filter, route]), range);
  const pages = usePages<EventItem>(r.key, (cursor) =>
    api.GET('/api/public/cl/v1/streams/{id}/events', {
      params: {
        path: { id },
        query: { from: r.from, to: r.to, limit: PAGE, ...(filter ? { filter: [filter] } : {}), ...(route ? { route } : {}), ...(cursor ? { cursor } : {}) },
      },
    }),
  );
  const { page } = pages;
  return (
    <>
      <ApiAlert problem={pages.problem} />
      {!page && !pages.problem && <p class="loading">Loading events…</p>}
      {page && page.items.length === 0 && <p class="muted">No event in this range{filter || route ? ' matches the filter' : ''}.</p>}
      {page && page.items.length > 0 && (
        <TableScroll label="Events table">
          <table>
            <caption class="visually-hidden">Events, newest first</caption>
            <EventHead />
            <tbody>
              {page.items.map((item) => (
                <EventRow key={item.id} item={item} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <MoreButton cursor={page?.cursor} busy={pages.busy} more={pages.more} />
    </>
  );
}

export function StreamDeadLetters({ id, range }: { id: string; range: Range }) {
  const r = useRange(JSON.stringify([id, range.id]), range);
  const pages = usePages<DeadLetter>(r.key, (cursor) =>
    api.GET('/api/public/cl/v1/streams/{id}/dead-letters', { params: { path: { id }, query: { from: r.from, to: r.to, limit: PAGE, ...(cursor ? { cursor } : {}) } } }),
  );
  const { page } = pages;
  return (
    <>
      <ApiAlert problem={pages.problem} />
      {!page && !pages.problem && <p class="loading">Loading dead letters…</p>}
      {page && page.items.length === 0 && <p class="muted">No dead letter in this range: every record received became an event.</p>}
      {page && page.items.length > 0 && (
        <TableScroll label="Dead letters table">
          <table>
            <caption class="visually-hidden">Dead letters, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Reason</th>
                <th scope="col">Payload</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((item) => (
                <tr key={item.id}>
                  <td>
                    <Time iso={item.receivedAt} />
                  </td>
                  <td class="stream-reason">{item.reason}</td>
                  <td>
                    <Payload text={item.payload} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <MoreButton cursor={page?.cursor} busy={pages.busy} more={pages.more} />
    </>
  );
}
