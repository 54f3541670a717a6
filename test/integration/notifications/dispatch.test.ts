/**
 * Issue #31, delivery end to end on the embedded platform: records open a problem, an operator
 * acknowledges and resolves it, and a REAL webhook receiver (node:http on 127.0.0.1, allowed by
 * OPS_NOTIFY_ALLOW_NETWORKS) gets problem.opened, problem.acknowledged and problem.resolved,
 * every request verified with the `standardwebhooks` package. The receiver then answers 500
 * twice (the same webhook-id comes back until it is taken), a 429 with Retry-After (retried after
 * it) and a 410 (the receiver is disabled and sent nothing more).
 *
 * Receivers and policies are given to the dispatcher directly (its `directory` option) rather
 * than through the admin API. The platform clock is set to the real time at start and moved by
 * hand: receivers refuse a signature timestamp more than 5 minutes off their own clock.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import t from 'tap';
import { policyRule, receiverFields } from './directory-fixtures.js';
import type { PolicyRule } from '../../../pipelines/notifications/policy-match.js';
import type { ReceiverRecord } from '../../../services/control-plane/notifications/notifications.types.js';
import { cmdbViewOf } from '../../../services/control-plane/notifications/policy-rule.js';
import type { NotificationDirectory } from '../../../services/notifications/directory.js';
import { createDispatcherPart } from '../../../services/notifications/dispatcher.part.js';
import { ROUTE_KEY, type StoredRoute } from '../../../services/notifications/route-store.js';
import type { PlatformContext } from '../../../services/part.js';
import { eventually } from '../../support/bus-recorder.js';
import { MAINT, ProblemsKit } from '../problems/problems-kit.js';

const PROBLEMS = '/api/public/sm/v1/problems';
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const verifier = new Webhook(SECRET);

interface Received {
  /** The receiver's path, `/hook/<receiver id>`. */
  path: string;
  id: string;
  body: any;
  status: number;
}

/** The receiver: answers each request with the next planned status (200 when none is planned), verifying every signature. */
const received: Received[] = [];
const refusedSignatures: string[] = [];
const planned: Array<{ status: number; headers?: Record<string, string> }> = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = req.headers as IncomingHttpHeaders & Record<string, string>;
    try {
      verifier.verify(body, headers);
    } catch (error) {
      refusedSignatures.push(String(error));
    }
    const answer = planned.shift() ?? { status: 200 };
    received.push({ path: req.url ?? '', id: String(headers['webhook-id']), body: JSON.parse(body), status: answer.status });
    res.writeHead(answer.status, answer.headers ?? {});
    res.end();
  });
});

const receivers = new Map<number, ReceiverRecord>();
const policies: PolicyRule[] = [];
const directory = (ctx: PlatformContext): NotificationDirectory => ({
  policies: () => policies,
  receiver: (id) => receivers.get(id),
  cmdb: cmdbViewOf(ctx.controlPlane.model),
  async disable(id, reason) {
    const r = receivers.get(id);
    if (r) receivers.set(id, { ...r, enabled: false, disabledReason: reason });
  },
});

const k = new ProblemsKit();
t.before(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  k.clock = Date.now();
  await k.start(undefined, {
    env: { OPS_NOTIFY_ALLOW_NETWORKS: '127.0.0.1/32' },
    replace: [createDispatcherPart({ directory, backoffBaseMs: 50, timeoutMs: 5000 })],
  });
});
t.teardown(async () => {
  await k.stop();
  server.close();
});

const at = (minutes: number) => new Date(k.clock + minutes * 60_000).toISOString();
const kinds = (from = 0) => received.slice(from).map((r) => r.body.type);
const wait = (what: string, check: () => boolean) => eventually(what, async () => check(), 30_000, 10);

