/**
 * Issue #30 in the distributed mode: a stream's events read through the ClickHouse-server
 * connector (@clickhouse/client against the test ClickHouse HTTP endpoint), over JetStream and
 * Redis. Records go in through one process and are read through another, an API replica: every
 * page walked once by cursor, filters bound as server parameters, dead letters, and a live tail
 * on the replica that sees what the first process stored.
 */
import t from 'tap';
import { createApiPart } from '../../../services/api/api.part.js';
import { eventually } from '../../support/bus-recorder.js';
import { type DistributedServers, startDistributed } from '../../support/distributed.js';
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { missingServices } from '../../support/services.js';
import { ingestSettled } from '../../support/settled.js';
import { createStream, type StreamInfo } from '../../support/streams.js';

const skip = missingServices('nats-server', 'redis-server');
if (skip) {
  t.plan(0, skip);
} else {
  const STREAMS = '/api/public/cl/v1/streams';
  const BASE = Date.parse('2026-11-21T10:00:00.000Z');
  const range = `from=2026-11-21T00:00:00Z&to=2026-11-22T00:00:00Z`;
  let servers: DistributedServers;
  let ingest: TestPlatform;
  let replica: TestPlatform;
  let s: StreamInfo;

  t.before(async () => {
    servers = await startDistributed();
    const env = servers.env();
    ingest = await startTestPlatform({ env });
    replica = await startTestPlatform({ env, parts: ['api'], replace: [createApiPart({ eventTail: { pollMs: 50 } })] });
    s = await createStream(ingest, 'distributed-events', { preprocessor: { labels: { dc: 'west' } } });
    const records = Array.from({ length: 250 }, (_, i) => ({ '@timestamp': new Date(BASE + (i % 50) * 1000).toISOString(), i, host: `host-${i % 5}` }));
    const answer = await ingest.api('POST', `/api/public/cl/v1/stream-data?streamKey=${s.key}`, {
      body: records.map((r) => JSON.stringify(r)).join('\n'),
      headers: { 'content-type': 'application/x-ndjson' },
      token: null,
    });
    if (answer.status !== 200) throw new Error(`post: ${answer.status} ${answer.text}`);
    await ingestSettled(ingest.platform);
  });
  t.teardown(async () => {
    await Promise.allSettled([replica?.stop(), ingest?.stop()]);
    await servers?.stop();
  });

  t.test('the replica reads through the ClickHouse server', async (t) => {
    t.equal(replica.platform.engines.analytics.kind, 'clickhouse');
  });

  t.test('cursor pages through the server connector: every record once, newest first', async (t) => {
    const ids: string[] = [];
    const keys: string[] = [];
    const labels = new Set<string>();
    let cursor = '';
    for (let page = 0; page < 20; page++) {
      const answer = await replica.api('GET', `${STREAMS}/${s.id}/events?${range}&limit=40${cursor ? `&cursor=${cursor}` : ''}`);
      t.equal(answer.status, 200);
      for (const item of answer.body.items) {
        ids.push(item.id);
        keys.push(`${item.ts} ${item.id}`);
        labels.add(JSON.stringify(item.labels));
      }
      if (answer.body.nextCursor === null) break;
      cursor = answer.body.nextCursor;
    }
    t.equal(ids.length, 250);
    t.equal(new Set(ids).size, 250, 'no record twice');
    t.same(keys, [...keys].sort().reverse(), 'newest first throughout');
    t.same([...labels], ['{"dc":"west"}'], 'the labels map read back');
  });

  t.test('filters and route are bound as server parameters', async (t) => {
    const answer = await replica.api('GET', `${STREAMS}/${s.id}/events?${range}&limit=1000&filter=host%3Dhost-3&filter=i!%3D3`);
    t.equal(answer.status, 200);
    t.equal(answer.body.items.length, 49);
    t.ok(answer.body.items.every((item: any) => item.record.host === 'host-3' && item.record.i !== 3));
    const quoted = await replica.api('GET', `${STREAMS}/${s.id}/events?${range}&filter=${encodeURIComponent("host~host-3' OR '1'='1")}`);
    t.same([quoted.status, quoted.body.items], [200, []]);
    t.same((await replica.api('GET', `${STREAMS}/${s.id}/events?${range}&route=nope`)).body.items, []);
  });

  t.test('dead letters through the server connector', async (t) => {
    const answer = await ingest.api('POST', `/api/public/cl/v1/stream-data?streamKey=${s.key}`, {
      body: 'no parser for text',
      headers: { 'content-type': 'text/plain' },
      token: null,
    });
    t.equal(answer.status, 200);
    await ingestSettled(ingest.platform);
    const now = Date.now();
    const page = await replica.api('GET', `${STREAMS}/${s.id}/dead-letters?from=${new Date(now - 3_600_000).toISOString()}&to=${new Date(now + 60_000).toISOString()}`);
    t.equal(page.status, 200);
    t.equal(page.body.items.length, 1);
    t.equal(page.body.items[0].payload, 'no parser for text');
  });

  t.test('a live tail on the replica sends what the other process stored', async (t) => {
    const controller = new AbortController();
    t.teardown(() => controller.abort());
    const response = await fetch(`${replica.base}${STREAMS}/${s.id}/events/stream`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, signal: controller.signal });
    t.equal(response.status, 200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += decoder.decode(value, { stream: true });
      }
    })().catch(() => undefined);
    await eventually('the tail to open', async () => text.startsWith('retry:'));
    const answer = await ingest.api('POST', `/api/public/cl/v1/stream-data?streamKey=${s.key}`, { json: { live: 'from the other process' }, token: null });
    t.equal(answer.status, 200);
    await eventually('the record on the tail', async () => text.includes('"live":"from the other process"'), 30_000);
    t.match(text, /event: record\nid: [0-9a-f-]{36}\ndata: \{"id":/);
    controller.abort();
    await reading;
  });
}
