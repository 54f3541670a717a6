/**
 * The event loop's thread keeps its priority; every other thread of the process runs at the
 * configured nice value, those started later too (services/runtime/thread-priority.ts). Read back
 * from /proc, as the scheduler sees them: real threads (worker_threads), no fake.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import t, { type Test } from 'tap';
import { lowerHelperThreads } from '../../../services/runtime/thread-priority.js';

/** The nice value of each thread of this process, from /proc/self/task/<id>/stat (field 19). */
function niceValues(): Map<number, number> {
  const values = new Map<number, number>();
  for (const id of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${id}/stat`, 'utf8');
      // The command name may hold spaces: fields are counted after its closing parenthesis.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      values.set(Number(id), Number(fields[16]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return values;
}

/** Starts a thread that waits until it is terminated; resolves once it runs, with its thread id. */
async function startThread(t: Test): Promise<number> {
  const before = new Set(niceValues().keys());
  const worker = new Worker('setInterval(() => {}, 1000); require("node:worker_threads").parentPort.postMessage("up")', { eval: true });
  t.teardown(() => worker.terminate());
  await new Promise((resolve) => worker.once('message', resolve));
  const started = [...niceValues().keys()].filter((id) => !before.has(id));
  // Node may start threads of its own meanwhile; the worker's is among the new ones.
  if (started.length === 0) throw new Error('no new thread seen');
  return started[0]!;
}

t.test('every thread but the event loop runs at the configured nice value', async (t) => {
  const own = niceValues().get(process.pid);
  const priority = lowerHelperThreads(10);
  t.teardown(() => priority.stop());
  const values = niceValues();
  t.equal(values.get(process.pid), own, 'the event loop keeps its priority');
  for (const [id, nice] of values) if (id !== process.pid) t.ok(nice >= 10, `thread ${id} runs at nice ${nice}`);
});

t.test('a thread started later is lowered at the next walk', async (t) => {
  const own = niceValues().get(process.pid);
  const priority = lowerHelperThreads(12, { rescanMs: 3_600_000 });
  t.teardown(() => priority.stop());
  const thread = await startThread(t);
  t.ok(priority.apply() >= 1, 'the walk lowered the new thread');
  t.equal(niceValues().get(thread), 12);
  t.equal(niceValues().get(process.pid), own);
});

t.test('a thread already at a higher nice value is left there', async (t) => {
  const thread = await startThread(t);
  setPriority(thread, 17);
  const priority = lowerHelperThreads(13);
  t.teardown(() => priority.stop());
  t.equal(niceValues().get(thread), 17);
});

t.test('nice value 0 leaves every thread as it is', async (t) => {
  const thread = await startThread(t);
  const before = niceValues().get(thread);
  const priority = lowerHelperThreads(0);
  t.teardown(() => priority.stop());
  t.equal(priority.apply(), 0);
  t.equal(niceValues().get(thread), before);
});
