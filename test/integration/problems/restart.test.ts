/**
 * Issue #7: the open problems are known after a restart (they live in the control-plane
 * journal): the CI still shows `Problem`, and a resolving record sent after the restart closes
 * the very problem opened before it. Issue #13: hits the stage had not placed yet are in the
 * bus's log and are placed after the restart.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { createHitsPublisher } from '../../../services/event-worker/problem-stage/hits-publisher.js';
import { createMemoryBus } from '../../../services/runtime/adapters/bus/memory.adapter.js';
import { HITS_STREAM } from '../../../services/runtime/bus-streams.js';
import { silentLogger } from '../../../services/runtime/logger.js';
import { chText, ProblemsKit } from './problems-kit.js';

/** A platform on a data directory of its own (removed after the test) with a CI, a stream and its trigger. */
async function installed(t: Test) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-problems-restart-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const k = new ProblemsKit();
  await k.start(dataDir);
  const wg = await k.workGroup();
  const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const stream = await k.stream();
  const trigger = await k.trigger(stream.id);
  return { dataDir, k, ci, stream, trigger };
}

t.test('an open problem survives a restart and is closed by a record sent after it', async (t) => {
  const { dataDir, k, ci, stream } = await installed(t);
  const opened = new Date(k.clock - 20 * 60_000).toISOString();
  await k.post(stream.key, [{ '@timestamp': opened, check: 'cpu', host: ci.name }]);
  const [before] = await k.problems(ci.id);
  await k.p.stop(false);

  await k.start(dataDir);
  t.teardown(() => k.p.stop(false));
  t.equal((await k.getCi(ci.id)).state.value, 'Problem', 'still open after the restart');
  const closed = new Date(k.clock - 5 * 60_000).toISOString();
  await k.post(stream.key, [{ '@timestamp': closed, check: 'cpu', host: ci.name, status: 'ok' }]);
  const after = await k.problems(ci.id);
  t.equal(after.length, 1, 'no second problem');
  t.equal(after[0]!.id, before!.id, 'the same problem');
  t.equal(after[0]!.date_start, chText(opened));
  t.equal(after[0]!.date_end, chText(closed));
  t.equal((await k.getCi(ci.id)).state.value, 'Ok');
});

t.test('hits on disk that the stage had not placed when the platform stopped are placed after the restart', async (t) => {
  const { dataDir, k, ci, trigger } = await installed(t);
  const partitions = k.p.platform.config.problemPartitions;
  await k.p.stop(false);

  // What an event worker leaves when the process dies right after its publish: the hits message
  // in the bus's log, and nobody has placed it.
  const bus = createMemoryBus({ logger: silentLogger() }, { logPath: join(dataDir, 'bus') });
  await bus.ensureStream(HITS_STREAM);
  const at = k.clock - 10 * 60_000;
  const hit = { id: '0123456789abcdef0123456789abcdef', ts: at, resolve: false, priority: 2 as const, incidents: [] };
  await createHitsPublisher(bus, partitions).publish([{ triggerId: trigger.id, ciId: ci.id, hit }], 'left-behind');
  await bus.close();

  await k.start(dataDir);
  t.teardown(() => k.p.stop(false));
  await k.problemsSettled();
  const rows = await k.problems(ci.id);
  t.equal(rows.length, 1, 'the problem the hit opens');
  t.equal(rows[0]!.date_start, chText(new Date(at).toISOString()));
  t.equal((await k.getCi(ci.id)).state.value, 'Problem');
});
