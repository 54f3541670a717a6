/**
 * The PagerDuty format: Events API v2 events, checked against the request schema of PagerDuty's
 * published OpenAPI document for the Events API v2 (PagerDuty/api-schema,
 * reference/events-v2/openapiv3.json, transcribed below with the documented rules that the
 * schema does not state: summary ≤ 1024 characters, a 32-character routing key, payload
 * required on a trigger) — and the same schema accepts PagerDuty's own example event.
 */
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import t from 'tap';
import { formatPagerDuty, PAGERDUTY_SEVERITY, pagerDutyEventsOf } from '../../../../../pipelines/notifications/formats/pagerduty.js';
import { CONSOLE, HOSTILE, PROBLEM_ID, acknowledged, allKinds, flapping, maintenanceStarted, message, opened, problem, resolved, slaBurning } from './format-fixture.js';

const ROUTING_KEY = 'e93facc04764012d7bfb002500d5d1a6';

// ISO 8601 with a zone: the document says date-time, and its own example writes `+0000`.
const Iso8601 = Type.String({ pattern: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?(Z|[+-]\\d\\d:?\\d\\d)$' });
const Url = Type.String({ format: 'uri' });
const Payload = Type.Object({
  summary: Type.String({ minLength: 1, maxLength: 1024 }),
  timestamp: Type.Optional(Iso8601),
  severity: Type.Union(['critical', 'warning', 'error', 'info'].map((s) => Type.Literal(s))),
  source: Type.String({ minLength: 1 }),
  component: Type.Optional(Type.String()),
  group: Type.Optional(Type.String()),
  class: Type.Optional(Type.String()),
  custom_details: Type.Optional(Type.Object({})),
});
const Base = {
  routing_key: Type.String({ minLength: 32, maxLength: 32 }),
  dedup_key: Type.Optional(Type.String({ maxLength: 255 })),
  client: Type.Optional(Type.String()),
  client_url: Type.Optional(Url),
  links: Type.Optional(Type.Array(Type.Object({ href: Url, text: Type.Optional(Type.String()) }))),
  images: Type.Optional(Type.Array(Type.Object({ src: Url, href: Type.Optional(Url), alt: Type.Optional(Type.String()) }))),
};
const EventsV2 = Type.Union([
  Type.Object({ ...Base, event_action: Type.Literal('trigger'), payload: Payload }),
  Type.Object({ ...Base, event_action: Type.Union([Type.Literal('acknowledge'), Type.Literal('resolve')]), dedup_key: Type.String({ minLength: 1, maxLength: 255 }) }),
]);
const checker = Compile(EventsV2);

/** The "Example Event Body" of the published document. */
const PAGERDUTY_EXAMPLE = {
  payload: {
    summary: 'DISK at 99% on machine prod-datapipe03.example.com',
    timestamp: '2015-07-17T08:42:58.315+0000',
    severity: 'critical',
    source: 'prod-datapipe03.example.com',
    component: 'mysql',
    group: 'prod-datapipe',
    class: 'disk',
    custom_details: { 'free space': '1%', 'ping time': '1500ms', 'load avg': 0.75 },
  },
  routing_key: 'e93facc04764012d7bfb002500d5d1a6',
  dedup_key: 'srv01/mysql',
  event_action: 'trigger',
  client: 'Sample Monitoring Service',
  client_url: 'https://monitoring.service.com',
  links: [{ href: 'http://pagerduty.example.com', text: 'An example link.' }],
  images: [
    {
      src: 'https://chart.googleapis.com/chart?chs=600x400&chd=t:6,2,9,5,2,5,7,4,8,2,1&cht=lc&chds=a&chxt=y&chm=D,0033FF,0,0,5,1',
      href: 'https://google.com',
      alt: 'An example link with an image',
    },
  ],
};

const settings = { routingKey: ROUTING_KEY };
const bodies = (events: Parameters<typeof message>[0]) => formatPagerDuty(message(events), settings, { consoleUrl: CONSOLE }).map((r) => JSON.parse(r.body));

t.test("the transcribed schema accepts PagerDuty's published example and refuses what the API refuses", async (t) => {
  t.ok(checker.Check(PAGERDUTY_EXAMPLE));
  t.notOk(checker.Check({ ...PAGERDUTY_EXAMPLE, routing_key: 'short' }), 'routing key not 32 characters');
  t.notOk(checker.Check({ ...PAGERDUTY_EXAMPLE, payload: { ...PAGERDUTY_EXAMPLE.payload, severity: 'high' } }), 'unknown severity');
  t.notOk(checker.Check({ routing_key: ROUTING_KEY, event_action: 'resolve' }), 'resolve without dedup_key');
});

t.test('worked example: problem.opened is one trigger with payload, links and the problem id as dedup_key', async (t) => {
  const [req, ...rest] = formatPagerDuty(
    message([
      opened(
        problem({
          tags: [
            { name: 'env', value: 'prod' },
            { name: 'component', value: 'nginx' },
          ],
        }),
      ),
    ]),
    settings,
    { consoleUrl: CONSOLE },
  );
  t.strictSame(rest, []);
  t.strictSame(
    { ...req!, body: JSON.parse(req!.body) },
    {
      url: 'https://events.pagerduty.com/v2/enqueue',
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: {
        routing_key: ROUTING_KEY,
        event_action: 'trigger',
        dedup_key: PROBLEM_ID,
        payload: {
          summary: 'CPU load high on web-01',
          source: 'web-01',
          severity: 'critical',
          timestamp: '2025-03-01T12:00:00.000Z',
          component: 'nginx',
          class: 'CPU load high',
          custom_details: {
            problem_id: PROBLEM_ID,
            priority: 'Problem1',
            trigger: { id: 5, name: 'CPU load high' },
            configuration_item: { id: 17, name: 'web-01' },
            started: '2025-03-01T12:00:00.000Z',
            tags: ['env=prod', 'component=nginx'],
          },
        },
        client: 'Ops platform',
        client_url: 'https://ops.example.com/problems',
        links: [
          { href: `https://ops.example.com/problems/${PROBLEM_ID}`, text: 'Problem in the console' },
          { href: 'https://ops.example.com/cmdb/ci/17', text: 'CI web-01' },
        ],
      },
    },
  );
  t.ok(checker.Check(JSON.parse(req!.body)));
});

t.test('acknowledge and resolve carry only what PagerDuty reads on them', async (t) => {
  t.strictSame(bodies([acknowledged()]), [{ routing_key: ROUTING_KEY, event_action: 'acknowledge', dedup_key: PROBLEM_ID }]);
  t.strictSame(bodies([resolved()]), [{ routing_key: ROUTING_KEY, event_action: 'resolve', dedup_key: PROBLEM_ID }]);
  t.strictSame(
    bodies([opened(problem({ acknowledged: true }))]).map((b) => b.event_action),
    ['trigger', 'acknowledge'],
    'an open re-sent after maintenance that was already acknowledged',
  );
});

t.test('a group: one request per problem event in order; other kinds send nothing', async (t) => {
  const other = problem({ id: '0190a5b2-0000-7000-8000-000000000002', dateEnd: '2025-03-01T12:04:00.000Z' });
  t.strictSame(
    bodies([opened(), maintenanceStarted(), resolved(other), acknowledged(), slaBurning()]).map((b) => [b.event_action, b.dedup_key]),
    [
      ['trigger', PROBLEM_ID],
      ['resolve', other.id],
      ['acknowledge', PROBLEM_ID],
    ],
  );
  for (const event of [flapping(), maintenanceStarted(), slaBurning()]) t.strictSame(pagerDutyEventsOf(event, ROUTING_KEY, CONSOLE), [], event.kind);
  t.strictSame(formatPagerDuty(message([flapping()]), settings, { consoleUrl: CONSOLE }), []);
});

t.test('severity from the priority: Problem1..4 → critical, error, warning, info', async (t) => {
  t.strictSame(PAGERDUTY_SEVERITY, { Problem1: 'critical', Problem2: 'error', Problem3: 'warning', Problem4: 'info' });
  for (const [priority, severity] of Object.entries(PAGERDUTY_SEVERITY)) {
    t.equal(bodies([opened(problem({ priority: priority as 'Problem1' }))])[0].payload.severity, severity);
  }
});

t.test('every event made matches the schema, hostile names cleaned, summary ≤ 1024, the EU host when set', async (t) => {
  const p = problem({ trigger: { id: 5, name: HOSTILE.repeat(20) }, configItem: { id: 17, name: HOSTILE.repeat(20) }, tags: [{ name: 'group', value: HOSTILE }] });
  const events = [...allKinds(), opened(p), opened(problem({ configItem: { id: 17, name: '' } }))];
  const reqs = formatPagerDuty(message(events), { ...settings, url: 'https://events.eu.pagerduty.com/v2/enqueue' }, { consoleUrl: CONSOLE });
  t.equal(reqs.length, 5);
  for (const req of reqs) {
    t.equal(req.url, 'https://events.eu.pagerduty.com/v2/enqueue');
    const body = JSON.parse(req.body);
    t.strictSame([...checker.Errors(body)], [], body.event_action);
    t.notOk(JSON.stringify(req.headers).includes(ROUTING_KEY), 'the routing key only in the body');
    if (body.payload) t.notMatch(body.payload.summary + body.payload.source + (body.payload.group ?? ''), /[\r\n\u202e\ud800]/);
  }
  t.equal(JSON.parse(reqs.at(-1)!.body).payload.source, 'CI 17', 'a CI without a name still has a source');
});
