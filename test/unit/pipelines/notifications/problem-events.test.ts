/** problem-events.ts: which changes are events, and their stable ids. */
import t from 'tap';
import { problemEventId, problemEventOf, problemEventsOf } from '../../../../pipelines/notifications/problem-events.js';
import type { ProblemRow } from '../../../../pipelines/problems/problem-row.js';

const row: ProblemRow = {
  id: '0b6f3c1e-8a51-4f1c-9d2e-3f4a5b6c7d8e',
  trigger_id: 3,
  trigger_name: 'cpu-high',
  ci_id: 12,
  date_start: '2026-03-02 08:00:00.250',
  date_end: null,
  last_event_at: '2026-03-02 08:00:00.250',
  priority: 2,
  tags: JSON.stringify([{ id: 1, name: 'cpu', colorName: 'red' }]),
  incidents: '[]',
  influence_value: 30,
  influence_max: 0,
  with_maintenance: 0,
  acknowledged: '',
  comments_count: 0,
  version: 5,
  is_deleted: 0,
};
const names = (id: number) => (id === 12 ? 'db-1' : undefined);
const now = Date.parse('2026-03-02T09:00:00Z');

t.test('opened, acknowledged, resolved by record and by hand; other changes are none', async (t) => {
  t.same(problemEventOf({ kind: 'opened', row }, names, now), {
    id: problemEventId(row.id, 'problem.opened', 5),
    kind: 'problem.opened',
    time: '2026-03-02T08:00:00.250Z',
    problem: {
      id: row.id,
      trigger: { id: 3, name: 'cpu-high' },
      configItem: { id: 12, name: 'db-1' },
      priority: 'Problem2',
      dateStart: '2026-03-02T08:00:00.250Z',
      dateEnd: null,
      tags: [{ name: 'cpu', value: null }],
      acknowledged: false,
    },
  });
  const acked = { ...row, version: 6, acknowledged: JSON.stringify({ by: 4, byName: 'ann', at: '2026-03-02T08:05:00.000Z', comment: 'on it' }) };
  t.match(problemEventOf({ kind: 'acknowledged', row: acked, actionId: 'a1' }, names, now), {
    kind: 'problem.acknowledged',
    time: '2026-03-02T08:05:00.000Z',
    by: { id: 4, name: 'ann' },
    comment: 'on it',
    problem: { acknowledged: true },
  });
  const closed = { ...row, version: 7, date_end: '2026-03-02 08:10:00.000' };
  t.match(problemEventOf({ kind: 'resolved', row: closed }, names, now), { kind: 'problem.resolved', resolvedBy: 'record', time: '2026-03-02T08:10:00.000Z' });
  t.match(problemEventOf({ kind: 'resolved', row: closed, actionId: 'a2' }, names, now), { kind: 'problem.resolved', resolvedBy: 'hand' });
  for (const kind of ['updated', 'commented', 'removed'] as const) t.equal(problemEventOf({ kind, row }, names, now), null, kind);
  t.equal(problemEventOf({ kind: 'opened', row: { ...row, ci_id: 99 } }, names, now)?.problem.configItem.name, 'CI 99');
});

t.test('the id is the same for the same change, another for another version or kind', async (t) => {
  t.equal(problemEventOf({ kind: 'opened', row }, names, now)?.id, problemEventOf({ kind: 'opened', row }, names, now + 1)?.id);
  t.not(problemEventId(row.id, 'problem.opened', 5), problemEventId(row.id, 'problem.opened', 6));
  t.not(problemEventId(row.id, 'problem.opened', 5), problemEventId(row.id, 'problem.resolved', 5));
});

t.test('a problem opened and resolved in one step (one opened change, its row ended): opened, then resolved', async (t) => {
  const folded = { ...row, date_end: '2026-03-02 08:00:02.000' };
  const events = problemEventsOf({ kind: 'opened', row: folded }, names, now);
  t.same(
    events.map((e) => e.kind),
    ['problem.opened', 'problem.resolved'],
  );
  t.equal(events[0]!.problem.dateEnd, null, 'the opened tells the problem as it opened');
  t.match(events[1], { resolvedBy: 'record', time: '2026-03-02T08:00:02.000Z', problem: { dateEnd: '2026-03-02T08:00:02.000Z' } });
  t.not(events[0]!.id, events[1]!.id);
  t.same(problemEventsOf({ kind: 'opened', row }, names, now), [problemEventOf({ kind: 'opened', row }, names, now)], 'an open one: the opened alone');
  t.same(problemEventsOf({ kind: 'commented', row }, names, now), []);
});
