/**
 * Create, replace (PUT) and patch of maintenance modes (spec 4.2 #4–#6, 7.2; DESIGN §8). One
 * edit function serves PUT and PATCH: they differ only in how the body is read
 * (maintenance-input.ts). Order of the checks: the body (400) ▸ the mode (404) ▸ rights (403)
 * ▸ rules on the mode's state and on the CIs (400).
 */
import { fail, failFields } from '../../../schemas/errors.js';
import type { Actor } from '../cmdb/ci-checks.js';
import { Level, levelOn } from '../rights/ci-rights.js';
import type { PlatformCommand, PlatformModel } from '../model.js';
import { checkRecurrenceStart, compileRecurrence, occurrenceSpanProblem, type RecurrenceInput, type Recurring } from '../../../pipelines/maintenance/recurrence.js';
import { type MaintenanceRecord, modeState, type RecurrenceRecord, type ScopeEntryRecord } from './maintenance.types.js';
import { type ModeInput, requireEndAfterStart, requireEndInFuture, type ScopeItem } from './maintenance-input.js';

export interface ScopeOptions {
  /** true: refuse the mode when a CI is unknown or not accessible; false: drop such CIs. */
  batchValidate: boolean;
}

/** Putting a CI in maintenance needs full read on it (DESIGN §4); an unknown CI has none. */
const accessible = (model: PlatformModel, actor: Actor, ciId: number): boolean => levelOn(model.slices.cmdb, actor.subject, ciId) >= Level.Read;

/** The CIs the caller may put in maintenance; spec 4.2 `batchValidate` decides about the others. */
function resolveScope(model: PlatformModel, actor: Actor, items: ScopeItem[], options: ScopeOptions): ScopeItem[] {
  return accessibleScope(model, actor, items, options).kept;
}

/** resolveScope, also naming the CIs left out (the preview shows them). */
export function accessibleScope(model: PlatformModel, actor: Actor, items: ScopeItem[], options: ScopeOptions): { kept: ScopeItem[]; dropped: number[] } {
  const failing = items.map((item, i) => ({ item, i })).filter(({ item }) => !accessible(model, actor, item.ciId));
  if (options.batchValidate && failing.length > 0) {
    throw failFields(
      'maintenance.cis_not_accessible',
      failing.map(({ i }) => ({ path: `/configItems/${i}/id`, message: 'CI not found or not accessible' })),
      { ids: failing.map(({ item }) => item.ciId).join(', ') },
    );
  }
  const kept = items.filter((item) => accessible(model, actor, item.ciId));
  if (kept.length === 0) throw failFields('maintenance.no_ci_accessible', [{ path: '/configItems', message: 'no CI found or accessible' }]);
  return { kept, dropped: failing.map(({ item }) => item.ciId) };
}

/** The stored rule of a recurring mode whose first occurrence is [start, end): its series' end computed. */
export function recurrenceRecord(input: RecurrenceInput, start: number, end: number): RecurrenceRecord {
  return compiledRecurrence(input, start, end).record;
}

/** recurrenceRecord, with the compiled rule it was computed from (the preview expands it). */
export function compiledRecurrence(input: RecurrenceInput, start: number, end: number): { record: RecurrenceRecord; recurring: Recurring } {
  // A first occurrence that is not a date of the rule is a set RFC 5545 leaves undefined (and calendar clients read differently).
  const problems = checkRecurrenceStart(input, start);
  if (problems.length > 0) throw failFields('maintenance.recurrence_invalid', problems, { reason: `${problems[0]!.path} ${problems[0]!.message}` });
  // Issue #34: an occurrence longer than the rule's period (or 31 days) would make every look-up
  // reach back that far; a series with no occurrence left is no maintenance at all.
  const tooLong = occurrenceSpanProblem(input, start, end);
  if (tooLong)
    throw failFields(
      'maintenance.occurrence_too_long',
      [{ path: '/dateEnd', message: `makes each occurrence last ${tooLong.span}, over ${tooLong.limit} (${tooLong.why})` }],
      tooLong,
    );
  const recurring = compileRecurrence(input, start, end);
  if (recurring.empty) throw failFields('maintenance.no_occurrence', [{ path: '/recurrence/exdates', message: 'excludes every occurrence of the rule' }]);
  return { record: { rule: input.rule, timeZone: input.timeZone, exdates: input.exdates ?? [], seriesEnd: recurring.lastEnd }, recurring };
}

export function createMode(input: ModeInput, options: ScopeOptions, actor: Actor, now: number): PlatformCommand<number> {
  return (model) => {
    const start = input.start!;
    const end = input.end!;
    const recurrence = input.recurrence ? recurrenceRecord(input.recurrence, start, end) : undefined;
    // A recurring mode may have begun: what must lie ahead is the end of its series.
    requireEndInFuture(recurrence?.seriesEnd ?? end, now);
    const scope = resolveScope(model, actor, input.scope!, options);
    const next = model.sequences.next('maint');
    const at = new Date(now).toISOString();
    const mode: MaintenanceRecord = {
      id: next.id,
      title: input.title ?? null,
      start,
      end,
      ...(recurrence ? { recurrence } : {}),
      entries: scope.map((item) => ({ ...item, start, end: recurrence?.seriesEnd ?? end })),
      labels: input.labels ?? {},
      canceledAt: null,
      completedAt: null,
      createdAt: at,
      createdBy: actor.userId,
      updatedAt: at,
      updatedBy: actor.userId,
    };
    return { changes: [next.change, { key: `maint:${mode.id}`, value: mode }], result: () => mode.id };
  };
}

