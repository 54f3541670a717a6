/**
 * Issue #31 acceptance, the `email` receiver against a REAL SMTP server (Debian's
 * `python3-aiosmtpd`, test/support/smtp-server.ts, which parses each message with Python's
 * `email` package): records open a problem on the embedded platform, an operator acknowledges and
 * resolves it, and the server receives one mail per event — From, To and the envelope as the
 * receiver says, the subject `[P2] <trigger> on <CI> — opened|acknowledged|resolved`, the body
 * naming the problem (its console link) and the CI, one thread by `References`. A recipient the
 * server refuses with 550 is not retried (the delivery fails, the log says SMTP 550); one it
 * refuses once with 451 is retried and then delivered once.
 *
 * Receivers and policies are given to the dispatcher directly (its `directory` option), as in
 * dispatch.test.ts; OPS_NOTIFY_ALLOW_NETWORKS lets it reach 127.0.0.1.
 */
import t from 'tap';
import { policyRule, receiverFields } from './directory-fixtures.js';
import type { PolicyRule } from '../../../pipelines/notifications/policy-match.js';
import type { ReceiverRecord } from '../../../services/control-plane/notifications/notifications.types.js';
import { cmdbViewOf } from '../../../services/control-plane/notifications/policy-rule.js';
import type { NotificationDirectory } from '../../../services/notifications/directory.js';
import { createDispatcherPart } from '../../../services/notifications/dispatcher.part.js';
import type { PlatformContext } from '../../../services/part.js';
import { eventually } from '../../support/bus-recorder.js';
import { missingSmtpServer, type ReceivedMail, type RunningSmtpServer, startSmtpServer } from '../../support/smtp-server.js';
import { ProblemsKit } from '../problems/problems-kit.js';

const PROBLEMS = '/api/public/sm/v1/problems';
const FROM = '"Ops platform" <ops@example.com>';
const CONSOLE = 'https://ops.example.com/';

