/**
 * Issue #34: a stream whose config says `retentionDays` gives each of its event rows that many
 * days (the table's TTL reads the row's column, 0007_retention.sql), on the hot path and the
 * parsed one alike; a stream that says nothing leaves the column to the table's default.
 */
import t from 'tap';
import { batchPart, encodeBatch } from '../../../../pipelines/records/envelope.js';
import { processBatch } from '../../../../pipelines/records/record-pipeline.js';
import type { StreamConfigModel } from '../../../../schemas/stream.schema.js';

const BATCH = '0123456789abcdef0123456789abcdef';
const message = encodeBatch(4, [batchPart(Date.parse('2026-11-21T12:00:00Z'), 'json', ['{"a":1}', '{"a":2,"@timestamp":"2026-11-20T08:30:00.250Z"}'])]);
const rows = (config: StreamConfigModel): Array<Record<string, unknown>> =>
  processBatch(BATCH, message, () => config)
    .events.toString()
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

t.test("the stream's days on every row", async (t) => {
  t.same(
    rows({ retentionDays: 3 }).map((r) => r['retention_days']),
    [3, 3],
  );
  t.same(
    rows({ retentionDays: 90, preprocessor: { labels: { env: 'prod' } } }).map((r) => [r['retention_days'], r['labels']]),
    [
      [90, { env: 'prod' }],
      [90, { env: 'prod' }],
    ],
    'on the parsed path too',
  );
});

t.test('no days: the column is left to the default', async (t) => {
  t.same(
    rows({}).map((r) => Object.hasOwn(r, 'retention_days')),
    [false, false],
  );
});
