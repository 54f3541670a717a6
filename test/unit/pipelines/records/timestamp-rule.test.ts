/**
 * One rule and one message for a record's date on every receiver (issue #37): stream-data (JSON,
 * NDJSON, elements), `_bulk` and Alertmanager all check it with timestamps.ts dateTimeFault, and
 * each refusal says what is wrong: out of the storable years, not ISO 8601, no such day or time.
 */
import t from 'tap';
import { dateTimeFault, isIsoDateTime } from '../../../../pipelines/records/timestamps.js';
import { validateBody } from '../../../../pipelines/records/validate-body.step.js';
import { alertRecord } from '../../../../services/ingress/alertmanager.route.js';
import { bulkAnswerText, parseBulk } from '../../../../services/ingress/elastic-bulk.route.js';

const OUT_OF_RANGE = '2400-01-01T00:00:00Z';
const MALFORMED = '21.11.2026 10:00';

t.test('the messages say what is wrong: out of range, malformed, no such day, no such time', async (t) => {
  t.equal(dateTimeFault(OUT_OF_RANGE), '@timestamp is outside the years 1900 to 2299 (UTC) that event dates can take: "2400-01-01T00:00:00Z"');
  t.equal(dateTimeFault(MALFORMED), '@timestamp is not an ISO 8601 date-time with a time zone (e.g. 2026-11-21T10:00:00Z): "21.11.2026 10:00"');
  t.equal(dateTimeFault(1763719200000), '@timestamp is not an ISO 8601 date-time with a time zone (e.g. 2026-11-21T10:00:00Z): 1763719200000', 'a number');
  t.equal(dateTimeFault('2026-02-30T00:00:00Z'), '@timestamp names a day that does not exist: "2026-02-30T00:00:00Z"');
  t.equal(dateTimeFault('2026-11-21T24:00:00Z'), '@timestamp has an hour, minute, second or zone offset out of range: "2026-11-21T24:00:00Z"');
  t.equal(dateTimeFault('0001-01-01T00:00:00Z', 'endsAt'), 'endsAt is outside the years 1900 to 2299 (UTC) that event dates can take: "0001-01-01T00:00:00Z"', "Go's zero time");
  t.equal(dateTimeFault(undefined, 'endsAt'), 'endsAt is missing');
  t.equal(
    dateTimeFault(`2026-11-21T10:00:00Z${'x'.repeat(200)}`)?.length,
    '@timestamp is not an ISO 8601 date-time with a time zone (e.g. 2026-11-21T10:00:00Z): '.length + 80,
    'the value cut at 80 characters',
  );
  for (const ok of ['2026-11-21T10:00:00Z', '1900-01-01T00:00:00Z', '2299-12-31T23:59:59.999Z', '2026-11-21T10:00:00.123+02:00']) {
    t.equal(dateTimeFault(ok), undefined, ok);
    t.ok(isIsoDateTime(ok), `${ok}: isIsoDateTime agrees`);
  }
  for (const bad of [OUT_OF_RANGE, MALFORMED, '2026-02-30T00:00:00Z', 42]) t.notOk(isIsoDateTime(bad), `${JSON.stringify(bad)}: isIsoDateTime agrees`);
});

for (const [name, value] of [
  ['out of range', OUT_OF_RANGE],
  ['malformed', MALFORMED],
  ['no such day', '2026-02-30T00:00:00Z'],
  ['a number', 1763719200000],
] as const) {
  t.test(`${name} (${JSON.stringify(value)}): the same message from stream-data, _bulk and Alertmanager`, async (t) => {
    const message = dateTimeFault(value)!;
    t.ok(message, 'refused by the rule');
    const record = JSON.stringify({ host: 'db-1', '@timestamp': value });

    const json = validateBody('application/json', record);
    t.strictSame(json, { ok: false, reason: message }, 'stream-data, JSON body: the message');
    const ndjson = validateBody('application/x-ndjson', `{"host":"db-2"}\n${record}\n`);
    t.strictSame(ndjson, { ok: false, reason: `Line 2: ${message}` }, 'stream-data, NDJSON: the message, after the line');
    const elements = validateBody('application/json', `[{},${record}]`, 'elements');
    t.strictSame(elements, { ok: false, reason: `Element 2: ${message}` }, 'stream-data, elements framing: the message, after the element');

    const bulk = parseBulk(`{"index":{}}\n{"host":"db-2"}\n{"create":{"_id":"x"}}\n${record}\n`);
    if (!bulk.ok) throw new Error(bulk.reason);
    t.equal(bulk.records.length, 1, '_bulk: the other document is stored');
    t.equal(bulk.items.errors.get(1), message, '_bulk: the item says the message');
    const answer = JSON.parse(bulkAnswerText(1, bulk.items, 'default', (n) => `gen-${n}`));
    t.strictSame(answer.items[1], { create: { _index: 'default', _id: 'x', status: 400, error: { type: 'mapper_parsing_exception', reason: message } } });

    const alert = {
      status: 'firing' as const,
      labels: { alertname: 'InstanceDown' },
      startsAt: value as string,
      endsAt: '0001-01-01T00:00:00Z',
    };
    const firing = alertRecord(alert, { receiver: 'ops', groupKey: '{}' });
    t.equal(firing.dateFault, dateTimeFault(value, 'startsAt'), 'Alertmanager: the message, naming startsAt');
    t.equal(firing.dateFault, message.replace('@timestamp', 'startsAt'));
    t.notOk('@timestamp' in JSON.parse(firing.line), 'Alertmanager: not refused, dated by its receipt');
    const resolved = alertRecord({ ...alert, status: 'resolved', startsAt: '2026-11-21T10:00:00Z', endsAt: value as string }, { receiver: 'ops', groupKey: '{}' });
    t.equal(resolved.dateFault, message.replace('@timestamp', 'endsAt'), 'Alertmanager, resolved: naming endsAt');
  });
}

t.test('a good date passes every receiver', async (t) => {
  const record = JSON.stringify({ '@timestamp': '2299-12-31T23:59:59.999Z' });
  t.match(validateBody('application/x-ndjson', record), { ok: true });
  const bulk = parseBulk(`{"index":{}}\n${record}\n`);
  t.ok(bulk.ok && bulk.records.length === 1 && bulk.items.errors.size === 0);
  const { line, dateFault } = alertRecord({ status: 'firing', labels: {}, startsAt: '2026-11-21T10:00:00Z' }, { receiver: 'ops', groupKey: '{}' });
  t.equal(dateFault, undefined);
  t.equal(JSON.parse(line)['@timestamp'], '2026-11-21T10:00:00Z');
});
