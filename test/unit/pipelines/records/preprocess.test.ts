/**
 * Issue 6: the preprocess step (DESIGN §6, spec 4.4): the event date — the preprocessor's
 * timestamp field wins over `@timestamp`, which wins over the time of receipt — then renames,
 * drops, static labels and the route label.
 */
import t from 'tap';
import type { IncomingRecord, RecordKind } from '../../../../pipelines/records/envelope.js';
import { createParseStep } from '../../../../pipelines/records/parse.step.js';
import { createPreprocessStep, needsFields, type Prepared } from '../../../../pipelines/records/preprocess.step.js';
import { clickhouseDateTime, parseTimestamp } from '../../../../pipelines/records/timestamps.js';
import type { StreamConfigModel } from '../../../../schemas/stream.schema.js';

const RECEIVED = Date.parse('2026-11-21T12:00:00.000Z');
const TS = '2026-11-20T08:30:00.250Z';
const OTHER = '2026-11-19T01:02:03.004Z';

/** parse ▸ preprocess as the pipeline runs them. */
function prepare(config: StreamConfigModel, raw: string, kind: RecordKind = 'json'): Prepared {
  const record: IncomingRecord = { index: 0, receivedAt: RECEIVED, kind, raw };
  const parsed = createParseStep(config, needsFields(config))(record);
  if (!parsed.ok) throw new Error(parsed.reason);
  return createPreprocessStep(config)(record, parsed.value);
}

t.test('no @timestamp and no rule: the event date is the time of receipt; the payload is the record', async (t) => {
  const out = prepare({}, '{"a":1}');
  t.strictSame(out, { ts: RECEIVED, payload: '{"a":1}', fields: undefined, labels: {}, route: '' }, 'fields are not parsed when nothing needs them');
});

t.test('@timestamp sets the event date', async (t) => {
  t.equal(prepare({}, JSON.stringify({ '@timestamp': TS, a: 1 })).ts, Date.parse(TS));
  t.equal(prepare({}, JSON.stringify({ '@timestamp': '2026-11-20T10:30:00.250+02:00' })).ts, Date.parse(TS), 'offsets are honoured');
});

t.test('@timestamp in an array record, or nested, is not the event date', async (t) => {
  t.equal(prepare({}, JSON.stringify([{ '@timestamp': TS }])).ts, RECEIVED);
  t.equal(prepare({}, JSON.stringify({ inner: { '@timestamp': TS } })).ts, RECEIVED);
});

t.test("the preprocessor's timestamp field wins over @timestamp", async (t) => {
  const config: StreamConfigModel = { preprocessor: { timestampField: 'eventTime' } };
  t.ok(needsFields(config));
  t.equal(prepare(config, JSON.stringify({ '@timestamp': OTHER, eventTime: TS })).ts, Date.parse(TS));
});

t.test('the timestamp field may be a dotted path', async (t) => {
  const config: StreamConfigModel = { preprocessor: { timestampField: 'meta.at' } };
  t.equal(prepare(config, JSON.stringify({ '@timestamp': OTHER, meta: { at: TS } })).ts, Date.parse(TS));
});

t.test('epoch-ms and epoch-s formats, as numbers and as numeric strings', async (t) => {
  const ms = Date.parse(TS);
  const epochMs: StreamConfigModel = { preprocessor: { timestampField: 't', timestampFormat: 'epoch-ms' } };
  const epochS: StreamConfigModel = { preprocessor: { timestampField: 't', timestampFormat: 'epoch-s' } };
  t.equal(prepare(epochMs, JSON.stringify({ t: ms })).ts, ms);
  t.equal(prepare(epochMs, JSON.stringify({ t: String(ms) })).ts, ms);
  t.equal(prepare(epochS, JSON.stringify({ t: ms / 1000 })).ts, ms, 'fractional seconds keep their milliseconds');
  t.equal(prepare(epochS, JSON.stringify({ t: '1763627400' })).ts, 1763627400000);
});

t.test('a timestamp field in the wrong format falls back to @timestamp, then to receipt', async (t) => {
  const epochMs: StreamConfigModel = { preprocessor: { timestampField: 't', timestampFormat: 'epoch-ms' } };
  t.equal(prepare(epochMs, JSON.stringify({ t: TS, '@timestamp': OTHER })).ts, Date.parse(OTHER), 'ISO text in an epoch field');
  t.equal(prepare(epochMs, JSON.stringify({ t: 'soon' })).ts, RECEIVED);
  const iso: StreamConfigModel = { preprocessor: { timestampField: 't' } };
  t.equal(prepare(iso, JSON.stringify({ t: 1763627400000, '@timestamp': OTHER })).ts, Date.parse(OTHER), 'a number in an iso8601 field');
});

