/**
 * Issue #30: which change a key's written rows announce on the problem change feed
 * (problem-changes.ts `keyChanges`), one test per rule, and the feed message's encoding.
 */

import t from 'tap';
import type { ActionVerdict, ProblemAction, ProblemActionKind } from '../../../../pipelines/problems/problem-actions.js';
import { type ChangesMessage, decodeChanges, encodeChangeChunks, encodeChanges, keyChanges } from '../../../../pipelines/problems/problem-changes.js';
import { deletedProblemRow, problemRow, type RowContext } from '../../../../pipelines/problems/problem-row.js';
import { type IncidentRef, type ProblemSpan, problemId } from '../../../../pipelines/problems/problem-timeline.js';

const MIN = 60_000;
const T0 = Date.parse('2026-11-01T00:00:00.000Z');
const at = (minutes: number) => T0 + minutes * MIN;
const P = problemId(1, 1, 'a');
const Q = problemId(1, 1, 'b');
const CTX: RowContext = {
  triggerId: 1,
  triggerName: 'disk full',
  ciId: 1,
  tags: [],
  influence: { value: 0, maxInfluence: false },
  version: 2,
  underMaintenance: () => false,
  now: at(100),
};
const INCIDENT: IncidentRef = { connectorId: 1, connectorName: 'jira', id: 'OPS-1', type: 'incident' };

/** Problem P opened at minute 10, last record at minute 20, open. */
const OPEN: ProblemSpan = { id: P, start: at(10), end: null, lastEventAt: at(20), priority: 2, incidents: [] };
const byId = (...spans: ProblemSpan[]) => new Map(spans.map((s) => [s.id, s]));
const rowOf = (span: ProblemSpan) => problemRow(span, CTX);
const action = (id: string, kind: ProblemActionKind, problem = P): ProblemAction => ({
  id,
  kind,
  problemId: problem,
  triggerId: 1,
  ciId: 1,
  by: { id: 7, name: 'Ada' },
  at: at(30),
});

t.test('a row of a problem the key did not hold before: opened', async (t) => {
  const row = rowOf(OPEN);
  t.same(keyChanges([row], byId(), byId(OPEN), []), [{ kind: 'opened', row }]);
});

t.test('a problem open before and closed now: resolved', async (t) => {
  const closed = { ...OPEN, end: at(30) };
  const row = rowOf(closed);
  t.same(keyChanges([row], byId(OPEN), byId(closed), []), [{ kind: 'resolved', row }]);
});

t.test('a change of priority, incidents, start or end (a late record) of a held problem: updated', async (t) => {
  const variants: Array<[string, ProblemSpan, ProblemSpan]> = [
    ['priority', OPEN, { ...OPEN, priority: 1 }],
    ['incidents', OPEN, { ...OPEN, incidents: [INCIDENT] }],
    ['another incident', { ...OPEN, incidents: [INCIDENT] }, { ...OPEN, incidents: [{ ...INCIDENT, id: 'OPS-2' }] }],
    ['start', OPEN, { ...OPEN, start: at(5) }],
    ['end of a closed problem', { ...OPEN, end: at(40) }, { ...OPEN, end: at(30) }],
    ['reopened', { ...OPEN, end: at(40) }, OPEN],
  ];
  for (const [what, was, now] of variants) {
    const row = rowOf(now);
    t.same(keyChanges([row], byId(was), byId(now), []), [{ kind: 'updated', row }], what);
  }
});

t.test('a held problem whose only change is its last record’s date, or none (a repair): no change', async (t) => {
  const refreshed = { ...OPEN, lastEventAt: at(25) };
  t.same(keyChanges([rowOf(refreshed)], byId(OPEN), byId(refreshed), []), [], 'refreshed');
  t.same(keyChanges([rowOf(OPEN)], byId(OPEN), byId(OPEN), []), [], 'written again as it was');
});

