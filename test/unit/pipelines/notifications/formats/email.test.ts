/**
 * The email format: `{ from, to, subject, text, html, messageId, references? }` for nodemailer,
 * built and then turned into a real RFC 5322 message by nodemailer's stream transport (no
 * network), so what the dispatcher will send is what these tests read.
 */
import nodemailer from 'nodemailer';
import t from 'tap';
import { formatEmail, type EmailMessage } from '../../../../../pipelines/notifications/formats/email.js';
import {
  CONSOLE,
  HOSTILE,
  PROBLEM_ID,
  acknowledged,
  allKinds,
  flapping,
  maintenanceStarted,
  message,
  opened,
  openedMany,
  problem,
  resolved,
  slaBurning,
} from './format-fixture.js';

const settings = { from: '"Ops platform" <ops@example.com>', to: ['oncall@example.com'] };
const ctx = { consoleUrl: CONSOLE };
const problemLink = `https://ops.example.com/problems/${PROBLEM_ID}`;

async function rfc822(mail: EmailMessage): Promise<string> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const info = await transport.sendMail(mail);
  return (info.message as Buffer).toString('utf8');
}

t.test('worked example: problem.resolved', async (t) => {
  t.strictSame(formatEmail(message([resolved()]), settings, ctx), {
    from: '"Ops platform" <ops@example.com>',
    to: ['oncall@example.com'],
    subject: '[P1] CPU load high on web-01 — resolved',
    text: [
      'P1 resolved: CPU load high on web-01',
      '',
      'Priority: P1',
      'Started: 2025-03-01 12:00 UTC',
      'Resolved: 2025-03-01 13:12 UTC',
      'Duration: 1 h 12 min',
      'Resolved by: a resolving record',
      'Tags: env=prod',
      '',
      `Open problem: ${problemLink}`,
      'CI web-01: https://ops.example.com/cmdb/ci/17',
      '',
      '-- ',
      'Ops platform · policy 3 · delivery msg_2Vz8kQ1',
      '',
    ].join('\n'),
    html: [
      '<!doctype html>',
      '<html><body>',
      '<p><strong>P1 resolved</strong></p>',
      `<h2><a href="${problemLink}">CPU load high</a> on <a href="https://ops.example.com/cmdb/ci/17">web-01</a></h2>`,
      '<table>',
      '<tr><th align="left">Priority</th><td>P1</td></tr>',
      '<tr><th align="left">Started</th><td>2025-03-01 12:00 UTC</td></tr>',
      '<tr><th align="left">Resolved</th><td>2025-03-01 13:12 UTC</td></tr>',
      '<tr><th align="left">Duration</th><td>1 h 12 min</td></tr>',
      '<tr><th align="left">Resolved by</th><td>a resolving record</td></tr>',
      '<tr><th align="left">Tags</th><td>env=prod</td></tr>',
      '</table>',
      `<p><a href="${problemLink}">Open problem</a></p>`,
      '<p><small>Ops platform · policy 3 · delivery msg_2Vz8kQ1</small></p>',
      '</body></html>',
      '',
    ].join('\n'),
    messageId: '<msg_2Vz8kQ1@example.com>',
    references: `<problem.${PROBLEM_ID}@example.com>`,
  });
});

t.test('subjects of each kind', async (t) => {
  const subject = (e: Parameters<typeof message>[0][number]) => formatEmail(message([e]), settings, ctx).subject;
  t.equal(subject(opened()), '[P1] CPU load high on web-01 — opened');
  t.equal(subject(acknowledged()), '[P1] CPU load high on web-01 — acknowledged');
  t.equal(subject(opened(problem({ priority: 'Problem4' }))), '[P4] CPU load high on web-01 — opened');
  t.equal(subject(flapping()), '[flapping] CPU load high on web-01 — flapping');
  t.equal(subject(maintenanceStarted()), '[maintenance] Patch night — started');
  t.equal(subject(slaBurning()), '[SLA] Core on web-01 — budget burning');
});

