/**
 * The Slack format: an incoming-webhook message with a text fallback and Block Kit blocks,
 * checked against Block Kit's documented limits (https://docs.slack.dev/reference/block-kit/):
 * ≤ 50 blocks in a message; header text plain_text ≤ 150; section text 1..3000; section fields
 * ≤ 10, each ≤ 2000; context ≤ 10 elements; every text object non-empty.
 */
import t from 'tap';
import { formatSlack, slackMessage, type SlackMessage } from '../../../../../pipelines/notifications/formats/slack.js';
import { CONSOLE, HOSTILE, PROBLEM_ID, allKinds, maintenanceStarted, message, opened, openedMany, problem, resolved } from './format-fixture.js';

/** Every breach of Block Kit's documented limits in a message (empty: none). */
function limitBreaches(m: SlackMessage): string[] {
  const breaches: string[] = [];
  const text = (where: string, o: { type: string; text: string }, max: number) => {
    if (o.text.length < 1 || o.text.length > max) breaches.push(`${where}: ${o.text.length} characters`);
    if (o.type !== 'plain_text' && o.type !== 'mrkdwn') breaches.push(`${where}: type ${o.type}`);
  };
  if (m.blocks.length > 50) breaches.push(`${m.blocks.length} blocks`);
  if (m.text.length < 1 || m.text.length > 40_000) breaches.push('text');
  m.blocks.forEach((b, i) => {
    if (b.type === 'header') {
      if (b.text.type !== 'plain_text') breaches.push(`block ${i}: header must be plain_text`);
      text(`block ${i} header`, b.text, 150);
    } else if (b.type === 'section' && 'text' in b) text(`block ${i} section`, b.text, 3000);
    else if (b.type === 'section') {
      if (b.fields.length < 1 || b.fields.length > 10) breaches.push(`block ${i}: ${b.fields.length} fields`);
      b.fields.forEach((f, j) => text(`block ${i} field ${j}`, f, 2000));
    } else {
      if (b.elements.length < 1 || b.elements.length > 10) breaches.push(`block ${i}: ${b.elements.length} context elements`);
      b.elements.forEach((e, j) => text(`block ${i} context ${j}`, e, 3000));
    }
  });
  return breaches;
}
const mrkdwnTexts = (m: SlackMessage): string[] =>
  m.blocks.flatMap((b) => (b.type === 'header' ? [] : b.type === 'context' ? b.elements : 'fields' in b ? b.fields : [b.text])).map((o) => o.text);

const problemLink = `https://ops.example.com/problems/${PROBLEM_ID}`;

t.test('worked example: one problem.opened', async (t) => {
  const req = formatSlack(message([opened()]), { url: 'https://hooks.slack.com/services/T000/B000/XXXX' }, { consoleUrl: CONSOLE });
  t.strictSame(req, {
    url: 'https://hooks.slack.com/services/T000/B000/XXXX',
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: req.body,
  });
  t.strictSame(JSON.parse(req.body), {
    text: 'P1 opened: CPU load high on web-01',
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: ':red_circle: P1 opened: CPU load high on web-01', emoji: true } },
      { type: 'section', text: { type: 'mrkdwn', text: `<${problemLink}|CPU load high> on <https://ops.example.com/cmdb/ci/17|web-01>`, verbatim: true } },
      {
        type: 'section',
        fields: [
          { type: 'mrkdwn', text: '*Priority*\nP1', verbatim: true },
          // 2025-03-01T12:00:00Z = 1740830400 s, shown in the reader's zone, UTC as fallback
          { type: 'mrkdwn', text: '*Started*\n<!date^1740830400^{date_short_pretty} {time}|2025-03-01 12:00 UTC>', verbatim: true },
          { type: 'mrkdwn', text: '*Tags*\nenv=prod', verbatim: true },
        ],
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `<${problemLink}|Open problem> · Ops platform · policy 3`, verbatim: true }] },
    ],
    unfurl_links: false,
    unfurl_media: false,
  });
  t.equal(formatSlack(message([opened()]), { url: 'https://hooks.slack.com/x' }, { consoleUrl: CONSOLE }).body, req.body, 'stable');
});

