/** From an event to a trigger hit (DESIGN §7): conditions, CI, resolve, priority and incidents. */
import t from 'tap';
import { type CiLookup, compileTrigger, valueAt } from '../../../../pipelines/problems/trigger-match.js';
import type { TriggeredEvent } from '../../../../pipelines/records/record-pipeline.js';
import type { TriggerModel } from '../../../../schemas/trigger.schema.js';
import { triggerRecord } from '../../../support/model-fixture.js';

const TS = Date.parse('2026-11-01T00:00:00.000Z');

/** CIs 10 "db" (type 1), 11 "web" (type 1), 12 "web" (type 2), 13 "cache" (type 2). */
const cis: CiLookup = (() => {
  const all = [
    { id: 10, name: 'db', typeId: 1 },
    { id: 11, name: 'web', typeId: 1 },
    { id: 12, name: 'web', typeId: 2 },
    { id: 13, name: 'cache', typeId: 2 },
  ];
  return {
    exists: (id) => all.some((ci) => ci.id === id),
    byName: (name, typeId) => {
      const found = all.filter((ci) => ci.name === name && (typeId === undefined || ci.typeId === typeId));
      return found.length === 1 ? found[0]!.id : undefined;
    },
  };
})();

const trigger = (over: Partial<TriggerModel> = {}): TriggerModel =>
  triggerRecord({ id: 5, name: 'down', resolve: { field: 'status', values: ['ok', 'resolved'] }, influence: { value: 50, maxInfluence: false }, ...over });

const event = (fields: unknown, id = 'e1'): TriggeredEvent => ({ id, streamId: 1, ts: TS, fields });
const hitOf = (over: Partial<TriggerModel>, fields: unknown) => compileTrigger(trigger(over)).hitOf(event(fields), cis);
const matches = (over: Partial<TriggerModel>, fields: unknown) => hitOf(over, { ci: 10, ...(fields as object) }) !== undefined;

t.test('an empty match matches every record and makes a hit keyed by (trigger, CI)', async (t) => {
  t.same(hitOf({}, { ci: 10 }), { triggerId: 5, ciId: 10, hit: { id: 'e1', ts: TS, resolve: false, priority: 2, incidents: [] } });
  t.same(compileTrigger(trigger({ streamIds: [3, 4] })).streamIds, [3, 4]);
});

t.test('equals compares as text too: "5" in a record equals 5 in a rule, and the other way round', async (t) => {
  const is5 = { match: [{ field: 'code', op: 'equals' as const, value: 5 }] };
  t.ok(matches(is5, { code: 5 }));
  t.ok(matches(is5, { code: '5' }));
  t.notOk(matches(is5, { code: '05' }));
  t.notOk(matches(is5, { code: 6 }));
  t.notOk(matches(is5, {}), 'a missing field equals nothing');
  t.notOk(matches(is5, { code: { value: 5 } }), 'an object equals no scalar');
  t.ok(matches({ match: [{ field: 'code', op: 'equals', value: '5' }] }, { code: 5 }));
  t.ok(matches({ match: [{ field: 'up', op: 'equals', value: true }] }, { up: 'true' }));
  t.notOk(matches({ match: [{ field: 'up', op: 'equals', value: true }] }, { up: 1 }));
});

t.test('in holds when the field equals one of the values', async (t) => {
  const severe = { match: [{ field: 'sev', op: 'in' as const, values: ['critical', 'major', 1] }] };
  t.ok(matches(severe, { sev: 'major' }));
  t.ok(matches(severe, { sev: '1' }));
  t.notOk(matches(severe, { sev: 'minor' }));
  t.notOk(matches(severe, {}));
});

