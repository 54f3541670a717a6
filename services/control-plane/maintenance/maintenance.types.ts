/** Records of the maintenance slice (spec 2.10, DESIGN §8), as stored in the journal. */
export type Scope = 'Ci' | 'CiAndChildren';
export type ModeState = 'Scheduled' | 'Active' | 'Completed' | 'Canceled';
export type EntryState = 'Pending' | 'Completed';

/**
 * One CI in a mode's scope, with its own interval: an entry added to a running mode starts when
 * it is added, and one removed from it ends then (DESIGN §8), so the entries of a mode are its
 * history, not only its current scope. Times are epoch milliseconds; the end is exclusive.
 */
export interface ScopeEntryRecord {
  ciId: number;
  scope: Scope;
  /** Levels of descendants covered by `CiAndChildren`; -1: all. */
  depth: number;
  start: number;
  end: number;
}

/**
 * A recurring mode's rule (issue #17; pipelines/maintenance/recurrence.ts): the mode's `start`
 * and `end` are its first occurrence, the others follow the rule in local time in `timeZone`.
 */
export interface RecurrenceRecord {
  /** RFC 5545 RRULE value, e.g. `FREQ=WEEKLY;BYDAY=SU`. */
  rule: string;
  timeZone: string;
  /** Local dates (YYYY-MM-DD) whose occurrence is skipped. */
  exdates: string[];
  /** The end of the series: the last occurrence's end, ENDLESS, or when it was completed early. */
  seriesEnd: number;
}

export interface MaintenanceRecord {
  id: number;
  title: string | null;
  /** Epoch milliseconds, so the interval questions of the pipelines parse nothing. A recurring mode's are its first occurrence. */
  start: number;
  end: number;
  recurrence?: RecurrenceRecord;
  entries: ScopeEntryRecord[];
  labels: Record<string, string>;
  /** Set when a scheduled mode was canceled: it never covers anything. */
  canceledAt: number | null;
  /** Set when an active mode was completed early; `end` is then that moment. */
  completedAt: number | null;
  createdAt: string;
  createdBy: number;
  updatedAt: string;
  updatedBy: number;
}

/** Where the mode ends: its one window's end, or, recurring, its series' end. */
export const modeEnd = (mode: MaintenanceRecord): number => mode.recurrence?.seriesEnd ?? mode.end;

/** A recurring mode is `Active` from its first occurrence until its series ends, between windows too. */
export function modeState(mode: MaintenanceRecord, now: number): ModeState {
  if (mode.canceledAt !== null) return 'Canceled';
  if (now < mode.start) return 'Scheduled';
  if (now < modeEnd(mode)) return 'Active';
  return 'Completed';
}

/** A mode is visible to whoever may see one of the CIs it names (DESIGN §4). */
export const modeVisible = (mode: MaintenanceRecord, seesCi: (ciId: number) => boolean): boolean => mode.entries.some((entry) => seesCi(entry.ciId));

/** A canceled mode will never run, so nothing in it is pending any more. */
export const entryState = (mode: MaintenanceRecord, entry: ScopeEntryRecord, now: number): EntryState => (mode.canceledAt === null && now < entry.end ? 'Pending' : 'Completed');