export function findMode(model: PlatformModel, id: number): MaintenanceRecord {
  const mode = model.slices.maintenance.modes.get(id);
  if (!mode) throw fail('maintenance.not_found', { id });
  return mode;
}

/**
 * Editing needs read on every CI the mode names (its past entries too), so nobody changes
 * maintenance on a CI they cannot read; CIs deleted from the CMDB since are passed over.
 */
function requireEditRight(model: PlatformModel, actor: Actor, mode: MaintenanceRecord): void {
  const cmdb = model.slices.cmdb;
  for (const entry of mode.entries) {
    if (cmdb.cis.has(entry.ciId) && !accessible(model, actor, entry.ciId)) {
      throw fail('maintenance.edit_forbidden', { id: mode.id });
    }
  }
}

function refuseEnded(mode: MaintenanceRecord, state: 'Completed' | 'Canceled', cancel: boolean): never {
  if (state === 'Canceled') {
    throw fail(cancel ? 'maintenance.canceled_cancel' : 'maintenance.canceled_change', { id: mode.id });
  }
  throw fail(cancel ? 'maintenance.ended_complete' : 'maintenance.ended_change', { id: mode.id });
}

/**
 * The entries of a running mode after an edit (DESIGN §8): past entries stay as they were; a
 * CI kept with the same scope and depth keeps its entry (and its start); a CI removed, or whose
 * scope or depth changes, has its entry ended now; a CI added starts now.
 */
function runningEntries(mode: MaintenanceRecord, scope: ScopeItem[] | undefined, end: number, now: number): ScopeEntryRecord[] {
  const wanted = new Map((scope ?? mode.entries.filter((e) => e.end > now)).map((item) => [item.ciId, item]));
  const out: ScopeEntryRecord[] = [];
  for (const entry of mode.entries) {
    if (entry.end <= now) out.push(entry);
    else {
      const item = wanted.get(entry.ciId);
      if (item && item.scope === entry.scope && item.depth === entry.depth) {
        out.push({ ...entry, end });
        wanted.delete(entry.ciId);
      } else out.push({ ...entry, end: now });
    }
  }
  for (const item of wanted.values()) out.push({ ciId: item.ciId, scope: item.scope, depth: item.depth, start: now, end });
  return out;
}

/** PUT #5 and PATCH #6 on a checked body (maintenance-input.ts `readFullBody` / `readPatchBody`). */
export function editMode(id: number, input: ModeInput, options: ScopeOptions, actor: Actor, now: number): PlatformCommand<number> {
  return (model) => {
    const mode = findMode(model, id);
    requireEditRight(model, actor, mode);
    const state = modeState(mode, now);
    if (state === 'Completed' || state === 'Canceled') refuseEnded(mode, state, input.cancel);
    const start = input.start ?? mode.start;
    const end = input.end ?? mode.end;
    if (state === 'Active' && start !== mode.start) {
      throw failFields('maintenance.start_fixed', [{ path: '/dateStart', message: 'cannot change once the mode has started' }], { id });
    }
    requireEndAfterStart(start, end);
    const wanted = input.recurrence === undefined ? mode.recurrence : input.recurrence;
    const recurrence = wanted ? recurrenceRecord(wanted, start, end) : undefined;
    const seriesEnd = recurrence?.seriesEnd ?? end;
    // A cancel ends the mode now, whatever end the body names.
    if (!input.cancel) requireEndInFuture(seriesEnd, now);
    const scope = input.scope && resolveScope(model, actor, input.scope, options);

    let entries: ScopeEntryRecord[];
    if (state === 'Scheduled') {
      const items = scope ?? mode.entries;
      entries = items.map((item) => ({ ciId: item.ciId, scope: item.scope, depth: item.depth, start, end: seriesEnd }));
    } else entries = runningEntries(mode, scope, seriesEnd, now);

    const { recurrence: _before, ...rest } = mode;
    const next: MaintenanceRecord = {
      ...rest,
      ...(recurrence ? { recurrence } : {}),
      title: input.title === undefined ? mode.title : input.title,
      start,
      end,
      entries,
      labels: input.labels ?? mode.labels,
      updatedAt: new Date(now).toISOString(),
      updatedBy: actor.userId,
    };
    if (input.cancel && state === 'Scheduled') next.canceledAt = now;
    if (input.cancel && state === 'Active') {
      next.completedAt = now;
      // A recurring mode keeps its first occurrence as it was (the rule's wall-clock length is
      // read from it): its series ends now, and the occurrence running now with it.
      if (next.recurrence) next.recurrence = { ...next.recurrence, seriesEnd: now };
      else next.end = now;
      next.entries = entries.map((e) => (e.end > now ? { ...e, end: now } : e));
    }
    return { changes: [{ key: `maint:${id}`, value: next }], result: () => id };
  };
}
