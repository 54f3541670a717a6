/**
 * Issue #7 acceptance, over HTTP on the embedded platform: records posted to a stream open and
 * resolve problems on CIs (DESIGN §7); GET config-items/{id}?includeState&includeHealth shows the
 * state and the reduced health (spec 2.5); the problems table holds the right rows.
 */
import t from 'tap';
import { chText, MAINT, ProblemsKit } from './problems-kit.js';

const k = new ProblemsKit();
t.before(() => k.start());
t.teardown(() => k.stop());

const MIN = 60_000;
const at = (base: number, minutes: number) => new Date(base + minutes * MIN).toISOString();

async function setUp() {
  const wg = await k.workGroup();
  const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const stream = await k.stream();
  const trigger = await k.trigger(stream.id);
  return { wg, ci, stream, trigger };
}

t.test('a CI without any trigger hit is Unknown with health 100', async (t) => {
  const { ci } = await setUp();
  const got = await k.getCi(ci.id);
  t.same(got.state.value, 'Unknown');
  t.same(got.healthStatus.value, 100);
  t.same(await k.problems(ci.id), []);
});

t.test('a matching record opens a problem: state Problem, health 100 − influence, a row with its priority and incidents', async (t) => {
  const { ci, stream, trigger } = await setUp();
  const start = at(k.clock, -30);
  await k.post(stream.key, [{ '@timestamp': start, check: 'cpu', host: ci.name, severity: 'major', status: 'firing', ticket: 'INC-1' }]);
  const got = await k.getCi(ci.id);
  t.equal(got.state.value, 'Problem');
  t.equal(got.state.valueUnderMaintenance, 'Unknown', 'no maintenance covers the CI');
  t.equal(got.state.Timestamp, start);
  t.equal(got.healthStatus.value, 70);
  t.same(got.healthStatus.calculation, { resultBy: 'Direct', direct: 70, weight: 100 });
  const rows = await k.problems(ci.id);
  t.equal(rows.length, 1);
  t.match(rows[0], { trigger_id: trigger.id, ci_id: ci.id, date_start: chText(start), date_end: null, priority: 2, with_maintenance: 0 });
  t.same(JSON.parse(rows[0]!.incidents), [{ connector: { id: 7, name: 'tracker' }, incidents: [{ id: 'INC-1', type: 'Incident' }] }]);
});

t.test('a resolving record closes the problem: state Ok, health back to 100, duration end − start', async (t) => {
  const { ci, stream } = await setUp();
  const start = at(k.clock, -50);
  const end = at(k.clock, -20);
  await k.post(stream.key, [{ '@timestamp': start, check: 'cpu', host: ci.name, severity: 'critical' }]);
  await k.post(stream.key, [{ '@timestamp': at(k.clock, -40), check: 'cpu', host: ci.name, severity: 'critical' }]);
  await k.post(stream.key, [{ '@timestamp': end, check: 'cpu', host: ci.name, status: 'ok' }]);
  const got = await k.getCi(ci.id);
  t.equal(got.state.value, 'Ok');
  t.equal(got.state.Timestamp, end);
  t.equal(got.healthStatus.value, 100);
  const rows = await k.problems(ci.id);
  t.equal(rows.length, 1, 'refreshes do not open a second problem');
  t.match(rows[0], { date_start: chText(start), date_end: chText(end), priority: 1 });
  t.equal(Date.parse(end) - Date.parse(start), 30 * MIN, 'the problem lasted 30 minutes');
});

t.test('records that do not match the trigger, or name no known CI, open nothing', async (t) => {
  const { ci, stream } = await setUp();
  await k.post(stream.key, [{ check: 'disk', host: ci.name }, { check: 'cpu', host: 'no-such-host' }, { check: 'cpu' }]);
  t.equal((await k.getCi(ci.id)).state.value, 'Unknown');
  t.same(await k.problems(ci.id), []);
});

t.test('under an active maintenance valueUnderMaintenance shows the state and the row says withMaintenance', async (t) => {
  const { ci, stream } = await setUp();
  const mode = await k.api('POST', MAINT, {
    json: { title: 'patching', dateStart: at(k.clock, -60), dateEnd: at(k.clock, 60), configItems: [{ id: ci.id, scope: 'Ci', depth: 0 }] },
  });
  t.equal(mode.status, 201, mode.text);
  await k.post(stream.key, [{ '@timestamp': at(k.clock, -10), check: 'cpu', host: ci.name, severity: 'minor' }]);
  const got = await k.getCi(ci.id);
  t.equal(got.state.value, 'Problem');
  t.equal(got.state.valueUnderMaintenance, 'Problem');
  t.equal(got.healthStatus.value, 70);
  const rows = await k.problems(ci.id);
  t.match(rows[0], { priority: 3, with_maintenance: 1 });
});

