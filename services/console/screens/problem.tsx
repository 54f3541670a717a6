/**
 * /problems/{id}: one problem — what, where, since when — with its hits over time, comments and
 * history, and the actions on it. It follows the live stream (filtered to its trigger and CI) so
 * a record that closes it, or a colleague's acknowledgement, shows without a reload.
 */
import { useEffect, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, type ApiProblem, problemOf } from '../app/api.js';
import { showDuration } from '../app/time.js';
import { ProblemActions } from '../components/problem-actions.js';
import { ApiAlert, Load, TableScroll, useLoad } from '../components/load.js';
import { streamUrl } from '../components/problem-feed.js';
import { HitStrip, HitTable } from '../components/problem-hits.js';
import { type ProblemDetail, viewOf } from '../components/problem-query.js';
import { CiLink, PriorityBadge } from '../components/problem-table.js';
import { Time } from '../components/time.js';

type Hit = ProblemDetail['hits']['items'][number];

const HITS_PAGE = 200;
const ACTION_TEXT: Record<ProblemDetail['history'][number]['action'], string> = {
  acknowledge: 'Acknowledged',
  unacknowledge: 'Unacknowledged',
  comment: 'Commented',
  resolve: 'Resolved',
};

/** Reloads when the live stream reports a change of this problem. */
function useLiveReload(problem: ProblemDetail | undefined, reload: () => void): void {
  const key = problem ? `${problem.trigger.id}:${problem.configItem.id}` : '';
  const id = problem?.id;
  useEffect(() => {
    if (!problem) return;
    const view = { ...viewOf(new URLSearchParams()), configItemIds: String(problem.configItem.id), triggerIds: String(problem.trigger.id) };
    const events = new EventSource(streamUrl(view));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onChange = (event: MessageEvent<string>): void => {
      if ((JSON.parse(event.data) as { id?: string }).id !== id || timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        reload();
      }, 300);
    };
    for (const kind of ['updated', 'acknowledged', 'commented', 'resolved', 'removed']) events.addEventListener(kind, onChange);
    return () => {
      events.close();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [key, id]);
}

function stateOf(p: ProblemDetail): string {
  if (p.dateEnd !== null) return 'Resolved';
  if (p.acknowledged) return 'Open, acknowledged';
  return 'Open, unhandled';
}

function Facts({ p }: { p: ProblemDetail }) {
  return (
    <dl class="facts">
      <dt>State</dt>
      <dd>
        {stateOf(p)}
        {p.inMaintenance && <span class="badge maint">In maintenance</span>}
      </dd>
      {p.acknowledged && (
        <>
          <dt>Acknowledged</dt>
          <dd>
            by {p.acknowledged.byName}, <Time iso={p.acknowledged.at} />
            {p.acknowledged.comment && <q>{p.acknowledged.comment}</q>}
          </dd>
        </>
      )}
      <dt>Priority</dt>
      <dd>
        <PriorityBadge priority={p.priority} /> {p.priority}
      </dd>
      <dt>CI</dt>
      <dd>
        <CiLink ci={p.configItem} />
        {p.configItem.configItemType && <span class="muted"> ({p.configItem.configItemType.name})</span>}
      </dd>
      <dt>Trigger</dt>
      <dd>
        {p.trigger.name} <span class="muted">#{p.trigger.id}</span>
      </dd>
      <dt>Started</dt>
      <dd>
        <Time iso={p.dateStart} />
      </dd>
      <dt>Ended</dt>
      <dd>{p.dateEnd ? <Time iso={p.dateEnd} /> : 'still open'}</dd>
      <dt>Duration</dt>
      <dd>{showDuration(p.dateEnd === null ? Date.now() - Date.parse(p.dateStart) : p.duration)}</dd>
      <dt>Influence</dt>
      <dd>
        {p.influence.value}
        {p.influence.maxInfluence ? ' (maximum)' : ''}
      </dd>
      {p.tags.length > 0 && (
        <>
          <dt>Tags</dt>
          <dd>
            {p.tags.map((t) => (
              <span key={t.id} class="tag">
                {t.name}
              </span>
            ))}
          </dd>
        </>
      )}
      {p.incidents.length > 0 && (
        <>
          <dt>Incidents</dt>
          <dd>
            {p.incidents.flatMap((c) =>
              c.incidents.map((i) => (
                <span key={`${c.connector.id}:${i.id}`} class="tag">
                  {c.connector.name}: {i.id} ({i.type})
                </span>
              )),
            )}
          </dd>
        </>
      )}
    </dl>
  );
}

function Hits({ p }: { p: ProblemDetail }) {
  const [older, setOlder] = useState<{ items: Hit[]; cursor: string | null }>({ items: [], cursor: p.hits.nextCursor });
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<ApiProblem | undefined>();
  useEffect(() => setOlder({ items: [], cursor: p.hits.nextCursor }), [p]);
  const hits = [...p.hits.items, ...older.items];
  const more = async (): Promise<void> => {
    if (!older.cursor) return;
    setBusy(true);
    const { data, error, response } = await api.GET('/api/public/sm/v1/problems/{id}', {
      params: { path: { id: p.id }, query: { hitsLimit: String(HITS_PAGE), hitsCursor: older.cursor } },
    });
    setBusy(false);
    if (!data) return setFailed(problemOf(error, response.status));
    setFailed(undefined);
    setOlder((o) => ({ items: [...o.items, ...data.hits.items], cursor: data.hits.nextCursor }));
  };
  return (
    <section aria-labelledby="hits-h" class="hits">
      <h2 id="hits-h">Hits</h2>
      {hits.length === 0 ? (
        <p class="muted">No hits recorded.</p>
      ) : (
        <>
          <HitStrip hits={hits} start={p.dateStart} end={p.dateEnd} />
          <HitTable hits={hits} />
        </>
      )}
      {older.cursor && (
        <button type="button" onClick={() => void more()} disabled={busy}>
          {busy ? 'Loading…' : 'Load older hits'}
        </button>
      )}
      <ApiAlert problem={failed} />
    </section>
  );
}

function Comments({ p }: { p: ProblemDetail }) {
  return (
    <section aria-labelledby="comments-h">
      <h2 id="comments-h">Comments</h2>
      {p.comments.length === 0 ? (
        <p class="muted">No comments yet.</p>
      ) : (
        <ol class="comments">
          {p.comments.map((c) => (
            <li key={c.id}>
              <p class="meta">
                <strong>{c.byName}</strong> <Time iso={c.at} />
              </p>
              <p class="text">{c.text}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function History({ p }: { p: ProblemDetail }) {
  return (
    <section aria-labelledby="history-h">
      <h2 id="history-h">History</h2>
      {p.history.length === 0 ? (
        <p class="muted">Nobody has acted on it yet.</p>
      ) : (
        <TableScroll label="History table">
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Text</th>
              </tr>
            </thead>
            <tbody>
              {p.history.map((h, i) => (
                <tr key={i}>
                  <td>
                    <Time iso={h.at} />
                  </td>
                  <td>{h.byName}</td>
                  <td>{ACTION_TEXT[h.action]}</td>
                  <td>{h.text ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

export default function ProblemPage() {
  const { params } = useRoute();
  const id = params['id'] ?? '';
  const [loaded, reload] = useLoad((signal) => api.GET('/api/public/sm/v1/problems/{id}', { params: { path: { id }, query: { hitsLimit: String(HITS_PAGE) } }, signal }), [id]);
  // Keep showing the last answer while a reload is under way.
  const [last, setLast] = useState<ProblemDetail | undefined>();
  useEffect(() => {
    if (loaded.state === 'ok') setLast(loaded.data);
    if (loaded.state === 'error') setLast(undefined);
  }, [loaded]);
  const p = loaded.state === 'ok' ? loaded.data : last?.id === id ? last : undefined;
  useLiveReload(p, reload);
  useEffect(() => {
    if (p) document.title = `${p.trigger.name} on ${p.configItem.name || `CI ${p.configItem.id}`} · Problems`;
  }, [p?.id]);
  return (
    <main class="problem-screen">
      <p class="crumbs">
        <a href="/problems">Problems</a>
      </p>
      {!p ? (
        <>
          <h1>Problem</h1>
          <Load loaded={loaded} label="the problem">
            {() => null}
          </Load>
        </>
      ) : (
        <>
          <h1>
            {p.trigger.name} <span class="muted">on</span> {p.configItem.name || `CI ${p.configItem.id} (deleted)`}
          </h1>
          <div class="problem-grid">
            <div>
              <Facts p={p} />
              <ProblemActions problem={p} onChanged={reload} />
            </div>
            <div>
              <Hits p={p} />
              <Comments p={p} />
              <History p={p} />
            </div>
          </div>
        </>
      )}
    </main>
  );
}
