/**
 * Issue #30: the live tail's memory of what it has looked at and its per-second budget
 * (tail-window.ts), and the page cursor (read-cursor.ts). Hand-worked cases on whole results.
 */
import t from 'tap';
import { decodeCursor, encodeCursor } from '../../../../../services/api/streams/read-cursor.js';
import { MAX_REMEMBERED, SendBudget, TailWindow } from '../../../../../services/api/streams/tail-window.js';

const id = (n: number): string => `00000000-0000-0000-0000-${n.toString(16).padStart(12, '0')}`;

t.test('a new window shows what is received from its opening on', async (t) => {
  t.same(new TailWindow(1000, 500).bounds(), { floor: { ms: 1000, id: '' }, lowerMs: 1000, seenIds: [] });
});

t.test('taken records are remembered and looked back on for lateMs behind the newest', async (t) => {
  const window = new TailWindow(1000, 500);
  window.took(
    [
      { ms: 1200, id: id(1) },
      { ms: 1300, id: id(2) },
    ],
    { ms: 1300, id: id(2) },
  );
  t.same(window.bounds(), { floor: { ms: 1000, id: '' }, lowerMs: 1000, seenIds: [id(1), id(2)] }, 'still within lateMs of the opening');
  window.took([{ ms: 1750, id: id(3) }], { ms: 1750, id: id(3) });
  t.same(window.bounds(), { floor: { ms: 1000, id: '' }, lowerMs: 1250, seenIds: [id(2), id(3)] }, 'record 1 fell behind the look-back and is forgotten');
});

t.test('a record stored late, received behind the newest but within lateMs, is still in the window', async (t) => {
  const window = new TailWindow(0, 10_000);
  window.took([{ ms: 5000, id: id(9) }], { ms: 5000, id: id(9) });
  const { lowerMs, seenIds } = window.bounds();
  t.ok(lowerMs <= 4000, 'a record received at 4000 is looked for');
  t.same(seenIds, [id(9)], 'and the one already sent is left out');
});

t.test('after a sample the floor moves up to its last record and nothing is remembered', async (t) => {
  const window = new TailWindow(1000, 500);
  window.took([{ ms: 1100, id: id(1) }], { ms: 1100, id: id(1) });
  window.passed({ ms: 1400, id: id(7) });
  t.same(window.bounds(), { floor: { ms: 1400, id: id(7) }, lowerMs: 1400, seenIds: [] });
  window.passed({ ms: 1400, id: id(3) });
  t.same(window.bounds().floor, { ms: 1400, id: id(7) }, 'the floor never moves back');
});

t.test('past MAX_REMEMBERED ids the window moves its floor as after a sample', async (t) => {
  const window = new TailWindow(0, 1_000_000);
  const many = Array.from({ length: MAX_REMEMBERED + 1 }, (_, i) => ({ ms: 10, id: id(i) }));
  window.took(many, many.at(-1)!);
  t.same(window.bounds(), { floor: many.at(-1)!, lowerMs: 10, seenIds: [] });
});

t.test('the budget: perSecond over any second, freed as sends age past a second', async (t) => {
  const budget = new SendBudget(100);
  t.equal(budget.available(0), 100);
  budget.spend(0, 60);
  budget.spend(500, 40);
  t.equal(budget.available(999), 0, 'spent within the second');
  t.equal(budget.available(1000), 60, 'the first send is a second old');
  t.equal(budget.available(1500), 100);
  budget.spend(1500, 0);
  t.equal(budget.available(1500), 100, 'sending nothing spends nothing');
});

t.test('a cursor reads back as it was made', async (t) => {
  const cursor = { ms: Date.parse('2026-11-21T10:00:00.123Z'), id: id(42) };
  const text = encodeCursor(cursor);
  t.match(text, /^[A-Za-z0-9_-]+$/, 'base64url');
  t.same(JSON.parse(Buffer.from(text, 'base64url').toString()), { ts: '2026-11-21T10:00:00.123Z', id: id(42) });
  t.same(decodeCursor(text), cursor);
});

t.test('a cursor not made by encodeCursor reads as none', async (t) => {
  const of = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  for (const text of [
    '',
    'not base64url!',
    Buffer.from('{').toString('base64url'),
    of(null),
    of([1]),
    of({ ts: '2026-11-21T10:00:00.123Z' }),
    of({ ts: '2026-11-21T10:00:00Z', id: id(1) }),
    of({ ts: 'yesterday', id: id(1) }),
    of({ ts: '2026-11-21T10:00:00.123Z', id: id(0xabc).toUpperCase() }),
    of({ ts: '2026-11-21T10:00:00.123Z', id: "' OR 1=1" }),
    'A'.repeat(600),
  ]) {
    t.equal(decodeCursor(text), undefined, JSON.stringify(text).slice(0, 60));
  }
});
