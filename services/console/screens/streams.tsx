/**
 * /streams: the data streams, each with its status and last hour (admins and stream readers).
 * For the chosen one (`?stream=<id>`): its activity over the last hour,
 * then what it stored (`show`): its events a page at a time over a range ending now (`range`),
 * its live tail, or its dead letters with their reasons; events and the tail take the events
 * API's record filter (`filter`: `field=value`, `field!=value`, `field~text`) and route label
 * (`route`). Admins also see its state, its key (copy, rotation) and its triggers, with the
 * trigger editor a link away. Every choice is in the URL.
 */
import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { api } from '../app/api.js';
import { hasRight } from '../app/session.js';
import { Load, NeedsRight, useLoad } from '../components/load.js';
import { ActivityPanel } from '../components/stream-activity.js';
import { StreamKey } from '../components/stream-key.js';
import { StreamList } from '../components/stream-list.js';
import { RANGES, StreamDeadLetters, StreamEvents } from '../components/stream-records.js';
import { type Stream, StreamStatus } from '../components/stream-status.js';
import { StreamTail } from '../components/stream-tail.js';
import { StreamTriggers } from '../components/stream-triggers.js';

const VIEWS = [
  { id: 'events', label: 'Events' },
  { id: 'tail', label: 'Live tail' },
  { id: 'dead-letters', label: 'Dead letters' },
] as const;
type View = (typeof VIEWS)[number]['id'];

type Go = (changes: Record<string, string>) => void;

function ViewTabs({ show, href }: { show: View; href: (changes: Record<string, string>) => string }) {
  return (
    <nav class="stream-tabs" aria-label="What to show">
      <ul>
        {VIEWS.map((v) => (
          <li key={v.id}>
            <a href={href({ show: v.id })} aria-current={v.id === show ? 'page' : undefined}>
              {v.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Filters({ show, params, go }: { show: View; params: URLSearchParams; go: Go }) {
  const range = params.get('range') ?? '';
  const filter = params.get('filter') ?? '';
  const route = params.get('route') ?? '';
  return (
    <form
      class="inline-form stream-filters"
      aria-label="Filters"
      key={`${show}:${range}:${filter}:${route}`}
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const text = (name: string): string => String(data.get(name) ?? '').trim();
        go(show === 'dead-letters' ? { range: text('range') } : { ...(show === 'events' ? { range: text('range') } : {}), filter: text('filter'), route: text('route') });
      }}
    >
      {show !== 'tail' && (
        <>
          <label for="s-range">Range</label>
          <select id="s-range" name="range" value={RANGES.find((r) => r.id === range)?.id ?? RANGES[1].id} onChange={(e) => e.currentTarget.form?.requestSubmit()}>
            {RANGES.map((r) => (
              <option key={r.id} value={r.id}>
                {r.label}
              </option>
            ))}
          </select>
        </>
      )}
      {show !== 'dead-letters' && (
        <>
          <label for="s-filter">Record filter</label>
          <input id="s-filter" name="filter" defaultValue={filter} placeholder="field=value, field!=value, field~text" aria-describedby="s-filter-hint" />
          <label for="s-route">Route</label>
          <input id="s-route" name="route" defaultValue={route} class="stream-route-input" />
        </>
      )}
      <button type="submit">Apply</button>
      {show !== 'dead-letters' && (
        <span id="s-filter-hint" class="hint">
          A dotted field path (labels.env) and a value: = equal, != not equal, ~ contains.
        </span>
      )}
    </form>
  );
}

function AdminPanels({ id }: { id: string }) {
  const [loaded] = useLoad((signal) => api.GET('/api/admin/v1/streams/{id}', { params: { path: { id } }, signal }), [id]);
  return (
    <Load loaded={loaded} label="the stream">
      {(stream) => <AdminStream key={stream.id} loaded={stream} />}
    </Load>
  );
}

function AdminStream({ loaded }: { loaded: Stream }) {
  const [stream, setStream] = useState(loaded);
  return (
    <div class="stream-admin">
      <StreamStatus stream={stream} onChanged={setStream} />
      <StreamKey id={stream.id} name={stream.name} streamKey={stream.key} onRotated={(key) => setStream({ ...stream, key })} />
      <StreamTriggers id={stream.id} />
    </div>
  );
}

function StreamName({ id }: { id: string }) {
  const [loaded] = useLoad((signal) => api.GET('/api/public/cl/v1/streams/{id}', { params: { path: { id } }, signal }), [id]);
  return <>{loaded.state === 'ok' ? loaded.data.name : `Stream ${id}`}</>;
}

function StreamView({ id, params, go, href }: { id: string; params: URLSearchParams; go: Go; href: (changes: Record<string, string>) => string }) {
  const admin = hasRight('base-system.admin');
  const raw = params.get('show');
  const show: View = VIEWS.find((v) => v.id === raw)?.id ?? 'events';
  const range = RANGES.find((r) => r.id === params.get('range')) ?? RANGES[1];
  const filter = params.get('filter') ?? '';
  const route = params.get('route') ?? '';
  return (
    <section aria-labelledby="stream-h" class="stream-view">
      <h2 id="stream-h" class="stream-title">
        <StreamName id={id} /> <span class="muted">#{id}</span>
      </h2>
      <ActivityPanel id={id} />
      <ViewTabs show={show} href={href} />
      <Filters show={show} params={params} go={go} />
      {show === 'events' && <StreamEvents id={id} range={range} filter={filter} route={route} />}
      {show === 'tail' && <StreamTail id={id} filter={filter} route={route} />}
      {show === 'dead-letters' && <StreamDeadLetters id={id} range={range} />}
      {admin && <AdminPanels id={id} />}
    </section>
  );
}

function StreamsScreen() {
  const { url, route } = useLocation();
  const params = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?')) : '');
  const stream = (params.get('stream') ?? '').trim();
  const admin = hasRight('base-system.admin');
  const href = (changes: Record<string, string>): string => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    return `/streams?${next.toString()}`;
  };
  const go: Go = (changes) => route(href(changes));
  return (
    <main class="streams">
      {stream && (
        <nav class="crumbs" aria-label="Breadcrumb">
          <a href="/streams">Streams</a> › stream {stream}
        </nav>
      )}
      <h1>Streams</h1>
      {!stream && (
        <>
          <StreamList />
          {admin && (
            <p>
              <a href="/admin/triggers">All triggers</a> (read only there; each stream's page lists its triggers with their editor).
            </p>
          )}
        </>
      )}
      {stream && <StreamView key={stream} id={stream} params={params} go={go} href={href} />}
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
