/**
 * The Alertmanager webhook receiver on the embedded platform: one record per alert, dated by
 * startsAt (firing) or endsAt (resolved), never by Go's zero time; the body checked against the
 * webhook schema; the same stream keys as every listener. A 200 means the records are on the bus
 * (in-process: in its log on disk); the rows are read once the pipeline has settled, so a refused
 * record that was stored all the same would show; rows are counted physically (no FINAL).
 */
import t from 'tap';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { storedEvents, storedRowCount } from '../../support/settled.js';
import { createStream, type KeyVia, type StreamInfo, sendKey } from '../../support/streams.js';

const PATH = '/api/public/cl/v1/alertmanager';
const START = Date.parse('2026-11-21T10:00:00.000Z');
const ZERO_TIME = '0001-01-01T00:00:00Z';
let clock = START;

let p: TestPlatform;
t.before(async () => {
  p = await startTestPlatform({ now: () => clock });
});
t.teardown(() => p.stop());

let streamNo = 0;
const newStream = (config?: unknown): Promise<StreamInfo> => createStream(p, `alertmanager-${++streamNo}`, config);

type Via = KeyVia;
async function notify(key: string | undefined, body: unknown, via: Via = 'query'): Promise<{ status: number; body: any }> {
  const sent = sendKey(key, via, 'alertmanager');
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Alertmanager/0.27.0', ...sent.headers };
  const query = sent.query;
  const response = await fetch(p.base + PATH + query, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

function alert(status: 'firing' | 'resolved', name: string, startsAt: string, endsAt: string) {
  return {
    status,
    labels: { alertname: name, instance: 'db-1:9100', severity: 'critical' },
    annotations: { summary: `${name} on db-1` },
    startsAt,
    endsAt,
    generatorURL: 'http://prometheus:9090/graph?g0.expr=up+%3D%3D+0',
    fingerprint: `fp-${name}`,
  };
}

function webhook(alerts: unknown[], status: 'firing' | 'resolved' = 'firing') {
  return {
    version: '4',
    groupKey: '{}:{alertname="InstanceDown"}',
    truncatedAlerts: 0,
    status,
    receiver: 'ops-platform',
    groupLabels: { alertname: 'InstanceDown' },
    commonLabels: { severity: 'critical' },
    commonAnnotations: {},
    externalURL: 'http://alertmanager:9093',
    alerts,
  };
}

const events = (streamId: number) => storedEvents(p.platform, streamId);
const rowCount = (streamId: number) => storedRowCount(p.platform, streamId);

/** ClickHouse's DateTime64(3) text of an epoch-ms value. */
const chTime = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
const tick = (): number => (clock += 1000);

t.test('a firing alert is one record: the alert, receiver and groupKey, dated by startsAt', async (t) => {
  const s = await newStream();
  const at = tick();
  const firing = alert('firing', 'InstanceDown', '2026-11-21T09:58:00.123456789Z', ZERO_TIME);
  const answer = await notify(s.key, webhook([firing]));
  t.equal(answer.status, 200);
  t.strictSame(answer.body, { accepted: 1 });
  t.equal(await rowCount(s.id), 1);
  const [row] = await events(s.id);
  t.equal(row!.ts, '2026-11-21 09:58:00.123', 'startsAt, to the millisecond');
  t.equal(row!.received_at, chTime(at));
  t.strictSame(JSON.parse(row!.payload), {
    ...firing,
    receiver: 'ops-platform',
    groupKey: '{}:{alertname="InstanceDown"}',
    '@timestamp': '2026-11-21T09:58:00.123456789Z',
  });
});

t.test('a resolved alert is dated by endsAt', async (t) => {
  const s = await newStream();
  const resolved = alert('resolved', 'InstanceDown', '2026-11-21T09:58:00Z', '2026-11-21T11:03:30.5+01:00');
  const answer = await notify(s.key, webhook([resolved], 'resolved'));
  t.equal(answer.status, 200);
  const [row] = await events(s.id);
  t.equal(row!.ts, '2026-11-21 10:03:30.500');
  t.equal(JSON.parse(row!.payload)['@timestamp'], '2026-11-21T11:03:30.5+01:00');
});

t.test('a notification of firing and resolved alerts stores one record per alert, each with its own date', async (t) => {
  const s = await newStream();
  const alerts = [
    alert('firing', 'DiskFull', '2026-11-21T08:00:00Z', ZERO_TIME),
    alert('resolved', 'InstanceDown', '2026-11-21T07:00:00Z', '2026-11-21T07:30:00Z'),
    alert('firing', 'HighLoad', '2026-11-21T09:00:00Z', ZERO_TIME),
  ];
  const answer = await notify(s.key, webhook(alerts));
  t.strictSame(answer.body, { accepted: 3 });
  t.equal(await rowCount(s.id), 3);
  const rows = await events(s.id);
  t.strictSame(
    rows.map((r) => [JSON.parse(r.payload).labels.alertname, r.ts]),
    [
      ['InstanceDown', '2026-11-21 07:30:00.000'],
      ['DiskFull', '2026-11-21 08:00:00.000'],
      ['HighLoad', '2026-11-21 09:00:00.000'],
    ],
  );
  t.ok(
    rows.every((r) => !r.ts.startsWith('0001') && !r.ts.startsWith('1900')),
    'no event date from the zero time',
  );
});

t.test('an alert without a usable date is dated by its receipt, never by year 0001', async (t) => {
  const s = await newStream();
  const at = tick();
  const alerts = [
    alert('resolved', 'ZeroEnd', '2026-11-21T08:00:00Z', ZERO_TIME),
    alert('firing', 'ZeroStart', ZERO_TIME, ZERO_TIME),
    alert('firing', 'NotADate', 'yesterday', ZERO_TIME),
    { ...alert('firing', 'SmuggledTimestamp', 'yesterday', ZERO_TIME), '@timestamp': '1999-01-01T00:00:00Z' },
  ];
  const answer = await notify(s.key, webhook(alerts));
  t.equal(answer.status, 200);
  t.strictSame(answer.body, { accepted: 4 });
  const rows = await events(s.id);
  t.equal(rows.length, 4);
  for (const row of rows) {
    const payload = JSON.parse(row.payload);
    t.equal(row.ts, chTime(at), payload.labels.alertname);
    t.notOk('@timestamp' in payload, `${payload.labels.alertname}: no @timestamp stored`);
  }
});

t.test('a date out of 1900–2299 or malformed: dated by receipt, and the log says which with the message stream-data gives (issue #37)', async (t) => {
  const s = await newStream();
  const at = tick();
  const logged = p.logs.length;
  const alerts = [alert('firing', 'Year2400', '2400-01-01T00:00:00Z', ZERO_TIME), alert('resolved', 'Malformed', '2026-11-21T08:00:00Z', '21.11.2026 10:00')];
  const answer = await notify(s.key, webhook(alerts));
  t.equal(answer.status, 200, 'not refused: Alertmanager would drop the whole notification');
  t.strictSame(answer.body, { accepted: 2 });
  const rows = await events(s.id);
  t.strictSame(
    rows.map((r) => [JSON.parse(r.payload).labels.alertname, r.ts, '@timestamp' in JSON.parse(r.payload)]),
    [
      ['Year2400', chTime(at), false],
      ['Malformed', chTime(at), false],
    ],
  );
  const warnings = p.logs
    .slice(logged)
    .flatMap((line) => line.split('\n'))
    .filter((line) => line.includes('alert dated by its receipt'))
    .map((line) => JSON.parse(line).reason);
  t.strictSame(warnings, [
    'startsAt is outside the years 1900 to 2299 (UTC) that event dates can take: "2400-01-01T00:00:00Z"',
    'endsAt is not an ISO 8601 date-time with a time zone (e.g. 2026-11-21T10:00:00Z): "21.11.2026 10:00"',
  ]);
});

t.test('an empty alerts array answers {"accepted":0} and stores nothing', async (t) => {
  const s = await newStream();
  const answer = await notify(s.key, webhook([]));
  t.equal(answer.status, 200);
  t.strictSame(answer.body, { accepted: 0 });
  t.equal(await rowCount(s.id), 0);
});

t.test('a malformed webhook is 400 and stores nothing', async (t) => {
  const s = await newStream();
  const good = alert('firing', 'InstanceDown', '2026-11-21T09:58:00Z', ZERO_TIME);
  const { alerts: _alerts, ...noAlerts } = webhook([good]);
  const { labels: _labels, ...noLabels } = good;
  const cases: Array<[string, unknown, RegExp]> = [
    ['not JSON', '{"receiver":', /not valid JSON/],
    ['empty body', '', /empty/],
    ['no alerts', noAlerts, /alerts/],
    ['alerts not an array', { ...webhook([]), alerts: {} }, /alerts/],
    ['an alert without labels', webhook([good, noLabels]), /alerts\/1\/labels/],
    ['an unknown alert status', webhook([{ ...good, status: 'pending' }]), /alerts\/0\/status/],
    ['a label that is not a string', webhook([{ ...good, labels: { severity: 3 } }]), /alerts\/0\/labels/],
    ['no receiver', { ...webhook([good]), receiver: undefined }, /receiver/],
  ];
  for (const [name, body, where] of cases) {
    const answer = await notify(s.key, body);
    t.equal(answer.status, 400, name);
    t.match(JSON.stringify(answer.body), where, `${name}: the answer names what is wrong`);
  }
  t.equal(await rowCount(s.id), 0, 'not even the valid alert of a refused notification');
});

t.test('the key is taken from the query, the x-smon-stream-key header or the Basic password', async (t) => {
  const s = await newStream();
  for (const via of ['query', 'header', 'basic'] as const) {
    const answer = await notify(s.key, webhook([alert('firing', `Via-${via}`, '2026-11-21T09:00:00Z', ZERO_TIME)]), via);
    t.equal(answer.status, 200, via);
  }
  t.equal(await rowCount(s.id), 3);
});

t.test('a missing, unknown, inactive or pending-deletion key is 422, and stores nothing', async (t) => {
  const inactive = await newStream();
  const pending = await newStream();
  t.equal((await p.api('POST', `/api/admin/v1/streams/${inactive.id}/deactivate`)).status, 200);
  t.equal((await p.api('POST', `/api/admin/v1/streams/${pending.id}/mark-for-deletion`)).status, 200);
  const body = webhook([alert('firing', 'InstanceDown', '2026-11-21T09:58:00Z', ZERO_TIME)]);
  const missing = await notify(undefined, body);
  t.equal(missing.status, 422);
  t.match(missing.body.detail, /stream key is missing/);
  for (const via of ['query', 'header', 'basic'] as const) {
    const unknown = await notify('no-such-key', body, via);
    t.equal(unknown.status, 422, `unknown key (${via})`);
    t.match(unknown.body.detail, /not declared/);
    t.match((await notify(inactive.key, body, via)).body.detail, /not active/, `inactive (${via})`);
    t.match((await notify(pending.key, body, via)).body.detail, /pending deletion/, `pending deletion (${via})`);
  }
  t.equal(await rowCount(inactive.id), 0);
  t.equal(await rowCount(pending.id), 0);
});

t.test('the OpenAPI document lists the webhook path with its body schema and the Basic scheme', async (t) => {
  const doc = (await p.api('GET', '/api/openapi.json', { token: null })).body;
  const operation = doc.paths[PATH]?.post;
  t.ok(operation, PATH);
  t.strictSame(operation.security, [{ streamKeyQuery: [] }, { streamKeyHeader: [] }, { streamKeyBasic: [] }]);
  const schema = operation.requestBody.content['application/json'].schema;
  t.ok(schema.properties.alerts, 'the alerts are documented');
  t.ok(schema.required.includes('alerts'));
  t.ok(schema.properties.alerts.items.properties.startsAt, 'an alert is documented');
  t.ok(operation.responses['400'], 'a malformed body is documented');
});
