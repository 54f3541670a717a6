/**
 * The open problems of one tab, kept current: every page of the list (keyset cursor, 1000 a page;
 * the open list is served from memory) and then the live stream's changes (Server-Sent Events,
 * docs/problems.md). The stream is opened before the first page is asked for and its changes are
 * held until the last page is in, so none falls between the two; a `reset` (the server no longer
 * holds what we missed) reloads the list. The stream is filtered like the list but not by tab,
 * so a problem that leaves the tab (acknowledged, resolved) is seen leaving.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type ApiProblem, problemOf } from '../app/api.js';
import type { paths } from '../app/api-schema.js';
import { loadSession } from '../app/session.js';
import { compareProblems, filterParams, inTab, listQuery, type Problem, type ProblemView, sortText, type TabId, TABS } from './problem-query.js';

const STREAM_PATH: keyof paths = '/api/public/sm/v1/problems/stream';
const PAGE = 1000;
/** Changes are applied at most this often (a storm of them re-sorts the list once, not per event). */
const APPLY_EVERY_MS = 200;
const CHANGE_KINDS = ['opened', 'updated', 'acknowledged', 'commented', 'resolved', 'removed'] as const;

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'stopped';

export interface OpenProblems {
  items: Problem[];
  /** Every match, as the first page counted it; then the list's length. */
  total: number | undefined;
  /** Pages are still being fetched. */
  loading: boolean;
  problem: ApiProblem | undefined;
  live: LiveState;
  /** Grows with every applied change (for figures that follow the list). */
  version: number;
  reload(): void;
}