const skip = missingSmtpServer();
if (skip) {
  t.plan(0, skip);
} else {
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

  let smtp: RunningSmtpServer | undefined;
  const k = new ProblemsKit();
  t.before(async () => {
    smtp = await startSmtpServer();
    k.clock = Date.now();
    await k.start(undefined, {
      env: { OPS_NOTIFY_ALLOW_NETWORKS: '127.0.0.1/32' },
      replace: [createDispatcherPart({ directory, backoffBaseMs: 50, timeoutMs: 5000, consoleUrl: CONSOLE })],
    });
  });
  t.teardown(async () => {
    await k.stop();
    await smtp?.stop();
  });

  const server = (): RunningSmtpServer => {
    if (!smtp) throw new Error('the SMTP server did not start');
    return smtp;
  };
  const at = (minutes: number) => new Date(k.clock + minutes * 60_000).toISOString();
  const mailsTo = (address: string): ReceivedMail[] =>
    server()
      .messages()
      .filter((m) => m.rcptTos.includes(address));
  const wait = (what: string, check: () => boolean | Promise<boolean>) =>
    eventually(what, async () => check(), 30_000, 20).catch((error: Error) => {
      throw new Error(`${error.message}\nthe SMTP server said:\n${server().output().slice(-2000)}`);
    });
  const outcomes = async (receiverId: number): Promise<Record<string, number>> => {
    const text = await k.p.platform.metrics.text();
    const counts: Record<string, number> = {};
    for (const m of text.matchAll(new RegExp(`^ops_notifications_deliveries_total\\{receiver="${receiverId}",outcome="([a-z]+)"\\} (\\d+)$`, 'gm'))) counts[m[1]!] = Number(m[2]);
    return counts;
  };
  const attempts = (receiverId: number) =>
    k.p.platform.engines.analytics.query<{ attempt: number; status: string; status_code: number | null; error: string | null }>(
      'SELECT attempt, status, status_code, error FROM notification_deliveries FINAL WHERE receiver_id = {r:UInt64} ORDER BY attempt',
      { r: receiverId },
    );

  async function setUp(receiverId: number, to: string[]) {
    const wg = await k.workGroup();
    const ci = await k.ci({ ownerWorkGroup: { id: wg.id } });
    const stream = await k.stream();
    const trigger = await k.trigger(stream.id);
    const stamp = new Date(k.clock).toISOString();
    receivers.set(receiverId, {
      type: 'email',
      smtp: { host: server().host, port: server().port, secure: false, user: null, password: null },
      from: FROM,
      to,
      ...receiverFields(receiverId, `mail-${receiverId}`, wg.id, stamp),
    });
    policies.push(policyRule(receiverId, wg.id, ci.id, trigger.id));
    return { ci, stream, trigger };
  }

  t.test('opened, acknowledged and resolved arrive as three mails: From, To, Subject, the problem and CI in the body, one thread', async (t) => {
    const to = 'oncall-1@example.com';
    const { ci, stream, trigger } = await setUp(1, [to]);
    await k.post(stream.key, [{ '@timestamp': at(-5), check: 'cpu', host: ci.name, severity: 'major' }]);
    const [row] = await k.problems(ci.id);
    const problemId = row!.id;
    const problemLink = `${CONSOLE}problems/${problemId}`;
    await wait('the opened mail', () => mailsTo(to).length >= 1);
    const opened = mailsTo(to)[0]!;
    t.match(opened, { mailFrom: 'ops@example.com', rcptTos: [to], to }, 'the envelope and To as the receiver says');
    t.match(opened.from, /^"?Ops platform"? <ops@example\.com>$/, 'From: the receiver sender');
    t.equal(opened.subject, `[P2] ${trigger.name} on ${ci.name} — opened`);
    t.match(opened.messageId, /^<msg_[0-9a-f]{32}@example\.com>$/, 'Message-ID: the delivery id at the sender domain');
    t.equal(opened.references, `<problem.${problemId}@example.com>`);
    t.ok(opened.text?.includes(problemLink), 'the text links the problem');
    t.ok(opened.text?.includes(ci.name), 'the text names the CI');
    t.ok(opened.text?.includes(`${trigger.name} on ${ci.name}`), 'the text names the trigger on the CI');
    t.ok(opened.html?.includes(problemLink), 'the HTML links the problem');
    t.ok(opened.html?.includes(ci.name), 'the HTML names the CI');

    t.equal((await k.api('POST', `${PROBLEMS}/${problemId}/acknowledge`, { json: { comment: 'on it' } })).status, 200);
    await wait('the acknowledged mail', () => mailsTo(to).length >= 2);
    t.equal(mailsTo(to)[1]!.subject, `[P2] ${trigger.name} on ${ci.name} — acknowledged`);

    k.tick(60_000);
    t.equal((await k.api('POST', `${PROBLEMS}/${problemId}/resolve`, { json: { comment: 'fixed' } })).status, 200);
    await wait('the resolved mail', () => mailsTo(to).length >= 3);
    const mails = mailsTo(to);
    t.equal(mails.length, 3, 'one mail per event');
    t.equal(mails[2]!.subject, `[P2] ${trigger.name} on ${ci.name} — resolved`);
    t.ok(mails[2]!.text?.includes(problemLink), 'the resolved mail links the problem');
    t.same(
      mails.map((m) => m.references),
      [1, 2, 3].map(() => `<problem.${problemId}@example.com>`),
      'one thread',
    );
    t.equal(new Set(mails.map((m) => m.messageId)).size, 3, 'a Message-ID per mail');
    // The server has the mail before the dispatcher has read its answer and counted it.
    await wait('the three deliveries counted', async () => (await outcomes(1))['delivered'] === 3);
    t.same(await outcomes(1), { delivered: 3 });
  });

  t.test('a recipient refused with 550: not retried, nothing delivered, the log says SMTP 550', async (t) => {
    const to = 'refuse-2@example.com';
    const { ci, stream } = await setUp(2, [to]);
    await k.post(stream.key, [{ '@timestamp': at(-4), check: 'cpu', host: ci.name, severity: 'critical' }]);
    await wait('the refusal judged', async () => (await outcomes(2))['refused'] === 1);
    t.same(
      server()
        .refusals()
        .filter((r) => r.endsWith(to)),
      [`550 ${to}`],
      'asked once',
    );
    t.same(mailsTo(to), [], 'no mail');
    t.same(await outcomes(2), { refused: 1 });
    await wait('the attempt logged', async () => (await attempts(2)).length === 1);
    t.match(await attempts(2), [{ attempt: 1, status: 'failed', status_code: 550, error: /SMTP 550/ }]);
  });

  t.test('a recipient refused once with 451: retried, then delivered once', async (t) => {
    const to = 'tempfail-once-3@example.com';
    const { ci, stream, trigger } = await setUp(3, [to]);
    await k.post(stream.key, [{ '@timestamp': at(-3), check: 'cpu', host: ci.name, severity: 'minor' }]);
    await wait('the mail after the 451', () => mailsTo(to).length >= 1);
    t.same(
      server()
        .refusals()
        .filter((r) => r.endsWith(to)),
      [`451 ${to}`],
    );
    t.equal(mailsTo(to).length, 1, 'delivered once');
    t.equal(mailsTo(to)[0]!.subject, `[P3] ${trigger.name} on ${ci.name} — opened`);
    await wait('the delivery counted', async () => (await outcomes(3))['delivered'] === 1);
    t.same(await outcomes(3), { retry: 1, delivered: 1 });
    await wait('both attempts logged', async () => (await attempts(3)).length === 2);
    t.match(await attempts(3), [
      { attempt: 1, status: 'retrying', status_code: 451, error: /SMTP 451/ },
      { attempt: 2, status: 'delivered', status_code: 250 },
    ]);
  });
}
