/**
 * Issue #31 acceptance: "kill -9 of the dispatching process mid-delivery: every message arrives
 * after the restart, repeats only with the same webhook-id".
 *
 * The whole platform runs as `npm start` does (services/main.ts, a child process, embedded
 * engines in a temporary data directory); everything is made through its HTTP API: a workgroup,
 * six CIs, a stream, a trigger, two webhook receivers on a REAL receiver in this process
 * (node:http, every signature verified with `standardwebhooks`), and two policies: `now`
 * (groupWindowSeconds 0) and `grouped` (a 40 s window). The receiver holds every request without
 * an answer. Problems open on CIs 1–4 and those of CIs 1–2 resolve; once all six events are
 * routed (and `grouped` holds them in its open group), CIs 5–6 open and CI 3's problem resolves
 * (records posted, not waited for), and the process is killed with SIGKILL while its deliveries
 * hang. Restarted on the same data directory, with the receiver answering 200:
 * - every (policy, event) arrives: opened for six problems, resolved for three, on each receiver;
 * - every request held at the kill comes again with its webhook-id, and every webhook-id
 *   received more than once carries the same body;
 * - distinct webhook-ids are distinct messages: no event under two ids, and each id is the
 *   delivery id of its (policy, receiver, events);
 * - per problem, its opened is received before its resolved.
 *
 * On the in-process bus, NOTIFICATIONS is a logged stream: the messages the killed process had
 * not acknowledged (held ones too) are in its log and delivered again at once after the restart,
 * without waiting for the 60 s ack wait.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { deliveryId } from '../../../pipelines/notifications/grouping.js';
import { eventually } from '../../support/bus-recorder.js';
import { freePort } from '../../support/free-port.js';
import { type Answer, call } from '../../support/http.js';
import { ADMIN_TOKEN } from '../../support/platform.js';
import { runEntry, type ServiceProcess } from '../../support/process.js';
import { eventsUnderSeveralIds, firstReceived, kindsByCi, repeatsThatDiffer, WebhookReceiver } from '../../support/webhook-receiver.js';
import { whsec } from './notifications-kit.js';

// Two platform starts and a 40 s group window.
t.setTimeout(240_000);

const GROUP_WINDOW_S = 40;
const SECRET = whsec(31, 32);
const NOW = '/hook/now';
const GROUPED = '/hook/grouped';

const dataDir = mkdtempSync(join(tmpdir(), 'ops-notify-kill-'));
const receiver = new WebhookReceiver(SECRET);
let running: ServiceProcess | undefined;
t.teardown(async () => {
  if (running && running.child.exitCode === null && running.child.signalCode === null) {
    running.child.kill('SIGKILL');
    await running.exited;
  }
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function startPlatform(port: number): Promise<ServiceProcess> {
  running = runEntry('services/main.ts', {
    OPS_PORT: String(port),
    OPS_HOST: '127.0.0.1',
    OPS_DATA_DIR: dataDir,
    OPS_ADMIN_TOKEN: ADMIN_TOKEN,
    OPS_NOTIFY_ALLOW_NETWORKS: '127.0.0.1/32',
    OPS_MIN_FREE_DISK: '0',
    LOG_LEVEL: 'info',
  });
  await running.waitFor(/listening on port/, 120_000);
  const base = `http://127.0.0.1:${port}`;
  await eventually('the platform ready', async () => (await call(base, 'GET', '/readyz')).status === 200, 60_000, 100);
  return running;
}

/** Bus messages the dispatcher's consumers acknowledged (routed events, delivered messages). */
async function notificationsAcked(base: string): Promise<number> {
  const text = (await call(base, 'GET', '/metrics')).text;
  const line = /^ops_consumer_messages_total\{consumer="notifications",outcome="ok"\} (\d+)$/m.exec(text);
  return line ? Number(line[1]) : 0;
}

/** The platform's last log lines but the request lines (the polls of /metrics). */
const lastLines = (output: string): string =>
  output
    .split('\n')
    .filter((line) => !line.includes('"msg":"request"'))
    .slice(-40)
    .join('\n');

