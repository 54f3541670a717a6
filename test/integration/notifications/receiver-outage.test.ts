/**
 * Issue #31 acceptance: "a 30 s outage after which everything arrives, in order per problem".
 *
 * The embedded platform in-process with the dispatcher's first retry after 250 ms (doubled each
 * time, as in production) and a 5 s timeout; a receiver and a policy per path made through the
 * admin API, on a REAL webhook receiver in this process (node:http, every signature verified with
 * `standardwebhooks`): `now` (groupWindowSeconds 0) and `grouped` (a 5 s window). The receiver's
 * server is closed — connections refused — for 30 s. Meanwhile three problems open; once their
 * messages have been retried a while (so `grouped` has sent their opens as one message), they
 * are acknowledged through the problems API, last opened first, and resolve (two by a record,
 * one by hand), which `grouped` sends as a second message. Then the server listens again on the
 * same port, and:
 * - every (policy, event) arrives, signed: opened, acknowledged and resolved of each problem;
 * - a webhook-id received more than once carries the same body; no event under two webhook-ids;
 * - per problem, the first receipts are in the order opened < acknowledged < resolved;
 * - the delivery log of the `now` receiver lists, per message, the failed attempts (`retrying`,
 *   no status code, an error) before the `delivered` one.
 *
 * The platform's clock is the real one here: the outage lasts 30 real seconds, the retries wait
 * on real timers, and the delivery log orders attempts by the time they were made.
 */
import t from 'tap';
import { createDispatcherPart } from '../../../services/notifications/dispatcher.part.js';
import { partitionOfDelivery } from '../../../services/notifications/notify-envelope.js';
import type { NotificationEvent } from '../../../schemas/notification-events.schema.js';
import { eventually } from '../../support/bus-recorder.js';
import { eventsUnderSeveralIds, firstReceived, kindsByCi, repeatsThatDiffer, WebhookReceiver } from '../../support/webhook-receiver.js';
import { ProblemsKit } from '../problems/problems-kit.js';
import { POLICIES, RECEIVERS, whsec } from './notifications-kit.js';

// 30 s of outage, then retries that by then wait up to about as long again.
t.setTimeout(180_000);

const OUTAGE_MS = 30_000;
const PROBLEMS = '/api/public/sm/v1/problems';
const SECRET = whsec(30, 32);
const NOW = '/hook/now';
const GROUPED = '/hook/grouped';
const KINDS = ['problem.opened', 'problem.acknowledged', 'problem.resolved'];

const receiver = new WebhookReceiver(SECRET);
const k = new ProblemsKit();
Object.defineProperty(k, 'clock', { get: () => Date.now(), set: () => undefined });

t.before(async () => {
  await receiver.listen();
  await k.start(undefined, {
    env: { OPS_NOTIFY_ALLOW_NETWORKS: '127.0.0.1/32' },
    replace: [createDispatcherPart({ backoffBaseMs: 250, timeoutMs: 5000 })],
  });
});
t.teardown(async () => {
  await k.stop();
  await receiver.close();
});

const iso = (offsetMs = 0): string => new Date(Date.now() + offsetMs).toISOString();

