/**
 * Issue #37: the presets in the record pipeline. A stream's `parser: {type: <preset>}` is checked
 * by the one schema and at save; a preset stream reads text by lines (collectd's JSON by value
 * list) unless its framing says otherwise; every line becomes an event dated by the agent, or a
 * dead letter naming the preset and the reason, never an exception and never nothing.
 */
import t from 'tap';
import { Compile } from 'typebox/compile';
import { batchPart, encodeBatch, type IncomingRecord, type RecordKind } from '../../../../../pipelines/records/envelope.js';
import { createParseStep } from '../../../../../pipelines/records/parse.step.js';
import { needsFields } from '../../../../../pipelines/records/preprocess.step.js';
import { MAX_PRESET_LINE, streamFraming } from '../../../../../pipelines/records/presets/presets.js';
import { processBatch } from '../../../../../pipelines/records/record-pipeline.js';
import { validateBody } from '../../../../../pipelines/records/validate-body.step.js';
import { type StreamConfigModel, StreamConfig } from '../../../../../schemas/stream.schema.js';
import { checkStreamConfig } from '../../../../../services/control-plane/streams/streams.commands.js';

const record = (kind: RecordKind, raw: string, receivedAt = Date.parse('2026-11-25T21:00:00Z')): IncomingRecord => ({ index: 0, receivedAt, kind, raw });

t.test('the stream schema takes each preset with its options, and nothing else', async (t) => {
  const check = Compile(StreamConfig);
  for (const parser of [
    { type: 'collectd' },
    { type: 'influx' },
    { type: 'influx', precision: 's' },
    { type: 'graphite' },
    { type: 'syslog' },
    { type: 'syslog', timeZone: 'Europe/Berlin' },
    { type: 'logfmt' },
  ]) {
    t.ok(check.Check({ parser }), JSON.stringify(parser));
  }
  for (const parser of [{ type: 'collectd', pattern: 'x' }, { type: 'influx', precision: 'h' }, { type: 'syslog', timeZone: '' }, { type: 'statsd' }]) {
    t.notOk(check.Check({ parser }), JSON.stringify(parser));
  }
});

t.test('a syslog time zone the runtime does not know is refused at save, naming the field', async (t) => {
  t.doesNotThrow(() => checkStreamConfig({ parser: { type: 'syslog', timeZone: 'Europe/Berlin' } }));
  t.throws(() => checkStreamConfig({ parser: { type: 'syslog', timeZone: 'Mars/Olympus_Mons' } }), {
    code: 'stream.time_zone_invalid',
    message: 'The syslog parser timeZone Mars/Olympus_Mons is not an IANA time zone (e.g. Europe/Berlin)',
    errors: [{ path: '/config/parser/timeZone', message: '"Mars/Olympus_Mons" is not an IANA time zone' }],
  });
});

t.test('framing: a preset reads text by lines and collectd JSON by elements; a framing of its own wins', async (t) => {
  const collectd: StreamConfigModel = { parser: { type: 'collectd' } };
  t.equal(streamFraming(collectd, 'text/plain'), 'lines');
  t.equal(streamFraming(collectd, 'application/json'), 'elements');
  t.equal(streamFraming({ parser: { type: 'influx' } }, 'text/plain'), 'lines');
  t.equal(streamFraming({ parser: { type: 'influx' } }, 'application/json'), 'body');
  t.equal(streamFraming({ parser: { type: 'syslog' }, framing: 'body' }, 'text/plain'), 'body');
  t.equal(streamFraming({ parser: { type: 'text' } }, 'text/plain'), 'body', 'no preset: as before');
  t.equal(streamFraming({}, 'application/json'), 'body');
  const crlf = validateBody('text/plain', 'PUTVAL h/load/load N:1:2:3\r\nPUTVAL h/memory/memory-used N:5\r\n', streamFraming(collectd, 'text/plain'));
  t.strictSame(crlf, { ok: true, kind: 'text', lines: ['"PUTVAL h/load/load N:1:2:3"', '"PUTVAL h/memory/memory-used N:5"'] }, "write_http's CRLF lines: one record each");
});

