/**
 * Issue #31 acceptance, the `alertmanager` receiver against a REAL Alertmanager (Debian's
 * `prometheus-alertmanager`, test/support/alertmanager.ts): records open a problem on the
 * embedded platform, the dispatcher pushes it, and Alertmanager's own v2 API shows the alert
 * firing with the problem's labels; acknowledged, it is pushed again (the annotation says so);
 * resolved by hand, it is gone from the API, Alertmanager counts a resolved push, and its own
 * webhook (send_resolved) says `resolved`. While a problem stays open, the alert is pushed again
 * every `resendSeconds`.
 *
 * Alertmanager judges `endsAt` by its own real clock, so the platform clock starts at the real
 * time and is brought up to it (never back) before each record or action; a resolve then ends
 * the alert at an instant Alertmanager already has behind it. Receivers and policies are given
 * to the dispatcher directly (its `directory` option), as in dispatch.test.ts.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { policyRule, receiverFields } from './directory-fixtures.js';
import type { PolicyRule } from '../../../pipelines/notifications/policy-match.js';
import type { ReceiverRecord } from '../../../services/control-plane/notifications/notifications.types.js';
import { cmdbViewOf } from '../../../services/control-plane/notifications/policy-rule.js';
import type { NotificationDirectory } from '../../../services/notifications/directory.js';
import { createDispatcherPart } from '../../../services/notifications/dispatcher.part.js';
import type { PlatformContext } from '../../../services/part.js';
import { type GettableAlert, missingAlertmanager, type RunningAlertmanager, startAlertmanager } from '../../support/alertmanager.js';
import { eventually } from '../../support/bus-recorder.js';
import { ProblemsKit } from '../problems/problems-kit.js';

const PROBLEMS = '/api/public/sm/v1/problems';

/** What Alertmanager's webhook notifier posts (the fields read here). */
interface AmNotification {
  status: 'firing' | 'resolved';
  alerts: Array<{ status: 'firing' | 'resolved'; labels: Record<string, string>; startsAt: string; endsAt: string }>;
}

