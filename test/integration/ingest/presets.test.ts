/**
 * Issue #37: parser presets through the admin API and stream-data on the embedded platform. A
 * preset stream takes the body its agent sends (text by lines, gzip as Telegraf may send it) with
 * no framing set; each line is an event dated by the agent, and a line the preset cannot read is a
 * dead letter with the reason, beside the others — counted as physical rows (no FINAL).
 */
import { gzipSync } from 'node:zlib';
import t from 'tap';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { ingestSettled } from '../../support/settled.js';
import { createStream, type StreamInfo } from '../../support/streams.js';

let p: TestPlatform;
t.before(async () => {
  p = await startTestPlatform();
});
t.teardown(() => p.stop());

async function post(s: StreamInfo, type: string, body: string | Uint8Array, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const answer = await fetch(`${p.base}/api/public/cl/v1/stream-data`, { method: 'POST', headers: { 'content-type': type, 'x-smon-stream-key': s.key, ...headers }, body });
  return { status: answer.status, body: await answer.json() };
}

async function stored(s: StreamInfo): Promise<{ events: Array<{ ts: string; payload: any }>; dead: Array<{ reason: string; payload: string }> }> {
  await ingestSettled(p.platform);
  const events = await p.platform.engines.analytics.query<{ ts: string; payload: string }>('SELECT ts, payload FROM events WHERE stream_id = {s:UInt64} ORDER BY ts', { s: s.id });
  const dead = await p.platform.engines.analytics.query<{ reason: string; payload: string }>('SELECT reason, payload FROM dead_letters WHERE stream_id = {s:UInt64}', { s: s.id });
  return { events: events.map((e) => ({ ts: e.ts, payload: JSON.parse(e.payload) })), dead };
}

t.test('the admin API keeps the preset; an unknown syslog time zone is a 400 naming the field', async (t) => {
  const created = await p.api('POST', '/api/admin/v1/streams', { json: { name: 'presets-api', config: { parser: { type: 'syslog', timeZone: 'Europe/Berlin' } } } });
  t.equal(created.status, 201);
  t.strictSame(created.body.config, { parser: { type: 'syslog', timeZone: 'Europe/Berlin' } });
  const refused = await p.api('POST', '/api/admin/v1/streams', { json: { name: 'presets-bad-zone', config: { parser: { type: 'syslog', timeZone: 'Europe/Atlantis' } } } });
  t.equal(refused.status, 400);
  t.equal(refused.body.code, 'stream.time_zone_invalid');
  t.strictSame(refused.body.errors, [{ path: '/config/parser/timeZone', message: '"Europe/Atlantis" is not an IANA time zone' }]);
  const unknown = await p.api('POST', '/api/admin/v1/streams', { json: { name: 'presets-unknown', config: { parser: { type: 'statsd' } } } });
  t.equal(unknown.status, 400, 'a preset that does not exist is refused by the schema');
});

t.test('influx, as Telegraf posts it (gzip, text/plain; charset=utf-8): one event per point, dated by it', async (t) => {
  const s = await createStream(p, 'presets-influx', { parser: { type: 'influx' } });
  const body = [
    'system,host=tyrion load1=3.72,load5=2.4,load15=2.1,n_users=3i,n_cpus=4i 1483964144000000000',
    'system,host=tyrion uptime=1249632i 1483964144000000000',
    'system,host=tyrion uptime_format="14 days, 11:07" 1483964144000000000',
    'system,host=tyrion load1=broken 1483964144000000000',
    '',
  ].join('\n');
  const answer = await post(s, 'text/plain; charset=utf-8', gzipSync(body), { 'content-encoding': 'gzip' });
  t.strictSame(answer, { status: 200, body: { accepted: 4 } });
  const { events, dead } = await stored(s);
  t.equal(events.length, 3);
  t.ok(
    events.every((e) => e.ts === '2017-01-09 12:15:44.000'),
    "the point's date",
  );
  t.strictSame(
    events.map((e) => e.payload.fields).find((f) => 'uptime' in f),
    { uptime: 1249632 },
  );
  t.equal(dead.length, 1);
  t.match(dead[0]!.reason, /^influx preset: column 26: "broken" is not a float, integer, string or boolean \(field "load1"\)$/);
  t.equal(dead[0]!.payload, 'system,host=tyrion load1=broken 1483964144000000000');
});

t.test('graphite and logfmt: CRLF lines, the bad one a dead letter', async (t) => {
  const graphite = await createStream(p, 'presets-graphite', { parser: { type: 'graphite' } });
  t.strictSame((await post(graphite, 'text/plain', 'a.b 1 1455320690\r\na.c 2\r\na.d 3 -1\r\n')).body, { accepted: 3 });
  const g = await stored(graphite);
  t.strictSame(
    g.events.map((e) => e.payload.metric),
    ['a.b', 'a.d'],
  );
  t.strictSame(
    g.dead.map((d) => d.reason),
    ['graphite preset: a line is "<metric path> <value> <timestamp>": this one has 2 parts'],
  );

  const logfmt = await createStream(p, 'presets-logfmt', { parser: { type: 'logfmt' } });
  const body = 'time=2026-11-21T10:00:00Z level=error msg="disk full" host=db-1\nnothing to see here\ntime=2026-02-30T10:00:00Z level=info\n';
  t.strictSame((await post(logfmt, 'text/plain', body)).body, { accepted: 3 });
  const l = await stored(logfmt);
  t.strictSame(l.events, [
    { ts: '2026-11-21 10:00:00.000', payload: { '@timestamp': '2026-11-21T10:00:00Z', time: '2026-11-21T10:00:00Z', level: 'error', msg: 'disk full', host: 'db-1' } },
  ]);
  t.strictSame(l.dead.map((d) => d.reason).sort(), [
    'logfmt preset: no key=value pair: the line is not logfmt',
    'logfmt preset: time=2026-02-30T10:00:00Z: @timestamp names a day that does not exist: "2026-02-30T10:00:00Z"',
  ]);
});

t.test("collectd JSON under a stream's own framing body: the array is one record, a dead letter saying why", async (t) => {
  const s = await createStream(p, 'presets-collectd-body', { parser: { type: 'collectd' }, framing: 'body' });
  const list = {
    values: [1],
    dstypes: ['gauge'],
    dsnames: ['value'],
    time: 1795613691,
    interval: 1,
    host: 'h',
    plugin: 'memory',
    plugin_instance: '',
    type: 'memory',
    type_instance: 'used',
  };
  t.strictSame((await post(s, 'application/json', JSON.stringify([list, list]))).body, { accepted: 1 });
  const { events, dead } = await stored(s);
  t.equal(events.length, 0);
  t.match(dead[0]!.reason, /^collectd preset: a JSON array is one record under the framing "body"/);
});
