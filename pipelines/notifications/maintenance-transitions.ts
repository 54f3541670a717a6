/**
 * Maintenance events (issue #31): the windows active now, compared with those seen at the last
 * call, give `maintenance.started` and `maintenance.ended`. Pure: the dispatcher passes the
 * windows (services/notifications/maintenance-source.ts) and `now`, and keeps the returned `seen`
 * (plain data) in its routing state.
 *
 * - A window is one run of a mode: a one-off mode's [start, end), or one occurrence of a
 *   recurring mode. It is known by (maintenance id, window start): a window whose end or title
 *   changes while it runs is the same window (`seen` takes the new values, nothing is sent); one
 *   whose start changes is another window (the old one ends, the new one starts).
 * - A window active now and not seen → `maintenance.started` with its CIs.
 * - A window seen and not active now (it ended, was completed, canceled or deleted, or moved) →
 *   `maintenance.ended`, the window as last seen, CIs included.
 * - A window seen and still active whose CIs changed (CIs added to or removed from a running
 *   mode, a CI created or moved under a covered one) → `maintenance.started` naming only the
 *   CIs added, `maintenance.ended` naming only the CIs removed. The router takes these events as
 *   the signal of which CIs a mode covers, so its maintenance gate stays true to the mode
 *   (a CI removed from a mode is released then, not held until the window ends). A CI is known
 *   by its id: a renamed CI is no change.
 * - Order: every `maintenance.ended` before every `maintenance.started` (the router keys its
 *   coverage by maintenance id: a mode's next window must start after its last one ended), each
 *   part by (maintenance id, window start).
 * - Ids are derived from the window, so every dispatcher and every restart gives the same id for
 *   the same happening: `maintenance-<id>-<windowStartMs>-started|ended`, and for a change of
 *   CIs `…-started|ended-<12 hex of SHA-256 over the CI ids>`. (The same CIs added twice to one
 *   window, removed in between, give the same id twice.) `time` is `now`.
 * - `seen` is returned unchanged (the same object) when nothing changed.
 */
import { createHash } from 'node:crypto';
import type { NotificationEvent } from '../../schemas/notification-events.schema.js';

export interface ActiveWindow {
  maintenanceId: number;
  title: string;
  /** Epoch ms; the end is exclusive. */
  windowStart: number;
  windowEnd: number;
  /** The CIs the window covers, by id ascending. */
  configItems: Array<{ id: number; name: string }>;
}

/** The windows told started, by `windowKey`. */
export type MaintenanceSeen = Record<string, ActiveWindow>;

type MaintenanceEvent = Extract<NotificationEvent, { kind: 'maintenance.started' | 'maintenance.ended' }>;

export const windowKey = (w: Pick<ActiveWindow, 'maintenanceId' | 'windowStart'>): string => `${w.maintenanceId}:${w.windowStart}`;

const byWindow = (a: ActiveWindow, b: ActiveWindow): number => a.maintenanceId - b.maintenanceId || a.windowStart - b.windowStart;

const iso = (ms: number): string => new Date(ms).toISOString();

/** A short stable digest of a set of CI ids. */
const ciDigest = (cis: ReadonlyArray<{ id: number }>): string =>
  createHash('sha256')
    .update(
      cis
        .map((ci) => ci.id)
        .sort((a, b) => a - b)
        .join(','),
    )
    .digest('hex')
    .slice(0, 12);

function eventOf(kind: MaintenanceEvent['kind'], window: ActiveWindow, configItems: ActiveWindow['configItems'], now: number, part: boolean): MaintenanceEvent {
  const what = kind === 'maintenance.started' ? 'started' : 'ended';
  return {
    id: `maintenance-${window.maintenanceId}-${window.windowStart}-${what}${part ? `-${ciDigest(configItems)}` : ''}`,
    time: iso(now),
    kind,
    maintenance: {
      id: window.maintenanceId,
      title: window.title,
      windowStart: iso(window.windowStart),
      windowEnd: iso(window.windowEnd),
      configItems: configItems.map((ci) => ({ id: ci.id, name: ci.name })),
    },
  };
}

const copy = (w: ActiveWindow): ActiveWindow => ({ ...w, configItems: w.configItems.map((ci) => ({ id: ci.id, name: ci.name })) });

const sameWindow = (a: ActiveWindow, b: ActiveWindow): boolean =>
  a.title === b.title &&
  a.windowEnd === b.windowEnd &&
  a.configItems.length === b.configItems.length &&
  a.configItems.every((ci, i) => ci.id === b.configItems[i]!.id && ci.name === b.configItems[i]!.name);

export function maintenanceTransitions(seen: MaintenanceSeen, active: readonly ActiveWindow[], now: number): { seen: MaintenanceSeen; events: NotificationEvent[] } {
  const current = new Map<string, ActiveWindow>();
  for (const window of [...active].sort(byWindow)) if (!current.has(windowKey(window))) current.set(windowKey(window), window);

  const ended: MaintenanceEvent[] = [];
  const started: MaintenanceEvent[] = [];
  const next: MaintenanceSeen = {};
  let changed = false;

  // Windows gone, and the CIs removed from those still running.
  for (const before of Object.values(seen).sort(byWindow)) {
    const key = windowKey(before);
    const still = current.get(key);
    if (!still) {
      ended.push(eventOf('maintenance.ended', before, before.configItems, now, false));
      changed = true;
      continue;
    }
    const ids = new Set(still.configItems.map((ci) => ci.id));
    const removed = before.configItems.filter((ci) => !ids.has(ci.id));
    if (removed.length > 0) ended.push(eventOf('maintenance.ended', before, removed, now, true));
  }

  // Windows new, and the CIs added to those running; `seen` takes each window as it is now.
  for (const [key, window] of current) {
    const before = seen[key];
    if (!before) {
      started.push(eventOf('maintenance.started', window, window.configItems, now, false));
      next[key] = copy(window);
      changed = true;
      continue;
    }
    const ids = new Set(before.configItems.map((ci) => ci.id));
    const added = window.configItems.filter((ci) => !ids.has(ci.id));
    if (added.length > 0) started.push(eventOf('maintenance.started', window, added, now, true));
    if (sameWindow(before, window)) next[key] = before;
    else {
      next[key] = copy(window);
      changed = true;
    }
  }

  return { seen: changed ? next : seen, events: [...ended, ...started] };
}

/**
 * CI id → the ids of the modes whose seen windows name it: the `covering` of `emptyRoute` for a
 * dispatcher that starts with no saved state, from `maintenanceTransitions({}, active, now).seen`
 * (its events dropped: those modes began before it started).
 */
export function coveringOf(seen: MaintenanceSeen): Record<string, number[]> {
  const covering: Record<string, number[]> = {};
  for (const window of Object.values(seen).sort(byWindow)) {
    for (const ci of window.configItems) {
      const modes = (covering[ci.id] ??= []);
      if (!modes.includes(window.maintenanceId)) modes.push(window.maintenanceId);
    }
  }
  return covering;
}
