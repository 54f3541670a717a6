/**
 * The Alertmanager format: `POST /api/v2/alerts` bodies, checked against the `postableAlerts`
 * schema of Alertmanager's OpenAPI document (api/v2/openapi.yaml, transcribed below) and the
 * rules of its `Alert.Validate` (a start, an end not before it, at least one label, label names
 * `^[a-zA-Z_][a-zA-Z0-9_]*$`, values valid UTF-8). Times worked by hand: now is 12:05:00, the
 * resend interval a minute, so an open problem's alert ends at 12:08:00.
 */
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import t from 'tap';
import { alertmanagerRequest, alertsOf, formatAlertmanager, LABEL_NAME, tagLabelName, type PostableAlert } from '../../../../../pipelines/notifications/formats/alertmanager.js';
import { CONSOLE, HOSTILE, NOW, PROBLEM_ID, acknowledged, maintenanceStarted, message, opened, problem, resolved, slaBurning } from './format-fixture.js';

const LabelSet = Type.Record(Type.String(), Type.String());
const PostableAlerts = Type.Array(
  Type.Object({
    startsAt: Type.Optional(Type.String({ format: 'date-time' })),
    endsAt: Type.Optional(Type.String({ format: 'date-time' })),
    annotations: Type.Optional(LabelSet),
    labels: LabelSet,
    generatorURL: Type.Optional(Type.String({ format: 'uri' })),
  }),
);
const checker = Compile(PostableAlerts);
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What Alertmanager would refuse in a push (empty: nothing). */
function refusals(alerts: unknown): string[] {
  const out = [...checker.Errors(alerts)].map((e) => `${e.instancePath} ${e.message}`);
  for (const a of alerts as PostableAlert[]) {
    if (Date.parse(a.endsAt) < Date.parse(a.startsAt)) out.push('start time must be before end time');
    if (Object.keys(a.labels).length === 0) out.push('at least one label pair required');
    for (const [name, value] of [...Object.entries(a.labels), ...Object.entries(a.annotations)]) {
      if (!LABEL_NAME.test(name)) out.push(`invalid name ${name}`);
      if (LONE_SURROGATE.test(value)) out.push(`invalid value for ${name}`);
    }
  }
  return out;
}

const MINUTE = 60_000;
const settings = { url: 'http://alertmanager.internal:9093' };
const ctx = { consoleUrl: CONSOLE, now: NOW, resendEveryMs: MINUTE };

t.test('worked example: an open problem fires until now + 3 resend intervals', async (t) => {
  const alerts = alertsOf([problem()], NOW, MINUTE, CONSOLE);
  t.strictSame(alerts, [
    {
      labels: {
        alertname: 'CPU load high',
        problem_id: PROBLEM_ID,
        trigger: 'CPU load high',
        trigger_id: '5',
        ci: 'web-01',
        ci_id: '17',
        priority: 'Problem1',
        severity: 'critical',
        tag_env: 'prod',
      },
      annotations: { summary: 'CPU load high on web-01', description: 'P1 problem on web-01 since 2025-03-01 12:00 UTC: open.' },
      startsAt: '2025-03-01T12:00:00.000Z',
      endsAt: '2025-03-01T12:08:00.000Z',
      generatorURL: `https://ops.example.com/problems/${PROBLEM_ID}`,
    },
  ]);
  t.strictSame(refusals(alerts), []);
});

t.test('re-sent a minute later: the same labels (the same alert), endsAt a minute further', async (t) => {
  const [first] = alertsOf([problem()], NOW, MINUTE, CONSOLE);
  const [again] = alertsOf([problem({ acknowledged: true })], NOW + MINUTE, MINUTE, CONSOLE);
  t.strictSame(again!.labels, first!.labels, 'acknowledging changes no label');
  t.equal(again!.endsAt, '2025-03-01T12:09:00.000Z');
  t.equal(again!.annotations.description, 'P1 problem on web-01 since 2025-03-01 12:00 UTC: open, acknowledged.');
});

t.test('a closed problem ends at its dateEnd, which resolves it at once', async (t) => {
  const [alert] = alertsOf([problem({ dateEnd: '2025-03-01T12:04:30.000Z' })], NOW, MINUTE, CONSOLE);
  t.equal(alert!.endsAt, '2025-03-01T12:04:30.000Z');
  t.equal(alert!.annotations.description, 'P1 problem on web-01 since 2025-03-01 12:00 UTC: resolved at 2025-03-01 12:04 UTC.');
  const [future] = alertsOf([problem({ dateStart: '2025-03-01T13:00:00.000Z' })], NOW, MINUTE, CONSOLE);
  t.equal(future!.endsAt, future!.startsAt, 'a start later than now + 3 intervals (a record dated ahead): endsAt never before startsAt');
  t.strictSame(refusals([alert, future]), []);
});

