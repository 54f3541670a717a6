/**
 * Issue 6: event ids and the whole pipeline for one bus message (decode ▸ parse ▸ preprocess ▸
 * rows): ids are deterministic per (batch id, index), so a redelivered batch gives the same rows.
 */
import t from 'tap';
import { type BatchPart, batchPart, encodeBatch } from '../../../../pipelines/records/envelope.js';
import { EVENT_ROW_SETTINGS, recordId } from '../../../../pipelines/records/event-row.js';
import { processBatch } from '../../../../pipelines/records/record-pipeline.js';
import type { StreamConfigModel } from '../../../../schemas/stream.schema.js';
import { seededRandom } from '../../../support/random.js';

const BATCH = '0123456789abcdef0123456789abcdef';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const rowsOf = (ndjson: Buffer): Array<Record<string, any>> =>
  ndjson
    .toString()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

t.test('recordId: a UUID from the batch id and the index, the same every time', async (t) => {
  t.equal(recordId(BATCH, 0), '01234567-89ab-cdef-0123-456700000000');
  t.equal(recordId(BATCH, 255), '01234567-89ab-cdef-0123-4567000000ff');
  t.equal(recordId(BATCH, 0xffffffff), '01234567-89ab-cdef-0123-4567ffffffff');
  t.equal(recordId(BATCH, 7), recordId(BATCH, 7));
  t.match(recordId(BATCH, 12345), UUID);
});

t.test('recordId: distinct for distinct indexes and distinct batches', async (t) => {
  const ids = new Set<string>();
  for (let i = 0; i < 10_000; i++) ids.add(recordId(BATCH, i));
  t.equal(ids.size, 10_000);
  const other = 'fedcba9876543210fedcba9876543210';
  t.not(recordId(BATCH, 0), recordId(other, 0));
});

const config: StreamConfigModel = {
  parser: { type: 'text', pattern: '^(?<level>[A-Z]+) (?<msg>.*)$' },
  preprocessor: { labels: { env: 'prod' } },
  routeLabel: 'ready',
};
const parts: BatchPart[] = [
  batchPart(Date.parse('2026-11-21T12:00:00Z'), 'json', ['{"a":1}', '{"a":2,"@timestamp":"2026-11-20T08:30:00.250Z"}']),
  batchPart(Date.parse('2026-11-21T12:00:01Z'), 'text', [JSON.stringify('ERROR disk full'), JSON.stringify('no match here')]),
  batchPart(Date.parse('2026-11-21T12:00:02Z'), 'xml', [JSON.stringify('<a/>')]),
];
const message = encodeBatch(9, parts);

