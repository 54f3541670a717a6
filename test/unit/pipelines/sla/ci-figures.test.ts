/**
 * The figures of one CI (DESIGN §9), each case worked by hand. Unless said otherwise: the day
 * [T0, T0 + 24 h), always attended, priorities 1 and 2 included, now a day after the range.
 */
import t from 'tap';
import { unattendedIntervals } from '../../../../pipelines/sla/calendar.js';
import { ciFigures, packedCiFigures } from '../../../../pipelines/sla/ci-figures.js';
import { seededRandom } from '../../../support/random.js';
import { at, context, H, hours, M, pct, problem } from './sla-fixture.js';

t.test('overlapping problems: each instant is weighted by the largest influence open then', async (t) => {
  const figures = ciFigures(
    context(),
    [],
    [
      problem('a', 2, 10, { influence: pct(40) }),
      problem('b', 4, 6, { influence: pct(80), priority: 2 }),
      problem('c', 0, 12, { priority: 3 }), // not included: no time, no count
    ],
  );
  // [2,4) 40 % = 0.8 h, [4,6) 80 % = 1.6 h, [6,10) 40 % = 1.6 h: 4 h of problem.
  t.strictSame(figures, {
    okMs: 20 * H,
    problemMs: 4 * H,
    unattendedMs: 0,
    maintenanceMs: 0,
    attendedMs: 24 * H,
    serviceAvailability: (20 / 24) * 100,
    maxDowntimeMs: 8 * H, // 2 h..10 h: a change of weight does not break the stretch
    counts: [1, 1, 0, 0],
    eventsCount: 2,
  });
});

t.test('influence weighting: a 30% problem for an hour gives 18 minutes of problem and 42 of ok', async (t) => {
  const figures = ciFigures(context({ range: hours(0, 1) }), [], [problem('a', 0, 1, { influence: pct(30) })]);
  t.strictSame(figures, {
    okMs: 42 * M,
    problemMs: 18 * M,
    unattendedMs: 0,
    maintenanceMs: 0,
    attendedMs: H,
    serviceAvailability: 70,
    maxDowntimeMs: H, // wall-clock, not weighted
    counts: [1, 0, 0, 0],
    eventsCount: 1,
  });
});

t.test('maxInfluence counts the instant in full whatever the value', async (t) => {
  const figures = ciFigures(context({ range: hours(0, 1) }), [], [problem('a', 0, 1, { influence: { value: 30, maxInfluence: true } })]);
  t.strictSame(figures, {
    okMs: 0,
    problemMs: H,
    unattendedMs: 0,
    maintenanceMs: 0,
    attendedMs: H,
    serviceAvailability: 0,
    maxDowntimeMs: H,
    counts: [1, 0, 0, 0],
    eventsCount: 1,
  });
});

t.test('a problem spanning the range edges takes only its part inside the range', async (t) => {
  const figures = ciFigures(
    context(),
    [],
    [
      problem('before-start', -2, 3),
      problem('after-end', 22, 26, { priority: 2 }),
      problem('ends-at-start', -5, 0), // [start, end): touches the range, does not overlap it
      problem('starts-at-end', 24, 25),
    ],
  );
  t.strictSame(figures, {
    okMs: 19 * H,
    problemMs: 5 * H,
    unattendedMs: 0,
    maintenanceMs: 0,
    attendedMs: 24 * H,
    serviceAvailability: (19 / 24) * 100,
    maxDowntimeMs: 3 * H,
    counts: [1, 1, 0, 0],
    eventsCount: 2,
  });
});

t.test('an open problem lasts until the earlier of the range end and now', async (t) => {
  const open = [problem('open', 18, null, { influence: pct(50) })];
  t.strictSame(ciFigures(context({ now: at(20) }), [], open), {
    okMs: 23 * H,
    problemMs: H, // 18 h..20 h (now) at 50 %
    unattendedMs: 0,
    maintenanceMs: 0,
    attendedMs: 24 * H,
    serviceAvailability: (23 / 24) * 100,
    maxDowntimeMs: 2 * H,
    counts: [1, 0, 0, 0],
    eventsCount: 1,
  });
  t.strictSame(ciFigures(context({ now: at(30) }), [], open), {
    okMs: 21 * H,
    problemMs: 3 * H, // 18 h..24 h (range end) at 50 %
    unattendedMs: 0,
    maintenanceMs: 0,
    attendedMs: 24 * H,
    serviceAvailability: (21 / 24) * 100,
    maxDowntimeMs: 6 * H,
    counts: [1, 0, 0, 0],
    eventsCount: 1,
  });
});

