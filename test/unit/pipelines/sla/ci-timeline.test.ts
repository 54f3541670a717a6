/**
 * The timeline of one CI (issue 18): segments that add up to ciFigures exactly. Hand-worked cases
 * first (a working calendar across the 2027 spring DST change, overlapping maintenance modes),
 * then a seeded property test against ciFigures and against a reading of the rules instant by
 * instant. Fixtures as in ci-figures.test.ts: unless said otherwise the day [T0, T0 + 24 h).
 */
import t from 'tap';
import { unattendedIntervals } from '../../../../pipelines/sla/calendar.js';
import { ciFigures, type CiFiguresContext, influencePercent, problemEnd } from '../../../../pipelines/sla/ci-figures.js';
import { ciTimeline, type TimelineSegment, type TimelineTotals } from '../../../../pipelines/sla/ci-timeline.js';
import { mergeIntervals } from '../../../../pipelines/time/interval-ops.js';
import type { Interval, ProblemInput, WorkingCalendar } from '../../../../pipelines/sla/sla.types.js';
import { seededRandom } from '../../../support/random.js';
import { at, context, H, hours, M, pct, problem, utc } from './sla-fixture.js';

/** The ciFigures fields a timeline's totals must equal. */
function figuresOf(ctx: CiFiguresContext, maintenance: readonly Interval[], problems: readonly ProblemInput[]): TimelineTotals {
  const { okMs, problemMs, unattendedMs, maintenanceMs, maxDowntimeMs } = ciFigures(ctx, maintenance, problems);
  return { okMs, problemMs, unattendedMs, maintenanceMs, maxDowntimeMs };
}

type Row = [start: string, end: string, bucket: TimelineSegment['bucket'], weightPercent: number, problems: number[], sources: number[]];
const rows = (segments: TimelineSegment[]): Row[] =>
  segments.map((s) => [new Date(s.start).toISOString(), new Date(s.end).toISOString(), s.bucket, s.weightPercent, s.problems, s.sources]);

t.test('hand-worked: Mon–Fri 09:00–18:00 Europe/Berlin across the spring DST change, a 30 % problem over the weekend', async (t) => {
  // Friday 2027-03-26 to Tuesday 2027-03-30 inclusive, local midnights: CET (+01:00) at the start,
  // CEST (+02:00) from Sunday 28 March 01:00Z, so the range is 5 days less the skipped hour.
  const range = { start: utc('2027-03-25T23:00:00Z'), end: utc('2027-03-30T22:00:00Z') };
  const calendar: WorkingCalendar = { timeZone: 'Europe/Berlin', week: [1, 2, 3, 4, 5].map((day) => ({ day, from: '09:00', to: '18:00' })), holidays: [] };
  const unattended = unattendedIntervals(calendar, range);
  t.strictSame(
    unattended,
    [
      { start: utc('2027-03-25T23:00:00Z'), end: utc('2027-03-26T08:00:00Z') }, // Fri 00:00–09:00 CET
      { start: utc('2027-03-26T17:00:00Z'), end: utc('2027-03-29T07:00:00Z') }, // Fri 18:00 CET – Mon 09:00 CEST
      { start: utc('2027-03-29T16:00:00Z'), end: utc('2027-03-30T07:00:00Z') }, // Mon 18:00 – Tue 09:00 CEST
      { start: utc('2027-03-30T16:00:00Z'), end: utc('2027-03-30T22:00:00Z') }, // Tue 18:00 – 24:00 CEST
    ],
    'working hours move one hour earlier in UTC after the change',
  );
  const ctx = context({ range, now: utc('2027-04-01T00:00:00Z'), unattended });
  const problems = [
    // Friday 16:00 CET to Monday 11:00 CEST.
    { ...problem('weekend', 0, 0, { influence: pct(30) }), start: utc('2027-03-26T15:00:00Z'), end: utc('2027-03-29T09:00:00Z') },
  ];
  const { segments, totals } = ciTimeline(ctx, [], problems);
  t.strictSame(rows(segments), [
    ['2027-03-25T23:00:00.000Z', '2027-03-26T08:00:00.000Z', 'unattended', 0, [], [0]], //  9 h
    ['2027-03-26T08:00:00.000Z', '2027-03-26T15:00:00.000Z', 'ok', 0, [], []], //  7 h
    ['2027-03-26T15:00:00.000Z', '2027-03-26T17:00:00.000Z', 'problem', 30, [0], []], //  2 h
    ['2027-03-26T17:00:00.000Z', '2027-03-29T07:00:00.000Z', 'unattended', 0, [0], [1]], // 62 h, the problem hidden
    ['2027-03-29T07:00:00.000Z', '2027-03-29T09:00:00.000Z', 'problem', 30, [0], []], //  2 h
    ['2027-03-29T09:00:00.000Z', '2027-03-29T16:00:00.000Z', 'ok', 0, [], []], //  7 h
    ['2027-03-29T16:00:00.000Z', '2027-03-30T07:00:00.000Z', 'unattended', 0, [], [2]], // 15 h
    ['2027-03-30T07:00:00.000Z', '2027-03-30T16:00:00.000Z', 'ok', 0, [], []], //  9 h
    ['2027-03-30T16:00:00.000Z', '2027-03-30T22:00:00.000Z', 'unattended', 0, [], [3]], //  6 h
  ]);
  // 119 h in all: unattended 9 + 62 + 15 + 6 = 92 h; problem 30 % × (2 + 2) h = 1.2 h = 72 min;
  // ok 119 − 92 − 1.2 = 25.8 h (= 7 + 0.7 × 2 + 0.7 × 2 + 7 + 9); maxDowntime 2 h (the weekend breaks it).
  t.strictSame(totals, { okMs: 25 * H + 48 * M, problemMs: 72 * M, unattendedMs: 92 * H, maintenanceMs: 0, maxDowntimeMs: 2 * H });
  t.strictSame(totals, figuresOf(ctx, [], problems), 'equal to ciFigures');
});

