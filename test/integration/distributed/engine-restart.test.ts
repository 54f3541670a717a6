/**
 * Issue #34 acceptance: "a transient error (an engine restarted) is retried and loses nothing (a
 * test per consumer)". Distributed mode (nats-server, redis-server, ClickHouse over HTTP): the
 * ClickHouse endpoint is killed (SIGKILL) while a bus consumer has work for it, and started again
 * on the same port and data directory once JetStream shows that consumer's message delivered
 * again (it met the outage and retries):
 * - event worker: records answered 200 while the store is down are stored once each after it
 *   returns (counted on disk, without FINAL), none dead-lettered;
 * - problem stage: an acknowledgement reaches it straight from the API while the store is down,
 *   and a record opening a problem comes behind the event worker; after the restart both are
 *   read back, no version of a problem written twice, no `problem-stage:` dead letter;
 * - SLA worker: a report ordered while the store is down stays Pending (never Error) and ends Ok
 *   with its rows.
 *
 * The ack wait of the consumers is shortened on the server (as nats-outage.test.ts does), because
 * nats-server 2.9.10 now and then counts a delayed-nak redelivery as delivered to a pull request
 * that expires at that moment without sending it: the message then comes back only after the ack
 * wait (30 s for the hits, 60 s for the records). Nothing is lost; the retry is late.
 */
import { connect, type JetStreamManager, nanos, type NatsConnection } from 'nats';
import t from 'tap';
import { PROBLEMS } from '../../../services/api/problems/problems.routes.js';
import { HITS_STREAM, RECORDS_STREAM, SLA_JOBS_STREAM } from '../../../services/runtime/bus-streams.js';
import { eventually } from '../../support/bus-recorder.js';
import { type DistributedServers, startDistributed } from '../../support/distributed.js';
import { missingServices } from '../../support/services.js';
import { ingestSettled } from '../../support/settled.js';
import { STREAM_DATA } from '../problems/problems-kit.js';
import { SLA, SlaKit } from '../sla/sla-kit.js';

