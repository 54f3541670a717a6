/**
 * Whole seconds that add up (issue #37, pipelines/sla/whole-seconds.ts): worked cases of the
 * largest-remainder rule, then a property over seeded random millisecond parts.
 */
import t from 'tap';
import { largestRemainder, type TimeParts, wholeSeconds } from '../../../../pipelines/sla/whole-seconds.js';
import { seededRandom } from '../../../support/random.js';

t.test('CI 127.0.0.1 (issue #37): 2 171.5 s ok and 108.5 s problem show as 2 171 + 109 = 2 280, not 2 172 + 109', async (t) => {
  // Influence 50 on a 217 s problem: 108 500 ms of problem time in a 2 280 s range, all attended.
  const s = wholeSeconds({ okMs: 2_171_500, problemMs: 108_500, maintenanceMs: 0, unattendedMs: 0 });
  t.strictSame(s, { ok: 2171, problem: 109, maintenance: 0, unattended: 0, attended: 2280, total: 2280 });
  t.equal(s.ok + s.problem, s.attended, 'ok + problem = AttendedTime');
});

t.test('whole seconds stay as they are', async (t) => {
  t.strictSame(wholeSeconds({ okMs: 3_600_000, problemMs: 60_000, maintenanceMs: 120_000, unattendedMs: 7_200_000 }), {
    ok: 3600,
    problem: 60,
    maintenance: 120,
    unattended: 7200,
    attended: 3780,
    total: 10_980,
  });
  t.strictSame(wholeSeconds({ okMs: 0, problemMs: 0, maintenanceMs: 0, unattendedMs: 0 }), { ok: 0, problem: 0, maintenance: 0, unattended: 0, attended: 0, total: 0 });
});

t.test('the range rounds half up; the missing seconds go to the largest remainders', async (t) => {
  // 0.4 + 0.4 + 0.4 + 0.3 = 1.5 s: the range shows 2 s. Attended 1.2 s and unattended 0.3 s
  // round down to 1 + 0; the missing second goes to the larger remainder, unattended's 0.3 s.
  // Attended's 1 s then goes to one of three equal 0.4 s remainders: problem time, the first.
  t.strictSame(wholeSeconds({ okMs: 400, problemMs: 400, maintenanceMs: 400, unattendedMs: 300 }), {
    ok: 0,
    problem: 1,
    maintenance: 0,
    unattended: 1,
    attended: 1,
    total: 2,
  });
  // 1.499 s rounds down, 1.5 s up.
  t.equal(wholeSeconds({ okMs: 1_499, problemMs: 0, maintenanceMs: 0, unattendedMs: 0 }).total, 1);
  t.equal(wholeSeconds({ okMs: 1_000, problemMs: 500, maintenanceMs: 0, unattendedMs: 0 }).total, 2);
});

t.test('equal remainders: attended before unattended, then problem, ok, maintenance', async (t) => {
  t.strictSame(wholeSeconds({ okMs: 0, problemMs: 0, maintenanceMs: 500, unattendedMs: 500 }), {
    ok: 0,
    problem: 0,
    maintenance: 1,
    unattended: 0,
    attended: 1,
    total: 1,
  });
  t.strictSame(wholeSeconds({ okMs: 1_500, problemMs: 0, maintenanceMs: 1_500, unattendedMs: 0 }), { ok: 2, problem: 0, maintenance: 1, unattended: 0, attended: 3, total: 3 });
  t.strictSame(wholeSeconds({ okMs: 1_500, problemMs: 1_500, maintenanceMs: 0, unattendedMs: 0 }), { ok: 1, problem: 2, maintenance: 0, unattended: 0, attended: 3, total: 3 });
});

t.test('two steps keep attended within 1 s where one split of four parts would not', async (t) => {
  // Four parts of 0.625 s: range 2.5 s → 3. One largest-remainder split of the four would give
  // 1 + 1 + 1 + 0, an attended time of 3 s for 1.875 s exact.
  t.strictSame(largestRemainder([625, 625, 625, 625], 3), [1, 1, 1, 0], 'the single split, for comparison');
  const s = wholeSeconds({ okMs: 625, problemMs: 625, maintenanceMs: 625, unattendedMs: 625 });
  t.strictSame(s, { ok: 1, problem: 1, maintenance: 0, unattended: 1, attended: 2, total: 3 });
  t.ok(Math.abs(s.attended - 1.875) < 1, 'attended 2 s for 1.875 s');
});

t.test('largestRemainder: sums to the total asked for, even one more than a second per part away', async (t) => {
  t.strictSame(largestRemainder([], 0), []);
  t.strictSame(largestRemainder([1_500, 2_500, 400, 600], 5), [2, 2, 0, 1], 'remainders 500, 500, 400, 600: 600 then the first 500');
  t.strictSame(largestRemainder([1_000, 2_000], 7), [3, 4], 'four more than the floors: two each');
  t.strictSame(largestRemainder([1_000, 2_000], 1), [0, 1], 'two fewer: one fewer each');
  t.strictSame(largestRemainder([1_000.25, 999.75], 2), [1, 1], 'fractional milliseconds');
});

/** Random parts: mostly random milliseconds, often exact half seconds, sometimes zero or whole seconds. */
function randomParts(random: () => number): TimeParts {
  const part = (): number => {
    const kind = random();
    const seconds = Math.floor(random() * (random() < 0.3 ? 10 : 3_000_000));
    if (kind < 0.15) return 0;
    if (kind < 0.4) return seconds * 1000 + 500;
    if (kind < 0.5) return seconds * 1000;
    if (kind < 0.6) return seconds * 1000 + random() * 1000;
    return seconds * 1000 + Math.floor(random() * 1000);
  };
  return { okMs: part(), problemMs: part(), maintenanceMs: part(), unattendedMs: part() };
}

t.test('property: over 20 000 random rows the seconds add up and each is within 1 s of its exact value', async (t) => {
  const random = seededRandom(37);
  let failures = 0;
  for (let n = 0; n < 20_000 && failures < 5; n++) {
    const p = randomParts(random);
    const s = wholeSeconds(p);
    const exact = { ok: p.okMs, problem: p.problemMs, maintenance: p.maintenanceMs, unattended: p.unattendedMs, attended: p.okMs + p.problemMs + p.maintenanceMs };
    const totalMs = exact.attended + p.unattendedMs;
    const problems: string[] = [];
    if (s.total !== Math.round(totalMs / 1000)) problems.push('total is not the range rounded half up');
    if (s.ok + s.problem + s.maintenance !== s.attended) problems.push('ok + problem + maintenance ≠ attended');
    if (s.attended + s.unattended !== s.total) problems.push('attended + unattended ≠ total');
    for (const key of ['ok', 'problem', 'maintenance', 'unattended', 'attended'] as const) {
      if (!(Math.abs(s[key] * 1000 - exact[key]) < 1000)) problems.push(`${key} ${s[key]} s is 1 s or more from ${exact[key]} ms`);
      if (!Number.isInteger(s[key]) || s[key] < 0) problems.push(`${key} ${s[key]} is not a whole non-negative number`);
    }
    if (problems.length > 0) {
      failures++;
      t.fail(`${JSON.stringify(p)}: ${problems.join('; ')}`);
    }
  }
  t.equal(failures, 0, 'every row adds up');
});
