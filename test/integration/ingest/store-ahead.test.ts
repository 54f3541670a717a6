/**
 * An event worker inserts at most STORE_AHEAD groups at once, and pulls and decodes the next
 * batch while they run: only that batch's insert waits for a free slot (event-worker.part.ts).
 * The inserts are held at their start (the worker's beforeInsert hook) so the test decides when
 * each one ends; the engines are the embedded ones.
 */
import t from 'tap';
import { createEventWorkerPart, STORE_AHEAD } from '../../../services/event-worker/event-worker.part.js';
import { eventually } from '../../support/bus-recorder.js';
import { startTestPlatform } from '../../support/platform.js';
import { storedEvents } from '../../support/settled.js';

const PATH = '/api/public/cl/v1/stream-data';
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

t.test('at most STORE_AHEAD inserts at once; the next waits for a slot, then every record is stored', async (t) => {
  const held: Array<() => void> = [];
  let started = 0;
  let mostAtOnce = 0;
  let running = 0;
  let decoded = 0;
  const worker = createEventWorkerPart({
    afterDecode: (messages) => void (decoded += messages.length),
    beforeInsert: () => {
      started++;
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      return new Promise<void>((resolve) =>
        held.push(() => {
          running--;
          resolve();
        }),
      );
    },
  });
  const p = await startTestPlatform({ replace: [worker] });
  t.teardown(() => p.stop(true));
  const created = await p.api('POST', '/api/admin/v1/streams', { json: { name: 'store-ahead' } });
  t.equal(created.status, 201);
  const post = async (n: number): Promise<void> => {
    const answer = await fetch(`${p.base}${PATH}?streamKey=${encodeURIComponent(created.body.key)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ n }),
    });
    t.equal(answer.status, 200, `record ${n} acknowledged`);
  };
  // One post at a time, each its own bus message and, held, its own insert.
  for (let n = 1; n <= STORE_AHEAD; n++) {
    await post(n);
    await eventually(`insert ${n} started`, async () => started === n);
  }
  await post(STORE_AHEAD + 1);
  await eventually('the next batch decoded', async () => decoded === STORE_AHEAD + 1);
  t.pass('the next batch is pulled and decoded while the inserts run');
  for (let i = 0; i < 20; i++) await turn();
  t.equal(started, STORE_AHEAD, `${STORE_AHEAD} inserts running: its insert waits`);

  held.shift()!();
  await eventually('the waiting insert started', async () => started === STORE_AHEAD + 1);
  t.pass('a finished insert frees its slot for the waiting batch');
  while (held.length > 0 || started < STORE_AHEAD + 1) {
    held.shift()?.();
    await turn();
  }
  t.equal(mostAtOnce, STORE_AHEAD, 'never more at once');

  const rows = await storedEvents(p.platform, created.body.id);
  t.same(
    rows.map((r) => (JSON.parse(r.payload) as { n: number }).n).sort((a, b) => a - b),
    Array.from({ length: STORE_AHEAD + 1 }, (_, i) => i + 1),
    'every record stored, once',
  );
});