const skip = missingAlertmanager();
if (skip) {
  t.plan(0, skip);
} else {
  /** Alertmanager's own notifications, heard on a webhook it is configured to call. */
  const notified: AmNotification[] = [];
  const hook = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      notified.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as AmNotification);
      res.writeHead(200);
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

  let am: RunningAlertmanager | undefined;
  const k = new ProblemsKit();
  t.before(async () => {
    hook.listen(0, '127.0.0.1');
    await once(hook, 'listening');
    am = await startAlertmanager({ webhookUrl: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/alertmanager` });
    k.clock = Date.now();
    await k.start(undefined, {
      env: { OPS_NOTIFY_ALLOW_NETWORKS: '127.0.0.1/32' },
      replace: [createDispatcherPart({ directory, backoffBaseMs: 50, timeoutMs: 5000 })],
    });
  });
  t.teardown(async () => {
    await k.stop();
    await am?.stop();
    hook.close();
  });

  const alertmanager = (): RunningAlertmanager => {
    if (!am) throw new Error('Alertmanager did not start');
    return am;
  };
  /** The platform clock brought up to the real time (it never goes back). */
  const keepUp = (): number => (k.clock = Math.max(k.clock, Date.now()));
  const at = (minutes: number) => new Date(k.clock + minutes * 60_000).toISOString();

  /** Polls `get` until it answers something; that answer. */
  async function waitFor<T>(what: string, get: () => Promise<T | undefined>): Promise<T> {
    let found: T | undefined;
    await eventually(what, async () => (found = await get()) !== undefined, 30_000, 50).catch((error: Error) => {
      throw new Error(`${error.message}\nAlertmanager said:\n${alertmanager().output().slice(-2000)}`);
    });
    return found as T;
  }
  const alertOf = async (problemId: string): Promise<GettableAlert[]> => alertmanager().alerts({ problem_id: problemId });
  const heard = (problemId: string, status: 'firing' | 'resolved') => notified.flatMap((n) => n.alerts).find((a) => a.labels['problem_id'] === problemId && a.status === status);

  async function setUp(receiverId: number, resendSeconds: number) {
    const wg = await k.workGroup();
    const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
    const stream = await k.stream();
    const trigger = await k.trigger(stream.id);
    const stamp = new Date(k.clock).toISOString();
    receivers.set(receiverId, {
      type: 'alertmanager',
      url: alertmanager().url,
      resendSeconds,
      ...receiverFields(receiverId, `am-${receiverId}`, wg.id, stamp),
    });
    policies.push(policyRule(receiverId, wg.id, ci.id, trigger.id));
    return { ci, stream, trigger };
  }

  /** Opens a problem on a fresh CI (a `major` record: Problem2, `startMinutes` from now) and answers its id. */
  async function open(receiverId: number, resendSeconds: number, startMinutes = -5) {
    const set = await setUp(receiverId, resendSeconds);
    keepUp();
    const startedAt = at(startMinutes);
    await k.post(set.stream.key, [{ '@timestamp': startedAt, check: 'cpu', host: set.ci.name, severity: 'major' }]);
    const rows = await k.problems(set.ci.id);
    if (rows.length !== 1) throw new Error(`expected one problem on CI ${set.ci.id}, found ${rows.length}`);
    return { ...set, problemId: rows[0]!.id, startedAt };
  }

  t.test('opened: the alert fires with the problem labels; acknowledged: pushed again; resolved by hand: gone, and Alertmanager says resolved', async (t) => {
    // 3600 s: an open problem's alert lasts 3 h without a push, so only the resolve can end it here.
    const before = await alertmanager().received();
    const { ci, trigger, problemId, startedAt } = await open(1, 3600);
    const pushedAt = k.clock;

    const [firing] = await waitFor('the alert firing in Alertmanager', async () => {
      const alerts = await alertOf(problemId);
      return alerts.length > 0 ? alerts : undefined;
    });
    t.equal((await alertOf(problemId)).length, 1, 'one alert for the problem');
    t.same(
      firing!.labels,
      {
        alertname: trigger.name,
        problem_id: problemId,
        trigger: trigger.name,
        trigger_id: String(trigger.id),
        ci: ci.name,
        ci_id: String(ci.id),
        priority: 'Problem2',
        severity: 'error',
      },
      'labels: what names the alert, nothing that changes',
    );
    t.equal(firing!.status.state, 'active');
    t.equal(Date.parse(firing!.startsAt), Date.parse(startedAt), 'startsAt is the problem start');
    t.equal(Date.parse(firing!.endsAt), pushedAt + 3 * 3600_000, 'endsAt is the push instant + 3 resend intervals');
    t.match(firing!.annotations, { summary: `${trigger.name} on ${ci.name}`, description: /: open\.$/ });
    t.match(firing!.generatorURL, new RegExp(`/problems/${problemId}$`));
    await waitFor("Alertmanager's own webhook: firing", async () => heard(problemId, 'firing'));
    t.same(await alertmanager().received(), { firing: before.firing + 1, resolved: before.resolved }, 'one firing push so far');

    keepUp();
    t.equal((await k.api('POST', `${PROBLEMS}/${problemId}/acknowledge`, { json: { comment: 'on it' } })).status, 200);
    const acked = await waitFor('the acknowledged push', async () => {
      const [alert] = await alertOf(problemId);
      return alert?.annotations['description']?.endsWith('open, acknowledged.') ? alert : undefined;
    });
    t.equal(acked.fingerprint, firing!.fingerprint, 'the same alert (fingerprint), its annotation updated');
    t.equal(acked.status.state, 'active');

    const resolvedAt = keepUp();
    t.equal((await k.api('POST', `${PROBLEMS}/${problemId}/resolve`, { json: { comment: 'fixed' } })).status, 200);
    // Alertmanager v2 lists no resolved alert (its default query takes every state).
    await waitFor('the alert gone from /api/v2/alerts', async () => ((await alertOf(problemId)).length === 0 ? true : undefined));
    const resolved = await waitFor("Alertmanager's own webhook: resolved", async () => heard(problemId, 'resolved'));
    t.equal(Date.parse(resolved.endsAt), resolvedAt, 'it ended when the problem was resolved');
    t.equal(Date.parse(resolved.startsAt), Date.parse(startedAt));
    t.same(await alertmanager().received(), { firing: before.firing + 2, resolved: before.resolved + 1 }, 'opened and acknowledged pushed firing, the resolve pushed resolved');
  });

  t.test('resolved by a record: the alert ends at the record time', async (t) => {
    const { ci, stream, problemId } = await open(2, 3600);
    await waitFor('the alert firing', async () => ((await alertOf(problemId)).length === 1 ? true : undefined));
    keepUp();
    const okAt = at(-1);
    await k.post(stream.key, [{ '@timestamp': okAt, check: 'cpu', host: ci.name, status: 'ok' }]);
    await waitFor('the alert gone', async () => ((await alertOf(problemId)).length === 0 ? true : undefined));
    const resolved = await waitFor("Alertmanager's own webhook: resolved", async () => heard(problemId, 'resolved'));
    t.equal(Date.parse(resolved.endsAt), Date.parse(okAt));
  });

  // Last: it moves the platform clock ahead of the real one.
  t.test('while the problem stays open, the alert is pushed again every resendSeconds, acknowledged or not', async (t) => {
    const resendSeconds = 10;
    const interval = resendSeconds * 1000;
    // Started now: the resends are due at start + k × interval, so none comes before the clock moves.
    const { problemId } = await open(3, resendSeconds, 0);
    const first = await waitFor('the first push', async () => (await alertOf(problemId))[0]);
    const pushes = (await alertmanager().received()).firing;
    t.equal(Date.parse(first.endsAt), k.clock + 3 * interval, 'the first push lasts three intervals');

    const pushedAgain = async (what: string, endsAt: number): Promise<GettableAlert> => {
      const alert = await waitFor(what, async () => (await alertOf(problemId)).find((a) => Date.parse(a.endsAt) === endsAt));
      t.equal(alert.fingerprint, first.fingerprint, `${what}: the same alert`);
      t.equal(alert.status.state, 'active', `${what}: still firing`);
      t.equal(Date.parse(alert.startsAt), Date.parse(first.startsAt), `${what}: startsAt unchanged`);
      t.not(alert.updatedAt, first.updatedAt, `${what}: updated`);
      return alert;
    };

    k.tick(interval);
    await pushedAgain('the push one interval on', Date.parse(first.endsAt) + interval);
    t.equal((await alertmanager().received()).firing, pushes + 1, 'one more firing push');

    // An acknowledgement is pushed at once and does not stop the resends (the alert would expire).
    t.equal((await k.api('POST', `${PROBLEMS}/${problemId}/acknowledge`, { json: { comment: 'on it' } })).status, 200);
    await waitFor('the acknowledged push', async () => ((await alertOf(problemId))[0]?.annotations['description']?.endsWith('open, acknowledged.') ? true : undefined));
    k.tick(interval);
    const acked = await pushedAgain('the push two intervals on', Date.parse(first.endsAt) + 2 * interval);
    t.match(acked.annotations, { description: /open, acknowledged\.$/ }, 'the resend tells the problem as acknowledged');
    t.equal((await alertmanager().received()).firing, pushes + 3, 'the acknowledgement and the resend pushed');
  });
}