t.test('a late resolving record closes the problem at its own date, and a later one does not reopen it', async (t) => {
  const { ci, stream } = await setUp();
  // Arrival order: open at −30, open again at −5 (a second problem), then the resolve at −20.
  await k.post(stream.key, [{ '@timestamp': at(k.clock, -30), check: 'cpu', host: ci.name }]);
  await k.post(stream.key, [{ '@timestamp': at(k.clock, -5), check: 'cpu', host: ci.name }]);
  t.equal((await k.problems(ci.id)).length, 1, 'before the resolve, one problem from −30');
  await k.post(stream.key, [{ '@timestamp': at(k.clock, -20), check: 'cpu', host: ci.name, status: 'resolved' }]);
  const rows = await k.problems(ci.id);
  t.same(
    rows.map((r) => [r.date_start, r.date_end]),
    [
      [chText(at(k.clock, -30)), chText(at(k.clock, -20))],
      [chText(at(k.clock, -5)), null],
    ],
  );
  t.equal((await k.getCi(ci.id)).state.value, 'Problem', 'the problem from −5 is still open');
  // A resolve older than both changes nothing after it.
  await k.post(stream.key, [{ '@timestamp': at(k.clock, -40), check: 'cpu', host: ci.name, status: 'ok' }]);
  t.equal((await k.problems(ci.id)).length, 2);
});

t.test('the same check twice in one post refreshes one problem, it does not open two', async (t) => {
  const { ci, stream } = await setUp();
  const record = { '@timestamp': at(k.clock, -3), check: 'cpu', host: ci.name };
  await k.post(stream.key, [record, record]);
  t.equal((await k.problems(ci.id)).length, 1);
});

t.test('a CI renamed while a problem is open keeps it; a record under the new name refreshes it', async (t) => {
  const { ci, stream } = await setUp();
  await k.post(stream.key, [{ '@timestamp': at(k.clock, -10), check: 'cpu', host: ci.name }]);
  const renamed = `${ci.name}-renamed`;
  const put = await k.api('PUT', `/api/public/sm/v2/rsm/config-items/${ci.id}`, {
    json: { name: renamed, description: '', ownerWorkGroup: ci.ownerWorkGroup, configItemType: null, labels: null },
  });
  t.equal(put.status, 200, put.text);
  t.equal((await k.getCi(ci.id)).state.value, 'Problem');
  await k.post(stream.key, [{ '@timestamp': at(k.clock, -2), check: 'cpu', host: renamed, status: 'ok' }]);
  const rows = await k.problems(ci.id);
  t.equal(rows.length, 1);
  t.equal(rows[0]!.date_end, chText(at(k.clock, -2)));
});

t.test('a CI deleted with an open problem: the problem closes at the delete', async (t) => {
  const { ci, stream } = await setUp();
  await k.post(stream.key, [{ '@timestamp': at(k.clock, -10), check: 'cpu', host: ci.name }]);
  const deleted = await k.api('DELETE', `/api/public/sm/v2/rsm/config-items/${ci.id}`);
  t.equal(deleted.status, 204);
  // The event worker writes the rows of changes committed elsewhere within a second.
  let rows = await k.problems(ci.id);
  for (let i = 0; i < 50 && rows[0]?.date_end === null; i++) {
    await new Promise((r) => setTimeout(r, 100));
    rows = await k.problems(ci.id);
  }
  t.equal(rows.length, 1);
  t.equal(rows[0]!.date_end, chText(new Date(k.clock).toISOString()));
});

t.test('a trigger deleted with an open problem: the problem closes at the delete and keeps the trigger’s name', async (t) => {
  const { ci, stream, trigger } = await setUp();
  await k.post(stream.key, [{ '@timestamp': at(k.clock, -10), check: 'cpu', host: ci.name }]);
  t.equal((await k.getCi(ci.id)).state.value, 'Problem');
  t.equal((await k.api('DELETE', `/api/admin/v1/triggers/${trigger.id}`)).status, 204);
  t.equal((await k.getCi(ci.id)).state.value, 'Ok', 'nothing is open any more');
  let rows = await k.problems(ci.id);
  for (let i = 0; i < 50 && rows[0]?.date_end === null; i++) {
    await new Promise((r) => setTimeout(r, 100));
    rows = await k.problems(ci.id);
  }
  t.equal(rows[0]!.date_end, chText(new Date(k.clock).toISOString()));
  const [named] = await k.p.platform.engines.analytics.query<{ trigger_name: string }>('SELECT trigger_name FROM problems FINAL WHERE id = {id:UUID}', { id: rows[0]!.id });
  t.equal(named!.trigger_name, trigger.name);
});
