/**
 * /problems, the start screen: the open problems in three tabs (unhandled, acknowledged, in
 * maintenance), filtered and sorted as the URL says, kept current by the live stream, with one
 * button that acknowledges every problem the filter matches.
 */
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, type ApiProblem, problemOf } from '../app/api.js';
import { hasRight } from '../app/session.js';
import { ConfirmDialog } from '../components/confirm.js';
import { ApiAlert } from '../components/load.js';
import { type LiveState, useOpenProblems, useTabCounts } from '../components/problem-feed.js';
import { ProblemFilters, type TriggerOption } from '../components/problem-filters.js';
import { bulkFilter, FIRST_DIRECTION, type ProblemView, searchOf, type SortKey, type TabId, TABS, viewOf } from '../components/problem-query.js';
import { ProblemTable } from '../components/problem-table.js';

/** The API's most problems in one bulk acknowledgement. */
const BULK_LIMIT = 10_000;
const count = (n: number): string => n.toLocaleString();

/** "12 unhandled problems", "1 problem in maintenance". */
function described(tab: TabId, n: number): string {
  const noun = n === 1 ? 'problem' : 'problems';
  if (tab === 'maintenance') return `${count(n)} ${noun} in maintenance`;
  return `${count(n)} ${tab} ${noun}`;
}

const LIVE_TEXT: Record<LiveState, string> = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', stopped: 'Live updates stopped' };

/** The triggers, for the filter's suggestions (their list is an admin's). */
function useTriggers(): TriggerOption[] | undefined {
  const [triggers, setTriggers] = useState<TriggerOption[] | undefined>();
  const admin = hasRight('base-system.admin');
  useEffect(() => {
    if (!admin) return;
    const abort = new AbortController();
    api
      .GET('/api/admin/v1/triggers', { signal: abort.signal })
      .then(({ data }) => data && setTriggers(data.map((t) => ({ id: t.id, name: t.name }))))
      .catch(() => undefined);
    return () => abort.abort();
  }, [admin]);
  return triggers;
}

