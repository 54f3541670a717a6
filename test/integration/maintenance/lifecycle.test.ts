/**
 * Issue 5: a mode's life over the HTTP API with the clock injected (no sleeps) — created,
 * active, canceled or completed, each transition observed through GET — and the scope rules of
 * PUT and PATCH on a running mode (spec 3.2, 4.2; DESIGN §8).
 */
import t from 'tap';
import { modesCovering } from '../../../services/control-plane/maintenance/maintenance-coverage.js';
import { createControlModel } from '../../../services/control-plane/slices.js';
import { HOUR, ISO_MS, Kit, MIN } from './maintenance-kit.js';

const kit = new Kit();
let wg: number;
let root: number;
let child: number;
let other: number;
t.before(async () => {
  await kit.start();
  wg = await kit.workGroup();
  root = await kit.ci(wg);
  child = await kit.ci(wg, root);
  other = await kit.ci(wg);
});
t.teardown(() => kit.stop());

const state = async (id: number) => (await kit.get(id)).body.state;
const entries = async (id: number) => (await kit.get(id)).body.configItems.map((e: any) => [e.id, e.state, e.dateStart, e.dateEnd]);

t.test('a mode is created scheduled, becomes active, then completes at its end', async (t) => {
  const start = kit.at(HOUR);
  const end = kit.at(3 * HOUR);
  const created = await kit.create({ title: 'DB upgrade', dateStart: start, dateEnd: end, configItems: [{ id: root, scope: 'CiAndChildren', depth: 1 }], labels: { team: 'db' } });
  t.equal(created.status, 201);
  const id = created.body.id;
  t.same(created.body, {
    id,
    title: 'DB upgrade',
    dateStart: start,
    dateEnd: end,
    state: 'Scheduled',
    configItems: [{ id: root, scope: 'CiAndChildren', depth: 1, state: 'Pending', dateStart: start, dateEnd: end }],
    labels: { team: 'db' },
  });
  t.same((await kit.get(id)).body, created.body, 'GET answers the same model');

  kit.clock += HOUR - 1;
  t.equal(await state(id), 'Scheduled', 'one millisecond before its start');
  kit.clock += 1;
  t.equal(await state(id), 'Active', 'active from its start');
  t.same(await entries(id), [[root, 'Pending', start, end]]);
  kit.clock += 2 * HOUR;
  t.equal(await state(id), 'Completed', 'completed at its end (end exclusive)');
  t.same(await entries(id), [[root, 'Completed', start, end]]);
});

t.test('dates with any offset are read as instants and answered in UTC with Z', async (t) => {
  const local = `${new Date(kit.clock + HOUR + 2 * HOUR).toISOString().slice(0, 19)}+02:00`;
  const mode = await kit.mode({ dateStart: local, dateEnd: kit.at(5 * HOUR), configItems: [{ id: other, scope: 'Ci' }] });
  t.equal(mode.dateStart, kit.at(HOUR));
  t.match(mode.dateEnd, ISO_MS);
  t.equal(mode.title, null, 'title null when not given');
  t.same(mode.labels, {}, 'labels empty when not given');
  t.same(mode.configItems[0], { id: other, scope: 'Ci', depth: -1, state: 'Pending', dateStart: mode.dateStart, dateEnd: mode.dateEnd }, 'depth defaults to -1');
});

t.test('a mode may start in the past when it ends in the future: it is active at once', async (t) => {
  const mode = await kit.mode({ dateStart: kit.at(-HOUR), dateEnd: kit.at(HOUR), configItems: [{ id: other, scope: 'Ci' }] });
  t.equal(mode.state, 'Active');
});

t.test('cancel=true on a scheduled mode cancels it; it stays canceled after its start and end', async (t) => {
  const mode = await kit.mode({ dateStart: kit.at(HOUR), dateEnd: kit.at(2 * HOUR), configItems: [{ id: root, scope: 'Ci' }] });
  const put = await kit.edit('PUT', mode.id, { dateStart: mode.dateStart, dateEnd: mode.dateEnd, configItems: [{ id: root, scope: 'Ci' }], cancel: true });
  t.equal(put.status, 200);
  t.equal(put.body.state, 'Canceled');
  t.equal(put.body.dateEnd, mode.dateEnd, 'the planned end is kept');
  t.same(await entries(mode.id), [[root, 'Completed', mode.dateStart, mode.dateEnd]], 'nothing is pending in a canceled mode');
  kit.clock += 90 * MIN;
  t.equal(await state(mode.id), 'Canceled', 'not active at its start');
  kit.clock += HOUR;
  t.equal(await state(mode.id), 'Canceled', 'not completed at its end');
});

t.test('cancel=true on an active mode completes it with its end set to now (PATCH)', async (t) => {
  const mode = await kit.mode({
    dateStart: kit.at(MIN),
    dateEnd: kit.at(HOUR),
    configItems: [
      { id: root, scope: 'Ci' },
      { id: other, scope: 'Ci' },
    ],
  });
  kit.clock += 10 * MIN;
  t.equal(await state(mode.id), 'Active');
  const now = kit.at();
  const patched = await kit.edit('PATCH', mode.id, { cancel: true });
  t.equal(patched.status, 200);
  t.equal(patched.body.state, 'Completed');
  t.equal(patched.body.dateEnd, now);
  t.same(await entries(mode.id), [
    [root, 'Completed', mode.dateStart, now],
    [other, 'Completed', mode.dateStart, now],
  ]);
});

