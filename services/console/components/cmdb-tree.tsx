/**
 * The CMDB hierarchy as an ARIA tree whose rows are virtualised (@tanstack/virtual-core through
 * virtual-list.tsx): the flattened visible rows of cmdb-tree-model.ts, only those in sight (and
 * a few more) in the DOM, each `treeitem` with its level, position and expanded state. The tree
 * keeps the focus itself and points at the active row with `aria-activedescendant`, so a row
 * scrolled out of the DOM never takes the focus with it.
 *
 * Keys (WAI-ARIA tree pattern): ↑/↓ previous/next row, → expand or go to the first child,
 * ← collapse or go to the parent, Home/End, Enter opens the CI's page, typing a name's first
 * letters moves to it.
 */
import { useLocation } from 'preact-iso';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { CiStateBadge } from './ci-state.js';
import { CiTypeIcon } from './ci-type-icon.js';
import { ciPath } from './cmdb-model.js';
import type { Row, TreeModel } from './cmdb-tree-model.js';
import { useVirtualizer } from './virtual-list.js';

const ROW_HEIGHT = 36;
const rowId = (key: string): string => `cmdb-row${key.replaceAll('/', '-')}`;
const count = new Intl.NumberFormat();

type CiRow = Extract<Row, { kind: 'ci' }>;

export function CmdbTree({ model, label }: { model: TreeModel; label: string }) {
  const { route } = useLocation();
  void model.version.value; // re-render on every change of the model
  const rows = model.rows;
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActiveKey] = useState<string | undefined>(model.active);
  const typed = useRef({ text: '', at: 0 });
  const restored = useRef(false);
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLDivElement>({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    getItemKey: (index) => rows[index]?.key ?? index,
  });
  const items = virtualizer.getVirtualItems();

  const indexOf = useMemo(() => {
    const map = new Map<string, number>();
    rows.forEach((r, i) => map.set(r.key, i));
    return map;
  }, [rows]);
  const firstCi = rows.findIndex((r) => r.kind === 'ci');
  const activeIndex = active !== undefined && indexOf.has(active) ? indexOf.get(active)! : firstCi;
  const activeRow = activeIndex >= 0 ? (rows[activeIndex] as CiRow | undefined) : undefined;

  // Pages come when their placeholder row is in sight.
  useEffect(() => {
    for (const item of items) {
      const row = rows[item.index];
      if (row?.kind === 'more' && !row.loading && !row.error) void model.load(row.parentId);
    }
  });

  // Back on the screen: the row that was active scrolls into view once it is loaded again.
  useEffect(() => {
    if (restored.current || model.active === undefined) return;
    const index = indexOf.get(model.active);
    if (index !== undefined) {
      restored.current = true;
      virtualizer.scrollToIndex(index, { align: 'center' });
    }
  }, [indexOf]);

  const activate = (index: number) => {
    const row = rows[index];
    if (!row || row.kind !== 'ci') return;
    model.active = row.key;
    setActiveKey(row.key);
    virtualizer.scrollToIndex(index, { align: 'auto' });
  };

  const step = (from: number, direction: 1 | -1): number => {
    for (let i = from + direction; i >= 0 && i < rows.length; i += direction) if (rows[i]!.kind === 'ci') return i;
    return from;
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const row = activeRow;
    let handled = true;
    switch (event.key) {
      case 'ArrowDown':
        activate(step(activeIndex, 1));
        break;
      case 'ArrowUp':
        activate(step(activeIndex, -1));
        break;
      case 'Home':
        activate(firstCi);
        break;
      case 'End':
        activate(step(rows.length, -1));
        break;
      case 'ArrowRight':
        if (!row) break;
        if (row.ci.childCount > 0 && !row.expanded) model.toggle(row.ci, true);
        else if (row.expanded && rows[activeIndex + 1]?.kind === 'ci') activate(activeIndex + 1);
        break;
      case 'ArrowLeft':
        if (!row) break;
        if (row.expanded) model.toggle(row.ci, false);
        else if (row.parentKey !== null && indexOf.has(row.parentKey)) activate(indexOf.get(row.parentKey)!);
        break;
      case 'Enter':
        if (row) route(ciPath(row.ci.id));
        break;
      default:
        handled = false;
        if (event.key.length === 1 && event.key !== ' ') {
          const now = Date.now();
          typed.current = { text: (now - typed.current.at < 700 ? typed.current.text : '') + event.key.toLowerCase(), at: now };
          const wanted = typed.current.text;
          const start = typed.current.text.length === 1 ? activeIndex + 1 : activeIndex;
          for (let n = 0; n < rows.length; n++) {
            const i = (start + n) % rows.length;
            const candidate = rows[i]!;
            if (candidate.kind === 'ci' && candidate.ci.name.toLowerCase().startsWith(wanted)) {
              activate(i);
              break;
            }
          }
          handled = true;
        }
    }
    if (handled) event.preventDefault();
  };

  const rendered = activeRow && items.some((item) => item.index === activeIndex);
  return (
    <div ref={scrollRef} class="cmdb-tree" role="tree" tabIndex={0} aria-label={label} aria-activedescendant={rendered ? rowId(activeRow.key) : undefined} onKeyDown={onKeyDown}>
      <div class="cmdb-tree-inner" role="none" style={{ height: `${virtualizer.getTotalSize()}px` }}>
        {items.map((item) => {
          const row = rows[item.index]!;
          const place = { transform: `translateY(${item.start}px)` };
          if (row.kind === 'more') {
            return (
              <div
                key={row.key}
                class="cmdb-row more"
                aria-hidden="true"
                data-index={item.index}
                ref={virtualizer.measureElement}
                style={{ ...place, paddingInlineStart: indent(row.level) }}
              >
                {row.error ? (
                  <span class="error">
                    {row.error}{' '}
                    <button type="button" tabIndex={-1} onClick={() => void model.load(row.parentId)}>
                      Retry
                    </button>
                  </span>
                ) : (
                  <span class="muted">Loading…</span>
                )}
              </div>
            );
          }
          return (
            <TreeRow
              key={row.key}
              row={row}
              index={item.index}
              active={row.key === activeRow?.key}
              style={{ ...place, paddingInlineStart: indent(row.level) }}
              measure={virtualizer.measureElement}
              onActivate={() => {
                activate(item.index);
                scrollRef.current?.focus({ preventScroll: true });
              }}
              onToggle={() => model.toggle(row.ci)}
            />
          );
        })}
      </div>
    </div>
  );
}

