/**
 * The problem list as an ARIA table whose rows are virtualised (@tanstack/virtual-core through
 * virtual-list.tsx): 10 000 rows keep only the visible ones (and a few more) in the DOM, with
 * `aria-rowcount` / `aria-rowindex` telling assistive technology where they are. Sortable column
 * headers are buttons with `aria-sort`; the sort itself is the API's (the URL's `sort`).
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { showDuration } from '../app/time.js';
import { Time } from './time.js';
import type { Problem, Sort, SortKey } from './problem-query.js';
import { useVirtualizer } from './virtual-list.js';

interface Column {
  id: string;
  label: string;
  sort?: SortKey;
}

const COLUMNS: Column[] = [
  { id: 'priority', label: 'Priority', sort: 'priority' },
  { id: 'problem', label: 'Problem' },
  { id: 'ci', label: 'CI' },
  { id: 'start', label: 'Started', sort: 'dateStart' },
  { id: 'duration', label: 'Duration', sort: 'duration' },
  { id: 'tags', label: 'Tags' },
  { id: 'status', label: 'Status' },
];

/** "now", moved on every 30 s, so open problems' durations grow while the list is shown. */
function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

export function PriorityBadge({ priority }: { priority: Problem['priority'] }) {
  const n = Number(priority.slice('Problem'.length));
  return (
    <span class={`prio prio-${n}`} title={priority}>
      P{n}
    </span>
  );
}

export function CiLink({ ci }: { ci: Problem['configItem'] }) {
  return <a href={`/cmdb/ci/${ci.id}`}>{ci.name || `CI ${ci.id} (deleted)`}</a>;
}

/** What has been done about it, in words: who acknowledged it, maintenance, comments. */
function statusText(p: Problem): string {
  const parts: string[] = [];
  if (p.acknowledged) parts.push(`Acknowledged by ${p.acknowledged.byName}`);
  if (p.inMaintenance) parts.push('In maintenance');
  if (p.commentsCount > 0) parts.push(p.commentsCount === 1 ? '1 comment' : `${p.commentsCount} comments`);
  return parts.length > 0 ? parts.join(' · ') : 'Unhandled';
}

function Row({ p, index, now, measure }: { p: Problem; index: number; now: number; measure: (el: HTMLElement | null) => void }) {
  const duration = p.dateEnd === null ? now - Date.parse(p.dateStart) : p.duration;
  const status = statusText(p);
  return (
    <div role="row" class="prow" aria-rowindex={index + 2} data-index={index} ref={measure}>
      <div role="cell" class="c-priority">
        <PriorityBadge priority={p.priority} />
      </div>
      <div role="cell" class="c-problem">
        <a href={`/problems/${p.id}`}>{p.trigger.name}</a>
      </div>
      <div role="cell" class="c-ci">
        <CiLink ci={p.configItem} />
        {p.configItem.configItemType && <span class="muted"> · {p.configItem.configItemType.name}</span>}
      </div>
      <div role="cell" class="c-start">
        <Time iso={p.dateStart} />
      </div>
      <div role="cell" class="c-duration">
        {showDuration(duration)}
      </div>
      <div role="cell" class="c-tags">
        {p.tags.map((t) => (
          <span key={t.id} class="tag">
            {t.name}
          </span>
        ))}
      </div>
      <div role="cell" class={p.acknowledged || p.inMaintenance ? 'c-status' : 'c-status muted'} title={status}>
        {status}
      </div>
    </div>
  );
}

export interface ProblemTableProps {
  items: Problem[];
  /** The accessible name of the table. */
  label: string;
  sort: Sort;
  onSort: (key: SortKey) => void;
}

export function ProblemTable({ items, label, sort, onSort }: ProblemTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const head = useRef<HTMLDivElement>(null);
  const [headHeight, setHeadHeight] = useState(0);
  const now = useNow();
  useLayoutEffect(() => {
    const el = head.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeadHeight(el.offsetHeight));
    observer.observe(el);
    setHeadHeight(el.offsetHeight);
    return () => observer.disconnect();
  }, []);
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLElement>({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 40,
    overscan: 12,
    scrollMargin: headHeight,
    getItemKey: (i) => items[i]?.id ?? i,
  });
  const rows = virtualizer.getVirtualItems();
  const first = rows[0];
  return (
    <div class="ptable" role="table" aria-label={label} aria-rowcount={items.length + 1} ref={scroller} tabIndex={0}>
      <div role="rowgroup" class="ptable-head" ref={head}>
        <div role="row" class="prow" aria-rowindex={1}>
          {COLUMNS.map((c) => {
            const active = c.sort !== undefined && sort.key === c.sort;
            return (
              <div key={c.id} role="columnheader" class={`c-${c.id}`} aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : undefined}>
                {c.sort ? (
                  <button type="button" class="sort" onClick={() => onSort(c.sort!)}>
                    {c.label}
                    <span aria-hidden="true" class="sort-mark">
                      {active ? (sort.desc ? '▼' : '▲') : ''}
                    </span>
                  </button>
                ) : (
                  c.label
                )}
              </div>
            );
          })}
        </div>
      </div>
      <div role="rowgroup" class="ptable-body" style={{ height: `${virtualizer.getTotalSize()}px` }}>
        <div role="presentation" class="ptable-window" style={{ transform: `translateY(${first ? first.start - headHeight : 0}px)` }}>
          {rows.map((r) => {
            const p = items[r.index];
            return p ? <Row key={p.id} p={p} index={r.index} now={now} measure={virtualizer.measureElement} /> : null;
          })}
        </div>
      </div>
    </div>
  );
}