t.test('a deleted row of a problem held before: removed; of one never held: no change', async (t) => {
  const row = deletedProblemRow(P, CTX);
  t.same(keyChanges([row], byId(OPEN), byId(), []), [{ kind: 'removed', row }]);
  t.same(keyChanges([deletedProblemRow(Q, CTX)], byId(OPEN), byId(OPEN), []), [], 'an id the key never announced');
});

t.test('the row of a problem an action changed: the action’s kind and id (unacknowledge: updated)', async (t) => {
  const closed = { ...OPEN, end: at(30) };
  const cases: Array<[ProblemActionKind, ProblemSpan, string]> = [
    ['acknowledge', OPEN, 'acknowledged'],
    ['unacknowledge', OPEN, 'updated'],
    ['comment', OPEN, 'commented'],
    ['resolve', closed, 'resolved'],
  ];
  for (const [kind, now, expected] of cases) {
    const row = rowOf(now);
    t.same(keyChanges([row], byId(OPEN), byId(now), [action(`x-${kind}`, kind)]), [{ kind: expected, row, actionId: `x-${kind}` }], kind);
  }
  const other = rowOf({ ...OPEN, id: Q });
  t.same(
    keyChanges([rowOf(OPEN), other], byId(OPEN), byId(OPEN, { ...OPEN, id: Q }), [action('x1', 'comment')]),
    [
      { kind: 'commented', row: rowOf(OPEN), actionId: 'x1' },
      { kind: 'opened', row: other },
    ],
    'only the acted-on problem’s row takes the action’s kind',
  );
});

t.test('a changes message survives encode then decode, also from a view into a larger buffer', async (t) => {
  const verdicts: ActionVerdict[] = [
    { actionId: 'x1', problemId: P },
    { actionId: 'x2', problemId: Q, refused: 'problem.closed' },
  ];
  const message: ChangesMessage = {
    changes: [
      { kind: 'acknowledged', row: rowOf(OPEN), actionId: 'x1' },
      { kind: 'removed', row: deletedProblemRow(Q, CTX) },
    ],
    verdicts,
  };
  const encoded = encodeChanges(message);
  t.strictSame(decodeChanges(encoded), message);
  const framed = new Uint8Array(encoded.byteLength + 8);
  framed.set(encoded, 4);
  t.strictSame(decodeChanges(framed.subarray(4, 4 + encoded.byteLength)), message, 'only the view’s bytes are read');
  t.same(decodeChanges(Buffer.from('{}')), { changes: [], verdicts: [] }, 'missing lists read as empty');
});

t.test('a changes message over the bus limit is sent in parts under it: in order, changes before answers, nothing lost', async (t) => {
  const changes = Array.from({ length: 300 }, (_, i) => ({ kind: 'opened' as const, row: rowOf({ ...OPEN, id: problemId(1, i + 1, 'a') }) }));
  const verdicts: ActionVerdict[] = Array.from({ length: 50 }, (_, i) => ({ actionId: `a${i}`, problemId: P }));
  const message: ChangesMessage = { changes, verdicts };
  const whole = encodeChanges(message).byteLength;
  t.same(encodeChangeChunks(message, whole), [encodeChanges(message)], 'one part when it fits');

  const limit = Math.ceil(whole / 7);
  const parts = encodeChangeChunks(message, limit);
  t.ok(parts.length >= 7, `${parts.length} parts of at most ${limit} bytes`);
  t.ok(
    parts.every((p) => p.byteLength <= limit),
    'each under the limit',
  );
  const decoded = parts.map(decodeChanges);
  t.strictSame(
    decoded.flatMap((d) => d.changes),
    changes,
    'the changes in order',
  );
  t.strictSame(
    decoded.flatMap((d) => d.verdicts),
    verdicts,
    'the answers in order',
  );
  const firstAnswer = decoded.findIndex((d) => d.verdicts.length > 0);
  t.ok(
    decoded.slice(firstAnswer + 1).every((d) => d.changes.length === 0),
    'no change after the first answer',
  );
  const one = encodeChangeChunks({ changes: changes.slice(0, 3), verdicts: [] }, 10);
  t.equal(one.length, 3, 'a change larger than the limit is a part of its own');
});