t.test('regex tests strings and numbers as text, never objects', async (t) => {
  const rule = { match: [{ field: 'host', op: 'regex' as const, pattern: '^db-\\d+$' }] };
  t.ok(matches(rule, { host: 'db-12' }));
  t.notOk(matches(rule, { host: 'web-12' }));
  t.notOk(matches(rule, { host: ['db-12'] }), 'an array is not tested as text');
  t.notOk(matches(rule, { host: { toString: () => 'db-12' } }), 'an object is not tested as text');
  t.notOk(matches(rule, {}));
  const digits = { match: [{ field: 'code', op: 'regex' as const, pattern: '^5\\d\\d$' }] };
  t.ok(matches(digits, { code: 503 }));
  t.notOk(matches(digits, { code: 404 }));
  t.ok(matches({ match: [{ field: 'up', op: 'regex', pattern: '^true$' }] }, { up: true }));
});

t.test('exists holds for any value but null and undefined', async (t) => {
  const rule = { match: [{ field: 'x', op: 'exists' as const }] };
  for (const value of [0, '', false, {}, []]) t.ok(matches(rule, { x: value }), `exists: ${JSON.stringify(value)}`);
  t.notOk(matches(rule, { x: null }));
  t.notOk(matches(rule, { x: undefined }));
  t.notOk(matches(rule, {}));
});

t.test('every condition must hold', async (t) => {
  const both = {
    match: [
      { field: 'sev', op: 'equals' as const, value: 'critical' },
      { field: 'host', op: 'regex' as const, pattern: '^db' },
    ],
  };
  t.ok(matches(both, { sev: 'critical', host: 'db-1' }));
  t.notOk(matches(both, { sev: 'critical', host: 'web-1' }));
  t.notOk(matches(both, { sev: 'minor', host: 'db-1' }));
});

t.test('field paths are dot-separated and reach into nested objects', async (t) => {
  t.equal(valueAt({ host: { name: 'db', tags: ['a', 'b'] } }, 'host.name'), 'db');
  t.equal(valueAt({ host: { tags: ['a', 'b'] } }, 'host.tags.1'), 'b');
  t.equal(valueAt({ host: 'db' }, 'host.name'), undefined, 'through a scalar');
  t.equal(valueAt({ host: null }, 'host.name'), undefined, 'through null');
  t.equal(valueAt(null, 'host'), undefined);
  t.equal(valueAt({ 'host.name': 'flat' }, 'host.name'), undefined, 'a dotted key is not a path');
  const nested = hitOf(
    {
      match: [{ field: 'alert.severity', op: 'equals', value: 'high' }],
      ci: { by: 'idField', field: 'target.ci.id' },
      priority: { field: 'alert.severity', map: { high: 1 }, default: 4 },
      resolve: { field: 'alert.state', values: ['closed'] },
      incidents: [{ connector: { id: 3, name: 'jira' }, field: 'alert.ticket.key', type: 'issue' }],
    },
    { alert: { severity: 'high', state: 'open', ticket: { key: 'OPS-1' } }, target: { ci: { id: 11 } } },
  );
  t.same(nested, {
    triggerId: 5,
    ciId: 11,
    hit: { id: 'e1', ts: TS, resolve: false, priority: 1, incidents: [{ connectorId: 3, connectorName: 'jira', id: 'OPS-1', type: 'issue' }] },
  });
});

t.test('CI by fixed id: that CI when it exists, no hit otherwise', async (t) => {
  t.equal(hitOf({ ci: { by: 'fixed', id: 13 } }, {})?.ciId, 13);
  t.equal(hitOf({ ci: { by: 'fixed', id: 99 } }, {}), undefined);
});

t.test('CI by id field: a number or a string of digits naming a known CI', async (t) => {
  t.equal(hitOf({}, { ci: 11 })?.ciId, 11);
  t.equal(hitOf({}, { ci: '11' })?.ciId, 11);
  for (const ci of [99, '99', '11a', ' 11', '-11', 11.5, '', true, null, { id: 11 }]) t.equal(hitOf({}, { ci }), undefined, `no hit for ${JSON.stringify(ci)}`);
  t.equal(hitOf({}, {}), undefined, 'no hit without the field');
});