t.test('parse step: a preset line becomes its fields; one it cannot read a dead letter naming the preset', async (t) => {
  const parse = createParseStep({ parser: { type: 'graphite' } }, false);
  t.strictSame(parse(record('text', 'a.b 1 1455320690')), { ok: true, value: { fields: { '@timestamp': '2016-02-12T23:44:50.000Z', metric: 'a.b', value: 1 } } });
  t.strictSame(parse(record('text', 'a.b 1 1455320690\r')), parse(record('text', 'a.b 1 1455320690')), 'a CR left at the end is no part of the line');
  t.strictSame(parse(record('text', 'a.b')), { ok: false, reason: 'graphite preset: a line is "<metric path> <value> <timestamp>": this one has 1 part' });
  t.strictSame(parse(record('text', 'a.b 1 1\na.c 2 2')), {
    ok: false,
    reason: 'graphite preset: the text holds 2 lines; a preset reads one record per line (framing lines, the default with a preset)',
  });
  t.match(parse(record('xml', '<a/>')), { ok: false, reason: /no xml parser/ }, 'XML is not a preset format');
  const long = `a.b ${'1'.repeat(MAX_PRESET_LINE)} 1455320690`;
  t.strictSame(parse(record('text', long)), {
    ok: false,
    reason: `graphite preset: a line of ${long.length} characters is longer than the 262144 a preset reads (see Limits)`,
  });
});

t.test('parse step: JSON records pass as they are, except on collectd, which reads value lists', async (t) => {
  t.strictSame(createParseStep({ parser: { type: 'influx' } }, false)(record('json', '{"a":1}')), { ok: true, value: { fields: undefined, text: '{"a":1}' } });
  const collectd = createParseStep({ parser: { type: 'collectd' } }, needsFields({ parser: { type: 'collectd' } }));
  t.ok(needsFields({ parser: { type: 'collectd' } }), 'a collectd stream parses every JSON record');
  const list =
    '{"values":[0.5],"dstypes":["gauge"],"dsnames":["value"],"time":1795640284.041,"interval":10,"host":"db-1","plugin":"memory","plugin_instance":"","type":"memory","type_instance":"used"}';
  t.strictSame(collectd(record('json', list)), {
    ok: true,
    value: {
      fields: {
        '@timestamp': '2026-11-25T20:58:04.041Z',
        host: 'db-1',
        plugin: 'memory',
        plugin_instance: '',
        type: 'memory',
        type_instance: 'used',
        interval: 10,
        values: { value: 0.5 },
        dstypes: { value: 'gauge' },
      },
    },
  });
  t.strictSame(collectd(record('json', '{"n":1}')), { ok: false, reason: 'collectd preset: not a collectd value list: values is not a non-empty array of numbers' });
});

const BATCH = 'feedfacefeedfacefeedfacefeedface';
const rowsOf = (ndjson: Buffer): Array<Record<string, any>> =>
  ndjson
    .toString()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

t.test('processBatch on a collectd stream: events dated by collectd, the bad line a dead letter, every record once', async (t) => {
  const received = Date.parse('2026-11-25T21:00:00Z');
  const message = encodeBatch(3, [
    batchPart(received, 'text', [
      JSON.stringify('PUTVAL collectd-host/load/load interval=2.000 1795613691.990:1.97:1.66:1.12'),
      JSON.stringify('PUTVAL collectd-host/memory/memory-used interval=2.000 N:1130553344'),
      JSON.stringify('GETVAL collectd-host/load/load'),
    ]),
    batchPart(received, 'json', [
      '{"values":[1,2],"dstypes":["derive","derive"],"dsnames":["rx","tx"],"time":1795613692,"interval":2,"host":"h","plugin":"interface","plugin_instance":"lo","type":"if_octets","type_instance":""}',
    ]),
  ]);
  const out = processBatch(BATCH, message, () => ({ parser: { type: 'collectd' } }));
  t.equal(out.eventCount, 3);
  t.equal(out.deadLetterCount, 1);
  const events = rowsOf(out.events);
  t.strictSame(
    events.map((e) => [e.ts, e.payload.plugin]),
    [
      ['2026-11-25 13:34:51.990', 'load'],
      ['2026-11-25 21:00:00.000', 'memory'],
      ['2026-11-25 13:34:52.000', 'interface'],
    ],
    "collectd's time, or the receipt for N",
  );
  t.strictSame(events[0]!.payload.values, { shortterm: 1.97, midterm: 1.66, longterm: 1.12 });
  const [dead] = rowsOf(out.deadLetters);
  t.equal(dead!.reason, 'collectd preset: not a PUTVAL command (it begins "GETVAL collectd-host")');
  t.equal(dead!.payload, 'GETVAL collectd-host/load/load');
  t.equal(new Set([...events.map((e) => e.id), dead!.id]).size, 4, 'four records, four ids');
});