t.test('worked example: a group is one mail listing them, the most urgent priority in the subject', async (t) => {
  const disk = problem({
    id: '0190a5b2-0000-7000-8000-000000000002',
    trigger: { id: 6, name: 'Disk full' },
    configItem: { id: 18, name: 'db-01' },
    priority: 'Problem3',
    dateStart: '2025-03-01T11:00:00.000Z',
    dateEnd: '2025-03-01T12:01:00.000Z',
  });
  const mail = formatEmail(message([resolved(disk), opened(problem({ priority: 'Problem2' })), maintenanceStarted()]), settings, ctx);
  t.equal(mail.subject, '[P2] 3 notifications: 1 opened, 1 resolved, 1 maintenance started');
  t.equal(
    mail.text,
    [
      '3 notifications: 1 opened, 1 resolved, 1 maintenance started',
      '',
      '- P3 resolved: Disk full on db-01 · 2025-03-01 12:01 UTC',
      '  https://ops.example.com/problems/0190a5b2-0000-7000-8000-000000000002',
      '- P2 opened: CPU load high on web-01 · 2025-03-01 12:00 UTC',
      `  ${problemLink}`,
      '- Maintenance started: Patch night · 2025-03-01 22:00 UTC',
      '  https://ops.example.com/maintenance',
      '',
      'All problems: https://ops.example.com/problems',
      '',
      '-- ',
      'Ops platform · policy 3 · delivery msg_2Vz8kQ1',
      '',
    ].join('\n'),
  );
  t.match(mail.html, '<li><strong>P3 resolved</strong>: <a href="https://ops.example.com/problems/0190a5b2-0000-7000-8000-000000000002">Disk full</a> on ');
  t.notOk('references' in mail, 'a group threads with no single problem');
  t.equal(
    formatEmail(message([maintenanceStarted(), slaBurning()]), settings, ctx).subject,
    '2 notifications: 1 maintenance started, 1 SLA budget burning',
    'no priority, no bracket',
  );
});

t.test('a group of 250 lists 100 and counts the rest', async (t) => {
  const mail = formatEmail(message(openedMany(250)), settings, ctx);
  t.equal(mail.text.split('\n').filter((l) => l.startsWith('- ')).length, 100);
  t.match(mail.text, '\nand 150 more: https://ops.example.com/problems\n');
  t.equal(mail.html.split('<li>').length - 1, 100);
  t.match(mail.html, '<p>and 150 more: <a href="https://ops.example.com/problems">open the console</a></p>');
});

t.test('hostile names: HTML escaped everywhere, subject on one line and ≤ 200, no header injected', async (t) => {
  const p = problem({ trigger: { id: 5, name: HOSTILE }, configItem: { id: 17, name: HOSTILE.repeat(10) }, tags: [{ name: HOSTILE, value: HOSTILE }] });
  for (const events of [
    [opened(p)],
    [{ ...acknowledged(p), comment: HOSTILE } as ReturnType<typeof acknowledged>],
    [opened(p), resolved({ ...p, dateEnd: '2025-03-01T13:00:00.000Z' })],
  ]) {
    const mail = formatEmail(message(events), settings, ctx);
    t.notMatch(mail.html, /<script|<!channel|"x"\)/, 'no markup of the user survives');
    t.ok(mail.html.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;'), 'shown escaped');
    // Only the platform's own tags are left.
    for (const [tag] of mail.html.matchAll(/<[^>]*>/g))
      t.match(tag, /^<(!doctype html|\/?(html|body|p|strong|h2|table|tr|th|td|ul|li|small|a)( align="left"| href="https:\/\/ops\.example\.com\/[^"]*")?)>$/);
    t.notMatch(mail.subject, /[\r\n\u202e\ud800]/);
    t.ok(mail.subject.length <= 200);
    const raw = await rfc822(mail);
    const headers = raw.slice(0, raw.indexOf('\n\n'));
    t.notMatch(headers, /^Bcc:/m, 'the name’s "Bcc:" stays inside the subject');
  }
});

t.test('nodemailer builds every kind into a message with the stable Message-ID and References', async (t) => {
  for (const event of allKinds()) {
    const mail = formatEmail(message([event]), settings, ctx);
    const raw = await rfc822(mail);
    t.match(raw, /^Message-ID: <msg_2Vz8kQ1@example\.com>$/m, event.kind);
    t.match(raw, /^Content-Type: multipart\/alternative;/m);
    if (event.kind.startsWith('problem.') && event.kind !== 'problem.flapping') t.match(raw, new RegExp(`^References: <problem\\.${PROBLEM_ID}@example\\.com>$`, 'm'));
  }
  const noDomain = formatEmail(message([opened()]), { from: 'ops', to: ['a@example.com'] }, ctx);
  t.equal(noDomain.messageId, '<msg_2Vz8kQ1@ops-platform.invalid>', 'a sender without a domain: a reserved one');
  t.equal(formatEmail(message([opened()], 'id with spaces<>'), settings, ctx).messageId, '<id-with-spaces--@example.com>', 'a msg-id only of atext');
});