t.test('hand-worked: two overlapping maintenance modes under a maxInfluence problem', async (t) => {
  const modeA = hours(8, 11);
  const modeB = hours(10, 13);
  const maintenance = mergeIntervals([modeA, modeB]); // what the caller hands ciFigures: [8, 13)
  t.strictSame(maintenance, [hours(8, 13)]);
  const ctx = context({ excludeMaintenance: true });
  const problems = [
    problem('down', 6, 15, { influence: { value: 30, maxInfluence: true } }), // counts in full whatever its value
    problem('slow', 12, 18, { influence: pct(40) }),
  ];
  const merged = ciTimeline(ctx, maintenance, problems);
  t.strictSame(rows(merged.segments), [
    ['2024-01-01T00:00:00.000Z', '2024-01-01T06:00:00.000Z', 'ok', 0, [], []],
    ['2024-01-01T06:00:00.000Z', '2024-01-01T08:00:00.000Z', 'problem', 100, [0], []],
    ['2024-01-01T08:00:00.000Z', '2024-01-01T12:00:00.000Z', 'maintenance', 0, [0], [0]],
    ['2024-01-01T12:00:00.000Z', '2024-01-01T13:00:00.000Z', 'maintenance', 0, [0, 1], [0]], // slow opens under maintenance
    ['2024-01-01T13:00:00.000Z', '2024-01-01T15:00:00.000Z', 'problem', 100, [0, 1], []],
    ['2024-01-01T15:00:00.000Z', '2024-01-01T18:00:00.000Z', 'problem', 40, [1], []],
    ['2024-01-01T18:00:00.000Z', '2024-01-02T00:00:00.000Z', 'ok', 0, [], []],
  ]);
  // Maintenance 5 h; problem 2 h + 2 h + 0.4 × 3 h = 5.2 h; ok 24 − 5 − 5.2 = 13.8 h;
  // maxDowntime 13 h..18 h = 5 h (maintenance breaks 6..8 off; 100 % → 40 % does not break).
  const expected = { okMs: 13 * H + 48 * M, problemMs: 5 * H + 12 * M, unattendedMs: 0, maintenanceMs: 5 * H, maxDowntimeMs: 5 * H };
  t.strictSame(merged.totals, expected);
  t.strictSame(merged.totals, figuresOf(ctx, maintenance, problems), 'equal to ciFigures');

  // Handed the modes unmerged, the timeline names every mode behind a segment; the figures stay.
  const byMode = ciTimeline(ctx, [modeA, modeB], problems);
  t.strictSame(rows(byMode.segments).slice(2, 6), [
    ['2024-01-01T08:00:00.000Z', '2024-01-01T10:00:00.000Z', 'maintenance', 0, [0], [0]],
    ['2024-01-01T10:00:00.000Z', '2024-01-01T11:00:00.000Z', 'maintenance', 0, [0], [0, 1]],
    ['2024-01-01T11:00:00.000Z', '2024-01-01T12:00:00.000Z', 'maintenance', 0, [0], [1]],
    ['2024-01-01T12:00:00.000Z', '2024-01-01T13:00:00.000Z', 'maintenance', 0, [0, 1], [1]],
  ]);
  t.strictSame(byMode.totals, expected);

  // Maintenance not excluded: no maintenance bucket and nothing marks it; the problems take the time.
  const counted = ciTimeline(context({ excludeMaintenance: false }), maintenance, problems);
  t.strictSame(rows(counted.segments), [
    ['2024-01-01T00:00:00.000Z', '2024-01-01T06:00:00.000Z', 'ok', 0, [], []],
    ['2024-01-01T06:00:00.000Z', '2024-01-01T12:00:00.000Z', 'problem', 100, [0], []],
    ['2024-01-01T12:00:00.000Z', '2024-01-01T15:00:00.000Z', 'problem', 100, [0, 1], []],
    ['2024-01-01T15:00:00.000Z', '2024-01-01T18:00:00.000Z', 'problem', 40, [1], []],
    ['2024-01-01T18:00:00.000Z', '2024-01-02T00:00:00.000Z', 'ok', 0, [], []],
  ]);
  t.strictSame(counted.totals, { okMs: 13 * H + 48 * M, problemMs: 10 * H + 12 * M, unattendedMs: 0, maintenanceMs: 0, maxDowntimeMs: 12 * H });
  t.strictSame(counted.totals, figuresOf(context({ excludeMaintenance: false }), maintenance, problems));
});

