import t from 'tap';
import { compileLinearPattern, MATCH_WORK, MAX_MATCH_TEXT, MAX_PATTERN_PROGRAM, matchWindow } from '../../../../pipelines/records/linear-pattern.js';

const compiled = (source: string) => {
  const c = compileLinearPattern(source);
  if (!c.ok) throw new Error(c.reason);
  return c.pattern;
};
const refusal = (source: string): string => {
  const c = compileLinearPattern(source);
  return c.ok ? 'accepted' : c.reason;
};

t.test('(a+)+$ on 30 a and a "!": no match, in linear time (a backtracking engine takes seconds)', async (t) => {
  const p = compiled('(a+)+$');
  const started = performance.now();
  t.equal(p.test(`${'a'.repeat(30)}!`), false);
  t.equal(p.test('a'.repeat(30_000) + '!'), false);
  t.equal(p.test('aaaa'), true);
  t.ok(performance.now() - started < 1000, 'both answered well under a second');
});

t.test('what RE2 cannot match in linear time is refused, saying why', async (t) => {
  t.match(refusal('(a)\\1'), /not RE2 syntax.*backreferences/);
  t.match(refusal('(?<n>a)\\k<n>'), /backreferences/);
  t.match(refusal('a(?=b)'), /lookahead and lookbehind/);
  t.match(refusal('(?<!a)b'), /lookahead and lookbehind/);
  t.match(refusal('\\u0041'), /\\x\{FFFF\}/);
  t.match(refusal('a++'), /possessive/);
  t.match(refusal('a'.repeat(1001)), /1001 characters; the limit is 1000/);
  t.match(refusal('[a-z]{1,300}'), new RegExp(`instructions; the limit is ${MAX_PATTERN_PROGRAM}`));
  t.equal(refusal(`[${'a'.repeat(998)}]`), 'accepted', 'a thousand characters that compile small');
});

t.test('RE2 syntax: named groups both ways, inline flags; ASCII classes', async (t) => {
  t.strictSame(compiled('^(?<host>\\S+) (?P<msg>.*)$').groups('db-1 disk full'), { host: 'db-1', msg: 'disk full' });
  t.strictSame(compiled('^(?<a>x)(?<b>y)?').groups('x'), { a: 'x', b: undefined }, 'a group that took no part is undefined');
  t.equal(compiled('(?i)error').test('ERROR: x'), true);
  t.equal(compiled('^\\d+$').test('١٢'), false, '\\d is ASCII');
  t.equal(compiled('a.b').test('a\nb'), false);
  t.equal(compiled('(?s)a.b').test('a\nb'), true);
});

t.test('the window: MATCH_WORK / program size characters, at most MAX_MATCH_TEXT; a trigger tests that prefix', async (t) => {
  t.equal(matchWindow(1), MAX_MATCH_TEXT);
  t.equal(matchWindow(40), Math.floor(MATCH_WORK / 40));
  t.equal(matchWindow(MAX_PATTERN_PROGRAM), 512);
  const p = compiled('needle');
  t.ok(p.window > 6 && p.window <= MAX_MATCH_TEXT);
  t.equal(p.test(`${'x'.repeat(p.window - 6)}needle`), true, 'inside the window');
  t.equal(p.test(`${'x'.repeat(p.window)}needle`), false, 'past the window: not seen');
  t.throws(() => p.groups('x'.repeat(p.window + 1)), RangeError, 'a parser is never handed more than its window');
});
