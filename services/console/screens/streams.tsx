/**
 * /streams: the data streams (their list is an admin's; a stream reader opens one by id) and,
 * for the chosen one (`?stream=<id>`), what it stored lately: its events or its dead letters
 * (`show`), over a range ending now (`range`), optionally narrowed by a record filter
 * (`filter`, the API's `field=value`, `field!=value` or `field~text`), newest first, a page at a
 * time.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, type ApiProblem, problemOf } from '../app/api.js';
import type { operations } from '../app/api-schema.js';
import { hasRight } from '../app/session.js';
import { ApiAlert, Load, NeedsRight, TableScroll, useLoad } from '../components/load.js';
import { Time } from '../components/time.js';

type Stream = operations['admin.listStreams']['responses'][200]['content']['application/json'][number];
type EventItem = operations['streams.listEvents']['responses'][200]['content']['application/json']['items'][number];
type DeadLetter = operations['streams.listDeadLetters']['responses'][200]['content']['application/json']['items'][number];

const RANGES = [
  { id: '1h', label: 'Last hour', ms: 3_600_000 },
  { id: '24h', label: 'Last 24 hours', ms: 86_400_000 },
  { id: '7d', label: 'Last 7 days', ms: 7 * 86_400_000 },
  { id: '31d', label: 'Last 31 days', ms: 31 * 86_400_000 },
] as const;
const PAGE = 100;

function StreamList({ streams }: { streams: Stream[] }) {
  if (streams.length === 0) return <p class="muted">No stream yet.</p>;
  return (
    <TableScroll label="Streams table">
      <table>
        <thead>
          <tr>
            <th scope="col">Id</th>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Framing</th>
            <th scope="col">Parser</th>
            <th scope="col">Route label</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {streams.map((s) => (
            <tr key={s.id}>
              <td>{s.id}</td>
              <td>
                <a href={`/streams?stream=${s.id}`}>{s.name}</a>
              </td>
              <td>
                <span class={`badge sstate-${s.status.toLowerCase()}`}>{s.status}</span>
              </td>
              <td>{s.config.framing ?? 'body'}</td>
              <td>{s.config.parser ? s.config.parser.type : <span class="muted">JSON</span>}</td>
              <td>{s.config.routeLabel ?? ''}</td>
              <td>
                <Time iso={s.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

const json = (value: unknown): string => JSON.stringify(value) ?? '';

/** A record or payload: its first line in the table, all of it on demand. */
function Payload({ text }: { text: string }) {
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

interface Page<T> {
  items: T[];
  cursor: string | null;
}

/** Pages of events or dead letters: the first on every change of the query, more on demand. */
function usePages<T>(key: string, fetchPage: (cursor: string | undefined) => Promise<{ data?: { items: T[]; nextCursor: string | null }; error?: unknown; response: Response }>) {
  const [page, setPage] = useState<Page<T> | undefined>();
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

function StreamRecords({ id, show, range, filter }: { id: string; show: 'events' | 'dead-letters'; range: (typeof RANGES)[number]; filter: string }) {
  // The range ends when the view was opened (or its query changed), so later pages do not shift.
  const key = JSON.stringify([id, show, range.id, filter]);
  const end = useMemo(() => Date.now(), [key]);
  const from = new Date(end - range.ms).toISOString();
  const until = new Date(end).toISOString();
  const events = usePages<EventItem | DeadLetter>(`${key}:${until}`, (cursor) =>
    show === 'events'
      ? api.GET('/api/public/cl/v1/streams/{id}/events', {
          params: { path: { id }, query: { from, to: until, limit: PAGE, ...(filter ? { filter: [filter] } : {}), ...(cursor ? { cursor } : {}) } },
        })
      : api.GET('/api/public/cl/v1/streams/{id}/dead-letters', { params: { path: { id }, query: { from, to: until, limit: PAGE, ...(cursor ? { cursor } : {}) } } }),
  );
  const { page } = events;
  return (
    <>
      <ApiAlert problem={events.problem} />
      {!page && !events.problem && <p class="loading">Loading…</p>}
      {page && page.items.length === 0 && <p class="muted">Nothing stored in this range.</p>}
      {page && page.items.length > 0 && (
        <TableScroll label={show === 'events' ? 'Events table' : 'Dead letters table'}>
          <table>
            <caption class="visually-hidden">{show === 'events' ? 'Events, newest first' : 'Dead letters, newest first'}</caption>
            <thead>
              {show === 'events' ? (
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Received</th>
                  <th scope="col">Route</th>
                  <th scope="col">Record</th>
                </tr>
              ) : (
                <tr>
                  <th scope="col">Received</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Payload</th>
                </tr>
              )}
            </thead>
            <tbody>
              {page.items.map((item) =>
                'ts' in item ? (
                  <tr key={item.id}>
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
                ) : (
                  <tr key={item.id}>
                    <td>
                      <Time iso={item.receivedAt} />
                    </td>
                    <td>{item.reason}</td>
                    <td>
                      <Payload text={typeof item.payload === 'string' ? item.payload : json(item.payload)} />
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </TableScroll>
      )}
      {page?.cursor && (
        <button type="button" onClick={events.more} disabled={events.busy}>
          {events.busy ? 'Loading…' : 'Load older'}
        </button>
      )}
    </>
  );
}

function StreamView({ id, params, go }: { id: string; params: URLSearchParams; go: (changes: Record<string, string>) => void }) {
  const show = params.get('show') === 'dead-letters' ? 'dead-letters' : 'events';
  const range = RANGES.find((r) => r.id === params.get('range')) ?? RANGES[1];
  const filter = params.get('filter') ?? '';
  return (
    <section aria-labelledby="stream-h">
      <h2 id="stream-h">Stream {id}</h2>
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          go({ show: String(data.get('show')), range: String(data.get('range')), filter: String(data.get('filter') ?? '').trim() });
        }}
        key={`${show}:${range.id}:${filter}`}
      >
        <label for="s-show">Show</label>
        <select id="s-show" name="show" value={show} onChange={(e) => e.currentTarget.form?.requestSubmit()}>
          <option value="events">Events</option>
          <option value="dead-letters">Dead letters</option>
        </select>
        <label for="s-range">Range</label>
        <select id="s-range" name="range" value={range.id} onChange={(e) => e.currentTarget.form?.requestSubmit()}>
          {RANGES.map((r) => (
            <option key={r.id} value={r.id}>
              {r.label}
            </option>
          ))}
        </select>
        {show === 'events' && (
          <>
            <label for="s-filter">Record filter</label>
            <input id="s-filter" name="filter" defaultValue={filter} placeholder="field=value, field!=value, field~text" />
          </>
        )}
        <button type="submit">Show</button>
      </form>
      <StreamRecords id={id} show={show} range={range} filter={show === 'events' ? filter : ''} />
    </section>
  );
}

function AllStreams() {
  const [loaded] = useLoad((signal) => api.GET('/api/admin/v1/streams', { signal }), []);
  return (
    <Load loaded={loaded} label="streams">
      {(streams) => <StreamList streams={streams} />}
    </Load>
  );
}

function StreamsScreen() {
  const { url, route } = useLocation();
  const params = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?')) : '');
  const stream = (params.get('stream') ?? '').trim();
  const admin = hasRight('base-system.admin');
  const go = (changes: Record<string, string>): void => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    route(`/streams?${next.toString()}`);
  };
  return (
    <main>
      <h1>Streams</h1>
      {admin ? (
        <AllStreams />
      ) : (
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            const id = String(new FormData(e.currentTarget).get('stream') ?? '').trim();
            if (id) route(`/streams?stream=${encodeURIComponent(id)}`);
          }}
        >
          <label for="s-id">Stream id</label>
          <input id="s-id" name="stream" inputMode="numeric" defaultValue={stream} key={stream} />
          <button type="submit">Open stream</button>
        </form>
      )}
      {stream && <StreamView id={stream} params={params} go={go} />}
    </main>
  );
}

export default function Streams() {
  return (
    <NeedsRight title="Streams" right="base-system.streams.read">
      <StreamsScreen />
    </NeedsRight>
  );
}
