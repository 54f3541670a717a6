/**
 * Issue #31, the whole way through the admin API on the embedded platform: a receiver and a
 * policy made with POST, records that open a problem, a REAL webhook receiver (node:http on
 * 127.0.0.1, allowed by OPS_NOTIFY_ALLOW_NETWORKS, every signature verified with the
 * `standardwebhooks` package), the delivery log read back through GET …/deliveries, and a replay
 * through POST …/replay that the dispatcher takes up: the message again, with its webhook-id.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import t from 'tap';
import { createDispatcherPart } from '../../../services/notifications/dispatcher.part.js';
import { eventually } from '../../support/bus-recorder.js';
import { ProblemsKit } from '../problems/problems-kit.js';
import { POLICIES, RECEIVERS, whsec } from './notifications-kit.js';

const SECRET = whsec(9, 32);
const verifier = new Webhook(SECRET);

const received: Array<{ id: string; body: any; status: number }> = [];
const refused: string[] = [];
const planned: number[] = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    try {
      verifier.verify(body, req.headers as IncomingHttpHeaders & Record<string, string>);
    } catch (error) {
      refused.push(String(error));
    }
    const status = planned.shift() ?? 200;
    received.push({ id: String(req.headers['webhook-id']), body: JSON.parse(body), status });
    res.writeHead(status).end();
  });
});

const k = new ProblemsKit();
t.before(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  k.clock = Date.now();
  await k.start(undefined, {
    env: { OPS_NOTIFY_ALLOW_NETWORKS: '127.0.0.1/32' },
    replace: [createDispatcherPart({ backoffBaseMs: 50, timeoutMs: 5000 })],
  });
});
t.teardown(async () => {
  await k.stop();
  server.close();
});

const wait = (what: string, check: () => boolean | Promise<boolean>) => eventually(what, async () => check(), 30_000, 20);

t.test('made through the admin API: delivered, logged per attempt, and replayed with the same webhook-id', async (t) => {
  const wg = await k.workGroup();
  const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const stream = await k.stream();
  const trigger = await k.trigger(stream.id);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const receiver = await k.api('POST', RECEIVERS, { json: { type: 'webhook', name: k.uniq('hook'), ownerWorkGroup: { id: wg.id }, url, secrets: [SECRET] } });
  t.equal(receiver.status, 201, receiver.text);
  const policy = await k.api('POST', POLICIES, {
    json: {
      name: k.uniq('policy'),
      ownerWorkGroup: { id: wg.id },
      configItems: { ids: [ci.id] },
      triggerIds: [trigger.id],
      receiverIds: [receiver.body.id],
      groupWindowSeconds: 0,
    },
  });
  t.equal(policy.status, 201, policy.text);

  planned.push(500);
  await k.post(stream.key, [{ '@timestamp': new Date(k.clock - 60_000).toISOString(), check: 'cpu', host: ci.name, severity: 'major' }]);
  await wait('problem.opened delivered after a 500', () => received.some((r) => r.status === 200));
  t.same(
    received.map((r) => [r.status, r.body.type]),
    [
      [500, 'com.opsplatform.problem.opened'],
      [200, 'com.opsplatform.problem.opened'],
    ],
  );
  const webhookId = received[0]!.id;
  t.equal(received[1]!.id, webhookId, 'the retry carries the same webhook-id');

  const log = `${RECEIVERS}/${receiver.body.id}/deliveries`;
  await wait('both attempts logged', async () => (await k.api('GET', log)).body.items.length === 2);
  // Newest first by time, then by id: both attempts may share one instant (the clock stands still).
  const items = (await k.api('GET', log)).body.items.sort((a: { attempt: number }, b: { attempt: number }) => b.attempt - a.attempt);
  t.match(items, [
    { deliveryId: webhookId, policyId: policy.body.id, attempt: 2, status: 'delivered', statusCode: 200, eventKinds: ['problem.opened'], error: null },
    { deliveryId: webhookId, policyId: policy.body.id, attempt: 1, status: 'retrying', statusCode: 500 },
  ]);

  const replay = await k.api('POST', `${log}/${webhookId}/replay`);
  t.equal(replay.status, 202, replay.text);
  await wait('the replay sent', () => received.length === 3);
  t.equal(received[2]!.id, webhookId, 'a replay is the same message: the same webhook-id');
  t.same(received[2]!.body, received[1]!.body, 'and the same body');
  const again = await k.api('POST', `${log}/${webhookId}/replay`);
  t.not(again.body.id, replay.body.id, 'the first replay was taken up: asking again makes a new one');
  await wait('the second replay sent', () => received.length === 4);
  t.same(refused, [], 'every signature verified');
});