t.test('maintenance excluded: its time is a bucket of its own, before problem time, and breaks a stretch', async (t) => {
  const figures = ciFigures(context({ excludeMaintenance: true }), [hours(6, 8)], [problem('a', 4, 12), problem('b', 7, 9, { influence: pct(50) })]);
  // Problem [4,6) and [8,12) at 100 % (b is under a in [8,9)); [6,8) is maintenance.
  t.strictSame(figures, {
    okMs: 16 * H,
    problemMs: 6 * H,
    unattendedMs: 0,
    maintenanceMs: 2 * H,
    attendedMs: 24 * H,
    serviceAvailability: (16 / 22) * 100,
    maxDowntimeMs: 4 * H,
    counts: [2, 0, 0, 0],
    eventsCount: 2,
  });
});

t.test('maintenance not excluded: its time counts like any other time', async (t) => {
  const figures = ciFigures(context({ excludeMaintenance: false }), [hours(6, 8)], [problem('a', 4, 12), problem('b', 7, 9, { influence: pct(50) })]);
  t.strictSame(figures, {
    okMs: 16 * H,
    problemMs: 8 * H,
    unattendedMs: 0,
    maintenanceMs: 0,
    attendedMs: 24 * H,
    serviceAvailability: (16 / 24) * 100,
    maxDowntimeMs: 8 * H,
    counts: [2, 0, 0, 0],
    eventsCount: 2,
  });
});

t.test('unattended comes before maintenance: maintenance outside working hours is unattended time', async (t) => {
  const figures = ciFigures(context({ excludeMaintenance: true, unattended: [hours(0, 9), hours(18, 24)] }), [hours(7, 10)], [problem('a', 8, 11)]);
  // Unattended 15 h; maintenance only [9,10); problem only [10,11).
  t.strictSame(figures, {
    okMs: 7 * H,
    problemMs: H,
    unattendedMs: 15 * H,
    maintenanceMs: H,
    attendedMs: 9 * H,
    serviceAvailability: 87.5,
    maxDowntimeMs: H,
    counts: [1, 0, 0, 0],
    eventsCount: 1,
  });
});

t.test('maxDowntime: an unattended gap breaks a stretch', async (t) => {
  const range = hours(0, 48); // Monday and Tuesday
  const calendar = { timeZone: 'UTC', week: [1, 2, 3, 4, 5].map((day) => ({ day, from: '09:00', to: '18:00' })), holidays: [] };
  const problems = [problem('overnight', 16, 24 + 11)]; // Monday 16:00 to Tuesday 11:00
  const figures = ciFigures(context({ range, now: at(72), unattended: unattendedIntervals(calendar, range) }), [], problems);
  // Monday 16..18 and Tuesday 09..11: two stretches of 2 h, not one of 19 h or 4 h.
  t.strictSame(figures, {
    okMs: 14 * H,
    problemMs: 4 * H,
    unattendedMs: 30 * H,
    maintenanceMs: 0,
    attendedMs: 18 * H,
    serviceAvailability: (14 / 18) * 100,
    maxDowntimeMs: 2 * H,
    counts: [1, 0, 0, 0],
    eventsCount: 1,
  });
  t.equal(ciFigures(context({ range, now: at(72) }), [], problems).maxDowntimeMs, 19 * H, 'always attended: one stretch');
});

t.test('maxDowntime: time with no problem open breaks a stretch, a change of weight does not', async (t) => {
  const figures = ciFigures(context(), [], [problem('a', 1, 2, { influence: pct(50) }), problem('b', 2, 3), problem('c', 4, 5)]);
  t.strictSame(figures, {
    okMs: 21.5 * H,
    problemMs: 2.5 * H,
    unattendedMs: 0,
    maintenanceMs: 0,
    attendedMs: 24 * H,
    serviceAvailability: (21.5 / 24) * 100,
    maxDowntimeMs: 2 * H,
    counts: [3, 0, 0, 0],
    eventsCount: 3,
  });
});