function Tabs({ view, counts, onSelect }: { view: ProblemView; counts: Partial<Record<TabId, number>>; onSelect: (tab: TabId) => void }) {
  const move = (event: KeyboardEvent, index: number): void => {
    const last = TABS.length - 1;
    const targets: Record<string, number> = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last };
    const to = targets[event.key] ?? -1;
    if (to < 0) return;
    event.preventDefault();
    onSelect(TABS[to]!.id);
    document.getElementById(`tab-${TABS[to]!.id}`)?.focus();
  };
  return (
    <div role="tablist" aria-label="Open problems" class="tabs">
      {TABS.map((t, i) => {
        const selected = view.tab === t.id;
        const n = counts[t.id];
        return (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={selected}
            aria-controls={selected ? `panel-${t.id}` : undefined}
            tabIndex={selected ? 0 : -1}
            onClick={() => onSelect(t.id)}
            onKeyDown={(e) => move(e, i)}
          >
            {t.label}
            {n !== undefined && (
              <span class="tab-count" aria-hidden="true">
                {count(n)}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}

function BulkAcknowledge({ view, matched, loading, onDone }: { view: ProblemView; matched: number | undefined; loading: boolean; onDone: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const n = matched ?? 0;
  const tooMany = n > BULK_LIMIT;
  const confirm = async (): Promise<void> => {
    setBusy(true);
    setProblem(undefined);
    const text = comment.trim();
    const { data, error, response } = await api.POST('/api/public/sm/v1/problems/acknowledge', { body: { filter: bulkFilter(view), ...(text ? { comment: text } : {}) } });
    setBusy(false);
    if (!data) {
      setProblem(problemOf(error, response.status));
      return;
    }
    setOpen(false);
    setComment('');
    const refused = data.refused > 0 ? `; ${count(data.refused)} were closed meanwhile` : '';
    const skipped = data.matched - data.changed - data.refused;
    onDone(`Acknowledged ${count(data.changed)} of ${count(data.matched)} problems${refused}${skipped > 0 ? `; ${count(skipped)} unchanged` : ''}.`);
  };
  return (
    <>
      <button type="button" class="primary bulk-ack" disabled={loading || n === 0 || tooMany} aria-describedby="bulk-ack-note" onClick={() => setOpen(true)}>
        Acknowledge
        <span class="bulk-count" aria-hidden="true">
          {count(n)}
        </span>
      </button>
      <span id="bulk-ack-note" class="visually-hidden">
        {tooMany ? `${count(n)} problems match; at most ${count(BULK_LIMIT)} can be acknowledged at once` : `every problem the filter matches: ${count(n)}`}
      </span>
      {tooMany && <span class="muted">More than {count(BULK_LIMIT)} match: narrow the filter to acknowledge them.</span>}
      <ConfirmDialog
        open={open}
        title={`Acknowledge ${count(n)} ${n === 1 ? 'problem' : 'problems'}?`}
        busy={busy}
        onConfirm={() => void confirm()}
        onCancel={() => {
          setOpen(false);
          setProblem(undefined);
        }}
      >
        <p>
          Every open problem this tab and its filters match now{view.tab === 'maintenance' ? ' that nobody has acknowledged yet' : ''} is acknowledged in your name (on the CIs you
          may change).
        </p>
        <label for="bulk-comment">Comment (optional)</label>
        <textarea id="bulk-comment" rows={3} maxLength={4000} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
        <ApiAlert problem={problem} />
      </ConfirmDialog>
    </>
  );
}

export default function Problems() {
  const { url, route } = useLocation();
  const view = viewOf(new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?')) : ''));
  const go = (next: ProblemView): void => route(`/problems${searchOf(next)}`);
  const feed = useOpenProblems(view);
  const counts = useTabCounts(view, feed.version);
  const triggers = useTriggers();
  const [message, setMessage] = useState('');
  useEffect(() => setMessage(''), [view.tab]);
  const tab = TABS.find((t) => t.id === view.tab)!;
  const shown = feed.loading ? feed.total : feed.items.length;
  const sortBy = (key: SortKey): void => go({ ...view, sort: { key, desc: view.sort.key === key ? !view.sort.desc : FIRST_DIRECTION[key] } });
  return (
    <main class="problems-screen">
      <h1>Problems</h1>
      <ProblemFilters view={view} triggers={triggers} onApply={go} />
      <Tabs view={view} counts={{ ...counts, ...(shown === undefined ? {} : { [view.tab]: shown }) }} onSelect={(t) => go({ ...view, tab: t })} />
      <section role="tabpanel" id={`panel-${view.tab}`} aria-labelledby={`tab-${view.tab}`} class="tabpanel">
        <div class="panel-bar">
          <p class="panel-count" role="status">
            {shown === undefined ? 'Loading…' : `${described(view.tab, shown)}${feed.loading ? ` (loaded ${count(feed.items.length)})` : ''}`}
          </p>
          <span class={`live live-${feed.live}`}>{LIVE_TEXT[feed.live]}</span>
          {view.tab !== 'acknowledged' && (
            <BulkAcknowledge
              view={view}
              matched={view.tab === 'maintenance' ? feed.items.filter((p) => p.acknowledged === null).length : shown}
              loading={feed.loading}
              onDone={(text) => {
                setMessage(text);
                if (feed.live !== 'live') feed.reload();
              }}
            />
          )}
        </div>
        {message && (
          <p class="notice" role="status">
            {message}
          </p>
        )}
        <ApiAlert problem={feed.problem} />
        {!feed.loading && feed.items.length === 0 && !feed.problem ? (
          <p class="empty">{view.tab === 'maintenance' ? 'No problem in maintenance matches.' : `No ${view.tab} problem matches.`}</p>
        ) : (
          <ProblemTable items={feed.items} label={`${tab.label} problems`} sort={view.sort} onSort={sortBy} />
        )}
      </section>
    </main>
  );
}
