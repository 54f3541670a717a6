/**
 * A report's availability per CI as horizontal bars, worst first, with the template's target as
 * a line when it has one. A page of bars is drawn at a time (the URL's `bars`, an offset), so a
 * report of 10 000 CIs draws 25, and the rest are a page away (and all in the table). The scale
 * starts a little below the worst CI or the target, since availabilities crowd near 100 %.
 * Each bar is a link to the CI's timeline.
 */
import { type CiRow, showPercent } from './sla-model.js';

export const BARS_PER_PAGE = 25;
const WIDTH = 800;
const LABEL = 190;
const VALUE = 170;
const BAR = 22;
const GAP = 6;
const AXIS = 26;
const FLOORS = [99.99, 99.9, 99.5, 99, 98, 95, 90, 80, 50, 0];

/** The scale's start: the highest round floor under both the worst availability and the target. */
export function scaleFloor(worst: number, target: number | undefined): number {
  const low = Math.min(worst, target ?? 100);
  return FLOORS.find((f) => f < low) ?? 0;
}

interface Props {
  /** Every CI of the report, worst first. */
  worstFirst: CiRow[];
  offset: number;
  onOffset: (offset: number) => void;
  target: number | undefined;
  ciHref: (id: number) => string;
  selected: number | undefined;
}

export function SlaAvailabilityChart({ worstFirst, offset, onOffset, target, ciHref, selected }: Props) {
  if (worstFirst.length === 0) return <p class="empty">The template covered no CI in this range.</p>;
  const from = Math.min(Math.max(0, offset), Math.floor((worstFirst.length - 1) / BARS_PER_PAGE) * BARS_PER_PAGE);
  const page = worstFirst.slice(from, from + BARS_PER_PAGE);
  const floor = scaleFloor(worstFirst[0]!.serviceAvailability, target);
  const plot = WIDTH - LABEL - VALUE;
  const x = (value: number) => LABEL + (Math.max(0, value - floor) / (100 - floor)) * plot;
  const height = AXIS + page.length * (BAR + GAP);
  const ticks = [floor, floor + (100 - floor) / 2, 100];
  return (
    <div class="sla-chart">
      <svg viewBox={`0 0 ${WIDTH} ${height}`} role="group" aria-label={`Availability by CI, worst first, ${from + 1} to ${from + page.length} of ${worstFirst.length}`}>
        {ticks.map((t) => (
          <g key={t} aria-hidden="true" class="sla-axis">
            <line x1={x(t)} x2={x(t)} y1={AXIS - 6} y2={height} />
            <text x={x(t)} y={AXIS - 10} text-anchor="middle">
              {showPercent(t)}
            </text>
          </g>
        ))}
        {page.map((r, i) => {
          const y = AXIS + i * (BAR + GAP);
          const missed = target !== undefined && r.serviceAvailability < target;
          const name = r.configItem.name.length > 26 ? `${r.configItem.name.slice(0, 25)}…` : r.configItem.name;
          return (
            // Named by its visible text (a label of its own would differ from it): the name, the value, "below target".
            <a
              key={r.configItem.id}
              href={ciHref(r.configItem.id)}
              class={r.configItem.id === selected ? 'sla-bar selected' : 'sla-bar'}
              aria-current={r.configItem.id === selected ? 'true' : undefined}
            >
              <text x={LABEL - 8} y={y + BAR / 2} text-anchor="end" dominant-baseline="middle" class="sla-bar-name">
                {name}
              </text>
              <rect x={LABEL} y={y} width={plot} height={BAR} class="sla-bar-track" />
              <rect
                x={LABEL}
                y={y}
                width={Math.max(1, x(r.serviceAvailability) - LABEL)}
                height={BAR}
                class={missed ? 'sla-bar-fill missed' : 'sla-bar-fill'}
                data-ci={r.configItem.id}
              />
              <text x={WIDTH - VALUE + 6} y={y + BAR / 2} dominant-baseline="middle" class="sla-bar-value">
                {showPercent(r.serviceAvailability)}
                {missed && <tspan class="sla-bar-missed"> below target</tspan>}
              </text>
            </a>
          );
        })}
        {target !== undefined && (
          <g class="sla-target" aria-label={`Target ${showPercent(target)}`} role="img">
            <line x1={x(target)} x2={x(target)} y1={AXIS - 6} y2={height} />
            <title>{`Target ${showPercent(target)}`}</title>
          </g>
        )}
      </svg>
      {worstFirst.length > BARS_PER_PAGE && (
        <div class="pager">
          <button type="button" disabled={from === 0} onClick={() => onOffset(from - BARS_PER_PAGE)}>
            Worse CIs
          </button>
          <span>
            CIs {from + 1}–{from + page.length} of {worstFirst.length}
          </span>
          <button type="button" disabled={from + BARS_PER_PAGE >= worstFirst.length} onClick={() => onOffset(from + BARS_PER_PAGE)}>
            Better CIs
          </button>
        </div>
      )}
      {target !== undefined && (
        <p class="muted">
          <span class="sla-key sla-key-target" aria-hidden="true" /> Target {showPercent(target)}; bars below it are red.
        </p>
      )}
    </div>
  );
}
