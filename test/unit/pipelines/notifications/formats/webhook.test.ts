/**
 * The webhook format: CloudEvents 1.0 structured JSON (one event, or a batch for a group), signed
 * per Standard Webhooks 1.0 and verified here with the spec's reference library
 * (`standardwebhooks`), rotation included.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import t from 'tap';
import { cloudEventOf, decodeWebhookSecret, formatWebhook, signWebhook } from '../../../../../pipelines/notifications/formats/webhook.js';
import { HOSTILE, NOW, PROBLEM_ID, allKinds, maintenanceStarted, message, opened, problem, resolved, slaBurning } from './format-fixture.js';

// 24 and 32 bytes, as the spec's range allows.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const NEXT_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const settings = { url: 'https://hooks.example.com/ops', secrets: [SECRET] };

t.test("the spec's test vector: Standard Webhooks' own example signs to its published signature", async (t) => {
  t.equal(signWebhook([SECRET], 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'), 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
});

t.test('worked example: one problem.opened is one structured CloudEvent, signed for this attempt', async (t) => {
  const req = formatWebhook(message([opened()]), settings, { now: NOW });
  const expectedBody = {
    specversion: '1.0',
    id: 'msg_2Vz8kQ1',
    source: '/ops-platform',
    type: 'com.opsplatform.problem.opened',
    subject: `problems/${PROBLEM_ID}`,
    time: '2025-03-01T12:00:00.000Z',
    datacontenttype: 'application/json',
    data: {
      id: 'ev-opened',
      time: '2025-03-01T12:00:00.000Z',
      kind: 'problem.opened',
      problem: {
        id: PROBLEM_ID,
        trigger: { id: 5, name: 'CPU load high' },
        configItem: { id: 17, name: 'web-01' },
        priority: 'Problem1',
        dateStart: '2025-03-01T12:00:00.000Z',
        dateEnd: null,
        tags: [{ name: 'env', value: 'prod' }],
        acknowledged: false,
      },
    },
  };
  t.equal(req.body, JSON.stringify(expectedBody), 'byte for byte, attributes in a fixed order');
  t.strictSame(req, {
    url: 'https://hooks.example.com/ops',
    method: 'POST',
    headers: {
      'content-type': 'application/cloudevents+json; charset=utf-8',
      'webhook-id': 'msg_2Vz8kQ1',
      'webhook-timestamp': '1740830700', // 2025-03-01T12:05:00Z in seconds
      'webhook-signature': new Webhook(SECRET).sign('msg_2Vz8kQ1', new Date(NOW), req.body),
    },
    body: req.body,
  });
  t.strictSame(formatWebhook(message([opened()]), settings, { now: NOW }), req, 'the same input gives the same request');
});

t.test('the reference library verifies the signature and reads back the CloudEvent', async (t) => {
  const now = Date.now(); // the library checks the timestamp against its own clock (±5 min)
  for (const event of allKinds()) {
    const req = formatWebhook(message([event]), settings, { now });
    t.strictSame(new Webhook(SECRET).verify(req.body, req.headers), JSON.parse(JSON.stringify(cloudEventOf(event, 'msg_2Vz8kQ1'))), event.kind);
  }
});

t.test('rotation: with two secrets each one verifies on its own, an unrelated one does not', async (t) => {
  const req = formatWebhook(message([opened()]), { ...settings, secrets: [SECRET, NEXT_SECRET] }, { now: Date.now() });
  const signatures = req.headers['webhook-signature']!.split(' ');
  t.equal(signatures.length, 2);
  t.ok(
    signatures.every((s) => /^v1,[A-Za-z0-9+/]{43}=$/.test(s)),
    'v1,<base64 of 32 bytes> each',
  );
  t.ok(new Webhook(SECRET).verify(req.body, req.headers));
  t.ok(new Webhook(NEXT_SECRET).verify(req.body, req.headers));
  t.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 9).toString('base64')}`).verify(req.body, req.headers), WebhookVerificationError);
});

t.test('a tampered body, id or stale timestamp fails verification', async (t) => {
  const req = formatWebhook(message([opened()]), settings, { now: Date.now() });
  const wh = new Webhook(SECRET);
  t.throws(() => wh.verify(req.body.replace('web-01', 'web-02'), req.headers), WebhookVerificationError, 'body');
  t.throws(() => wh.verify(req.body, { ...req.headers, 'webhook-id': 'msg_other' }), WebhookVerificationError, 'id');
  const stale = formatWebhook(message([opened()]), settings, { now: Date.now() - 10 * 60_000 });
  t.throws(() => wh.verify(stale.body, stale.headers), WebhookVerificationError, 'a retry must be signed with its own time, not the first attempt’s');
});

t.test('a group is a CloudEvents batch: one array, ids <deliveryId>.<i>, one signature over it', async (t) => {
  const events = [opened(), resolved(problem({ id: '0190a5b2-0000-7000-8000-000000000002', dateEnd: '2025-03-01T12:04:00.000Z' })), maintenanceStarted(), slaBurning()];
  const req = formatWebhook(message(events), settings, { now: Date.now() });
  t.equal(req.headers['content-type'], 'application/cloudevents-batch+json; charset=utf-8');
  const batch = new Webhook(SECRET).verify(req.body, req.headers) as any[];
  t.strictSame(
    batch.map((e) => [e.id, e.type, e.subject]),
    [
      ['msg_2Vz8kQ1.0', 'com.opsplatform.problem.opened', `problems/${PROBLEM_ID}`],
      ['msg_2Vz8kQ1.1', 'com.opsplatform.problem.resolved', 'problems/0190a5b2-0000-7000-8000-000000000002'],
      ['msg_2Vz8kQ1.2', 'com.opsplatform.maintenance.started', 'maintenance/4'],
      ['msg_2Vz8kQ1.3', 'com.opsplatform.sla.budget_burning', 'cmdb/ci/17'],
    ],
  );
  t.strictSame(
    batch.map((e) => e.data),
    JSON.parse(JSON.stringify(events)),
    'each event unchanged in data',
  );
  t.equal(req.headers['webhook-id'], 'msg_2Vz8kQ1', 'the delivery keeps one webhook-id');
});

t.test('CloudEvents 1.0: required attributes present, attribute names lower-case alphanumeric, time RFC 3339', async (t) => {
  for (const event of allKinds()) {
    const ce = JSON.parse(formatWebhook(message([event]), settings, { now: NOW }).body);
    for (const required of ['specversion', 'id', 'source', 'type']) t.ok(typeof ce[required] === 'string' && ce[required] !== '', `${event.kind}: ${required}`);
    t.equal(ce.specversion, '1.0');
    t.ok(
      Object.keys(ce).every((k) => /^[a-z0-9]{1,20}$/.test(k)),
      `${event.kind}: attribute names`,
    );
    t.match(ce.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
  }
});

t.test('user text reaches the receiver exactly as stored (JSON is the escaping), and only the signature depends on the secret', async (t) => {
  const event = opened(problem({ trigger: { id: 5, name: HOSTILE }, configItem: { id: 17, name: HOSTILE } }));
  const req = formatWebhook(message([event]), { ...settings, url: 'https://user:p%40ss@hooks.example.com/ops' }, { now: NOW });
  t.equal(JSON.parse(req.body).data.problem.trigger.name, HOSTILE.replace('\ud800', '\ufffd'), 'a lone surrogate (not Unicode, refused by some JSON parsers) arrives as U+FFFD');
  t.equal(req.url, 'https://hooks.example.com/ops', 'credentials leave the URL…');
  t.equal(req.headers.authorization, `Basic ${Buffer.from('user:p@ss').toString('base64')}`, '…for a Basic authorization header');
  const secretPart = SECRET.slice('whsec_'.length);
  t.notOk(JSON.stringify(req).includes(secretPart), 'the secret itself is nowhere in the request');
});

t.test('secrets: whsec_ + canonical base64 of 24 to 64 bytes; a bad one fails loudly without showing it', async (t) => {
  t.equal(decodeWebhookSecret(SECRET)?.length, 24);
  t.equal(decodeWebhookSecret(NEXT_SECRET)?.length, 32);
  t.equal(decodeWebhookSecret(`whsec_${Buffer.alloc(64, 1).toString('base64')}`)?.length, 64);
  for (const bad of [
    SECRET.slice('whsec_'.length), // no prefix
    `whsec_${Buffer.alloc(16, 1).toString('base64')}`, // too short
    `whsec_${Buffer.alloc(65, 1).toString('base64')}`, // too long
    'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS', // not a multiple of 4
    'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLa-w', // base64url alphabet
    'whsec_',
  ]) {
    t.equal(decodeWebhookSecret(bad), null, bad);
  }
  t.throws(() => formatWebhook(message([opened()]), { ...settings, secrets: [SECRET, 'whsec_short'] }, { now: NOW }), {
    message: 'webhook receiver: secret 2 is not whsec_ + base64 of 24 to 64 bytes',
  });
  t.throws(() => formatWebhook(message([opened()]), { ...settings, secrets: [] }, { now: NOW }), { message: 'webhook receiver: no signing secret' });
});