t.test('labels: tag names mapped to valid label names, empty values left out, the first of a clash wins', async (t) => {
  t.equal(tagLabelName('app.kubernetes.io/name'), 'tag_app_kubernetes_io_name');
  t.equal(tagLabelName('9 lives'), 'tag_9_lives');
  t.equal(tagLabelName('café'), 'tag_caf_');
  const [alert] = alertsOf(
    [
      problem({
        tags: [
          { name: 'team-a', value: 'web' },
          { name: 'team.a', value: 'db' },
          { name: 'critical', value: null },
          { name: 'owner', value: '' },
          { name: HOSTILE, value: HOSTILE },
        ],
      }),
    ],
    NOW,
    MINUTE,
    CONSOLE,
  );
  t.equal(alert!.labels.tag_team_a, 'web');
  t.notOk('tag_critical' in alert!.labels || 'tag_owner' in alert!.labels);
  t.ok(
    Object.keys(alert!.labels).every((n) => LABEL_NAME.test(n)),
    'every name valid',
  );
  t.strictSame(refusals([alert]), []);
});

t.test('hostile names: valid UTF-8 values on one line, all of it accepted', async (t) => {
  const alerts = alertsOf([problem({ trigger: { id: 5, name: HOSTILE.repeat(20) }, configItem: { id: 17, name: HOSTILE } })], NOW, MINUTE, CONSOLE);
  t.strictSame(refusals(alerts), []);
  t.ok(alerts[0]!.labels.alertname!.length <= 200, 'clipped to 200');
  t.notMatch(alerts[0]!.labels.ci!, /[\r\n\u202e]/);
});

t.test('a message: problem events in one push, a problem named twice sent as its last event says; other kinds: no push', async (t) => {
  const other = problem({ id: '0190a5b2-0000-7000-8000-000000000002', configItem: { id: 18, name: 'db-01' } });
  const req = formatAlertmanager(message([opened(), opened(other), maintenanceStarted(), acknowledged(), resolved()]), settings, ctx);
  t.equal(req!.url, 'http://alertmanager.internal:9093/api/v2/alerts');
  t.strictSame(req!.headers, { 'content-type': 'application/json; charset=utf-8' });
  const alerts = JSON.parse(req!.body) as PostableAlert[];
  t.strictSame(
    alerts.map((a) => [a.labels.problem_id, a.endsAt]),
    [
      [PROBLEM_ID, '2025-03-01T13:12:00.000Z'], // resolved last: its dateEnd
      [other.id, '2025-03-01T12:08:00.000Z'],
    ],
  );
  t.strictSame(refusals(alerts), []);
  t.equal(formatAlertmanager(message([maintenanceStarted(), slaBurning()]), settings, ctx), null);
  const unended = { ...resolved(), problem: problem() }; // a resolved event whose snapshot lacks dateEnd
  t.equal(JSON.parse(formatAlertmanager(message([unended]), settings, ctx)!.body)[0].endsAt, '2025-03-01T13:12:00.000Z', 'the event time ends it');
});

t.test('the URL: /api/v2/alerts under any base path, user-info as Basic auth, or a bearer token', async (t) => {
  const url = (u: string) => alertmanagerRequest([], { url: u }).url;
  t.equal(url('http://am:9093'), 'http://am:9093/api/v2/alerts');
  t.equal(url('http://am:9093/'), 'http://am:9093/api/v2/alerts');
  t.equal(url('https://proxy.example.com/alertmanager/'), 'https://proxy.example.com/alertmanager/api/v2/alerts');
  t.equal(url('http://am:9093/api/v2/alerts'), 'http://am:9093/api/v2/alerts');
  const basic = alertmanagerRequest([], { url: 'https://ops:s3cret@am.example.com' });
  t.strictSame(basic, {
    url: 'https://am.example.com/api/v2/alerts',
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Basic ${Buffer.from('ops:s3cret').toString('base64')}` },
    body: '[]',
  });
  t.notOk(basic.url.includes('s3cret'));
  t.equal(alertmanagerRequest([], { url: 'https://am.example.com', bearerToken: 'tok' }).headers.authorization, 'Bearer tok');
});
