/**
 * A Single report's figures, one row per CI, as an ARIA table whose rows are virtualised
 * (virtual-list.tsx): 10 000 CIs keep only the visible rows in the DOM. Column headers sort
 * (the URL's `sort` and `dir`); a CI's name opens its timeline (the URL's `ci`).
 */
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { showDuration } from '../app/time.js';
import { type CiRow, type CiSortKey, showPercent } from './sla-model.js';
import { useVirtualizer } from './virtual-list.js';

const COLUMNS: ReadonlyArray<{ key: CiSortKey; label: string }> = [
  { key: 'name', label: 'CI' },
  { key: 'type', label: 'Type' },
  { key: 'availability', label: 'Availability' },
  { key: 'ok', label: 'OK time' },
  { key: 'problem', label: 'Problem time' },
  { key: 'maintenance', label: 'Maintenance' },
  { key: 'unattended', label: 'Unattended' },
  { key: 'downtime', label: 'Longest outage' },
  { key: 'events', label: 'Problems' },
];

interface Props {
  rows: CiRow[];
  sort: CiSortKey;
  desc: boolean;
  onSort: (key: CiSortKey) => void;
  /** The link that opens a CI's timeline. */
  ciHref: (id: number) => string;
  selected: number | undefined;
  target: number | undefined;
}

function Row({
  r,
  index,
  ciHref,
  selected,
  target,
  measure,
}: {
  r: CiRow;
  index: number;
  ciHref: Props['ciHref'];
  selected: boolean;
  target: number | undefined;
  measure: (el: HTMLElement | null) => void;
}) {
  const missed = target !== undefined && r.serviceAvailability < target;
  return (
    <div role="row" class={selected ? 'srow selected' : 'srow'} aria-rowindex={index + 2} data-index={index} ref={measure}>
      <div role="cell" class="c-name">
        <a href={ciHref(r.configItem.id)} aria-current={selected ? 'true' : undefined}>
          {r.configItem.name}
        </a>
        {!r.configItem.isIncluded && <span class="muted"> (not counted)</span>}
      </div>
      <div role="cell">{r.configItem.configItemType.name}</div>
      <div role="cell" class={missed ? 'num error' : 'num'}>
        {showPercent(r.serviceAvailability)}
        {missed && <span class="visually-hidden"> (below target)</span>}
      </div>
      <div role="cell" class="num">
        {showDuration(r.okTime.value)}
      </div>
      <div role="cell" class="num">
        {showDuration(r.problemTime.value)}
      </div>
      <div role="cell" class="num">
        {showDuration(r.maintenanceTime.value)}
      </div>
      <div role="cell" class="num">
        {showDuration(r.unattendedTime.value)}
      </div>
      <div role="cell" class="num">
        {showDuration(r.maxDowntime * 1000)}
      </div>
      <div role="cell" class="num" title={`P1 ${r.problem1EventsCount} · P2 ${r.problem2EventsCount} · P3 ${r.problem3EventsCount} · P4 ${r.problem4EventsCount}`}>
        {r.eventsCount}
      </div>
    </div>
  );
}

export function SlaCiTable({ rows, sort, desc, onSort, ciHref, selected, target }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const head = useRef<HTMLDivElement>(null);
  const [headHeight, setHeadHeight] = useState(0);
  useLayoutEffect(() => {
    const el = head.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeadHeight(el.offsetHeight));
    observer.observe(el);
    setHeadHeight(el.offsetHeight);
    return () => observer.disconnect();
  }, []);
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLElement>({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 36,
    overscan: 10,
    scrollMargin: headHeight,
    getItemKey: (i) => rows[i]?.configItem.id ?? i,
  });
  const visible = virtualizer.getVirtualItems();
  const first = visible[0];
  return (
    <div
      class="sla-table"
      role="table"
      aria-label="Figures by CI"
      aria-rowcount={rows.length + 1}
      ref={scroller}
      tabIndex={0}
      // As tall as its rows, up to the stylesheet's max-height (the scroller needs a definite height).
      style={{ height: `${headHeight + virtualizer.getTotalSize() + 2}px` }}
    >
      <div role="rowgroup" class="sla-table-head" ref={head}>
        <div role="row" class="srow" aria-rowindex={1}>
          {COLUMNS.map((c) => {
            const active = sort === c.key;
            return (
              <div key={c.key} role="columnheader" aria-sort={active ? (desc ? 'descending' : 'ascending') : undefined}>
                <button type="button" class="sort" onClick={() => onSort(c.key)}>
                  {c.label}
                  <span aria-hidden="true" class="sort-mark">
                    {active ? (desc ? '▼' : '▲') : ''}
                  </span>
                </button>
              </div>
            );
          })}
        </div>
      </div>
      <div role="rowgroup" class="sla-table-body" style={{ height: `${virtualizer.getTotalSize()}px` }}>
        <div role="presentation" style={{ transform: `translateY(${first ? first.start - headHeight : 0}px)` }}>
          {visible.map((v) => {
            const r = rows[v.index];
            return r ? (
              <Row key={r.configItem.id} r={r} index={v.index} ciHref={ciHref} selected={r.configItem.id === selected} target={target} measure={virtualizer.measureElement} />
            ) : null;
          })}
        </div>
      </div>
    </div>
  );
}