t.test('a missing timestamp field falls back to @timestamp, then to the time of receipt', async (t) => {
  const config: StreamConfigModel = { preprocessor: { timestampField: 'eventTime' } };
  t.equal(prepare(config, JSON.stringify({ '@timestamp': OTHER })).ts, Date.parse(OTHER));
  t.equal(prepare(config, JSON.stringify({ a: 1 })).ts, RECEIVED);
  t.equal(prepare(config, '[1,2]').ts, RECEIVED, 'an array has no field');
});

t.test('epoch values out of range are not dates', async (t) => {
  t.equal(parseTimestamp(-1, 'epoch-ms'), undefined);
  t.equal(parseTimestamp(253402300800000, 'epoch-ms'), undefined, 'year 10000');
  t.equal(parseTimestamp('', 'epoch-s'), undefined);
  t.equal(parseTimestamp(Number.NaN, 'epoch-s'), undefined);
  t.equal(parseTimestamp(1.5, 'epoch-ms'), 2, 'rounded to the millisecond');
});

t.test('the timestamp rule applies to parsed XML and text records too', async (t) => {
  const xml: StreamConfigModel = { parser: { type: 'xml' }, preprocessor: { timestampField: 'event.at', timestampFormat: 'epoch-s' } };
  t.equal(prepare(xml, '<event><at>1763627400</at></event>', 'xml').ts, 1763627400000);
  const text: StreamConfigModel = { parser: { type: 'text', pattern: '^(?<at>\\S+) (?<msg>.*)$' }, preprocessor: { timestampField: 'at' } };
  const out = prepare(text, `${TS} disk full`, 'text');
  t.equal(out.ts, Date.parse(TS));
  t.strictSame(JSON.parse(out.payload), { at: TS, msg: 'disk full' });
});

t.test('renames move a field; a rename of a missing field does nothing', async (t) => {
  const config: StreamConfigModel = { preprocessor: { renames: { host: 'hostname', absent: 'nothing' } } };
  t.strictSame(JSON.parse(prepare(config, '{"host":"db-1","a":1}').payload), { hostname: 'db-1', a: 1 });
});

t.test('drops remove fields (after renames)', async (t) => {
  const config: StreamConfigModel = { preprocessor: { renames: { secret: 'kept' }, drops: ['password', 'kept', 'absent'] } };
  t.strictSame(JSON.parse(prepare(config, '{"password":"x","secret":"y","a":1}').payload), { a: 1 });
});

t.test('renames and drops leave a non-object record as it is', async (t) => {
  const config: StreamConfigModel = { preprocessor: { drops: ['a'] } };
  t.equal(prepare(config, '[{"a":1}]').payload, '[{"a":1}]');
});

t.test('static labels and the route label are attached to every record', async (t) => {
  const config: StreamConfigModel = { preprocessor: { labels: { env: 'prod', team: 'db' } }, routeLabel: 'stream-ready-event' };
  t.notOk(needsFields(config), 'labels alone need no parse');
  const out = prepare(config, '{"a":1}');
  t.strictSame(out.labels, { env: 'prod', team: 'db' });
  t.equal(out.route, 'stream-ready-event');
  t.equal(out.payload, '{"a":1}', 'the payload is the record as sent');
});

t.test('a text record without pattern is stored as {message} with the route label (spec 4.4)', async (t) => {
  const config: StreamConfigModel = { parser: { type: 'text' }, routeLabel: 'stream-ready-event' };
  const out = prepare(config, 'hello\nworld', 'text');
  t.strictSame(JSON.parse(out.payload), { message: 'hello\nworld' });
  t.equal(out.route, 'stream-ready-event');
  t.equal(out.ts, RECEIVED);
});

t.test('null preprocessor and route label behave as absent', async (t) => {
  const out = prepare({ preprocessor: null, routeLabel: null, parser: null }, '{"a":1}');
  t.strictSame(out, { ts: RECEIVED, payload: '{"a":1}', fields: undefined, labels: {}, route: '' }, 'fields are not parsed when nothing needs them');
});

t.test('clickhouseDateTime is UTC with milliseconds', async (t) => {
  t.equal(clickhouseDateTime(Date.parse('2026-11-20T10:30:00.250+02:00')), '2026-11-20 08:30:00.250');
});