/** A wait that failed, with the platform's last log lines and what the receiver got. */
async function explained(service: ServiceProcess, wait: Promise<void>): Promise<void> {
  try {
    await wait;
  } catch (error) {
    const got = receiver.receipts.map((r) => `${r.path} ${r.webhookId} ${r.status}: ${r.events.map((e) => `${e.problem?.configItem.id}.${e.kind}`).join(' ')}`);
    throw new Error(`${(error as Error).message}\nreceived:\n${got.join('\n')}\nplatform log:\n${lastLines(service.output())}`, { cause: error });
  }
}

t.test('SIGKILL mid-delivery: after the restart every message arrives, repeats only with the same webhook-id', async (t) => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const api = async (method: string, path: string, json?: unknown): Promise<any> => {
    const answer: Answer = await call(base, method, path, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, ...(json === undefined ? {} : { json }) });
    if (answer.status !== 200 && answer.status !== 201) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
    return answer.body;
  };
  await receiver.listen();
  receiver.mode = 'hold';
  const first = await startPlatform(port);

  const me = await api('GET', '/api/admin/v1/me');
  const wg = await api('POST', '/api/admin/v1/work-groups', { name: 'kill-nine', memberIds: [me.user.id] });
  const cis: Array<{ id: number; name: string }> = [];
  for (let i = 1; i <= 6; i++) cis.push(await api('POST', '/api/public/sm/v2/rsm/config-items', { name: `kill-host-${i}`, ownerWorkGroup: { id: wg.id } }));
  const stream = await api('POST', '/api/admin/v1/streams', { name: 'kill-nine' });
  const trigger = await api('POST', '/api/admin/v1/triggers', {
    name: 'cpu-high',
    streamIds: [stream.id],
    match: [{ field: 'check', op: 'equals', value: 'cpu' }],
    ci: { by: 'nameField', field: 'host' },
    priority: { field: 'severity', map: { critical: 1, major: 2, minor: 3 }, default: 4 },
    resolve: { field: 'status', values: ['ok', 'resolved'] },
    tags: [],
    incidents: [],
    influence: { value: 30, maxInfluence: false },
  });
  const receivers: Record<string, { id: number; policyId: number }> = {};
  for (const [path, groupWindowSeconds] of [
    [NOW, 0],
    [GROUPED, GROUP_WINDOW_S],
  ] as const) {
    const made = await api('POST', '/api/admin/v1/notifications/receivers', {
      type: 'webhook',
      name: `hook${path.replaceAll('/', '-')}`,
      ownerWorkGroup: { id: wg.id },
      url: receiver.url(path),
      secrets: [SECRET],
    });
    const policy = await api('POST', '/api/admin/v1/notifications/policies', {
      name: `policy${path.replaceAll('/', '-')}`,
      ownerWorkGroup: { id: wg.id },
      configItems: { ids: cis.map((c) => c.id) },
      triggerIds: [trigger.id],
      receiverIds: [made.id],
      groupWindowSeconds,
    });
    receivers[path] = { id: made.id, policyId: policy.id };
  }

  const post = async (records: object[]): Promise<void> => {
    const answer = await call(base, 'POST', `/api/public/cl/v1/stream-data?streamKey=${stream.key}`, {
      body: records.map((r) => JSON.stringify(r)).join('\n'),
      headers: { 'content-type': 'application/x-ndjson' },
    });
    if (answer.status !== 200) throw new Error(`post: ${answer.status} ${answer.text}`);
  };
  const opens = (from: number, to: number, at: number) =>
    cis.slice(from - 1, to).map((ci) => ({ '@timestamp': new Date(at).toISOString(), check: 'cpu', host: ci.name, severity: 'major' }));
  const resolves = (from: number, to: number, at: number) =>
    cis.slice(from - 1, to).map((ci) => ({ '@timestamp': new Date(at).toISOString(), check: 'cpu', host: ci.name, status: 'ok' }));

  // The grouped policy's group opens when the dispatcher reads its first event, after this post,
  // and closes 40 s later.
  const openedAt = Date.now() - 2000;
  const groupClosesAt = Date.now() + GROUP_WINDOW_S * 1000;
  const ackedBefore = await notificationsAcked(base);
  const routed = (events: number) =>
    explained(
      first,
      eventually(`${events} events routed`, async () => (await notificationsAcked(base)) >= ackedBefore + events, 60_000, 50),
    );
  await post(opens(1, 4, openedAt));
  // Routed before the resolves are posted: a problem opened and resolved in one step of the
  // problem stage is told only as opened (reported separately), which is not this test's matter.
  await routed(4);
  await post(resolves(1, 2, openedAt + 1000));
  await routed(6);
  await eventually('a delivery hanging on the receiver', async () => receiver.receipts.length > 0, 30_000, 20);

  // More on the bus behind the hanging deliveries: stored, not waited for.
  await post([...opens(5, 6, openedAt + 2000), ...resolves(3, 3, openedAt + 2000)]);
  const killedAt = Date.now();
  first.child.kill('SIGKILL');
  t.strictSame(await first.exited, { code: null, signal: 'SIGKILL' }, 'the platform was killed');
  const held = receiver.held().map((r) => r.webhookId);
  const beforeKill = receiver.receipts.length;
  t.ok(held.length > 0, `${held.length} request(s) hanging at the kill`);
  t.ok(killedAt < groupClosesAt, `the grouped policy's window was still open at the kill (${Math.round((groupClosesAt - killedAt) / 1000)} s left)`);

  receiver.mode = 'answer';
  const second = await startPlatform(port);
  const expected = (): Record<number, string[]> => ({
    [cis[0]!.id]: ['problem.opened', 'problem.resolved'],
    [cis[1]!.id]: ['problem.opened', 'problem.resolved'],
    [cis[2]!.id]: ['problem.opened', 'problem.resolved'],
    [cis[3]!.id]: ['problem.opened'],
    [cis[4]!.id]: ['problem.opened'],
    [cis[5]!.id]: ['problem.opened'],
  });
  const arrived = (path: string): number => firstReceived(receiver.receipts, path, true).length;
  // The group closes 40 s after its first event: up to that long after the restart.
  await explained(
    second,
    eventually('every event answered on both receivers', async () => arrived(NOW) === 9 && arrived(GROUPED) === 9, (GROUP_WINDOW_S + 60) * 1000, 50),
  );

  const answered = receiver.receipts.filter((r) => r.status === 200);
  t.same(kindsByCi(answered, NOW), expected(), 'policy now: every event arrived, opened before resolved');
  t.same(kindsByCi(answered, GROUPED), expected(), 'policy grouped: every event arrived, opened before resolved');
  t.same(kindsByCi(receiver.receipts, NOW), expected(), 'policy now, counting the requests held at the kill: opened first received before resolved');
  t.same(kindsByCi(receiver.receipts, GROUPED), expected(), 'policy grouped, counting the requests held at the kill: opened first received before resolved');

  const after = receiver.receipts.slice(beforeKill);
  for (const id of held)
    t.ok(
      after.some((r) => r.webhookId === id && r.status === 200),
      `the message held at the kill came again as ${id}`,
    );
  t.same(repeatsThatDiffer(receiver.receipts), [], 'a webhook-id received more than once carries the same body');
  t.same(eventsUnderSeveralIds(receiver.receipts, NOW), [], 'policy now: no event under two webhook-ids');
  t.same(eventsUnderSeveralIds(receiver.receipts, GROUPED), [], 'policy grouped: no event under two webhook-ids');
  const wrongIds = receiver.receipts.filter((r) => {
    const { id, policyId } = receivers[r.path]!;
    return (
      r.webhookId !==
      deliveryId(
        policyId,
        id,
        r.events.map((e) => e.id),
      )
    );
  });
  t.same(
    wrongIds.map((r) => r.webhookId),
    [],
    "each webhook-id is its message's delivery id (policy, receiver, events)",
  );
  t.equal(new Set(receiver.receipts.filter((r) => r.path === NOW).map((r) => r.webhookId)).size, 9, 'policy now: one webhook-id per event');
  t.same(receiver.refused, [], 'every signature verified');
  const grouped = receiver.receipts.filter((r) => r.path === GROUPED);
  t.comment(
    `${beforeKill} request(s) before the kill, ${receiver.receipts.length - beforeKill} after; grouped messages: ${[...new Set(grouped.map((r) => `${r.webhookId}×${r.events.length}`))].join(', ')}`,
  );

  second.child.kill('SIGTERM');
  t.equal((await second.exited).code, 0, 'the restarted platform stops cleanly');
});