t.test('a stretch where only zero-influence problems are open is ok time with its problems listed', async (t) => {
  const problems = [problem('harmless', 2, 6, { influence: pct(0) }), problem('half', 4, 5, { influence: pct(50) }), problem('p3', 1, 3, { priority: 3 })];
  const { segments, totals } = ciTimeline(context(), [], problems);
  t.strictSame(rows(segments), [
    ['2024-01-01T00:00:00.000Z', '2024-01-01T02:00:00.000Z', 'ok', 0, [], []], // p3 is not included: never listed
    ['2024-01-01T02:00:00.000Z', '2024-01-01T04:00:00.000Z', 'ok', 0, [0], []],
    ['2024-01-01T04:00:00.000Z', '2024-01-01T05:00:00.000Z', 'problem', 50, [0, 1], []],
    ['2024-01-01T05:00:00.000Z', '2024-01-01T06:00:00.000Z', 'ok', 0, [0], []],
    ['2024-01-01T06:00:00.000Z', '2024-01-02T00:00:00.000Z', 'ok', 0, [], []],
  ]);
  t.strictSame(totals, { okMs: 23.5 * H, problemMs: 0.5 * H, unattendedMs: 0, maintenanceMs: 0, maxDowntimeMs: H });
});

t.test('problem time is rounded once, as ciFigures does, and a zero-length problem is listed nowhere', async (t) => {
  const range = { start: at(0), end: at(0) + 3000 };
  const third = { value: 100 / 3, maxInfluence: false };
  const problems = [
    { ...problem('a', 0, 0), end: at(0) + 1000, influence: third },
    { ...problem('b', 0, 0), start: at(0) + 2000, end: at(0) + 3000, influence: third },
    { ...problem('instant', 0, 0), start: at(0) + 1500, end: at(0) + 1500 },
  ];
  const { segments, totals } = ciTimeline(context({ range }), [], problems);
  t.strictSame(
    segments.map((s) => [s.end - s.start, s.bucket, s.problems]),
    [
      [1000, 'problem', [0]],
      [1000, 'ok', []],
      [1000, 'problem', [1]],
    ],
  );
  t.strictSame(totals, { okMs: 2333, problemMs: 667, unattendedMs: 0, maintenanceMs: 0, maxDowntimeMs: 1000 });
  t.strictSame(totals, figuresOf(context({ range }), [], problems));
});

t.test('problem time is summed per stretch of one weight, so a split that ciFigures does not see moves no rounding', async (t) => {
  // 0.15 % over 1000 ms is 1.5 ms, rounded to 2; a zero-influence problem splits the stretch at
  // 3 ms, and 0.15 × 3 + 0.15 × 997 is 149.999… in floating point, which would round to 1.
  const range = { start: at(0), end: at(0) + 1000 };
  const problems = [
    { ...problem('tiny', 0, 0), end: at(0) + 1000, influence: pct(0.15) },
    { ...problem('harmless', 0, 0), start: at(0) + 3, end: at(0) + 1000, influence: pct(0) },
  ];
  const { segments, totals } = ciTimeline(context({ range }), [], problems);
  t.strictSame(
    segments.map((s) => [s.end - s.start, s.bucket, s.weightPercent, s.problems]),
    [
      [3, 'problem', 0.15, [0]],
      [997, 'problem', 0.15, [0, 1]],
    ],
  );
  t.equal(totals.problemMs, 2);
  t.strictSame(totals, figuresOf(context({ range }), [], problems));
});