const indent = (level: number): string => `${0.25 + (level - 1) * 1.25}rem`;

interface TreeRowProps {
  row: CiRow;
  index: number;
  active: boolean;
  style: Record<string, string>;
  measure: (el: HTMLDivElement | null) => void;
  onActivate: () => void;
  onToggle: () => void;
}

function TreeRow({ row, index, active, style, measure, onActivate, onToggle }: TreeRowProps) {
  const { ci } = row;
  const id = rowId(row.key);
  const parent = ci.childCount > 0;
  return (
    <div
      id={id}
      role="treeitem"
      class={`cmdb-row${active ? ' active' : ''}`}
      aria-level={row.level}
      aria-posinset={row.posInSet}
      aria-setsize={row.setSize}
      aria-expanded={parent ? row.expanded : undefined}
      aria-selected={active}
      data-index={index}
      ref={measure}
      style={style}
      onClick={onActivate}
    >
      <span
        class={`twisty${parent ? '' : ' leaf'}`}
        aria-hidden="true"
        onClick={(event) => {
          event.stopPropagation();
          onActivate();
          onToggle();
        }}
      >
        {parent ? (row.expanded ? '▾' : '▸') : ''}
      </span>
      <CiTypeIcon typeId={ci.configItemType.id} />
      <a class="name" href={ciPath(ci.id)} tabIndex={-1}>
        {ci.name}
      </a>
      <span class="details">
        {ci.path && ci.path.length > 0 && <span class="path">in {ci.path.map((p) => p.name).join(' › ')}</span>}
        <span class="type">{ci.configItemType.name}</span>
        {parent && <span class="children">{ci.childCount === 1 ? '1 child' : `${count.format(ci.childCount)} children`}</span>}
        <CiStateBadge state={ci.state} compact />
      </span>
    </div>
  );
}
