/**
 * Issue #7 acceptance: with two event workers on one JetStream consumer, 100 000 records for
 * 1 000 CIs produce the same problems as one worker does. Each installation gets the same CIs,
 * stream and trigger, and the same records, posted shuffled and in parallel so that the two
 * workers see each key's records out of order. Problem ids derive from the record ids, which
 * depend on how the ingress packed the records, so the tables are compared on what a problem
 * is: its CI, trigger, start, end and priority.
 */
import t from 'tap';
import { connect } from 'nats';
import { missingServices } from '../../support/services.js';
import { startDistributed, type DistributedServers } from '../../support/distributed.js';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { seededRandom as prng } from '../../support/random.js';

const CI_COUNT = 1000;
const PER_CI = 100;
const PER_POST = 1000;
const BASE = Date.parse('2026-11-20T00:00:00.000Z');


function records(): string[] {
  const random = prng(7);
  const out: string[] = [];
  for (let c = 0; c < CI_COUNT; c++) {
    for (let j = 0; j < PER_CI; j++) {
      // 30 s apart per CI: a key's records span 50 minutes, inside the late window.
      const ts = new Date(BASE + j * 30_000 + c).toISOString();
      const resolve = random() < 0.35;
      const severity = ['critical', 'major', 'minor'][Math.floor(random() * 3)];
      out.push(JSON.stringify({ '@timestamp': ts, check: 'cpu', host: `host-${c}`, severity, status: resolve ? 'ok' : 'firing' }));
    }
  }
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

async function must(p: TestPlatform, method: string, path: string, json: unknown, status: number): Promise<any> {
  const answer = await p.api(method, path, { json });
  if (answer.status !== status) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
  return answer.body;
}

/** CIs, a stream and a trigger, created in the same order everywhere (so with the same ids). */
async function install(p: TestPlatform): Promise<string> {
  const wg = await must(p, 'POST', '/api/admin/v1/work-groups', { name: 'hosts' }, 201);
  for (let c = 0; c < CI_COUNT; c++) await must(p, 'POST', '/api/public/sm/v2/rsm/config-items', { name: `host-${c}`, ownerWorkGroup: { id: wg.id } }, 201);
  const stream = await must(p, 'POST', '/api/admin/v1/streams', { name: 'telemetry' }, 201);
  await must(p, 'POST', '/api/admin/v1/triggers', {
    name: 'cpu',
    streamIds: [stream.id],
    match: [{ field: 'check', op: 'equals', value: 'cpu' }],
    ci: { by: 'nameField', field: 'host' },
    priority: { field: 'severity', map: { critical: 1, major: 2, minor: 3 }, default: 4 },
    resolve: { field: 'status', values: ['ok'] },
    influence: { value: 50, maxInfluence: false },
  }, 201);
  return stream.key;
}

async function postAll(p: TestPlatform, key: string, lines: string[]): Promise<void> {
  let next = 0;
  const sender = async () => {
    while (next < lines.length) {
      const body = lines.slice(next, (next += PER_POST)).join('\n');
      const answer = await p.api('POST', `/api/public/cl/v1/stream-data?streamKey=${key}`, { body, headers: { 'content-type': 'application/x-ndjson' }, token: null });
      if (answer.status !== 200) throw new Error(`post: ${answer.status} ${answer.text}`);
    }
  };
  await Promise.all([sender(), sender(), sender(), sender()]);
}

type Row = { ci_id: number; trigger_id: number; date_start: string; date_end: string | null; priority: number };
const problemsOf = (p: TestPlatform) =>
  p.platform.engines.analytics.query<Row>(
    `SELECT ci_id, trigger_id, toString(date_start) AS date_start, toString(date_end) AS date_end, priority
     FROM problems FINAL ORDER BY ci_id, date_start`,
  );
const eventCount = async (p: TestPlatform) => Number((await p.platform.engines.analytics.query<{ n: string }>('SELECT count() AS n FROM events FINAL'))[0]!.n);

/** Waits until every record is stored, the bus is drained and the problems table stops changing. */
async function settled(p: TestPlatform, expected: number): Promise<Row[]> {
  const deadline = Date.now() + 240_000;
  let last = '';
  for (;;) {
    const stats = (await p.platform.engines.bus.stats()).pending;
    const pending = (stats['RECORDS'] ?? 0) + (stats['HITS'] ?? 0);
    if (pending === 0 && (await eventCount(p)) >= expected) {
      const rows = await problemsOf(p);
      const text = JSON.stringify(rows);
      if (text === last) return rows;
      last = text;
    }
    if (Date.now() > deadline) throw new Error('the installation did not settle within 240 s');
    await new Promise((r) => setTimeout(r, 1500));
  }
}

const skip = missingServices('nats-server', 'redis-server');
t.test('two event workers on one JetStream consumer produce the same problems as one', { skip }, async (t) => {
  const servers: DistributedServers = await startDistributed();
  t.teardown(() => servers.stop());
  const resetBus = async () => {
    const nc = await connect({ servers: servers.nats.url });
    const jsm = await nc.jetstreamManager();
    for (const stream of ['RECORDS', 'HITS']) await jsm.streams.delete(stream).catch(() => false);
    await nc.close();
  };
  const lines = records();

  async function run(workers: 1 | 2): Promise<Row[]> {
    await resetBus();
    const env = servers.env();
    const main = await startTestPlatform({ env, parts: ['api', 'ingress', 'event-worker'], logLevel: 'warn' });
    const second = workers === 2 ? await startTestPlatform({ env, parts: ['event-worker'], logLevel: 'warn' }) : undefined;
    try {
      const key = await install(main);
      const started = Date.now();
      await postAll(main, key, lines);
      const rows = await settled(main, lines.length);
      t.comment(`${workers} worker(s): ${lines.length} records → ${rows.length} problems in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return rows;
    } finally {
      await second?.stop();
      await main.stop();
    }
  }

  const one = await run(1);
  const two = await run(2);
  t.ok(one.length > 10_000, `one worker: ${one.length} problems`);
  t.equal(two.length, one.length, 'as many problems');
  const firstDiff = one.findIndex((row, i) => JSON.stringify(row) !== JSON.stringify(two[i]));
  t.equal(firstDiff, -1, 'the same problems, row by row', { found: two[firstDiff], wanted: one[firstDiff] });
  t.ok(one.some((r) => r.date_end === null) && one.some((r) => r.date_end !== null), 'open and closed problems both compared');
});
