/**
 * Live SLA figures of one CI (issue #18), each case worked by hand. T0 is Monday 2024-01-01T00:00Z;
 * `now` is given per case as hours after T0.
 */
import t, { type Test } from 'tap';
import { liveBudget, liveWindows } from '../../../../pipelines/sla/live-figures.js';
import type { WorkingCalendar } from '../../../../pipelines/sla/sla.types.js';
import { at, D, H, M, pct, problem } from './sla-fixture.js';

const NOW = at(30 * 24); // 2024-01-31T00:00Z
const hoursBefore = (start: number, end: number | null) => [NOW - start * H, end === null ? null : NOW - end * H] as const;
/** A problem from `startH` to `endH` hours before NOW (null: still open). */
const recent = (id: string, startH: number, endH: number | null, over: Parameters<typeof problem>[3] = {}) => {
  const [start, end] = hoursBefore(startH, endH);
  return { ...problem(id, 0, 0, over), start, end };
};
const MONTH = { start: at(0), end: at(31 * 24) }; // January 2024
/** Equal but for floating-point rounding (1 − 99.9 / 100 is not exactly 0.001). */
const close = (t: Test, actual: number, expected: number, message?: string) =>
  t.ok(Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), message ?? `${actual} ≈ ${expected}`);

t.test('no problem: every window is all ok, availability 100', async (t) => {
  const windows = liveWindows({ problems: [], maintenance: [] }, NOW);
  t.strictSame(
    windows.map((w) => [w.window, w.availability, w.okMs, w.problemMs]),
    [
      ['24h', 100, D, 0],
      ['7d', 100, 7 * D, 0],
      ['30d', 100, 30 * D, 0],
    ],
  );
});

t.test('windows use the default rules: priorities 1 and 2 count, weighted by influence; priority 3 does not', async (t) => {
  const windows = liveWindows(
    {
      problems: [
        recent('a', 2, 1), // 1 h, full influence, in every window
        recent('b', 30, 28, { influence: pct(30), priority: 2 }), // 2 h at 30 % = 36 min, outside 24 h
        recent('c', 5, 3, { priority: 3 }), // not included
      ],
      maintenance: [],
    },
    NOW,
  );
  const [day, week, month] = windows;
  t.equal(day!.problemMs, H);
  t.equal(day!.availability, ((D - H) / D) * 100);
  t.equal(week!.problemMs, H + 36 * M);
  t.equal(month!.problemMs, H + 36 * M);
  t.equal(month!.maxDowntimeMs, 2 * H, 'the longest stretch is unweighted');
});

t.test('an open problem lasts until now', async (t) => {
  const [day] = liveWindows({ problems: [recent('open', 3, null)], maintenance: [] }, NOW);
  t.equal(day!.problemMs, 3 * H);
  t.equal(day!.okMs, D - 3 * H);
});

t.test('maintenance is its own bucket: a problem under it takes no time', async (t) => {
  const [day] = liveWindows({ problems: [recent('a', 4, 2)], maintenance: [{ start: NOW - 3 * H, end: NOW - H }] }, NOW);
  t.equal(day!.maintenanceMs, 2 * H);
  t.equal(day!.problemMs, H, 'only the hour before the maintenance');
  t.equal(day!.okMs, D - 3 * H);
});

t.test('budget: a 30-minute outage spends 1 800 000 of the 2 678 400 ms that 99.9 % allows in January', async (t) => {
  const budget = liveBudget({ problems: [recent('a', 24, 23.5)], maintenance: [] }, { priorities: [1, 2], excludeMaintenance: true, calendar: null }, 99.9, MONTH, NOW);
  close(t, budget.allowedMs, 0.001 * 31 * D);
  t.equal(budget.usedMs, 30 * M);
  close(t, budget.remainingMs, 0.001 * 31 * D - 30 * M);
  close(t, budget.remaining, (0.001 * 31 * D - 30 * M) / (0.001 * 31 * D));
  t.strictSame(budget.burnRates, { '1h': 0, '6h': 0 }, 'nothing in the last 6 hours');
});

t.test('budget: spent past the allowance, remaining is negative', async (t) => {
  const budget = liveBudget({ problems: [recent('a', 48, 0)], maintenance: [] }, { priorities: [1], excludeMaintenance: true, calendar: null }, 99.9, MONTH, NOW);
  t.equal(budget.usedMs, 48 * H);
  t.ok(budget.remaining < 0);
  close(t, budget.remainingMs, 0.001 * 31 * D - 48 * H);
});

t.test('budget: maintenance scheduled later in the period shrinks what it allows', async (t) => {
  const later = { start: NOW + 6 * H, end: NOW + 18 * H }; // tonight, on the last day of January
  const budget = liveBudget({ problems: [], maintenance: [later] }, { priorities: [1, 2], excludeMaintenance: true, calendar: null }, 99, MONTH, NOW);
  close(t, budget.allowedMs, 0.01 * (31 * D - 12 * H));
  close(t, budget.remaining, 1);
});

t.test('burn rates: a full outage for the last 30 minutes at 99 % burns 50 over 1 h and 8.33 over 6 h', async (t) => {
  const budget = liveBudget({ problems: [recent('open', 0.5, null)], maintenance: [] }, { priorities: [1, 2], excludeMaintenance: true, calendar: null }, 99, MONTH, NOW);
  close(t, budget.burnRates['1h'], 0.5 / 0.01);
  close(t, budget.burnRates['6h'], 0.5 / 6 / 0.01);
});

t.test("the template's calendar: unattended time is neither allowed nor burnt", async (t) => {
  // Weekdays 09:00–17:00 UTC; January 2024 has 23 weekdays, so 184 attended hours.
  const calendar: WorkingCalendar = { timeZone: 'UTC', week: [1, 2, 3, 4, 5].map((day) => ({ day, from: '09:00', to: '17:00' })), holidays: [] };
  const rules = { priorities: [1, 2], excludeMaintenance: true, calendar };
  // NOW is Wednesday 00:00: a problem open the whole night before takes no attended time.
  const night = liveBudget({ problems: [recent('night', 6, 0)], maintenance: [] }, rules, 99.5, MONTH, NOW);
  close(t, night.allowedMs, 0.005 * 184 * H);
  t.equal(night.usedMs, 0);
  t.strictSame(night.burnRates, { '1h': 0, '6h': 0 }, 'no attended time in either window');
  // Tuesday 15:00–17:00 (9 h to 7 h before NOW) is attended: two hours of problem.
  const afternoon = liveBudget({ problems: [recent('afternoon', 9, 6)], maintenance: [] }, rules, 99.5, MONTH, NOW);
  t.equal(afternoon.usedMs, 2 * H);
});

t.test('a period already over is judged whole: used is its problem time, burn rates still look at the last hours', async (t) => {
  const december = { start: at(-31 * 24), end: at(0) };
  const budget = liveBudget(
    { problems: [{ ...problem('dec', -2, -1) }, recent('now', 1, null)], maintenance: [] },
    { priorities: [1, 2], excludeMaintenance: true, calendar: null },
    99.9,
    december,
    NOW,
  );
  t.equal(budget.usedMs, H);
  close(t, budget.burnRates['1h'], 1 / 0.001);
});
