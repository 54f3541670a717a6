/**
 * A Single template's report: CI rows (spec 2.14), event rows (spec 2.13), template figures, and
 * the chunked calculation the worker's threads run.
 */
import t from 'tap';
import { calculateCis, calculateSingle, combineCis, splitCis, templateContext } from '../../../../pipelines/sla/single-template.js';
import type { ProblemInput, SingleTemplateInput, SlaCiInput } from '../../../../pipelines/sla/sla.types.js';
import { at, ci, H, pct, problem } from './sla-fixture.js';

const serverType = { id: 3, name: 'Server', description: 'A server', icon: null, userspaceId: 1 };
const tags = [{ id: 1, name: 'db', colorName: 'red' }];
const incidents = [{ connector: { id: 4, name: 'jira' }, incidents: [{ id: 'INC-1', type: 'Incident' }] }];

/**
 * The day [T0, T0 + 24 h), now T0 + 30 h, maintenance excluded, priorities 1 and 2.
 * CI 1 (weight 1): p-a [11, 12) at full influence.
 * CI 2 (weight 3), maintenance [10, 12): p-b [11, 14) 50 %, p-c open from 20 (priority 3),
 * p-d [-1, 1) priority 2, p-z after the range.
 */
function handWorked(): SingleTemplateInput {
  return {
    range: { start: at(0), end: at(24) },
    now: at(30),
    priorities: [1, 2],
    calendar: null,
    excludeMaintenance: true,
    cis: [
      ci(
        2,
        [
          problem('p-z', 30, 31),
          problem('p-c', 20, null, { priority: 3 }),
          problem('p-b', 11, 14, { influence: pct(50), tags, incidents }),
          problem('p-d', -1, 1, { priority: 2 }),
        ],
        { weight: 3, maintenance: [{ start: at(10), end: at(12) }] },
      ),
      ci(1, [problem('p-a', 11, 12, { influence: { value: 100, maxInfluence: true } })]),
    ],
  };
}

t.test('CI rows (spec 2.14): every field, times in ms, maxDowntime in seconds, ordered by CI id', async (t) => {
  const { ciRows } = calculateSingle(handWorked());
  t.strictSame(ciRows, [
    {
      configItem: {
        id: 1,
        name: 'ci-1',
        configItemType: serverType,
        isIncluded: true,
        withMaintenance: false,
        influence: { value: 25, maxInfluence: false },
        serviceAvailability: (23 / 24) * 100,
      },
      okTime: { percent: (23 / 24) * 100, value: 23 * H },
      problemTime: { percent: (1 / 24) * 100, value: H },
      unattendedTime: { percent: 0, value: 0 },
      maintenanceTime: { percent: 0, value: 0 },
      serviceAvailability: (23 / 24) * 100,
      maxDowntime: 3600,
      problem1EventsCount: 1,
      problem2EventsCount: 0,
      problem3EventsCount: 0,
      problem4EventsCount: 0,
      eventsCount: 1,
    },
    {
      // Maintenance [10,12) first; problem [0,1) at 100 % and [12,14) at 50 %: 1 h + 1 h.
      configItem: {
        id: 2,
        name: 'ci-2',
        configItemType: serverType,
        isIncluded: true,
        withMaintenance: true,
        influence: { value: 75, maxInfluence: false },
        serviceAvailability: (20 / 22) * 100,
      },
      okTime: { percent: (20 / 24) * 100, value: 20 * H },
      problemTime: { percent: (2 / 24) * 100, value: 2 * H },
      unattendedTime: { percent: 0, value: 0 },
      maintenanceTime: { percent: (2 / 24) * 100, value: 2 * H },
      serviceAvailability: (20 / 22) * 100,
      maxDowntime: 7200,
      problem1EventsCount: 1,
      problem2EventsCount: 1,
      problem3EventsCount: 0,
      problem4EventsCount: 0,
      eventsCount: 2,
    },
  ]);
});

t.test('event rows (spec 2.13): every problem overlapping the range, its own duration, ordered by start then id', async (t) => {
  const { eventRows } = calculateSingle(handWorked());
  const entry = (id: number, withMaintenance: boolean, influence: number) => [
    { id, name: `ci-${id}`, configItemType: serverType, withMaintenance, influence: { value: influence, maxInfluence: false }, isIncluded: true },
  ];
  t.strictSame(eventRows, [
    {
      id: 'p-d',
      isIncluded: true,
      trigger: { id: 7, name: 'trigger of p-d' },
      dateStart: '2023-12-31T23:00:00.000Z',
      dateEnd: '2024-01-01T01:00:00.000Z',
      duration: 2 * H, // not clipped to the range
      priority: 'Problem2',
      tags: [],
      configItems: entry(2, false, 75),
      influence: { value: 100, maxInfluence: false },
      incidents: [],
    },
    {
      id: 'p-a',
      isIncluded: true,
      trigger: { id: 7, name: 'trigger of p-a' },
      dateStart: '2024-01-01T11:00:00.000Z',
      dateEnd: '2024-01-01T12:00:00.000Z',
      duration: H,
      priority: 'Problem1',
      tags: [],
      configItems: entry(1, false, 25),
      influence: { value: 100, maxInfluence: true },
      incidents: [],
    },
    {
      id: 'p-b',
      isIncluded: true,
      trigger: { id: 7, name: 'trigger of p-b' },
      dateStart: '2024-01-01T11:00:00.000Z',
      dateEnd: '2024-01-01T14:00:00.000Z',
      duration: 3 * H,
      priority: 'Problem1',
      tags,
      configItems: entry(2, true, 75),
      influence: { value: 50, maxInfluence: false },
      incidents,
    },
    {
      id: 'p-c',
      isIncluded: false,
      trigger: { id: 7, name: 'trigger of p-c' },
      dateStart: '2024-01-01T20:00:00.000Z',
      dateEnd: null,
      duration: 10 * H, // open: until now
      priority: 'Problem3',
      tags: [],
      configItems: entry(2, false, 75),
      influence: { value: 100, maxInfluence: false },
      incidents: [],
    },
  ]);
});

