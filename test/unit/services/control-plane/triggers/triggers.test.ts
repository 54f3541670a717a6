/** The triggers slice and its commands, on an in-memory model (no journal). */
import t, { type Test } from 'tap';
import type { TriggerCreateBody } from '../../../../../schemas/trigger.schema.js';
import { createControlModel } from '../../../../../services/control-plane/slices.js';
import type { PlatformCommand, PlatformModel } from '../../../../../services/control-plane/model.js';
import { createTrigger, deleteTrigger, patchTrigger } from '../../../../../services/control-plane/triggers/triggers.commands.js';
import { AppError } from '../../../../../schemas/errors.js';

const NOW = '2026-05-04T09:00:00.000Z';

/** A model with streams 1 and 2, CI 10 and CI type 20. */
function model(): PlatformModel {
  const m = createControlModel();
  m.load(
    new Map<string, unknown>([
      ['stream:1', { id: 1, name: 's1', key: 'k1', status: 'active', config: {}, createdAt: NOW, updatedAt: NOW }],
      ['stream:2', { id: 2, name: 's2', key: 'k2', status: 'active', config: {}, createdAt: NOW, updatedAt: NOW }],
      ['ci:10', { id: 10, name: 'router', parentId: null, typeId: 20, labels: null, grants: [], influentialIds: [] }],
      ['citype:20', { id: 20, name: 'Server', description: '', isDefault: true }],
    ]),
    1,
  );
  return m;
}

/** Runs a command and applies its changes as the journal would. */
function run<R>(m: PlatformModel, command: PlatformCommand<R>): R {
  const outcome = command(m);
  if (outcome.changes.length > 0) m.applyEntry({ revision: m.revision + 1, changes: outcome.changes });
  return outcome.result(m);
}

function refused(t: Test, m: PlatformModel, command: PlatformCommand<unknown>, code: string, paths: string[] = []): void {
  try {
    command(m);
    t.fail(`expected ${code}`);
  } catch (error) {
    t.ok(error instanceof AppError);
    t.equal((error as AppError).kind, code);
    t.same(
      ((error as AppError).errors ?? []).map((e) => e.path),
      paths,
    );
  }
}

const body = (over: Partial<TriggerCreateBody> = {}): TriggerCreateBody => ({
  name: 'down',
  streamIds: [1],
  match: [],
  ci: { by: 'idField', field: 'ci' },
  priority: { value: 1 },
  resolve: { field: 'status', values: ['ok'] },
  influence: { value: 100, maxInfluence: true },
  ...over,
});

t.test('forStream is kept current on create, patch and delete, in id order', async (t) => {
  const m = model();
  const { triggers } = m.slices;
  const a = run(m, createTrigger(body({ name: 'a', streamIds: [2, 1] }), NOW));
  const b = run(m, createTrigger(body({ name: 'b', streamIds: [1], enabled: false }), NOW));
  t.same(
    triggers.forStream(1).map((x) => x.id),
    [a.id, b.id],
    'disabled triggers are indexed too',
  );
  t.same(
    triggers.forStream(2).map((x) => x.id),
    [a.id],
  );
  run(m, patchTrigger(a.id, { streamIds: [2] }, NOW));
  t.same(
    triggers.forStream(1).map((x) => x.id),
    [b.id],
    'moved off stream 1',
  );
  t.equal(triggers.forStream(2)[0]!.streamIds.length, 1, 'the index holds the new version');
  run(m, deleteTrigger(a.id, NOW));
  t.same(triggers.forStream(2), []);
  t.same(triggers.forStream(99), []);
  t.ok(Object.isFrozen(triggers.forStream(1)), 'callers cannot change the index');
});

t.test('create fills the defaults and takes its id from the trigger sequence', async (t) => {
  const m = model();
  const created = run(m, createTrigger(body(), NOW));
  t.same(created, { id: 1, ...body(), description: '', enabled: true, tags: [], incidents: [], createdAt: NOW, updatedAt: NOW });
  t.equal(m.sequences.current('trigger'), 1);
});

t.test('every reference and pattern is checked, all failures at once', async (t) => {
  const m = model();
  refused(
    t,
    m,
    createTrigger(
      body({
        streamIds: [1, 3],
        match: [
          { field: 'a', op: 'exists' },
          { field: 'b', op: 'regex', pattern: '(x' },
        ],
        ci: { by: 'nameField', field: 'host', ciTypeId: 21 },
        priority: { field: 'sev', map: { '': 1, 'a/b~': 2 }, default: 4 },
      }),
      NOW,
    ),
    'validation',
    ['/streamIds/1', '/match/1/pattern', '/ci/ciTypeId', '/priority/map/'],
  );
  refused(t, m, createTrigger(body({ ci: { by: 'fixed', id: 11 } }), NOW), 'validation', ['/ci/id']);
  t.equal(run(m, createTrigger(body({ ci: { by: 'fixed', id: 10 } }), NOW)).id, 1);
});

t.test('names are unique; patch re-checks the merged trigger; unknown ids are 404', async (t) => {
  const m = model();
  const a = run(m, createTrigger(body({ name: 'a' }), NOW));
  run(m, createTrigger(body({ name: 'b' }), NOW));
  refused(t, m, createTrigger(body({ name: 'a' }), NOW), 'conflict');
  refused(t, m, patchTrigger(a.id, { name: 'b' }, NOW), 'conflict');
  refused(t, m, patchTrigger(a.id, { streamIds: [7] }, NOW), 'validation', ['/streamIds/0']);
  refused(t, m, patchTrigger(99, { enabled: false }, NOW), 'not-found');
  refused(t, m, deleteTrigger(99, NOW), 'not-found');
  t.same(patchTrigger(a.id, {}, '2030-01-01T00:00:00.000Z')(m).changes, [], 'an empty patch writes nothing');
});
