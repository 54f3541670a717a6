/**
 * The maintenance modes of the console benchmark's part 2 (issue #33), deterministic and without
 * I/O: `MODE_COUNT` modes on the console dataset's CIs (console-dataset.ts), `RECURRING_SHARE` of
 * them recurring, their first windows spread from a year before `nowMs` to `AHEAD_DAYS` after it.
 *
 * - One-off modes: a window of 1–8 h starting on a whole hour, on 1–3 CIs (a third with scope
 *   `CiAndChildren`); 5 % of those not yet started are canceled.
 * - Recurring modes: 1–3 h at a whole local hour in one of `ZONES`, the rule built from the first
 *   window's local date so that it is a date of the rule (as the API requires): daily 20 %
 *   (INTERVAL 1–3), weekly 50 % (BYDAY of the start, a third also on the day two after), monthly
 *   30 % (BYMONTHDAY of the start, days 1–28); a third end by COUNT (10–100), a third by UNTIL (a
 *   date 1–12 months after the start), a third never. The stored rule record (its series' end) is
 *   computed by the platform's own `recurrenceRecord`, which also runs the API's checks.
 *
 * Modes whose series or window ended before `nowMs` are kept: the API refuses to create them
 * (an end in the past), which is why the seed writes the journal itself.
 */
import { recurrenceRecord } from '../../services/control-plane/maintenance/maintenance.commands.js';
import type { MaintenanceRecord, ScopeEntryRecord } from '../../services/control-plane/maintenance/maintenance.types.js';
import type { JournalChange } from '../../services/runtime/adapters/journal/journal.port.js';
import { localToUtc, utcToLocal } from '../../pipelines/time/time-zone.js';
import { seededRandom } from '../../test/support/random.js';
import { CONSOLE_CI_COUNT } from './console-dataset.js';

export const MODE_COUNT = 10_000;
export const RECURRING_SHARE = 0.3;
export const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'UTC'] as const;
const PAST_DAYS = 365;
export const AHEAD_DAYS = 120;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];

export interface ModeSummary {
  modes: number;
  recurring: number;
  byFreq: Record<string, number>;
  canceled: number;
  /** Modes whose last window (or series) ended before `nowMs`. */
  ended: number;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
const ruleDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');

function scopeOf(rnd: () => number, start: number, end: number): ScopeEntryRecord[] {
  const count = 1 + Math.floor(rnd() * 3);
  const ids = new Set<number>();
  while (ids.size < count) ids.add(1 + Math.floor(rnd() * CONSOLE_CI_COUNT));
  return [...ids].map((ciId) => ({ ciId, scope: rnd() < 1 / 3 ? 'CiAndChildren' : 'Ci', depth: -1, start, end }));
}

/** A recurring mode's first window and rule, its start a date of the rule. */
function recurrenceOf(rnd: () => number, day: number): { start: number; end: number; rule: string; timeZone: string; freq: string } {
  const timeZone = ZONES[Math.floor(rnd() * ZONES.length)]!;
  const local = utcToLocal(day, timeZone);
  const monthly = { freq: 'MONTHLY', dayOfMonth: Math.min(local.day, 28) };
  const roll = rnd();
  const freq = roll < 0.2 ? 'DAILY' : roll < 0.7 ? 'WEEKLY' : monthly.freq;
  const first = { year: local.year, month: local.month, day: freq === 'MONTHLY' ? monthly.dayOfMonth : local.day, hour: Math.floor(rnd() * 22), minute: 0 };
  const start = localToUtc(first, timeZone);
  const end = start + (1 + Math.floor(rnd() * 3)) * HOUR_MS;
  const weekday = (new Date(Date.UTC(first.year, first.month - 1, first.day)).getUTCDay() + 6) % 7;
  let rule =
    freq === 'DAILY'
      ? `FREQ=DAILY;INTERVAL=${1 + Math.floor(rnd() * 3)}`
      : freq === 'WEEKLY'
        ? `FREQ=WEEKLY;BYDAY=${rnd() < 1 / 3 ? `${WEEKDAYS[weekday]},${WEEKDAYS[(weekday + 2) % 7]}` : WEEKDAYS[weekday]}`
        : `FREQ=MONTHLY;BYMONTHDAY=${first.day}`;
  const ending = rnd();
  if (ending < 1 / 3) rule += `;COUNT=${10 + Math.floor(rnd() * 91)}`;
  else if (ending < 2 / 3) rule += `;UNTIL=${ruleDate(start + (30 + Math.floor(rnd() * 335)) * DAY_MS)}`;
  return { start, end, rule, timeZone, freq };
}

/** The journal changes of the modes (ids 1…MODE_COUNT, the sequence set last), and what they hold. */
export function maintenanceChanges(nowMs: number, authorId: number): { changes: JournalChange[]; summary: ModeSummary } {
  const rnd = seededRandom(33);
  const at = new Date(nowMs).toISOString();
  const changes: JournalChange[] = [];
  const summary: ModeSummary = { modes: 0, recurring: 0, byFreq: {}, canceled: 0, ended: 0 };
  const firstDay = Math.floor(nowMs / DAY_MS) * DAY_MS - PAST_DAYS * DAY_MS;
  for (let id = 1; id <= MODE_COUNT; id++) {
    const day = firstDay + Math.floor(rnd() * (PAST_DAYS + AHEAD_DAYS)) * DAY_MS;
    const base = { id, labels: { team: `team-${id % 7}` }, completedAt: null, createdAt: at, createdBy: authorId, updatedAt: at, updatedBy: authorId };
    let mode: MaintenanceRecord;
    if (rnd() < RECURRING_SHARE) {
      const r = recurrenceOf(rnd, day);
      const recurrence = recurrenceRecord({ rule: r.rule, timeZone: r.timeZone, exdates: [] }, r.start, r.end);
      mode = {
        ...base,
        title: `${r.freq.toLowerCase()} ${r.timeZone} ${pad(id, 5)}`,
        start: r.start,
        end: r.end,
        recurrence,
        entries: scopeOf(rnd, r.start, recurrence.seriesEnd),
        canceledAt: null,
      };
      summary.recurring++;
      summary.byFreq[r.freq] = (summary.byFreq[r.freq] ?? 0) + 1;
    } else {
      const start = day + Math.floor(rnd() * 24) * HOUR_MS;
      const end = start + (1 + Math.floor(rnd() * 8)) * HOUR_MS;
      const canceled = start > nowMs && rnd() < 0.05;
      mode = { ...base, title: `window ${pad(id, 5)}`, start, end, entries: scopeOf(rnd, start, end), canceledAt: canceled ? nowMs : null };
      if (canceled) summary.canceled++;
    }
    if ((mode.recurrence?.seriesEnd ?? mode.end) <= nowMs) summary.ended++;
    summary.modes++;
    changes.push({ key: `maint:${id}`, value: mode });
  }
  changes.push({ key: 'seq:maint', value: MODE_COUNT });
  return { changes, summary };
}
