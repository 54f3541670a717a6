/**
 * Issue #14 over JetStream: a body larger than NATS's max_payload is sent in messages that fit
 * it, and a single record larger than the largest message is a 413, never a 200 that is lost or
 * a 503 retried forever. With the server's max_payload raised (as docker-compose does), a 2 MB
 * record is stored. Rows are counted on disk (no FINAL), with their distinct ids, once the
 * expected ones are there and the bus is settled.
 */
import t, { type Test } from 'tap';
import { RECORDS_STREAM } from '../../../services/runtime/bus-streams.js';
import { eventually } from '../../support/bus-recorder.js';
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

  /**
   * The stream's rows on disk (no FINAL: a copy of a record counts), their distinct ids and
   * distinct records (`i`), counted once `expected` rows are there and the bus holds no records
   * message left to store (looked at before counting, so nothing lands after the count). Bounded
   * by a generous deadline only (under the file's timeout, so a record lost fails here, saying so),
   * not timed.
   */
  async function stored(p: TestPlatform, streamId: number, expected: number): Promise<{ rows: number; ids: number; records: number }> {
    let counted = { rows: 0, ids: 0, records: 0 };
    await eventually(
      `${expected} rows of stream ${streamId} stored, and the records stream settled`,
      async () => {
        const pending = (await p.platform.engines.bus.stats()).pending[RECORDS_STREAM.name] ?? 0;
        const [row] = await p.platform.engines.analytics.query<{ rows: string; ids: string; records: string }>(
          "SELECT count() AS rows, uniqExact(id) AS ids, uniqExact(JSONExtractRaw(payload, 'i')) AS records FROM events WHERE stream_id = {s:UInt64}",
          { s: streamId },
        );
        counted = { rows: Number(row!.rows), ids: Number(row!.ids), records: Number(row!.records) };
        return pending === 0 && counted.rows >= expected;
      },
      60_000,
      100,
    );
    return counted;
  }

  t.test("with NATS's default 1 MB max_payload, a 5 MB body of small records is stored whole, in messages that fit", async (t) => {
    const { p, key, id } = await platformWith(servers.nats.url, t);
    const lines = Array.from({ length: 30_000 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(180) }));
    const body = lines.join('\n');
    t.ok(body.length > 5 * MB, `${(body.length / MB).toFixed(1)} MB`);
    const answer = await post(p, key, body);
    t.equal(answer.status, 200, JSON.stringify(answer.body));
    t.strictSame(answer.body, { accepted: 30_000 });
    const { rows, ids, records } = await stored(p, id, 30_000);
    t.equal(rows, 30_000, 'event rows (no FINAL) = acknowledged records: none stored twice, none lost');
    t.equal(ids, 30_000, 'distinct event ids = acknowledged records');
    t.equal(records, 30_000, 'every record sent is among them');
  });

  t.test('with the default max_payload, a 2 MB record is a 413 naming the limit, and nothing is stored', async (t) => {
    const { p, key, id } = await platformWith(servers.nats.url, t);
    const answer = await post(p, key, JSON.stringify({ big: 'y'.repeat(2 * MB) }), 'application/json');
    t.equal(answer.status, 413);
    t.match(answer.body.detail, /larger than the largest message the bus takes/);
    // A record sent after it and stored: whatever the refused body had put on the bus is stored by now.
    const after = await post(p, key, JSON.stringify({ i: 'after' }), 'application/json');
    t.strictSame([after.status, after.body], [200, { accepted: 1 }]);
    t.strictSame(await stored(p, id, 1), { rows: 1, ids: 1, records: 1 }, 'the later record alone is stored');
    const payloads = await p.platform.engines.analytics.query<{ payload: string }>('SELECT payload FROM events WHERE stream_id = {s:UInt64}', { s: id });
    t.strictSame(
      payloads.map((r) => JSON.parse(r.payload)),
      [{ i: 'after' }],
      'nothing of the refused record',
    );
  });

  t.test('with max_payload raised to 8 MB, a 2 MB record is stored', async (t) => {
    const { p, key, id } = await platformWith(bigNats.url, t);
    const answer = await post(p, key, JSON.stringify({ i: 'big', big: 'z'.repeat(2 * MB) }), 'application/json');
    t.equal(answer.status, 200, JSON.stringify(answer.body));
    t.strictSame(answer.body, { accepted: 1 });
    t.strictSame(await stored(p, id, 1), { rows: 1, ids: 1, records: 1 }, 'stored once');
    const [row] = await p.platform.engines.analytics.query<{ n: string }>('SELECT length(payload) AS n FROM events WHERE stream_id = {s:UInt64}', { s: id });
    t.ok(Number(row!.n) > 2 * MB, 'the whole record');
  });
}