const skip = missingServices('nats-server', 'redis-server');
if (skip) {
  t.plan(0, skip);
} else {
  const H = 3_600_000;
  const PARTITIONS = 4;
  /** The consumers' ack wait during the test (see above): far above a handler's few milliseconds here. */
  const SHORT_ACK_WAIT_MS = 5000;
  const iso = (ms: number): string => new Date(ms).toISOString();
  let servers: DistributedServers;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const k = new SlaKit();

  t.before(async () => {
    servers = await startDistributed();
    await k.start(undefined, { env: { ...servers.env(), OPS_PROBLEM_PARTITIONS: String(PARTITIONS) } });
    nc = await connect({ servers: servers.nats.url });
    jsm = await nc.jetstreamManager();
    const expected = new Map([
      [RECORDS_STREAM.name, 1],
      [HITS_STREAM.name, PARTITIONS],
      [SLA_JOBS_STREAM.name, 1],
    ]);
    for (const [stream, count] of expected) {
      await eventually(`the ${count} consumer(s) of ${stream}`, async () => (await (await jsm.consumers.list(stream)).next()).length === count);
      for (const info of await (await jsm.consumers.list(stream)).next()) await jsm.consumers.update(stream, info.name, { ack_wait: nanos(SHORT_ACK_WAIT_MS) });
    }
  });
  t.teardown(async () => {
    await nc?.close();
    await k.p?.stop();
    await servers?.stop();
  });

  /**
   * Messages of `stream` delivered again and not yet acknowledged, over its durable consumers
   * (JetStream's count): a consumer met the outage and gave its messages back to retry.
   */
  const redelivered = async (stream: string): Promise<number> => {
    let n = 0;
    for (const info of await (await jsm.consumers.list(stream)).next()) n += info.num_redelivered;
    return n;
  };

  /**
   * Kills the ClickHouse endpoint, runs `during`, waits until a message of `stream` has been
   * delivered again, runs `whileDown` on what `during` answered, and starts the endpoint again.
   */
  async function outage<T>(stream: string, during: () => Promise<T>, whileDown?: (result: T) => Promise<void>): Promise<T> {
    await servers.clickhouse.kill(true);
    try {
      const result = await during();
      await eventually(`a message of ${stream} delivered again during the outage`, async () => (await redelivered(stream)) > 0, 30_000, 50);
      await whileDown?.(result);
      return result;
    } finally {
      await servers.clickhouse.restart();
    }
  }

  const count = async (sql: string, params: Record<string, unknown> = {}): Promise<number> =>
    Number((await k.p.platform.engines.analytics.query<{ n: string }>(sql, params))[0]!.n);

  /** Posts NDJSON records to a stream; answers the HTTP status. */
  const post = async (key: string, records: object[]): Promise<number> => {
    const answer = await k.api('POST', `${STREAM_DATA}?streamKey=${key}`, {
      body: records.map((r) => JSON.stringify(r)).join('\n'),
      headers: { 'content-type': 'application/x-ndjson' },
      token: null,
    });
    return answer.status;
  };

  t.test('event worker: records answered 200 while ClickHouse is down are stored exactly once after it restarts', async (t) => {
    const stream = await k.stream();
    const marker = `restart-${stream.id}`;
    const sent: string[] = [];
    const statuses = await outage(RECORDS_STREAM.name, async () => {
      const answered: number[] = [];
      for (let p = 0; p < 4; p++) {
        const records = Array.from({ length: 25 }, (_, i) => ({ '@timestamp': iso(k.clock - 60_000 + i), m: `${marker}-${p}-${i}` }));
        answered.push(await post(stream.key, records));
        sent.push(...records.map((r) => r.m));
      }
      return answered;
    });
    t.same(statuses, [200, 200, 200, 200], 'the ingress answers 200 while ClickHouse is down (the records are on the bus)');

    await ingestSettled(k.p.platform);
    const rows = await k.p.platform.engines.analytics.query<{ m: string; c: string }>(
      "SELECT JSONExtractString(payload, 'm') AS m, count() AS c FROM events WHERE stream_id = {s:UInt64} GROUP BY m",
      { s: stream.id },
    );
    const stored = new Map(rows.map((r) => [r.m, Number(r.c)]));
    t.strictSame(
      sent.filter((m) => !stored.has(m)),
      [],
      'every record answered 200 is stored',
    );
    t.strictSame(
      [...stored].filter(([, c]) => c > 1).map(([m, c]) => `${m}×${c}`),
      [],
      'no record is stored twice on disk (no FINAL)',
    );
    t.equal(stored.size, sent.length, 'nothing stored that was not sent');
    const dead = await count('SELECT count() AS n FROM dead_letters WHERE stream_id = {s:UInt64} OR position(payload, {m:String}) > 0', { s: stream.id, m: marker });
    t.equal(dead, 0, 'no dead letters for them');
  });

  t.test('problem stage: an acknowledgement and a new problem during the outage are placed once after the restart', async (t) => {
    const wg = await k.workGroup();
    const a = await k.ci({ ownerWorkGroup: { id: wg.id } });
    const b = await k.ci({ ownerWorkGroup: { id: wg.id } });
    const stream = await k.stream();
    const trigger = await k.trigger(stream.id);
    // Before the outage: a problem on `a`, held in the API's open index (acknowledging it reads no store).
    await k.post(stream.key, [{ '@timestamp': iso(k.clock - 120_000), check: 'cpu', host: a.name, severity: 'major' }]);
    const open = await k.api('GET', `${PROBLEMS}?triggerIds=${trigger.id}`);
    t.equal(open.body.items.length, 1, 'the problem on a is open');
    const first: string = open.body.items[0].id;

    // The acknowledgement goes from the API to the problem stage on the bus, which must write its
    // rows while ClickHouse is down; the record on `b` waits behind the event worker.
    const { acking, posted } = await outage(HITS_STREAM.name, async () => ({
      acking: k.api('POST', `${PROBLEMS}/${first}/acknowledge`, { json: { comment: 'during the outage' } }),
      posted: await post(stream.key, [{ '@timestamp': iso(k.clock - 60_000), check: 'cpu', host: b.name, severity: 'critical' }]),
    }));
    t.equal(posted, 200, 'the record on b is answered 200 during the outage');
    const acked = await acking;
    t.equal(acked.status, 200, `the acknowledgement is answered once the stage placed it: ${acked.text}`);
    t.match(acked.body, { id: first, acknowledged: { comment: 'during the outage' } });
    await k.problemsSettled();

    // Read back through ClickHouse (state=all is not served from the open index).
    const listed = await k.api('GET', `${PROBLEMS}?triggerIds=${trigger.id}&state=all`);
    t.equal(listed.status, 200, listed.text);
    t.equal(listed.body.items.length, 2, 'two problems, one per CI');
    const onCi = (id: number): unknown => listed.body.items.find((item: { configItem: { id: number } }) => item.configItem.id === id);
    t.match(onCi(a.id), { id: first, dateEnd: null, acknowledged: { comment: 'during the outage' } }, 'a: acknowledged during the outage');
    t.match(onCi(b.id), { dateEnd: null, priority: 'Problem1', acknowledged: null }, 'b: opened during the outage');
    t.equal((await k.getCi(b.id)).state.value, 'Problem', "b's state shows it");

    const params = { t: trigger.id };
    const final = await k.p.platform.engines.analytics.query<{ id: string; c: string }>(
      'SELECT toString(id) AS id, count() AS c FROM problems FINAL WHERE trigger_id = {t:UInt64} GROUP BY id',
      params,
    );
    t.strictSame(
      final.map((r) => Number(r.c)),
      [1, 1],
      'two problems, each once (FINAL)',
    );
    const twice = await k.p.platform.engines.analytics.query(
      'SELECT toString(id) AS id, toString(version) AS version, count() AS c FROM problems WHERE trigger_id = {t:UInt64} GROUP BY id, version HAVING c > 1',
      params,
    );
    t.strictSame(twice, [], 'no version of a problem written twice on disk (no FINAL)');
    t.equal(await count('SELECT count() AS n FROM problem_actions WHERE problem_id = {id:UUID}', { id: first }), 1, 'the acknowledgement stored once (no FINAL)');
    t.equal(await count('SELECT count() AS n FROM trigger_hits WHERE trigger_id = {t:UInt64}', params), 2, 'each hit stored once (no FINAL)');
    t.equal(await count("SELECT count() AS n FROM dead_letters WHERE startsWith(reason, 'problem-stage:')"), 0, 'no problem-stage dead letters');
  });

  t.test('SLA worker: a report ordered while ClickHouse is down stays Pending, never Error, and ends Ok with its rows', async (t) => {
    const wg = await k.workGroup();
    const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
    const stream = await k.stream();
    await k.trigger(stream.id);
    const day = Date.parse('2026-03-01T00:00:00.000Z');
    await k.post(stream.key, [
      { '@timestamp': iso(day + 1 * H), check: 'cpu', host: ci.name, severity: 'major' },
      { '@timestamp': iso(day + 3 * H), check: 'cpu', host: ci.name, status: 'ok' },
    ]);
    const template = await k.template({ type: 'Single', configItems: [{ id: ci.id }] });

    const id = await outage(
      SLA_JOBS_STREAM.name,
      () => k.ordered({ template: { id: template.id }, range: { start: iso(day), end: iso(day + 24 * H) } }),
      async (ordered) => {
        t.equal((await k.api('GET', `${SLA}/ordered/${ordered}`)).body.status, 'Pending', 'the worker met the outage: the report is still Pending');
      },
    );
    const report = await k.finished(id);
    t.equal(report.status, 'Ok', `not Error: ${report.error ?? ''}`);
    const rows = await k.exportOf(id, '?format=json&exportType=configItems');
    t.equal(rows.status, 200, rows.text);
    t.equal(rows.body.length, 1, 'one CI row');
    t.match(rows.body[0], { configItem: { id: ci.id }, problem2EventsCount: 1, maxDowntime: 2 * 3600 });
    t.equal(rows.body[0].problemTime.value, 0.3 * 2 * H, '2 h of a 30 % problem');
    t.equal(await count('SELECT count() AS n FROM sla_report_result_rows WHERE report_id = {r:String}', { r: id }), 1, 'its row stored once (no FINAL)');
  });
}
