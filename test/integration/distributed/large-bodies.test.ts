/**
 * Issue #14 over JetStream: a body larger than NATS's max_payload is sent in messages that fit
 * it, and a single record larger than the largest message is a 413, never a 200 that is lost or
 * a 503 retried forever. With the server's max_payload raised (as docker-compose does), a 2 MB
 * record is stored. Rows are counted on disk (no FINAL).
 */
import t, { type Test } from 'tap';
import { type DistributedServers, startDistributed } from '../../support/distributed.js';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { missingServices, type RunningService, startNats } from '../../support/services.js';

const PATH = '/api/public/cl/v1/stream-data';
const MB = 1024 * 1024;

const skip = missingServices('nats-server', 'redis-server');
if (skip) {
  t.plan(0, skip);
} else {
  let servers: DistributedServers;
  let bigNats: RunningService;
  t.before(async () => {
    [servers, bigNats] = await Promise.all([startDistributed(), startNats(undefined, { maxPayloadBytes: 8 * MB })]);
  });
  t.teardown(async () => {
    await Promise.allSettled([servers?.stop(), bigNats?.stop()]);
  });

  async function platformWith(natsUrl: string, t: Test): Promise<{ p: TestPlatform; key: string; id: number }> {
    const p = await startTestPlatform({ env: { ...servers.env(), NATS_URL: natsUrl, OPS_MAX_BODY_BYTES: String(16 * MB) } });
    t.teardown(() => p.stop());
    const created = await p.api('POST', '/api/admin/v1/streams', { json: { name: 'large' } });
    return { p, key: created.body.key, id: created.body.id };
  }

  const post = async (p: TestPlatform, key: string, body: string, type = 'application/x-ndjson') => {
    const response = await fetch(`${p.base}${PATH}?streamKey=${key}`, { method: 'POST', headers: { 'content-type': type }, body });
    return { status: response.status, body: (await response.json()) as any };
  };

  /** Rows on disk once the event worker has drained the bus. */
  async function storedRows(p: TestPlatform, streamId: number, expected: number): Promise<number> {
    for (;;) {
      const rows = Number((await p.platform.engines.analytics.query<{ n: string }>('SELECT count() AS n FROM events WHERE stream_id = {s:UInt64}', { s: streamId }))[0]!.n);
      const pending = (await p.platform.engines.bus.stats()).pending['RECORDS'] ?? 0;
      if (rows >= expected || pending === 0) return rows;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  t.test("with NATS's default 1 MB max_payload, a 5 MB body of small records is stored whole, in messages that fit", async (t) => {
    const { p, key, id } = await platformWith(servers.nats.url, t);
    const lines = Array.from({ length: 30_000 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(180) }));
    const body = lines.join('\n');
    t.ok(body.length > 5 * MB, `${(body.length / MB).toFixed(1)} MB`);
    const answer = await post(p, key, body);
    t.equal(answer.status, 200, JSON.stringify(answer.body));
    t.strictSame(answer.body, { accepted: 30_000 });
    t.equal(await storedRows(p, id, 30_000), 30_000, 'every record stored once');
  });

  t.test('with the default max_payload, a 2 MB record is a 413 naming the limit, and nothing is stored', async (t) => {
    const { p, key, id } = await platformWith(servers.nats.url, t);
    const answer = await post(p, key, JSON.stringify({ big: 'y'.repeat(2 * MB) }), 'application/json');
    t.equal(answer.status, 413);
    t.match(answer.body.detail, /larger than the largest message the bus takes/);
    t.equal(await storedRows(p, id, 0), 0);
  });

  t.test('with max_payload raised to 8 MB, a 2 MB record is stored', async (t) => {
    const { p, key, id } = await platformWith(bigNats.url, t);
    const answer = await post(p, key, JSON.stringify({ big: 'z'.repeat(2 * MB) }), 'application/json');
    t.equal(answer.status, 200, JSON.stringify(answer.body));
    t.equal(await storedRows(p, id, 1), 1);
    const [row] = await p.platform.engines.analytics.query<{ n: string }>('SELECT length(payload) AS n FROM events WHERE stream_id = {s:UInt64}', { s: id });
    t.ok(Number(row!.n) > 2 * MB, 'the whole record');
  });
}
