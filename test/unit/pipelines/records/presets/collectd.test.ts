/**
 * Issue #37: the collectd preset on what collectd 5.12's write_http sends, Format "Command" and
 * Format "JSON" (test/fixtures/presets/README.md says how the fixtures were captured), and on the
 * lines of the issue; the same value list gives the same record in both formats.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { collectdValueList, parseCollectdCommand, parseIdentifier } from '../../../../../pipelines/records/presets/collectd.js';

const fixture = (name: string): string => readFileSync(new URL(`../../../../fixtures/presets/${name}`, import.meta.url), 'utf8');

t.test("the issue's line: unquoted identifier, decimal interval, epoch time, three values named by types.db", async (t) => {
  t.strictSame(parseCollectdCommand('PUTVAL collectd-host/load/load interval=2.000 1795613691.990:1.97:1.66:1.12'), {
    ok: true,
    value: {
      '@timestamp': '2026-11-25T13:34:51.990Z',
      host: 'collectd-host',
      plugin: 'load',
      plugin_instance: '',
      type: 'load',
      type_instance: '',
      interval: 2,
      values: { shortterm: 1.97, midterm: 1.66, longterm: 1.12 },
      dstypes: { shortterm: 'gauge', midterm: 'gauge', longterm: 'gauge' },
    },
  });
});

t.test('a captured write_http Command body: every line one record, instances split at the first dash', async (t) => {
  const lines = fixture('collectd-command.txt')
    .split('\n')
    .filter((l) => l !== '');
  t.equal(lines.length, 50);
  t.ok(
    lines.every((l) => l.endsWith('\r')),
    'write_http ends each line with CRLF (the ingress strips the CR)',
  );
  const records = lines.map((l) => parseCollectdCommand(l.slice(0, -1)));
  t.strictSame(
    records.filter((r) => !r.ok),
    [],
    'every line parses',
  );
  const values = records.map((r) => (r.ok ? r.value : {})) as Array<Record<string, any>>;
  t.strictSame(values[0], {
    '@timestamp': '2026-11-25T20:58:06.035Z',
    host: 'collectd-host',
    plugin: 'cpu',
    plugin_instance: '0',
    type: 'cpu',
    type_instance: 'idle',
    interval: 1,
    values: { value: 776499 },
    dstypes: { value: 'derive' },
  });
  const ifOctets = values.find((v) => v['type'] === 'if_octets' && v['plugin_instance'] === 'lo');
  t.strictSame(ifOctets?.['values'], { rx: 104462524393, tx: 104462524393 }, 'interface: rx and tx');
  t.strictSame(ifOctets?.['dstypes'], { rx: 'derive', tx: 'derive' });
  const memory = values.find((v) => v['plugin'] === 'memory' && v['type_instance'] === 'slab_unrecl');
  t.strictSame(memory?.['values'], { value: 71098368 }, 'memory: one value, its type instance from after the dash');
  const load = values.find((v) => v['plugin'] === 'load');
  t.strictSame(load?.['values'], { shortterm: 3.654296875, midterm: 4.74462890625, longterm: 6.787109375 });
});

t.test('a captured write_http JSON body: each value list the same record the Command format gives', async (t) => {
  const lists = JSON.parse(fixture('collectd-json.json')) as unknown[];
  t.equal(lists.length, 18);
  const records = lists.map(collectdValueList);
  t.strictSame(
    records.filter((r) => !r.ok),
    [],
  );
  const load = records[0]!.ok ? records[0]!.value : undefined;
  t.strictSame(load, {
    '@timestamp': '2026-11-25T20:58:04.041Z',
    host: 'collectd-host',
    plugin: 'load',
    plugin_instance: '',
    type: 'load',
    type_instance: '',
    interval: 1,
    values: { shortterm: 3.654296875, midterm: 4.74462890625, longterm: 6.787109375 },
    dstypes: { shortterm: 'gauge', midterm: 'gauge', longterm: 'gauge' },
  });
  t.strictSame(
    parseCollectdCommand('PUTVAL collectd-host/load/load interval=1.000 1795640284.041:3.654296875:4.74462890625:6.787109375'),
    records[0],
    'the Command line of that value list: the same record',
  );
  const packets = lists.findIndex((l: any) => l.type === 'if_packets');
  t.strictSame(Object.keys((records[packets] as any).value.values), ['rx', 'tx'], 'the names the value list gives');
});

t.test('time N: no @timestamp, the record is dated by its receipt', async (t) => {
  const out = parseCollectdCommand('PUTVAL "db 1/cpu-0/cpu-idle" interval=10 N:42');
  t.strictSame(out, {
    ok: true,
    value: { host: 'db 1', plugin: 'cpu', plugin_instance: '0', type: 'cpu', type_instance: 'idle', interval: 10, values: { value: 42 }, dstypes: { value: 'derive' } },
  });
});

t.test('quoted identifiers and options as collectd escapes them; meta options kept', async (t) => {
  const out = parseCollectdCommand('PUTVAL "h\\"x/df-var\\\\log/df_complex-free" meta:mount="/var/log files" interval=60 1795613691:1024');
  t.equal(out.ok, true);
  const v = out.ok ? out.value : {};
  t.equal(v['host'], 'h"x');
  t.equal(v['plugin_instance'], 'var\\log');
  t.strictSame(v['meta'], { mount: '/var/log files' });
  t.equal(v['@timestamp'], '2026-11-25T13:34:51.000Z');
});

t.test('U, nan and inf are null (what collectd writes for them in JSON)', async (t) => {
  const out = parseCollectdCommand('PUTVAL h/load/load 1795613691:U:nan:-inf');
  t.strictSame(out.ok && out.value['values'], { shortterm: null, midterm: null, longterm: null });
});

t.test('a type types.db does not know, or with another number of values: value0…valueN, no dstypes', async (t) => {
  const custom = parseCollectdCommand('PUTVAL h/exec/my_type-x N:1:2:3');
  t.strictSame(custom.ok && custom.value['values'], { value0: 1, value1: 2, value2: 3 });
  t.equal(custom.ok && 'dstypes' in custom.value, false);
  const odd = parseCollectdCommand('PUTVAL h/load/load N:1');
  t.strictSame(odd.ok && odd.value['values'], { value0: 1 });
});

t.test('lines that are not PUTVAL value lists are refused with the reason', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['PUTNOTIF severity=okay time=1 message=hi', /not a PUTVAL command/],
    ['PUTVAL host-only N:1', /identifier "host-only" is not host\/plugin/],
    ['PUTVAL h//load N:1', /is not host\/plugin/],
    ['PUTVAL h/load/load interval=0 N:1', /interval=0 is not a positive number/],
    ['PUTVAL h/load/load interval=2', /no values/],
    ['PUTVAL h/load/load colour=red N:1', /unknown option colour/],
    ['PUTVAL h/load/load N:1 N:2', /holds 2 value lists/],
    ['PUTVAL h/load/load yesterday:1', /time "yesterday" is neither N nor epoch seconds/],
    ['PUTVAL h/load/load N:1:x:3', /value 2 \("x"\) is not a number or U/],
    ['PUTVAL h/load/load 1', /is not <time>:<value>/],
    ['PUTVAL "h/load/load N:1', /quoted string opened at column 8 is not closed/],
    ['PUTVAL h/load/load 99999999999:1', /the time 99999999999: @timestamp is outside the years 1900 to 2299/],
    [`PUTVAL h/exec/x N${':1'.repeat(1025)}`, /holds more than 1024 values/],
  ];
  for (const [line, reason] of cases) {
    const out = parseCollectdCommand(line);
    t.equal(out.ok, false, line);
    t.match(!out.ok && out.reason, reason, line);
  }
});

t.test('JSON: what is not a value list is refused, an array naming the framing', async (t) => {
  t.match(collectdValueList([{ values: [1] }]), { ok: false, reason: /framing "body"/ });
  t.match(collectdValueList({ host: 'h' }), { ok: false, reason: /values is not a non-empty array/ });
  t.match(collectdValueList({ values: [1], host: 'h', plugin: 'p' }), { ok: false, reason: /type is not a string/ });
  t.match(collectdValueList({ values: [1, 2], dsnames: ['a'], host: 'h', plugin: 'p', type: 't' }), { ok: false, reason: /dsnames does not name each value/ });
  t.match(collectdValueList({ values: [1], host: 'h', plugin: 'p', type: 't', time: 'now' }), { ok: false, reason: /time "now" is not a number of epoch seconds/ });
  t.match(collectdValueList({ values: [1], host: 'h', plugin: 'p', type: 't', time: -3e9 }), { ok: false, reason: /outside the years 1900 to 2299/ });
});

t.test('identifiers split as collectd splits them', async (t) => {
  t.strictSame(parseIdentifier('collectd-host/df-mnt-data-1/df_complex-free'), {
    host: 'collectd-host',
    plugin: 'df',
    plugin_instance: 'mnt-data-1',
    type: 'df_complex',
    type_instance: 'free',
  });
  t.equal(parseIdentifier('/load/load'), undefined, 'no host');
  t.equal(parseIdentifier('h/load/'), undefined, 'no type');
});