t.test('template figures: times and availability weighted by CI weight, counts summed, maxDowntime the largest', async (t) => {
  const { figures } = calculateSingle(handWorked());
  t.strictSame(figures, {
    okMs: (23 * H * 1 + 20 * H * 3) / 4,
    problemMs: (1 * H * 1 + 2 * H * 3) / 4,
    unattendedMs: 0,
    maintenanceMs: (2 * H * 3) / 4,
    attendedMs: 24 * H,
    serviceAvailability: (1 * ((23 / 24) * 100) + 3 * ((20 / 22) * 100)) / 4,
    maxDowntimeMs: 2 * H,
    counts: [2, 1, 0, 0],
    eventsCount: 3,
  });
});

t.test('a template without CIs: no time, availability 100', async (t) => {
  const result = calculateSingle({ ...handWorked(), cis: [] });
  t.strictSame(result, {
    figures: { okMs: 0, problemMs: 0, unattendedMs: 0, maintenanceMs: 0, attendedMs: 0, serviceAvailability: 100, maxDowntimeMs: 0, counts: [0, 0, 0, 0], eventsCount: 0 },
    ciRows: [],
    eventRows: [],
  });
});

t.test('an event row is withMaintenance when the problem overlaps the maintenance, not when it only touches it', async (t) => {
  const input: SingleTemplateInput = {
    ...handWorked(),
    cis: [ci(1, [problem('before', 8, 10), problem('into', 9, 11), problem('after', 12, 13), problem('instant', 10, 10)], { maintenance: [{ start: at(10), end: at(12) }] })],
  };
  const flags = Object.fromEntries(calculateSingle(input).eventRows.map((r) => [r.id, r.configItems[0]!.withMaintenance]));
  t.strictSame(flags, { before: false, into: true, instant: true, after: false });
});

/** A reproducible larger input: 37 CIs, office hours in Berlin across the March DST change. */
function generated(): SingleTemplateInput {
  let seed = 20240331;
  const rnd = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const start = Date.parse('2024-03-25T00:00:00+01:00');
  const end = Date.parse('2024-04-08T00:00:00+02:00');
  const cis: SlaCiInput[] = [];
  for (let id = 1; id <= 37; id++) {
    const problems: ProblemInput[] = [];
    for (let k = 0; k < 25; k++) {
      const s = start - 6 * H + Math.floor(rnd() * (end - start + 6 * H));
      problems.push({
        ...problem(`${String(k % 7).padStart(2, '0')}-${id}-${k}`, 0, 0),
        ciId: id,
        start: s,
        end: rnd() < 0.1 ? null : s + Math.floor(rnd() * 9 * H),
        priority: (1 + Math.floor(rnd() * 4)) as 1 | 2 | 3 | 4,
        influence: { value: Math.round(rnd() * 1000) / 10, maxInfluence: rnd() < 0.2 },
      });
    }
    const m = start + Math.floor(rnd() * (end - start));
    cis.push(ci(id, problems, { weight: 0.5 + Math.round(rnd() * 30) / 10, maintenance: rnd() < 0.5 ? [{ start: m, end: m + 5 * H }] : [] }));
  }
  return {
    range: { start, end },
    now: end - 2 * 24 * H,
    priorities: [1, 2, 3],
    calendar: { timeZone: 'Europe/Berlin', week: [1, 2, 3, 4, 5].map((day) => ({ day, from: '09:00', to: '18:00' })), holidays: ['2024-04-01'] },
    excludeMaintenance: true,
    cis: cis.reverse(),
  };
}

t.test('the chunked calculation gives the same result as one call, for any split and order of the chunks', async (t) => {
  const input = generated();
  const whole = calculateSingle(input);
  t.equal(whole.ciRows.length, 37);
  t.ok(whole.eventRows.length > 800);
  t.strictSame(
    combineCis(
      splitCis(input, 4)
        .map((c) => calculateCis(c))
        .reverse(),
    ),
    whole,
    'four chunks, combined in reverse',
  );
  t.strictSame(combineCis(splitCis(input, 100).map((c) => calculateCis(c))), whole, 'one CI per chunk');
  const context = templateContext(input);
  const uneven = [input.cis.slice(0, 1), input.cis.slice(1, 30), input.cis.slice(30)].map((cis) => calculateCis({ ...context, cis }));
  t.strictSame(combineCis([uneven[2]!, uneven[0]!, uneven[1]!]), whole, 'uneven chunks, shuffled');
  // Every CI's buckets add up to the range.
  for (const row of whole.ciRows) {
    t.equal(row.okTime.value + row.problemTime.value + row.unattendedTime.value + row.maintenanceTime.value, input.range.end - input.range.start);
  }
});
