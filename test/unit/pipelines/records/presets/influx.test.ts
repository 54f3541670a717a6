/**
 * Issue #37: the influx preset on lines from Telegraf's and InfluxDB's documentation, and on the
 * decode corpus of InfluxData's reference decoder (test/fixtures/presets/influx-corpus.json):
 * every case decodes as the reference does, or is refused for a date the event table cannot hold.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { parseInfluxLine } from '../../../../../pipelines/records/presets/influx.js';

t.test('Telegraf system plugin (its README): tags, float, integer and string fields, ns timestamp', async (t) => {
  t.strictSame(parseInfluxLine('system,host=tyrion load1=3.72,load5=2.4,load15=2.1,n_users=3i,n_cpus=4i 1483964144000000000'), {
    ok: true,
    value: { '@timestamp': '2017-01-09T12:15:44.000Z', name: 'system', tags: { host: 'tyrion' }, fields: { load1: 3.72, load5: 2.4, load15: 2.1, n_users: 3, n_cpus: 4 } },
  });
  t.strictSame(parseInfluxLine('system,host=tyrion uptime_format="14 days, 11:07" 1483964144000000000'), {
    ok: true,
    value: { '@timestamp': '2017-01-09T12:15:44.000Z', name: 'system', tags: { host: 'tyrion' }, fields: { uptime_format: '14 days, 11:07' } },
  });
});

t.test('Telegraf mem plugin (its README): no tags, 34 fields', async (t) => {
  const line =
    'mem active=9299595264i,available=16818249728i,available_percent=80.41654254645131,buffered=2383761408i,cached=13316689920i,commit_limit=14751920128i,committed_as=11781156864i,dirty=122880i,free=1877688320i,high_free=0i,high_total=0i,huge_page_size=2097152i,huge_pages_free=0i,huge_pages_total=0i,inactive=7549939712i,low_free=0i,low_total=0i,mapped=416763904i,page_tables=19787776i,shared=670679040i,slab=2081071104i,sreclaimable=1923395584i,sunreclaim=157675520i,swap_cached=1302528i,swap_free=4286128128i,swap_total=4294963200i,total=20913917952i,used=3335778304i,used_percent=15.95004011996231,vmalloc_chunk=0i,vmalloc_total=35184372087808i,vmalloc_used=0i,wired=0i,write_back=0i,write_back_tmp=0i 1574712869000000000';
  const out = parseInfluxLine(line);
  t.equal(out.ok, true);
  const v = out.ok ? (out.value as any) : {};
  t.equal(v['@timestamp'], '2019-11-25T20:14:29.000Z');
  t.strictSame(v.tags, {});
  t.equal(Object.keys(v.fields).length, 35);
  t.equal(v.fields.available_percent, 80.41654254645131);
  t.equal(v.fields.vmalloc_total, 35184372087808);
});

t.test("InfluxDB's examples: the syntax line, seconds precision, unsigned and boolean values", async (t) => {
  t.strictSame(parseInfluxLine('myMeasurement,tag1=value1,tag2=value2 fieldKey="fieldValue" 1556813561098000000'), {
    ok: true,
    value: { '@timestamp': '2019-05-02T16:12:41.098Z', name: 'myMeasurement', tags: { tag1: 'value1', tag2: 'value2' }, fields: { fieldKey: 'fieldValue' } },
  });
  t.strictSame(parseInfluxLine('home,room=Living\\ Room temp=21.1,hum=35.9,co=0i 1641024000', 's'), {
    ok: true,
    value: { '@timestamp': '2022-01-01T08:00:00.000Z', name: 'home', tags: { room: 'Living Room' }, fields: { temp: 21.1, hum: 35.9, co: 0 } },
  });
  const types = parseInfluxLine('m u=18446744073709551615u,b1=t,b2=FALSE,f=-1.5e-3,n=-9223372036854775808i');
  t.strictSame(types.ok && types.value['fields'], { u: 2 ** 64, b1: true, b2: false, f: -0.0015, n: -(2 ** 63) });
  t.equal(types.ok && '@timestamp' in types.value, false, 'no timestamp: dated by the receipt, as InfluxDB dates it by its clock');
});

t.test("InfluxDB's special-character example: what each part escapes, and what it does not", async (t) => {
  const line = '"measurement\\ with\\ quo⚡️es\\ and\\ emoji",tag\\ key\\ with\\ sp🚀ces=tag\\,value\\,with"commas" field_k\\ey="string field value, only \\" need be esc🍭ped"';
  t.strictSame(parseInfluxLine(line), {
    ok: true,
    value: {
      name: '"measurement with quo⚡️es and emoji"',
      tags: { 'tag key with sp🚀ces': 'tag,value,with"commas"' },
      fields: { 'field_k\\ey': 'string field value, only " need be esc🍭ped' },
    },
  });
  const strings = parseInfluxLine('m s="a\\\\b\\nc\\td\\x"');
  t.strictSame(strings.ok && strings.value['fields'], { s: 'a\\b\nc\td\\x' }, '\\\\ \\n \\t unescaped in strings; other backslashes kept');
});

t.test('precision: us, ms and s timestamps; ns kept to the nanosecond in @timestamp', async (t) => {
  const at = (line: string, p: 'ns' | 'us' | 'ms' | 's') => {
    const out = parseInfluxLine(line, p);
    return out.ok ? out.value['@timestamp'] : out.reason;
  };
  t.equal(at('cpu value=1 1465839830100400200', 'ns'), '2016-06-13T17:43:50.100400200Z');
  t.equal(at('cpu value=1 1465839830100400', 'us'), '2016-06-13T17:43:50.100400000Z');
  t.equal(at('cpu value=1 1465839830100', 'ms'), '2016-06-13T17:43:50.100Z');
  t.equal(at('cpu value=1 1465839830', 's'), '2016-06-13T17:43:50.000Z');
});

t.test('lines that are not line protocol are refused with the column and the reason', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['# a comment', /a comment line/],
    ['cpu', /column 4: the line has no fields/],
    ['cpu,host value=1', /"=" must follow the tag key "host"/],
    ['cpu,host= value=1', /the tag "host" has no value/],
    ['cpu,a=1,a=2 value=1', /the tag key "a" is given twice/],
    ['cpu value=', /field "value" has no value/],
    ['cpu value="open', /the string value of field "value" is not closed/],
    ['cpu value=yes', /"yes" is not a float, integer, string or boolean/],
    ['cpu value=tru', /"tru" is not a boolean/],
    ['cpu value=1x', /"1x" is not a float, integer, string or boolean/],
    ['cpu value=9223372036854775808i', /is not a signed 64-bit integer/],
    ['cpu value=-1u', /is not a float, integer, string or boolean|is not an unsigned/],
    ['cpu value=1 12:00', /the timestamp "12:00" is not an integer/],
    ['cpu value=1 9223372036854775808', /out of range/],
    ['cpu value=1 -3000000000000000000', /the timestamp -3000000000000000000 \(ns\): @timestamp is outside the years 1900 to 2299/],
    ['cpu value=1 1 2', /the timestamp "1 2" is not an integer/],
  ];
  for (const [line, reason] of cases) {
    const out = parseInfluxLine(line);
    t.equal(out.ok, false, line);
    t.match(!out.ok && out.reason, reason, line);
  }
});

interface CorpusCase {
  text: string;
  error?: string;
  name?: string;
  tags?: Record<string, string>;
  fields?: Array<[string, Record<string, unknown>]>;
}

t.test("the reference decoder's corpus: the same points and the same refusals", async (t) => {
  const corpus = JSON.parse(readFileSync(new URL('../../../../fixtures/presets/influx-corpus.json', import.meta.url), 'utf8')) as { cases: CorpusCase[] };
  t.equal(corpus.cases.length, 220);
  const differing: string[] = [];
  let refusedForTheirDate = 0;
  for (const c of corpus.cases) {
    const out = parseInfluxLine(c.text);
    if (c.error !== undefined) {
      if (out.ok) differing.push(`${c.text}: taken, the reference refuses it (${c.error})`);
      continue;
    }
    if (!out.ok) {
      if (/outside the years 1900 to 2299/.test(out.reason)) refusedForTheirDate++;
      else differing.push(`${c.text}: refused (${out.reason})`);
      continue;
    }
    const fields = Object.fromEntries(c.fields!.map(([k, v]) => [k, v['string'] ?? v['bool'] ?? Number(Object.values(v)[0])]));
    const v = out.value as { name: string; tags: Record<string, string>; fields: Record<string, unknown>; '@timestamp'?: string };
    const sorted = (o: Record<string, unknown>) => JSON.stringify(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
    if (v.name !== c.name || sorted(v.tags) !== sorted(c.tags!) || sorted(v.fields) !== sorted(fields)) differing.push(`${c.text}: ${JSON.stringify(v)}`);
    const written = /\s(-?\d+)\s*$/.exec(c.text)?.[1];
    if (written !== undefined && v['@timestamp'] !== undefined) {
      const ms = BigInt(Date.parse(v['@timestamp']));
      const sub = BigInt(/\.\d{3}(\d{6})Z$/.exec(v['@timestamp'])?.[1] ?? '0');
      if (ms * 1_000_000n + sub !== BigInt(written)) differing.push(`${c.text}: @timestamp ${v['@timestamp']}`);
    }
  }
  t.strictSame(differing, [], 'no case decodes otherwise');
  t.equal(refusedForTheirDate, 1, 'one point of 1677 is refused: the event table holds 1900 to 2299');
});