t.test('an empty range has no segments and zero totals', async (t) => {
  const ctx = context({ range: { start: at(5), end: at(5) } });
  t.strictSame(ciTimeline(ctx, [], [problem('a', 0, 10)]), { segments: [], totals: { okMs: 0, problemMs: 0, unattendedMs: 0, maintenanceMs: 0, maxDowntimeMs: 0 } });
});

// ---------------------------------------------------------------------------------------------
// Property test

const Q = 15 * M;
const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'UTC'];
/** Around T0, and days before the 2027 spring and autumn changes in Europe and the US. */
const BASES = [at(0), utc('2027-03-12T00:00:00Z'), utc('2027-03-26T00:00:00Z'), utc('2027-10-29T00:00:00Z'), utc('2027-11-05T00:00:00Z')];

interface Case {
  ctx: CiFiguresContext;
  maintenance: Interval[];
  problems: ProblemInput[];
}

function generator(seed: number) {
  const random = seededRandom(seed);
  const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;

  return (): Case => {
    // Mostly quarter hours so edges coincide often; sometimes any millisecond.
    const coarse = random() < 0.75;
    const instant = (lo: number, hi: number): number => (coarse ? lo + int(0, Math.floor((hi - lo) / Q)) * Q : int(lo, hi));
    const start = pick(BASES) + int(0, 96) * Q + (coarse ? 0 : int(0, 59_999));
    const range = { start, end: random() < 0.02 ? start : start + (coarse ? int(1, 7 * 96) * Q : int(1, 7 * 24 * H)) };
    /** k sorted instants in the range, paired into intervals; equal neighbours give touching or empty ones. */
    const pairs = (k: number): Interval[] => {
      const cuts = Array.from({ length: 2 * k }, () => instant(range.start, range.end)).sort((a, b) => a - b);
      const out: Interval[] = [];
      for (let i = 0; i < cuts.length; i += 2) if (cuts[i + 1]! > cuts[i]!) out.push({ start: cuts[i]!, end: cuts[i + 1]! });
      return out;
    };

    let unattended: Interval[] = [];
    const kind = random();
    if (kind < 0.35 && range.end > range.start) {
      const week = Array.from({ length: int(0, 8) }, () => {
        const from = int(0, 95);
        const to = random() < 0.1 ? 96 : int(0, 96);
        const clock = (q: number) => `${String(Math.floor(q / 4)).padStart(2, '0')}:${String((q % 4) * 15).padStart(2, '0')}`;
        return { day: int(1, 7), from: clock(from), to: clock(to) };
      });
      unattended = unattendedIntervals({ timeZone: pick(ZONES), week, holidays: [] }, range);
    } else if (kind < 0.7) {
      unattended = mergeIntervals(pairs(int(0, 4))); // normal: touching pairs joined
    }
    const maintenance = pairs(int(0, 4)); // sorted, disjoint, may touch

    const problems: ProblemInput[] = Array.from({ length: int(0, 10) }, (_, i) => {
      const from = instant(range.start - 6 * H, range.end + 6 * H);
      const r = random();
      const end = r < 0.1 ? from : r < 0.3 ? null : from + (coarse ? int(1, 48) * Q : int(1, 12 * H));
      const w = random();
      const influence =
        w < 0.15
          ? { value: int(0, 100), maxInfluence: true }
          : w < 0.3
            ? pct(0)
            : w < 0.45
              ? pct(random() * 100) // fractional: the sum's rounding must still agree
              : w < 0.5
                ? pct(pick([-20, 150, Number.NaN]))
                : pct(pick([10, 30, 50, 100, int(1, 100)]));
      return { ...problem(`p${i}`, 0, 0), start: from, end, priority: pick([1, 2, 3, 4] as const), influence };
    });
    const now = pick([instant(range.start, range.end), range.end + int(0, 10) * H, range.start - int(0, 10) * H]);
    const included = new Set([1, 2, 3, 4].filter(() => random() < 0.6));
    return { ctx: { range, now, included, excludeMaintenance: random() < 0.6, unattended }, maintenance, problems };
  };
}