t.test('PUT on an active mode: a removed CI is ended now, a kept CI keeps its start, an added CI starts now', async (t) => {
  const start = kit.at(MIN);
  const end = kit.at(4 * HOUR);
  const mode = await kit.mode({
    dateStart: start,
    dateEnd: end,
    configItems: [
      { id: root, scope: 'Ci' },
      { id: child, scope: 'Ci' },
    ],
  });
  kit.clock += HOUR;
  const now = kit.at();
  const newEnd = kit.at(5 * HOUR);
  const put = await kit.edit('PUT', mode.id, {
    title: 'moved',
    dateStart: start,
    dateEnd: newEnd,
    configItems: [
      { id: child, scope: 'Ci' },
      { id: other, scope: 'Ci' },
    ],
  });
  t.equal(put.status, 200, put.text);
  t.equal(put.body.title, 'moved');
  t.equal(put.body.dateEnd, newEnd);
  t.same(await entries(mode.id), [
    [root, 'Completed', start, now],
    [child, 'Pending', start, newEnd],
    [other, 'Pending', now, newEnd],
  ]);

  kit.clock += HOUR;
  const later = kit.at();
  const depth = await kit.edit('PUT', mode.id, {
    dateStart: start,
    dateEnd: newEnd,
    configItems: [
      { id: child, scope: 'CiAndChildren', depth: 2 },
      { id: other, scope: 'Ci' },
      { id: root, scope: 'Ci' },
    ],
  });
  t.equal(depth.status, 200, depth.text);
  t.same(
    depth.body.configItems.map((e: any) => [e.id, e.scope, e.state, e.dateStart, e.dateEnd]),
    [
      [root, 'Ci', 'Completed', start, now],
      [child, 'Ci', 'Completed', start, later],
      [other, 'Ci', 'Pending', now, newEnd],
      [child, 'CiAndChildren', 'Pending', later, newEnd],
      [root, 'Ci', 'Pending', later, newEnd],
    ],
    'a changed scope ends the old entry and starts a new one; a CI put back starts again',
  );
});

t.test('PUT on a scheduled mode replaces everything, the start included', async (t) => {
  const mode = await kit.mode({ title: 't', dateStart: kit.at(HOUR), dateEnd: kit.at(2 * HOUR), configItems: [{ id: root, scope: 'Ci' }], labels: { a: 'b' } });
  const start = kit.at(3 * HOUR);
  const end = kit.at(4 * HOUR);
  const put = await kit.edit('PUT', mode.id, { dateStart: start, dateEnd: end, configItems: [{ id: other, scope: 'CiAndChildren', depth: 0 }] });
  t.equal(put.status, 200);
  t.same(put.body, {
    id: mode.id,
    title: null,
    dateStart: start,
    dateEnd: end,
    state: 'Scheduled',
    labels: {},
    configItems: [{ id: other, scope: 'CiAndChildren', depth: 0, state: 'Pending', dateStart: start, dateEnd: end }],
  });
});

t.test('PATCH changes only what is sent; null keeps the old value', async (t) => {
  const mode = await kit.mode({ title: 'keep', dateStart: kit.at(HOUR), dateEnd: kit.at(2 * HOUR), configItems: [{ id: root, scope: 'Ci' }], labels: { a: 'b' } });
  const nulls = await kit.edit('PATCH', mode.id, { title: null, dateStart: null, dateEnd: null, configItems: null, labels: null, cancel: null });
  t.equal(nulls.status, 200);
  t.same(nulls.body, mode, 'all null: nothing changes');
  const end = kit.at(3 * HOUR);
  const patched = await kit.edit('PATCH', mode.id, { dateEnd: end, labels: { c: 'd' } });
  t.same([patched.body.title, patched.body.dateStart, patched.body.dateEnd, patched.body.labels], ['keep', mode.dateStart, end, { c: 'd' }]);
  t.same(patched.body.configItems[0].dateEnd, end, 'the entries follow the mode’s end');

  kit.clock += HOUR;
  const extended = await kit.edit('PATCH', mode.id, {
    dateEnd: kit.at(5 * HOUR),
    configItems: [
      { id: root, scope: 'Ci' },
      { id: other, scope: 'Ci' },
    ],
  });
  t.equal(extended.status, 200, extended.text);
  t.same(
    extended.body.configItems.map((e: any) => [e.id, e.dateStart, e.dateEnd]),
    [
      [root, mode.dateStart, kit.at(5 * HOUR)],
      [other, kit.at(), kit.at(5 * HOUR)],
    ],
  );
  const sameStart = await kit.edit('PATCH', mode.id, { dateStart: mode.dateStart.replace('Z', '+00:00') });
  t.equal(sameStart.status, 200, 'an active mode may be sent its own start');
});

t.test('PUT of the model GET answered (state and entry dates included) changes nothing on a running mode', async (t) => {
  const mode = await kit.mode({ title: 'echo', dateStart: kit.at(-MIN), dateEnd: kit.at(HOUR), configItems: [{ id: root, scope: 'CiAndChildren', depth: 2 }], labels: { x: 'y' } });
  kit.clock += MIN;
  const got = (await kit.get(mode.id)).body;
  const put = await kit.edit('PUT', mode.id, got);
  t.equal(put.status, 200, put.text);
  t.same(put.body, got);
});

t.test('modes survive a reload of the control plane from the journal', async (t) => {
  const mode = await kit.mode({ dateStart: kit.at(HOUR), dateEnd: kit.at(2 * HOUR), configItems: [{ id: child, scope: 'Ci' }] });
  const fresh = createControlModel();
  const snapshot = await kit.p.platform.engines.journal.load();
  fresh.load(snapshot.records, snapshot.revision);
  t.same(fresh.slices.maintenance.modes.get(mode.id), kit.p.platform.controlPlane.model.slices.maintenance.modes.get(mode.id));
  t.same(modesCovering(fresh, child, Date.parse(mode.dateStart)), modesCovering(kit.p.platform.controlPlane.model, child, Date.parse(mode.dateStart)));
});
