/** The live SLA's problem table (services/live-sla/live-problems.ts): what a CI's problems read back as. */
import t from 'tap';
import { LiveProblems, type ProblemFacts } from '../../../../services/live-sla/live-problems.js';

const row = (over: Partial<ProblemFacts> = {}): ProblemFacts => ({
  id: '6f1c2b8e-3d4a-4b5c-9d6e-7f8a9b0c1d2e',
  ciId: 1,
  start: 1000,
  end: 2000,
  priority: 2,
  influence: { value: 30, maxInfluence: false },
  version: 1,
  deleted: false,
  ...over,
});

t.test('a later version of a problem replaces it; an older one read again does not', async (t) => {
  const table = new LiveProblems();
  table.put(row({ end: null }));
  table.put(row({ version: 2, end: 5000 }));
  table.put(row({ version: 1, end: null }));
  t.strictSame(table.ofCi(1), [{ start: 1000, end: 5000, priority: 2, influence: { value: 30, maxInfluence: false } }]);
  t.equal(table.size, 1);
});

t.test('the same version written again (a rewrite) replaces it', async (t) => {
  const table = new LiveProblems();
  table.put(row());
  table.put(row({ start: 1500 }));
  t.equal(table.ofCi(1)[0]!.start, 1500);
});

t.test('a deleted problem is left out, and an older row of it does not bring it back', async (t) => {
  const table = new LiveProblems();
  table.put(row());
  table.put(row({ version: 2, deleted: true }));
  table.put(row({ version: 1 }));
  t.strictSame(table.ofCi(1), []);
});

t.test('problems are per CI; maxInfluence reads back as such; an unknown CI has none', async (t) => {
  const table = new LiveProblems();
  table.add(row({ ciId: 7, influence: { value: 0, maxInfluence: true }, priority: 1 }));
  table.add(row({ ciId: 7, id: 'b6c1f2a0-0000-4000-8000-000000000001', start: 3000, end: null }));
  t.strictSame(table.ofCi(7), [
    { start: 1000, end: 2000, priority: 1, influence: { value: 100, maxInfluence: true } },
    { start: 3000, end: null, priority: 2, influence: { value: 30, maxInfluence: false } },
  ]);
  t.strictSame(table.ofCi(1), []);
});

t.test('lastProblemAt: now while a problem is open, else the latest end; −∞ without problems', async (t) => {
  const table = new LiveProblems();
  table.add(row({ ciId: 3, end: 2000 }));
  table.add(row({ ciId: 3, id: 'b6c1f2a0-0000-4000-8000-000000000002', start: 2500, end: 4000 }));
  t.equal(table.lastProblemAt(3, 9999), 4000);
  table.put(row({ ciId: 3, id: 'b6c1f2a0-0000-4000-8000-000000000002', start: 2500, end: null, version: 2 }));
  t.equal(table.lastProblemAt(3, 9999), 9999);
  table.put(row({ ciId: 3, id: 'b6c1f2a0-0000-4000-8000-000000000002', version: 3, deleted: true }));
  t.equal(table.lastProblemAt(3, 9999), 2000, 'a deleted problem does not count');
  t.equal(table.lastProblemAt(4, 9999), Number.NEGATIVE_INFINITY);
});
