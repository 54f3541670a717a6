/**
 * The ingress's micro-batcher (DESIGN §6) over the in-process bus: records of many requests in
 * one message per stream, messages bounded by records and bytes, one message per stream on its
 * way at a time. Each request's promise resolves once the message holding it is acked.
 */
import t, { type Test } from 'tap';
import { batchPart, decodeBatch, lineOf } from '../../../../pipelines/records/envelope.js';
import { createMicroBatcher } from '../../../../services/ingress/micro-batcher.js';
import { createMemoryBus } from '../../../../services/runtime/adapters/bus/memory.adapter.js';
import { RECORDS_STREAM } from '../../../../services/runtime/bus-streams.js';
import { createMetrics } from '../../../../services/runtime/http/metrics.js';
import { silentLogger } from '../../../../services/runtime/logger.js';

const BATCHING = { maxRecords: 10, maxBytes: 1000, maxWaitMs: 0, maxPendingBatches: 100, publishTimeoutMs: 5000 };

/** A bus whose one consumer records each message's record texts and acks it. */
async function setUp(t: Test, batching = BATCHING) {
  const bus = createMemoryBus({ logger: silentLogger() });
  t.teardown(() => bus.close());
  await bus.ensureStream(RECORDS_STREAM);
  const messages: string[][] = [];
  bus.consume({ stream: RECORDS_STREAM.name, durable: 'test', maxBatch: 1, maxWaitMs: 0, ackWaitMs: 30_000 }, async (batch) => {
    for (const m of batch) {
      messages.push(decodeBatch(m.data).parts.flatMap((p) => p.starts.map((_, i) => lineOf(p, i))));
      m.ack();
    }
  });
  const batcher = createMicroBatcher(batching, { bus, logger: silentLogger(), metrics: createMetrics() });
  return { batcher, messages };
}

const part = (...lines: string[]) => batchPart(0, 'json', lines);
const bytesOf = (lines: string[]) => lines.reduce((n, l) => n + l.length + 1, 0);

t.test('requests of one stream that arrive together share a message; each resolves once it is acked', async (t) => {
  const { batcher, messages } = await setUp(t);
  await Promise.all([batcher.add(1, part('{"a":1}'), 10), batcher.add(1, part('{"a":2}'), 10), batcher.add(1, part('{"a":3}'), 10)]);
  t.same(messages.flat(), ['{"a":1}', '{"a":2}', '{"a":3}']);
  t.ok(messages.length <= 2, `${messages.length} messages`);
});

t.test('a part that would take its batch past maxBytes starts the next message: no message over the bound', async (t) => {
  const { batcher, messages } = await setUp(t);
  const lines = Array.from({ length: 12 }, (_, i) => `{"pad":"${'x'.repeat(300)}","i":${i}}`);
  await Promise.all(lines.map((l) => batcher.add(1, part(l), bytesOf([l]))));
  t.same(messages.flat(), lines, 'every record once, in order');
  t.ok(
    messages.every((m) => bytesOf(m) <= BATCHING.maxBytes),
    `message sizes ${messages.map(bytesOf).join(', ')}`,
  );
  t.ok(messages.length >= 4, `${messages.length} messages`);
});

t.test('a part that would take its batch past maxRecords starts the next message', async (t) => {
  const { batcher, messages } = await setUp(t);
  const parts = Array.from({ length: 5 }, (_, i) => part(...Array.from({ length: 4 }, (_, j) => `{"p":${i},"r":${j}}`)));
  await Promise.all(parts.map((p) => batcher.add(7, p, 40)));
  t.equal(messages.flat().length, 20);
  t.ok(
    messages.every((m) => m.length <= BATCHING.maxRecords),
    `records per message ${messages.map((m) => m.length).join(', ')}`,
  );
});

t.test('flush sends what is still gathering, and waits for it', async (t) => {
  const { batcher, messages } = await setUp(t, { ...BATCHING, maxWaitMs: 60_000 });
  const added = batcher.add(1, part('{"late":true}'), 20);
  t.equal(batcher.inFlight(), 1, 'gathering');
  await batcher.flush();
  await added;
  t.same(messages, [['{"late":true}']]);
  t.equal(batcher.inFlight(), 0);
});
