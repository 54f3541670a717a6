/**
 * Issue #37: the graphite preset on plaintext lines as Graphite's documentation and Telegraf's
 * graphite serializer write them, tagged series (Graphite 1.1), and what carbon would refuse.
 */
import t from 'tap';
import { parseGraphiteLine } from '../../../../../pipelines/records/presets/graphite.js';

t.test("Telegraf's graphite serializer (template host.tags.measurement.field)", async (t) => {
  t.strictSame(parseGraphiteLine('tars.cpu-total.us-east-1.cpu.usage_idle 98.09 1455320690'), {
    ok: true,
    value: { '@timestamp': '2016-02-12T23:44:50.000Z', metric: 'tars.cpu-total.us-east-1.cpu.usage_idle', value: 98.09 },
  });
});

t.test('a tagged series: tags beside the path; a tab between the parts, and trailing spaces, as carbon splits', async (t) => {
  t.strictSame(parseGraphiteLine('disk.used;rack=a1;datacenter=dc1;server=web01\t42 1526940000  '), {
    ok: true,
    value: { '@timestamp': '2018-05-21T22:00:00.000Z', metric: 'disk.used', tags: { rack: 'a1', datacenter: 'dc1', server: 'web01' }, value: 42 },
  });
});

t.test('-1 is now (dated by the receipt); decimals in the timestamp kept; nan is null', async (t) => {
  t.strictSame(parseGraphiteLine('local.random.diceroll 4 -1'), { ok: true, value: { metric: 'local.random.diceroll', value: 4 } });
  t.strictSame(parseGraphiteLine('a.b 1e3 1455320690.25'), { ok: true, value: { '@timestamp': '2016-02-12T23:44:50.250Z', metric: 'a.b', value: 1000 } });
  t.strictSame(parseGraphiteLine('a.b nan 1455320690'), { ok: true, value: { '@timestamp': '2016-02-12T23:44:50.000Z', metric: 'a.b', value: null } });
});

t.test('lines that are not plaintext protocol are refused with the reason', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['a.b 1', /this one has 2 parts/],
    ['a.b 1 2 3', /this one has more than 3 parts/],
    ['a.b one 1455320690', /the value "one" is not a number/],
    ['a.b U 1455320690', /the value "U" is not a number/],
    ['a.b 1 yesterday', /the timestamp "yesterday" is not epoch seconds/],
    ['a.b;dc 1 1455320690', /the tag "dc" is not <name>=<value>/],
    [';dc=x 1 1455320690', /the metric path is empty/],
    ['a.b 1 99999999999', /the timestamp 99999999999: @timestamp is outside the years 1900 to 2299/],
  ];
  for (const [line, reason] of cases) {
    const out = parseGraphiteLine(line);
    t.equal(out.ok, false, line);
    t.match(!out.ok && out.reason, reason, line);
  }
});
