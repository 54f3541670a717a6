/**
 * Issue 6: the bus envelope of a micro-batch (pipelines/records/envelope.ts): what the ingress
 * encodes, the event worker decodes to the same records, in order, with stable indexes.
 */
import t from 'tap';
import { type BatchPart, batchPart, decodeBatch, encodeBatch, type IncomingRecord, MalformedBatchError, recordOf } from '../../../../pipelines/records/envelope.js';
import { type MediaType, validateBody } from '../../../../pipelines/records/validate-body.step.js';

function part(type: MediaType, body: string, receivedAt: number): BatchPart {
  const checked = validateBody(type, body);
  if (!checked.ok) throw new Error(checked.reason);
  return batchPart(receivedAt, checked.kind, checked.lines);
}

/** Every record of a message, as the event worker sees them. */
function recordsOf(message: string): { streamId: number; count: number; records: IncomingRecord[] } {
  const batch = decodeBatch(message);
  return { streamId: batch.streamId, count: batch.count, records: batch.parts.flatMap((p) => p.starts.map((_, i) => recordOf(p, i))) };
}

t.test('encode ▸ decode round trip over every kind, in order, with batch-wide indexes', async (t) => {
  const xml = '<?xml version="1.0"?>\n<e a="1">\n  <b>x</b>\n</e>';
  const text = 'first line\r\nsecond "line" \\ ✓';
  const parts = [
    part('application/x-ndjson', '{"n":1}\r\n\n{"n":2}\n', 1000),
    part('application/json', '{\n  "pretty": true,\n  "list": [1, 2]\n}', 2000),
    part('text/xml', xml, 3000),
    part('text/plain', text, 4000),
    part('application/json', '[{"a":1},{"a":2}]', 5000),
  ];
  const message = encodeBatch(42, parts);
  t.equal(message.split('\n').length - 1, 1 + parts.length + 6, 'one header, a line per part and per record');
  const decoded = recordsOf(message);
  t.equal(decoded.streamId, 42);
  t.equal(decoded.count, 6);
  t.strictSame(
    decoded.records.map((r) => [r.index, r.receivedAt, r.kind]),
    [
      [0, 1000, 'json'],
      [1, 1000, 'json'],
      [2, 2000, 'json'],
      [3, 3000, 'xml'],
      [4, 4000, 'text'],
      [5, 5000, 'json'],
    ],
  );
  t.strictSame(JSON.parse(decoded.records[0]!.raw), { n: 1 });
  t.strictSame(JSON.parse(decoded.records[1]!.raw), { n: 2 });
  t.strictSame(JSON.parse(decoded.records[2]!.raw), { pretty: true, list: [1, 2] });
  t.equal(decoded.records[3]!.raw, xml, 'XML comes back as the document itself');
  t.equal(decoded.records[4]!.raw, text, 'text comes back as the text itself');
  t.strictSame(JSON.parse(decoded.records[5]!.raw), [{ a: 1 }, { a: 2 }], 'an array stays one record');
});

t.test('decoding the same message twice gives identical records (redelivery)', async (t) => {
  const message = encodeBatch(7, [part('application/x-ndjson', '{"a":1}\n{"a":2}', 1), part('text/plain', 'x', 2)]);
  t.strictSame(recordsOf(message), recordsOf(message));
});

t.test('a batch with no part decodes to no record', async (t) => {
  t.strictSame(recordsOf(encodeBatch(3, [])), { streamId: 3, count: 0, records: [] });
});

t.test('a wrong header or a truncated batch is a MalformedBatchError', async (t) => {
  t.throws(() => decodeBatch('{"v":2,"s":1}\n'), MalformedBatchError);
  t.throws(() => decodeBatch('{"v":1}\n'), MalformedBatchError);
  t.throws(() => decodeBatch('null\n'), MalformedBatchError);
  const full = encodeBatch(1, [part('application/x-ndjson', '{"a":1}\n{"a":2}\n{"a":3}', 1)]);
  const truncated = `${full.split('\n').slice(0, 3).join('\n')}\n`;
  t.throws(() => decodeBatch(truncated), MalformedBatchError, 'a part announcing more records than follow');
});

t.test('a part header spelt otherwise than encodeBatch writes it is read all the same (as JSON)', async (t) => {
  const records = ['{"a":1}', '{"a":2}'];
  const written = encodeBatch(5, [batchPart(1_700_000_000_123, 'json', records)]);
  const respelt = `{"v":1,"s":5}\n{ "n": 2, "k": "json", "t": 1700000000123 }\n${records.join('\n')}\n`;
  t.strictSame(recordsOf(respelt), recordsOf(written));
  t.strictSame(
    recordsOf(written).records.map((r) => [r.index, r.receivedAt, r.kind, r.raw]),
    [
      [0, 1_700_000_000_123, 'json', '{"a":1}'],
      [1, 1_700_000_000_123, 'json', '{"a":2}'],
    ],
  );
});