/** The index at which `item` goes into the sorted `list`. */
function insertionIndex(list: Problem[], item: Problem, cmp: (a: Problem, b: Problem) => number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(list[mid]!, item) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The list after a batch of changes (each the problem as it now stands, or removed). */
export function applyChanges(list: Problem[], changes: Iterable<{ item: Problem; removed: boolean }>, tab: TabId, cmp: (a: Problem, b: Problem) => number): Problem[] {
  const leaving = new Set<string>();
  const arriving: Problem[] = [];
  for (const { item, removed } of changes) {
    leaving.add(item.id);
    if (!removed && inTab(item, tab)) arriving.push(item);
  }
  let next = list.some((p) => leaving.has(p.id)) ? list.filter((p) => !leaving.has(p.id)) : list;
  if (arriving.length === 0) return next;
  if (arriving.length > 64) return [...next, ...arriving].sort(cmp);
  next = next === list ? [...list] : next;
  for (const item of arriving) next.splice(insertionIndex(next, item, cmp), 0, item);
  return next;
}

export function streamUrl(view: ProblemView): string {
  const params = new URLSearchParams(filterParams(view));
  const text = params.toString();
  return text ? `${STREAM_PATH}?${text}` : STREAM_PATH;
}

/** A key that changes exactly when the list must be fetched again. */
export const listKey = (view: ProblemView): string => JSON.stringify([view.tab, filterParams(view), sortText(view.sort)]);

export function useOpenProblems(view: ProblemView): OpenProblems {
  const [state, setState] = useState<Omit<OpenProblems, 'reload'>>({ items: [], total: undefined, loading: true, problem: undefined, live: 'connecting', version: 0 });
  const reloadRef = useRef<() => void>(() => undefined);
  const key = listKey(view);
  useEffect(() => {
    const cmp = compareProblems(view.sort);
    let items: Problem[] = [];
    let total: number | undefined;
    let loading = true;
    let problem: ApiProblem | undefined;
    let live: LiveState = 'connecting';
    let version = 0;
    let closed = false;
    const pending = new Map<string, { item: Problem; removed: boolean }>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let paging: AbortController | undefined;

    const publish = (): void => {
      if (!closed) setState({ items, total: loading ? total : items.length, loading, problem, live, version });
    };
    const apply = (): void => {
      timer = undefined;
      if (loading || pending.size === 0) return;
      items = applyChanges(items, pending.values(), view.tab, cmp);
      pending.clear();
      version += 1;
      publish();
    };

    const load = async (): Promise<void> => {
      paging?.abort();
      const abort = (paging = new AbortController());
      loading = true;
      problem = undefined;
      publish();
      // The first load shows each page as it comes; a reload swaps the list once it is whole.
      const progressive = items.length === 0;
      const loaded: Problem[] = [];
      let cursor: string | undefined;
      do {
        const extra: Record<string, string> = { sort: sortText(view.sort), limit: String(PAGE), ...(cursor ? { cursor } : { withTotal: 'true' }) };
        let answer;
        try {
          answer = await api.GET('/api/public/sm/v1/problems', { params: { query: listQuery(view, view.tab, extra) }, signal: abort.signal });
        } catch (error) {
          if (abort.signal.aborted) return;
          problem = { status: 0, title: 'Network error', detail: error instanceof Error ? error.message : String(error) };
          break;
        }
        if (abort.signal.aborted) return;
        if (!answer.data) {
          problem = problemOf(answer.error, answer.response.status);
          break;
        }
        if (!cursor) total = answer.data.total;
        loaded.push(...answer.data.items);
        cursor = answer.data.nextCursor ?? undefined;
        if (progressive) {
          items = loaded.slice();
          publish();
        }
      } while (cursor);
      // A reload that failed keeps the list it had (with the alert); otherwise the list is what came.
      if (!problem || progressive) items = loaded;
      loading = false;
      version += 1;
      apply();
      publish();
    };
    reloadRef.current = () => void load();

    const onChange = (kind: (typeof CHANGE_KINDS)[number]) => (event: MessageEvent<string>) => {
      const item = JSON.parse(event.data) as Problem;
      pending.set(item.id, { item, removed: kind === 'removed' });
      if (!loading && timer === undefined) timer = setTimeout(apply, APPLY_EVERY_MS);
    };
    let events: EventSource;
    const connect = (): void => {
      events = new EventSource(streamUrl(view));
      for (const kind of CHANGE_KINDS) events.addEventListener(kind, onChange(kind));
      events.addEventListener('reset', () => void load());
      events.addEventListener('disconnect', (event: MessageEvent<string>) => {
        const reason = (JSON.parse(event.data) as { reason?: string }).reason;
        events.close();
        if (reason === 'unauthorized') {
          live = 'stopped';
          publish();
          void loadSession();
          return;
        }
        // Too much at once for this reader (a storm, a bulk acknowledgement): resuming with
        // Last-Event-ID would ask for the same burst again, so follow the stream from now on
        // and reload the list (the changes meanwhile are held until it is in).
        live = 'reconnecting';
        publish();
        connect();
        void load();
      });
      events.onopen = () => {
        live = 'live';
        publish();
      };
      events.onerror = () => {
        live = events.readyState === EventSource.CLOSED ? 'stopped' : 'reconnecting';
        publish();
        // Refused outright (e.g. the session ended): ask whether we are still signed in.
        if (events.readyState === EventSource.CLOSED) void loadSession();
      };
    };
    connect();
    void load();
    return () => {
      closed = true;
      paging?.abort();
      events.close();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [key]);
  return { ...state, reload: () => reloadRef.current() };
}

/** How many open problems each tab holds under the view's filters (asked again, at most once a second, as the list changes). */
export function useTabCounts(view: ProblemView, version: number): Partial<Record<TabId, number>> {
  const [counts, setCounts] = useState<Partial<Record<TabId, number>>>({});
  const filters = JSON.stringify(filterParams(view));
  const latest = useRef({ filters, round: 0 });
  const ask = (round: number, signal: AbortSignal): void => {
    for (const tab of TABS) {
      api
        .GET('/api/public/sm/v1/problems', { params: { query: listQuery(view, tab.id, { limit: '1', withTotal: 'true' }) }, signal })
        .then(({ data }) => {
          // An answer older than one already shown is dropped.
          if (data?.total === undefined || latest.current.filters !== filters || latest.current.round > round) return;
          setCounts((c) => ({ ...c, [tab.id]: data.total }));
        })
        .catch(() => undefined);
    }
  };
  // New filters: ask at once (and forget what other filters counted).
  const abortRef = useRef<AbortController | undefined>(undefined);
  useEffect(() => {
    latest.current = { filters, round: 0 };
    setCounts({});
    const abort = (abortRef.current = new AbortController());
    ask(0, abort.signal);
    return () => abort.abort();
  }, [filters]);
  // Changes: ask again once they settle for a second; answers in flight are kept.
  useEffect(() => {
    if (version === 0) return;
    const timer = setTimeout(() => {
      latest.current = { filters, round: version };
      ask(version, abortRef.current?.signal ?? new AbortController().signal);
    }, 1000);
    return () => clearTimeout(timer);
  }, [version]);
  return counts;
}
