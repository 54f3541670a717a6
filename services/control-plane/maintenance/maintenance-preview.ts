/**
 * Issue #17: what a mode body would do, without saving it — the CIs it would cover now (its
 * scope resolved through the hierarchy, with the caller's rights), its first occurrences in UTC
 * and in local time, and the modes the caller may see that already cover one of those CIs
 * during one of those occurrences. The same checks as creating (maintenance.commands.ts) run
 * first, so a preview that answers 200 is a body that create would take.
 */
import { isoDate, toWallClockMs } from '../../../pipelines/time/time-zone.js';
import type { Actor } from '../cmdb/ci-checks.js';
import { Level, levelOn } from '../rights/ci-rights.js';
import type { PlatformModel } from '../model.js';
import { modesOverlapping } from './maintenance-coverage.js';
import { modeVisible } from './maintenance.types.js';
import { requireEndInFuture, type ModeInput } from './maintenance-input.js';
import { accessibleScope, compiledRecurrence, type ScopeOptions } from './maintenance.commands.js';

export interface PreviewOccurrence {
  start: number;
  end: number;
  /** Wall-clock start and end in the mode's zone (UTC for a one-off mode), as YYYY-MM-DDTHH:MM:SS. */
  localStart: string;
  localEnd: string;
}

export interface MaintenancePreview {
  /** CIs the mode would cover now that the caller may see, each with the scope entry that reaches it. */
  configItems: Array<{ id: number; name: string; via: { id: number; scope: 'Ci' | 'CiAndChildren'; depth: number } }>;
  /** Scope CIs left out because they are unknown or not readable by the caller (batchValidate=false). */
  dropped: number[];
  /** Descendants the mode would cover that the caller may not see: counted, never named. */
  hiddenConfigItems: number;
  timeZone: string;
  occurrences: PreviewOccurrence[];
  /** Modes the caller may see that cover a previewed CI during a previewed occurrence. */
  overlaps: Array<{ id: number; title: string | null }>;
}

const wall = (ms: number, timeZone: string): string => {
  const w = toWallClockMs(ms, timeZone);
  return `${isoDate(w)}T${new Date(w).toISOString().slice(11, 19)}`;
};

export function previewMode(model: PlatformModel, input: ModeInput, options: ScopeOptions, actor: Actor, now: number, count: number): MaintenancePreview {
  const start = input.start!;
  const end = input.end!;
  const recurring = input.recurrence ? compiledRecurrence(input.recurrence, start, end).recurring : undefined;
  requireEndInFuture(recurring?.lastEnd ?? end, now);
  const { kept, dropped } = accessibleScope(model, actor, input.scope!, options);
  const cmdb = model.slices.cmdb;
  const seen = (id: number): boolean => levelOn(cmdb, actor.subject, id) >= Level.BasicRead;

  const covered = new Map<number, MaintenancePreview['configItems'][number]['via']>();
  let hidden = 0;
  for (const item of kept) {
    const ids = item.scope === 'CiAndChildren' ? [item.ciId, ...cmdb.descendants(item.ciId, item.depth)] : [item.ciId];
    for (const id of ids) {
      if (covered.has(id)) continue;
      if (!seen(id)) {
        hidden++;
        continue;
      }
      covered.set(id, { id: item.ciId, scope: item.scope, depth: item.depth });
    }
  }

  const timeZone = input.recurrence?.timeZone ?? 'UTC';
  const windows = recurring ? recurring.next(start - 1, count) : [{ start, end }];
  const occurrences = windows.map((o) => ({ start: o.start, end: o.end, localStart: wall(o.start, timeZone), localEnd: wall(o.end, timeZone) }));

  const overlapping = new Set<number>();
  for (const id of covered.keys()) for (const o of windows) for (const modeId of modesOverlapping(model, id, o.start, o.end)) overlapping.add(modeId);
  const visibleMode = (modeId: number): boolean => {
    const mode = model.slices.maintenance.modes.get(modeId);
    return mode !== undefined && modeVisible(mode, seen);
  };

  return {
    configItems: [...covered].map(([id, via]) => ({ id, name: cmdb.cis.get(id)?.name ?? '', via })),
    dropped,
    hiddenConfigItems: hidden,
    timeZone,
    occurrences,
    overlaps: [...overlapping]
      .filter(visibleMode)
      .sort((a, b) => a - b)
      .map((id) => ({ id, title: model.slices.maintenance.modes.get(id)!.title })),
  };
}