t.test('worked example: a group is one message listing each event with its time', async (t) => {
  const disk = problem({
    id: '0190a5b2-0000-7000-8000-000000000002',
    trigger: { id: 6, name: 'Disk full' },
    configItem: { id: 18, name: 'db-01' },
    priority: 'Problem3',
    dateStart: '2025-03-01T11:00:00.000Z',
    dateEnd: '2025-03-01T12:01:00.000Z',
  });
  const m = slackMessage(message([opened(), resolved(disk), maintenanceStarted()]), CONSOLE);
  t.strictSame(m, {
    text: '3 notifications: 1 opened, 1 resolved, 1 maintenance started',
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: ':bell: 3 notifications: 1 opened, 1 resolved, 1 maintenance started', emoji: true } },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: `:red_circle: *P1 opened*  <${problemLink}|CPU load high> on <https://ops.example.com/cmdb/ci/17|web-01> · <!date^1740830400^{date_short_pretty} {time}|2025-03-01 12:00 UTC>`,
          verbatim: true,
        },
      },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          // the time of the event: when it resolved, 12:01 = 1740830460 s
          text: ':large_green_circle: *P3 resolved*  <https://ops.example.com/problems/0190a5b2-0000-7000-8000-000000000002|Disk full> on <https://ops.example.com/cmdb/ci/18|db-01> · <!date^1740830460^{date_short_pretty} {time}|2025-03-01 12:01 UTC>',
          verbatim: true,
        },
      },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: ':large_blue_circle: *Maintenance started*  <https://ops.example.com/maintenance|Patch night> · <!date^1740866400^{date_short_pretty} {time}|2025-03-01 22:00 UTC>',
          verbatim: true,
        },
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: '<https://ops.example.com/problems|Open the console> · Ops platform · policy 3', verbatim: true }] },
    ],
    unfurl_links: false,
    unfurl_media: false,
  });
});

t.test('every kind, alone and in a group, is within the documented limits', async (t) => {
  for (const event of allKinds()) t.strictSame(limitBreaches(slackMessage(message([event]), CONSOLE)), [], event.kind);
  t.strictSame(limitBreaches(slackMessage(message(allKinds()), CONSOLE)), [], 'all kinds grouped');
});

t.test('a group of 1000 with the longest names stays within the limits: 20 listed, "and 980 more"', async (t) => {
  // `&` is the worst case: five characters once escaped.
  const m = slackMessage(message(openedMany(1000, '&'.repeat(5000))), CONSOLE);
  t.strictSame(limitBreaches(m), []);
  t.equal(m.blocks.length, 22, 'header, 20 sections, context');
  t.match(mrkdwnTexts(m).at(-1), /^and 980 more: <https:\/\/ops\.example\.com\/problems\|open the console> · /);
  t.equal(m.text, '1000 notifications: 1000 opened');
});

t.test('one event with the longest names and comment stays within the limits', async (t) => {
  const long = '<'.repeat(10_000);
  const p = problem({ trigger: { id: 5, name: long }, configItem: { id: 17, name: long }, tags: Array.from({ length: 50 }, () => ({ name: long, value: long })) });
  for (const event of [opened(p), { ...acknowledgedWith(long), problem: p }, resolved({ ...p, dateEnd: '2025-03-01T13:00:00.000Z' })]) {
    const m = slackMessage(message([event]), CONSOLE);
    t.strictSame(limitBreaches(m), [], event.kind);
    t.ok(m.text.length <= 3000);
  }
});

const acknowledgedWith = (comment: string) => ({
  id: 'ev-ack',
  time: '2025-03-01T12:03:00.000Z',
  kind: 'problem.acknowledged' as const,
  problem: problem({ acknowledged: true }),
  by: { id: 2, name: 'alice' },
  comment,
});

t.test('user text cannot open a link, a mention or a date, and is not auto-parsed', async (t) => {
  const p = problem({ trigger: { id: 5, name: HOSTILE }, configItem: { id: 17, name: HOSTILE } });
  for (const m of [slackMessage(message([opened(p)]), CONSOLE), slackMessage(message([opened(p), acknowledgedWith(HOSTILE)]), CONSOLE)]) {
    for (const text of [...mrkdwnTexts(m), m.text]) {
      t.notMatch(text, /<!channel>|<https:\/\/evil|<script/, 'no markup of the user survives');
      // Only the platform's own <…> remain: links to the console and dates.
      for (const [, inner] of text.matchAll(/<([^>]*)>/g)) t.match(inner, /^(https:\/\/ops\.example\.com\/[^|]*\||!date\^\d+\^)/);
    }
    t.ok(
      mrkdwnTexts(m).some((x) => x.includes('&lt;!channel&gt; @here *bold*')),
      'shown escaped',
    );
    t.ok(
      m.blocks.every((b) => b.type === 'header' || (b.type === 'context' ? b.elements : 'fields' in b ? b.fields : [b.text]).every((o) => o.type === 'mrkdwn' && o.verbatim)),
      'every mrkdwn object is verbatim: no auto-linked @here, #channel or URL',
    );
    const header = m.blocks[0]!;
    t.ok(header.type === 'header' && !/[\r\n\u202e\ud800]/.test(header.text.text), 'the header holds no line break, bidi override or lone surrogate');
  }
});