t.test('only problems of an included priority take time and count', async (t) => {
  const problems = [problem('p3', 1, 5, { priority: 3 }), problem('p4', 2, 3, { priority: 4 })];
  t.strictSame(ciFigures(context(), [], problems), {
    okMs: 24 * H,
    problemMs: 0,
    unattendedMs: 0,
    maintenanceMs: 0,
    attendedMs: 24 * H,
    serviceAvailability: 100,
    maxDowntimeMs: 0,
    counts: [0, 0, 0, 0],
    eventsCount: 0,
  });
  t.strictSame(ciFigures(context({ included: new Set([3]) }), [], problems), {
    okMs: 20 * H,
    problemMs: 4 * H,
    unattendedMs: 0,
    maintenanceMs: 0,
    attendedMs: 24 * H,
    serviceAvailability: (20 / 24) * 100,
    maxDowntimeMs: 4 * H,
    counts: [0, 0, 1, 0],
    eventsCount: 1,
  });
});

t.test('availability is 100 when there is neither ok nor problem time', async (t) => {
  const figures = ciFigures(context({ unattended: [hours(0, 24)] }), [], [problem('a', 3, 4)]);
  t.strictSame(figures, {
    okMs: 0,
    problemMs: 0,
    unattendedMs: 24 * H,
    maintenanceMs: 0,
    attendedMs: 0,
    serviceAvailability: 100,
    maxDowntimeMs: 0,
    counts: [1, 0, 0, 0], // it overlaps the range: it counts even when it takes no time
    eventsCount: 1,
  });
});

t.test('a zero-length problem inside the range counts and takes no time; one of 0 % influence likewise', async (t) => {
  const figures = ciFigures(context(), [], [problem('instant', 5, 5), problem('harmless', 6, 8, { influence: pct(0) })]);
  t.strictSame(figures, {
    okMs: 24 * H,
    problemMs: 0,
    unattendedMs: 0,
    maintenanceMs: 0,
    attendedMs: 24 * H,
    serviceAvailability: 100,
    maxDowntimeMs: 0,
    counts: [2, 0, 0, 0],
    eventsCount: 2,
  });
});

t.test('problem time is rounded to whole milliseconds once, and ok is what remains', async (t) => {
  // Two problems of one second each at 33.3 % in a range of three seconds.
  const range = { start: at(0), end: at(0) + 3000 };
  const third = { value: 100 / 3, maxInfluence: false };
  const figures = ciFigures(
    context({ range }),
    [],
    [
      { ...problem('a', 0, 0), end: at(0) + 1000, influence: third },
      { ...problem('b', 0, 0), start: at(0) + 2000, end: at(0) + 3000, influence: third },
    ],
  );
  t.equal(figures.problemMs, 667, '2000 ms × 33.3 % = 666.67 ms, rounded');
  t.equal(figures.okMs, 2333);
  t.equal(figures.okMs + figures.problemMs + figures.unattendedMs + figures.maintenanceMs, 3000);
});

t.test('problems packed as numbers (the SLA worker threads) give the same figures as the problems themselves, over random cases', async (t) => {
  const random = seededRandom(18);
  const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
  for (let n = 0; n < 300; n++) {
    const range = hours(0, 24 * int(1, 3));
    const unattended =
      random() < 0.5 ? unattendedIntervals({ timeZone: 'Europe/Berlin', week: [1, 2, 3, 4, 5].map((day) => ({ day, from: '09:00', to: '18:00' })), holidays: [] }, range) : [];
    const ctx = context({ range, now: at(int(0, 80)), included: new Set(random() < 0.5 ? [1, 2] : [1, 2, 3, 4]), excludeMaintenance: random() < 0.5, unattended });
    const maintenance = random() < 0.5 ? [hours(int(0, 10), int(10, 30))] : [];
    const problems = Array.from({ length: int(0, 30) }, (_, i) => {
      const start = int(-10, 80);
      const end = random() < 0.15 ? null : start + int(0, 20);
      const influence = random() < 0.2 ? { value: random() < 0.5 ? NaN : 250, maxInfluence: random() < 0.5 } : pct(int(0, 100));
      return problem(`p${i}`, start, end, { priority: int(1, 4) as 1 | 2 | 3 | 4, influence });
    });
    const packed = new Float64Array(problems.flatMap((p) => [p.start, p.end ?? NaN, p.priority, p.influence.value, p.influence.maxInfluence ? 1 : 0]));
    t.strictSame(packedCiFigures(ctx, maintenance, packed, 0, problems.length), ciFigures(ctx, maintenance, problems), `case ${n}`);
  }
  const one = [problem('a', 2, 4), problem('b', 6, 9)];
  const packed = new Float64Array(one.flatMap((p) => [p.start, p.end!, p.priority, p.influence.value, 0]));
  t.strictSame(packedCiFigures(context(), [], packed, 1, 2), ciFigures(context(), [], [one[1]!]), 'only the problems from..to of the array');
});