/** What the rules say about one instant, read straight from the inputs. */
function readingAt(c: Case, instant: number): Omit<TimelineSegment, 'start' | 'end'> {
  const inside = (i: Interval) => i.start <= instant && instant < i.end;
  const problems: number[] = [];
  let weight = 0;
  c.problems.forEach((p, index) => {
    if (c.ctx.included.has(p.priority) && inside({ start: p.start, end: problemEnd(p, c.ctx.now) })) {
      problems.push(index);
      weight = Math.max(weight, influencePercent(p.influence));
    }
  });
  const indices = (list: readonly Interval[]) => list.flatMap((i, index) => (inside(i) ? [index] : []));
  const unattended = indices(c.ctx.unattended);
  if (unattended.length > 0) return { bucket: 'unattended', weightPercent: 0, problems, sources: unattended };
  const maintenance = c.ctx.excludeMaintenance ? indices(c.maintenance) : [];
  if (maintenance.length > 0) return { bucket: 'maintenance', weightPercent: 0, problems, sources: maintenance };
  return { bucket: weight > 0 ? 'problem' : 'ok', weightPercent: weight, problems, sources: [] };
}

/** Everything wrong with a timeline's shape and content, as readable lines (none when it is right). */
function faults(c: Case, segments: TimelineSegment[]): string[] {
  const out: string[] = [];
  const { range } = c.ctx;
  if (range.end > range.start) {
    if (segments[0]?.start !== range.start) out.push('does not start at range.start');
    if (segments[segments.length - 1]?.end !== range.end) out.push('does not end at range.end');
  } else if (segments.length > 0) {
    out.push('segments for an empty range');
  }
  segments.forEach((s, k) => {
    const previous = segments[k - 1];
    if (s.end <= s.start) out.push(`segment ${k} is empty`);
    if (previous === undefined) return;
    if (s.start !== previous.end) out.push(`gap or overlap before segment ${k}`);
    const { start: _a, end: _b, ...mine } = s;
    const { start: _c, end: _d, ...theirs } = previous;
    if (JSON.stringify(mine) === JSON.stringify(theirs)) out.push(`segments ${k - 1} and ${k} should be one`);
  });
  // Every instant where some input changes, read by the rules, matches the segment holding it.
  const edges = new Set([range.start]);
  for (const i of [...c.ctx.unattended, ...c.maintenance]) edges.add(i.start).add(i.end);
  for (const p of c.problems) edges.add(p.start).add(problemEnd(p, c.ctx.now));
  for (const instant of edges) {
    if (instant < range.start || instant >= range.end) continue;
    const s = segments.find((x) => x.start <= instant && instant < x.end);
    if (s === undefined) continue; // reported above as a gap
    const { start: _s, end: _e, ...got } = s;
    const want = readingAt(c, instant);
    if (JSON.stringify(got) !== JSON.stringify(want)) out.push(`at ${new Date(instant).toISOString()}: ${JSON.stringify(got)} ≠ ${JSON.stringify(want)}`);
  }
  return out;
}

t.test('property: segments add up to ciFigures exactly, cover the range and read as the rules say', async (t) => {
  const SEED = 18;
  const CASES = 600;
  const next = generator(SEED);
  const seen = new Set<string>();
  for (let n = 0; n < CASES; n++) {
    const c = next();
    const { segments, totals } = ciTimeline(c.ctx, c.maintenance, c.problems);
    t.strictSame(totals, figuresOf(c.ctx, c.maintenance, c.problems), `seed ${SEED} case ${n}: totals`);
    t.strictSame(faults(c, segments), [], `seed ${SEED} case ${n}: shape`);
    for (const s of segments) {
      seen.add(s.bucket);
      if (s.problems.length > 0) seen.add(`${s.bucket} with problems`);
      if (s.bucket === 'problem' && !Number.isInteger(s.weightPercent)) seen.add('fractional weight');
    }
    if (totals.problemMs > 0 && totals.unattendedMs > 0 && totals.maintenanceMs > 0) seen.add('all buckets in one case');
  }
  // The generator reaches what the rules single out.
  for (const what of ['unattended with problems', 'maintenance with problems', 'ok with problems', 'problem', 'fractional weight', 'all buckets in one case']) {
    t.ok(seen.has(what), `the cases include: ${what}`);
  }
});