async function setUp(receiverId: number, repeatIntervalSeconds: number | null = null, kinds: PolicyRule['kinds'] = []) {
  const wg = await k.workGroup();
  const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
  const stream = await k.stream();
  const trigger = await k.trigger(stream.id);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook/${receiverId}`;
  const stamp = new Date(k.clock).toISOString();
  receivers.set(receiverId, {
    type: 'webhook',
    url,
    secrets: [SECRET],
    ...receiverFields(receiverId, `hook-${receiverId}`, wg.id, stamp),
  });
  policies.push(policyRule(receiverId, wg.id, ci.id, trigger.id, { repeatIntervalSeconds, kinds }));
  return { ci, stream, trigger };
}

t.test('opened, acknowledged and resolved by hand arrive once each, signed, as CloudEvents', async (t) => {
  const from = received.length;
  const { ci, stream, trigger } = await setUp(1);
  await k.post(stream.key, [{ '@timestamp': at(-5), check: 'cpu', host: ci.name, severity: 'major' }]);
  await wait('problem.opened delivered', () => received.length > from);
  const opened = received[from]!.body;
  t.match(opened, { specversion: '1.0', type: 'com.opsplatform.problem.opened', id: received[from]!.id });
  t.match(opened.data.problem, { trigger: { id: trigger.id }, configItem: { id: ci.id, name: ci.name }, priority: 'Problem2', dateEnd: null });
  const problemId = opened.data.problem.id as string;

  t.equal((await k.api('POST', `${PROBLEMS}/${problemId}/acknowledge`, { json: { comment: 'on it' } })).status, 200);
  await wait('problem.acknowledged delivered', () => received.length > from + 1);
  t.match(received[from + 1]!.body.data, { kind: 'problem.acknowledged', comment: 'on it', by: { id: k.admin.id }, problem: { id: problemId, acknowledged: true } });

  k.tick(60_000);
  t.equal((await k.api('POST', `${PROBLEMS}/${problemId}/resolve`, { json: { comment: 'fixed' } })).status, 200);
  await wait('problem.resolved delivered', () => received.length > from + 2);
  t.match(received[from + 2]!.body.data, { kind: 'problem.resolved', resolvedBy: 'hand', problem: { id: problemId } });

  t.same(kinds(from), ['com.opsplatform.problem.opened', 'com.opsplatform.problem.acknowledged', 'com.opsplatform.problem.resolved']);
  t.equal(new Set(received.slice(from).map((r) => r.id)).size, 3, 'one webhook-id per event');
  t.same(refusedSignatures, [], 'every signature verified');
});

t.test('a 500 twice, then 200: the same webhook-id until taken; a resolving record says so', async (t) => {
  const from = received.length;
  const { ci, stream } = await setUp(2);
  planned.push({ status: 500 }, { status: 500 });
  await k.post(stream.key, [{ '@timestamp': at(-4), check: 'cpu', host: ci.name, severity: 'critical' }]);
  await wait('delivered after two 500s', () => received.slice(from).some((r) => r.status === 200));
  t.same(
    received.slice(from).map((r) => r.status),
    [500, 500, 200],
  );
  t.equal(new Set(received.slice(from).map((r) => r.id)).size, 1, 'every retry carries the same webhook-id');

  await k.post(stream.key, [{ '@timestamp': at(-2), check: 'cpu', host: ci.name, status: 'ok' }]);
  await wait('problem.resolved delivered', () => received.length > from + 3);
  t.match(received[from + 3]!.body.data, { kind: 'problem.resolved', resolvedBy: 'record' });
  t.equal(new Set(received.slice(from).map((r) => r.id)).size, 2, 'distinct webhook-ids = events');
  t.same(refusedSignatures, []);
});

t.test('a 429 with Retry-After: 1 is retried after it', async (t) => {
  const from = received.length;
  const logsFrom = k.p.logs.length;
  const { ci, stream } = await setUp(3);
  planned.push({ status: 429, headers: { 'retry-after': '1' } });
  await k.post(stream.key, [{ '@timestamp': at(-3), check: 'cpu', host: ci.name, severity: 'minor' }]);
  await wait('delivered after the 429', () => received.slice(from).some((r) => r.status === 200));
  t.same(
    received.slice(from).map((r) => r.status),
    [429, 200],
  );
  t.equal(received[from]!.id, received[from + 1]!.id);
  const retryLine = k.p.logs.slice(logsFrom).find((l) => l.includes('delivery failed; will retry') && l.includes('"receiverId":3'));
  t.match(JSON.parse(retryLine ?? '{}'), { delayMs: 1000, reason: 'failed (429)' }, 'the retry waited as Retry-After said');
});

t.test('a 410 disables the receiver: nothing more is sent to it', async (t) => {
  const from = received.length;
  const { ci, stream } = await setUp(4);
  planned.push({ status: 410 });
  await k.post(stream.key, [{ '@timestamp': at(-3), check: 'cpu', host: ci.name, severity: 'minor' }]);
  await wait('the receiver disabled', () => receivers.get(4)?.enabled === false);
  t.equal(receivers.get(4)?.disabledReason, 'gone (410)');
  await k.post(stream.key, [{ '@timestamp': at(-1), check: 'cpu', host: ci.name, status: 'ok' }]);
  const skipped = async () => {
    const text = await k.p.platform.metrics.text();
    return /ops_notifications_deliveries_total\{receiver="4",outcome="skipped"\} 1/.test(text);
  };
  await eventually('the resolve skipped for the disabled receiver', skipped, 30_000, 20);
  t.same(
    received.slice(from).map((r) => r.status),
    [410],
    'one request, then none',
  );
});

t.test('a record that came late: its repeats count from when the platform learned of the problem, not from the record’s time', async (t) => {
  const from = received.length;
  const { ci, stream } = await setUp(5, 60);
  const learned = k.clock;
  await k.post(stream.key, [{ '@timestamp': at(-5), check: 'cpu', host: ci.name, severity: 'major' }]);
  await wait('problem.opened delivered', () => received.length > from);
  t.equal(received[from]!.body.time, at(-5), 'the opened tells the problem’s own start');
  // The routing state as written: the first repeat is due one interval after it was learned.
  const stored = (await k.p.platform.engines.keyed.get<StoredRoute>([ROUTE_KEY])).get(ROUTE_KEY)!.value;
  const repeats = Object.values(stored.state.policies['5']?.repeats ?? {});
  t.same(
    repeats.map((r) => r.nextAt),
    [learned + 60_000],
  );
  k.tick(61_000);
  await wait('the first repeat delivered', () => received.length > from + 1);
  t.equal(received[from + 1]!.body.type, 'com.opsplatform.problem.opened');
  t.equal(received[from + 1]!.body.time, new Date(learned + 60_000).toISOString());
});

t.test('maintenance from the mode’s own window: started, the problem held, ended, then the problem told once it ends, and its resolve', async (t) => {
  const { ci, stream } = await setUp(6, null, ['problem.opened', 'problem.resolved', 'maintenance.started', 'maintenance.ended']);
  // Other receivers' repeats arrive meanwhile (the clock moves): this one's only.
  const mine = () => received.filter((r) => r.path === '/hook/6').map((r) => r.body);
  const mode = await k.api('POST', MAINT, {
    json: { title: 'patching', dateStart: at(2), dateEnd: at(10), configItems: [{ id: ci.id, scope: 'Ci', depth: 0 }] },
  });
  t.equal(mode.status, 201, 'the mode made');
  k.tick(3 * 60_000);
  await wait('maintenance.started delivered', () => mine().length > 0);
  t.match(mine()[0], { type: 'com.opsplatform.maintenance.started', data: { maintenance: { id: mode.body.id, title: 'patching', configItems: [{ id: ci.id }] } } });

  await k.post(stream.key, [{ '@timestamp': at(0), check: 'cpu', host: ci.name, severity: 'major' }]);
  await k.problemsSettled();
  k.tick(8 * 60_000);
  await wait('maintenance.ended and the held problem delivered', () => mine().length >= 3);
  t.same(
    new Set(
      mine()
        .slice(1)
        .map((b) => b.type),
    ),
    new Set(['com.opsplatform.maintenance.ended', 'com.opsplatform.problem.opened']),
    'nothing about the problem while it was covered',
  );

  await k.post(stream.key, [{ '@timestamp': at(0), check: 'cpu', host: ci.name, status: 'ok' }]);
  await wait('problem.resolved delivered', () => mine().length >= 4);
  t.equal(mine()[3].type, 'com.opsplatform.problem.resolved');
  t.equal(mine().length, 4);
});