t.test('CI by name field: unique among all CIs, or within the given CI type', async (t) => {
  const byName = { ci: { by: 'nameField' as const, field: 'host' } };
  t.equal(hitOf(byName, { host: 'db' })?.ciId, 10);
  t.equal(hitOf(byName, { host: 'web' }), undefined, 'an ambiguous name names no CI');
  t.equal(hitOf(byName, { host: 'nope' }), undefined);
  t.equal(hitOf(byName, { host: { name: 'db' } }), undefined);
  t.equal(hitOf(byName, {}), undefined);
  const ofType2 = { ci: { by: 'nameField' as const, field: 'host', ciTypeId: 2 } };
  t.equal(hitOf(ofType2, { host: 'web' })?.ciId, 12, 'the type makes the name unique');
  t.equal(hitOf(ofType2, { host: 'db' }), undefined, 'a CI of another type');
});

t.test('priority: a fixed value, or the field mapped as text with a default', async (t) => {
  t.equal(hitOf({ priority: { value: 3 } }, { ci: 10 })?.hit.priority, 3);
  const mapped = { priority: { field: 'sev', map: { critical: 1, major: 2, '5': 3 }, default: 4 } };
  t.equal(hitOf(mapped, { ci: 10, sev: 'critical' })?.hit.priority, 1);
  t.equal(hitOf(mapped, { ci: 10, sev: 'major' })?.hit.priority, 2);
  t.equal(hitOf(mapped, { ci: 10, sev: 5 })?.hit.priority, 3, 'a number is looked up as text');
  t.equal(hitOf(mapped, { ci: 10, sev: 'minor' })?.hit.priority, 4, 'unmapped');
  t.equal(hitOf(mapped, { ci: 10 })?.hit.priority, 4, 'absent');
  t.equal(hitOf(mapped, { ci: 10, sev: { level: 'critical' } })?.hit.priority, 4, 'not a scalar');
});

t.test('priority: a field value naming an Object.prototype member is unmapped', async (t) => {
  const mapped = { priority: { field: 'sev', map: { critical: 1 }, default: 4 } };
  for (const sev of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) t.equal(hitOf(mapped, { ci: 10, sev })?.hit.priority, 4, sev);
});

t.test('a record whose resolve field holds one of the values resolves, compared as text', async (t) => {
  t.equal(hitOf({}, { ci: 10, status: 'ok' })?.hit.resolve, true);
  t.equal(hitOf({}, { ci: 10, status: 'resolved' })?.hit.resolve, true);
  t.equal(hitOf({}, { ci: 10, status: 'OK' })?.hit.resolve, false, 'case counts');
  t.equal(hitOf({}, { ci: 10, status: 'firing' })?.hit.resolve, false);
  t.equal(hitOf({}, { ci: 10 })?.hit.resolve, false, 'no status: an opening hit');
  t.equal(hitOf({ resolve: { field: 'state', values: [0] } }, { ci: 10, state: '0' })?.hit.resolve, true);
});

t.test('incidents are taken from their fields; empty or missing ones are skipped; a resolving hit has none', async (t) => {
  const incidents = {
    incidents: [
      { connector: { id: 1, name: 'jira' }, field: 'jira', type: 'issue' },
      { connector: { id: 2, name: 'servicenow' }, field: 'snow', type: 'incident' },
      { connector: { id: 2, name: 'servicenow' }, field: 'change', type: 'change' },
    ],
  };
  t.same(hitOf(incidents, { ci: 10, jira: 'OPS-1', snow: 4711, change: '' })?.hit.incidents, [
    { connectorId: 1, connectorName: 'jira', id: 'OPS-1', type: 'issue' },
    { connectorId: 2, connectorName: 'servicenow', id: '4711', type: 'incident' },
  ]);
  t.same(hitOf(incidents, { ci: 10, snow: null, change: { id: 'C1' } })?.hit.incidents, [], 'missing, null and object fields are skipped');
  t.same(hitOf(incidents, { ci: 10, jira: 'OPS-1', status: 'ok' })?.hit.incidents, [], 'a resolving hit carries none');
});