t.test('a 30 s outage: afterwards every event arrives, signed, in order per problem, the failed attempts logged', async (t) => {
  const wg = await k.workGroup();
  const cis = [await k.ci({ ownerWorkGroup: { id: wg.id } }), await k.ci({ ownerWorkGroup: { id: wg.id } }), await k.ci({ ownerWorkGroup: { id: wg.id } })];
  const stream = await k.stream();
  const trigger = await k.trigger(stream.id);
  const receivers: Record<string, number> = {};
  for (const [path, groupWindowSeconds] of [
    [NOW, 0],
    [GROUPED, 5],
  ] as const) {
    const made = await k.api('POST', RECEIVERS, { json: { type: 'webhook', name: k.uniq('hook'), ownerWorkGroup: { id: wg.id }, url: receiver.url(path), secrets: [SECRET] } });
    t.equal(made.status, 201, `receiver ${path} made`);
    const policy = await k.api('POST', POLICIES, {
      json: {
        name: k.uniq('policy'),
        ownerWorkGroup: { id: wg.id },
        configItems: { ids: cis.map((c) => c.id) },
        triggerIds: [trigger.id],
        receiverIds: [made.body.id],
        groupWindowSeconds,
      },
    });
    t.equal(policy.status, 201, `policy ${path} made`);
    receivers[path] = made.body.id;
  }

  await receiver.close();
  const closedAt = Date.now();

  const deliveries = async (path: string): Promise<any[]> => (await k.api('GET', `${RECEIVERS}/${receivers[path]}/deliveries?limit=1000`)).body.items;
  /** The most failed attempts of one message to either receiver. */
  const mostFailed = async (): Promise<number> => {
    const failed = new Map<string, number>();
    for (const path of [NOW, GROUPED]) for (const row of await deliveries(path)) if (row.status === 'retrying') failed.set(row.deliveryId, (failed.get(row.deliveryId) ?? 0) + 1);
    return Math.max(0, ...failed.values());
  };

  await k.post(
    stream.key,
    cis.map((ci) => ({ '@timestamp': iso(-1000), check: 'cpu', host: ci.name, severity: 'critical' })),
  );
  const problemIds: string[] = [];
  for (const ci of cis) {
    const [problem] = await k.problems(ci.id);
    problemIds.push(problem!.id);
  }
  // The opens have been retried for a while, each next attempt further away (and the grouped
  // policy's group of them has closed): what follows goes in other messages.
  await eventually('a message tried six times', async () => (await mostFailed()) >= 6, 25_000, 100);
  for (const id of [...problemIds].reverse()) {
    const acked = await k.api('POST', `${PROBLEMS}/${id}/acknowledge`, { json: { comment: 'looking' } });
    t.equal(acked.status, 200, `problem ${id} acknowledged`);
  }
  await k.post(
    stream.key,
    cis.slice(0, 2).map((ci) => ({ '@timestamp': iso(), check: 'cpu', host: ci.name, status: 'ok' })),
  );
  const resolved = await k.api('POST', `${PROBLEMS}/${problemIds[2]}/resolve`, { json: { comment: 'fixed by hand' } });
  t.equal(resolved.status, 200, `problem ${problemIds[2]} resolved by hand`);

  // The outage is the scenario: it lasts 30 s whatever the dispatcher does meanwhile.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, closedAt + OUTAGE_MS - Date.now())));
  t.equal(receiver.receipts.length, 0, 'nothing reached the receiver while it refused connections');
  await receiver.listen();

  const arrived = (path: string): number => firstReceived(receiver.receipts, path, true).length;
  await eventually('every event answered on both receivers', async () => arrived(NOW) === 9 && arrived(GROUPED) === 9, 120_000, 50);

  const expected = Object.fromEntries(cis.map((ci) => [ci.id, KINDS]));
  // Each grouped message with the partition it went through (by its first event's problem).
  const groupedMessages = receiver.receipts
    .filter((r) => r.path === GROUPED)
    .map((r) => {
      const message = { deliveryId: r.webhookId, policyId: 0, receiverId: receivers[GROUPED]!, events: r.events as unknown as NotificationEvent[] };
      const events = r.events.map((e) => `${e.problem!.configItem.id}.${e.kind.slice(8)}`);
      return `${r.webhookId} (${r.status}) on partition ${partitionOfDelivery({ type: 'delivery', message, firstAt: 0 })}: ${events.join(' ')}`;
    });
  t.same(kindsByCi(receiver.receipts, NOW), expected, 'policy now: every event arrived, first received in the order opened < acknowledged < resolved');
  t.same(
    kindsByCi(receiver.receipts, GROUPED),
    expected,
    `policy grouped: every event arrived, first received in the order opened < acknowledged < resolved; received:\n${groupedMessages.join('\n')}`,
  );
  t.same(repeatsThatDiffer(receiver.receipts), [], 'a webhook-id received more than once carries the same body');
  t.same(eventsUnderSeveralIds(receiver.receipts, NOW), [], 'policy now: no event under two webhook-ids');
  t.same(eventsUnderSeveralIds(receiver.receipts, GROUPED), [], 'policy grouped: no event under two webhook-ids');
  t.same(receiver.refused, [], 'every signature verified');

  // The log is written after the answer: wait for the last attempts' rows.
  await eventually('every delivery logged', async () => (await deliveries(NOW)).filter((i) => i.status === 'delivered').length === 9, 20_000, 100);
  const rows = await deliveries(NOW);
  const byDelivery = new Map<string, any[]>();
  for (const row of rows) byDelivery.set(row.deliveryId, [...(byDelivery.get(row.deliveryId) ?? []), row]);
  t.same([...byDelivery.keys()].sort(), [...new Set(receiver.receipts.filter((r) => r.path === NOW).map((r) => r.webhookId))].sort(), 'the log names the webhook-ids received');
  let retried = 0;
  for (const [id, attempts] of byDelivery) {
    // Newest first: the delivered attempt, then the failed ones before it.
    const [last, ...failed] = attempts;
    t.match(last, { status: 'delivered', statusCode: 200, error: null }, `${id}: delivered last`);
    t.same(
      attempts.map((a) => a.attempt),
      attempts.map((_, i) => attempts.length - i),
      `${id}: attempts 1–${attempts.length}, newest first`,
    );
    for (const a of failed) {
      t.match(a, { status: 'retrying', statusCode: null, error: /ECONNREFUSED/ }, `${id}: attempt ${a.attempt} failed without an answer`);
      t.ok(Date.parse(a.at) <= Date.parse(last.at), `${id}: attempt ${a.attempt} made before the delivered one`);
    }
    if (failed.length > 0) retried++;
  }
  t.ok(retried > 0, `${retried} message(s) delivered after failed attempts`);
  t.comment(`attempts per message to ${NOW}: ${[...byDelivery.values()].map((a) => a.length).join(', ')}; to ${GROUPED}:\n${groupedMessages.join('\n')}`);
});
