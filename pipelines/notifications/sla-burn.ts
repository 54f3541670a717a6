/**
 * SLA burn events (issue #31): `sla.budget_burning` when a CI's error budget burns fast. Pure:
 * the dispatcher passes the readings of the live SLA (services/notifications/sla-burn-source.ts)
 * and `now`, and keeps the returned `seen` (plain data) in its routing state.
 *
 * Per (template, CI), with the template's alert threshold (`burnRateAlert`) and the 1 h burn rate:
 * - ONE `sla.budget_burning` when the rate reaches the threshold (≥), then nothing while it stays
 *   burning;
 * - it stays burning until the rate falls below REARM_RATIO (90 %) of the threshold: a rate
 *   wavering around the threshold (14.5, 14.3, 14.6 against 14.4) tells once, not three times;
 *   once below, the next reaching tells again;
 * - a pair without a reading is not burning: the source leaves out CIs whose 1 h rate is 0 (no
 *   problem within the hour), templates that lost their threshold or target, CIs that left the
 *   template; they are forgotten, and tell again if they burn again.
 * The threshold is the reading's, so a threshold changed while burning is judged at once.
 *
 * The event's id is `sla-<templateId>-<ciId>-<sinceMs>`, since = the `now` at which the pair
 * reached its threshold, kept in `seen`: the same after a restart from the saved `seen`.
 * `budgetLeft` is the reading's, clipped to 0–1 (below 0 once the period's target is missed).
 * Readings are taken in (template id, CI id) order, so are the events; `seen` is returned
 * unchanged (the same object) when nothing changed.
 */
import type { NotificationEvent } from '../../schemas/notification-events.schema.js';

export interface BurnReading {
  template: { id: number; name: string };
  configItem: { id: number; name: string };
  /** The 1 h burn rate (1: the budget is spent exactly over the period). */
  burnRate: number;
  /** The template's `burnRateAlert`. */
  threshold: number;
  /** The fraction of the period's budget left (below 0 once missed). */
  budgetLeft: number;
}

/** The pairs burning, by `${templateId}:${ciId}`: since when (epoch ms). */
export type BurningSeen = Record<string, { since: number }>;

/** A burning pair is re-armed once its rate falls below this share of the threshold. */
export const REARM_RATIO = 0.9;

export const burnKey = (templateId: number, ciId: number): string => `${templateId}:${ciId}`;

const reaches = (r: BurnReading): boolean => Number.isFinite(r.burnRate) && r.threshold > 0 && r.burnRate >= r.threshold;
/** Still burning: not yet below REARM_RATIO of the threshold. */
const stillBurning = (r: BurnReading): boolean => Number.isFinite(r.burnRate) && r.burnRate >= REARM_RATIO * r.threshold;

export function burnTransitions(seen: BurningSeen, readings: readonly BurnReading[], now: number): { seen: BurningSeen; events: NotificationEvent[] } {
  const sorted = [...readings].sort((a, b) => a.template.id - b.template.id || a.configItem.id - b.configItem.id);
  const next: BurningSeen = {};
  const events: NotificationEvent[] = [];
  for (const reading of sorted) {
    const key = burnKey(reading.template.id, reading.configItem.id);
    if (key in next) continue;
    const before = seen[key];
    if (before) {
      if (stillBurning(reading)) next[key] = before;
      continue;
    }
    if (!reaches(reading)) continue;
    next[key] = { since: now };
    events.push({
      id: `sla-${reading.template.id}-${reading.configItem.id}-${now}`,
      time: new Date(now).toISOString(),
      kind: 'sla.budget_burning',
      template: { id: reading.template.id, name: reading.template.name },
      configItem: { id: reading.configItem.id, name: reading.configItem.name },
      burnRate: reading.burnRate,
      threshold: reading.threshold,
      budgetLeft: Math.min(1, Math.max(0, reading.budgetLeft)),
    });
  }
  const unchanged = events.length === 0 && Object.keys(next).length === Object.keys(seen).length;
  return { seen: unchanged ? seen : next, events };
}