t.test('processBatch: event rows and dead letters with ids per (batch id, index)', async (t) => {
  const out = processBatch(BATCH, message, (id) => (id === 9 ? config : undefined));
  t.equal(out.streamId, 9);
  t.equal(out.eventCount, 3);
  t.equal(out.deadLetterCount, 2);
  const events = rowsOf(out.events);
  t.strictSame(
    events.map((e) => e.id),
    [recordId(BATCH, 0), recordId(BATCH, 1), recordId(BATCH, 2)],
  );
  // An object or array payload sits in the row line as it came; the insert reads it as text
  // (EVENT_ROW_SETTINGS), so the stored payload is the record's own JSON.
  t.strictSame(events[0], {
    id: recordId(BATCH, 0),
    stream_id: 9,
    ts: '2026-11-21 12:00:00.000',
    received_at: '2026-11-21 12:00:00.000',
    route: 'ready',
    labels: { env: 'prod' },
    payload: { a: 1 },
  });
  t.equal(events[1]!.ts, '2026-11-20 08:30:00.250', '@timestamp');
  t.equal(events[1]!.received_at, '2026-11-21 12:00:00.000');
  t.strictSame(events[2]!.payload, { level: 'ERROR', msg: 'disk full' });
  const dead = rowsOf(out.deadLetters);
  t.strictSame(
    dead.map((d) => [d.id, d.stream_id, d.payload]),
    [
      [recordId(BATCH, 3), 9, 'no match here'],
      [recordId(BATCH, 4), 9, '<a/>'],
    ],
  );
  t.match(dead[0]!.reason, /does not match the stream's pattern/);
  t.match(dead[1]!.reason, /no xml parser/);
  t.equal(dead[1]!.received_at, '2026-11-21 12:00:02.000');
});

t.test('processBatch: the same message and batch id give byte-identical rows (redelivery)', async (t) => {
  const a = processBatch(BATCH, message, () => config);
  const b = processBatch(BATCH, message, () => config);
  t.equal(a.events.toString(), b.events.toString());
  t.equal(a.deadLetters.toString(), b.deadLetters.toString());
});

t.test('processBatch: a stream deleted meanwhile still gets its records stored (no parser: text dead-lettered)', async (t) => {
  const out = processBatch(BATCH, message, () => undefined);
  t.equal(out.eventCount, 2);
  t.equal(out.deadLetterCount, 3);
  t.strictSame(rowsOf(out.events)[0]!.labels, {});
});

t.test('processBatch: the payload of a scalar JSON record travels as a JSON string of its text', async (t) => {
  const out = processBatch(BATCH, encodeBatch(1, [batchPart(1, 'json', ['42', '"txt"', 'null', '[1,{"a":2}]'])]), () => ({}));
  t.strictSame(
    rowsOf(out.events).map((r) => r.payload),
    ['42', '"txt"', 'null', [1, { a: 2 }]],
  );
});

t.test('EVENT_ROW_SETTINGS: objects and arrays given for the String payload are read as their text; any number of months in one insert', async (t) => {
  t.strictSame({ ...EVENT_ROW_SETTINGS }, { input_format_json_read_objects_as_strings: 1, input_format_json_read_arrays_as_strings: 1, max_partitions_per_insert_block: 0 });
});

t.test('processBatch: no events gives empty NDJSON', async (t) => {
  const out = processBatch(BATCH, encodeBatch(1, [batchPart(1, 'text', ['"x"'])]), () => ({}));
  t.equal(out.events.length, 0);
  t.equal(out.eventCount, 0);
  t.equal(out.deadLetterCount, 1);
  t.match(out.deadLetters.toString(), /\n$/);
});

t.test('processBatch: a JSON record that begins with its @timestamp is dated by it, in the very rows a parse of it gives', async (t) => {
  const lines = [
    '{"@timestamp":"2026-11-20T08:30:00.250Z","host":"a"}',
    '{"@timestamp":"2026-11-20T08:30:01Z"}',
    '{"@timestamp":"2026-11-20T08:30:02.1+02:00","host":"b"}',
    '{"@timestamp":"2026-11-20T08:30:03Z","nested":{"@timestamp":"2026-01-01T00:00:00Z"}}',
    '{"@timestamp":"2026-11-20T08:30:04Z","@timestamp":"2026-11-20T08:30:05Z"}',
    '{"@timestamp":"2026-11-20T08:30:06Z","note":"\\"@timestamp\\" is first"}',
    '{"@timestamp" :"2026-11-20T08:30:07Z"}',
    '{"@timestamp":"2026-11-20T08:30:08Z" }',
    '{"@timestamp":"2026-11-20\\u005408:30:09Z"}',
    '{"host":"c","@timestamp":"2026-11-20T08:30:10Z"}',
    '{"host":"d"}',
  ];
  const message = encodeBatch(3, [batchPart(Date.parse('2026-11-21T12:00:00Z'), 'json', lines)]);
  const read = processBatch(BATCH, message, () => ({}));
  const parsed = processBatch(
    BATCH,
    message,
    () => ({}),
    () => true,
  );
  t.equal(parsed.fielded.length, lines.length, 'the comparison went the parsing way');
  t.equal(read.events.toString(), parsed.events.toString(), 'byte-identical rows');
  t.strictSame(
    rowsOf(read.events).map((row) => row.ts),
    [
      '2026-11-20 08:30:00.250',
      '2026-11-20 08:30:01.000',
      '2026-11-20 06:30:02.100',
      '2026-11-20 08:30:03.000',
      '2026-11-20 08:30:05.000',
      '2026-11-20 08:30:06.000',
      '2026-11-20 08:30:07.000',
      '2026-11-20 08:30:08.000',
      '2026-11-20 08:30:09.000',
      '2026-11-20 08:30:10.000',
      '2026-11-21 12:00:00.000',
    ],
  );
});

t.test('processBatch: rows copied from the message bytes are byte for byte those the parsing way writes (parts, non-ASCII, labels, scalars)', async (t) => {
  const random = seededRandom(11);
  const records = [
    () => JSON.stringify({ host: 'häst-✓', n: Math.floor(random() * 1000) }),
    () => JSON.stringify({ '@timestamp': new Date(Date.UTC(2026, 10, 20) + Math.floor(random() * 1e9)).toISOString(), text: 'naïve 🚀' }),
    () => JSON.stringify({ a: { '@timestamp': 'not first' }, '@timestamp': '2026-11-20T08:30:00Z' }),
    () => JSON.stringify([1, 'zwei', { drei: 3 }]),
    () => JSON.stringify('a scalar ✓'),
    () => String(Math.floor(random() * 100)),
  ];
  const parts = Array.from({ length: 4 }, (_, p) =>
    batchPart(
      Date.parse('2026-11-21T12:00:00Z') + p * 1500,
      'json',
      Array.from({ length: 50 }, () => records[Math.floor(random() * records.length)]!()),
    ),
  );
  const message = encodeBatch(5, parts);
  const streamConfig: StreamConfigModel = { preprocessor: { labels: { site: 'Zürich' } }, routeLabel: 'é-route', retentionDays: 30 };
  const copied = processBatch(BATCH, Buffer.from(message), () => streamConfig);
  const parsed = processBatch(
    BATCH,
    message,
    () => streamConfig,
    () => true,
  );
  t.equal(parsed.fielded.length, 200, 'the comparison went the parsing way');
  t.equal(copied.eventCount, 200);
  t.equal(copied.events.toString(), parsed.events.toString());
  t.strictSame(rowsOf(copied.events)[0]!.labels, { site: 'Zürich' });
});
