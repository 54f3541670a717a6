/**
 * The Teams format: the message a Workflows webhook takes, an Adaptive Card 1.4 attachment,
 * checked against the card schema's definitions of the elements it uses (transcribed below from
 * adaptivecards.io/schemas/adaptive-card.json, unknown properties refused) and Teams' 28 KB
 * message limit.
 */
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import t from 'tap';
import { formatTeams, teamsMessage, type TeamsMessage } from '../../../../../pipelines/notifications/formats/teams.js';
import { strings, CONSOLE, HOSTILE, PROBLEM_ID, acknowledged, allKinds, message, opened, openedMany, problem } from './format-fixture.js';

const closed = { additionalProperties: false } as const;
const Color = Type.Union(['Default', 'Dark', 'Light', 'Accent', 'Good', 'Warning', 'Attention'].map((c) => Type.Literal(c)));
const Spacing = Type.Union(['None', 'Small', 'Default', 'Medium', 'Large', 'ExtraLarge', 'Padding'].map((c) => Type.Literal(c)));
const OpenUrl = Type.Object({ type: Type.Literal('Action.OpenUrl'), title: Type.Optional(Type.String()), url: Type.String({ format: 'uri' }) }, closed);
const TextRun = Type.Object(
  {
    type: Type.Literal('TextRun'),
    text: Type.String(),
    weight: Type.Optional(Type.Union(['Default', 'Lighter', 'Bolder'].map((c) => Type.Literal(c)))),
    color: Type.Optional(Color),
    selectAction: Type.Optional(OpenUrl),
  },
  closed,
);
const TextBlock = Type.Object(
  {
    type: Type.Literal('TextBlock'),
    text: Type.String(),
    wrap: Type.Optional(Type.Boolean()),
    weight: Type.Optional(Type.Union(['Default', 'Lighter', 'Bolder'].map((c) => Type.Literal(c)))),
    size: Type.Optional(Type.Union(['Default', 'Small', 'Medium', 'Large', 'ExtraLarge'].map((c) => Type.Literal(c)))),
    color: Type.Optional(Color),
    spacing: Type.Optional(Spacing),
  },
  closed,
);
const RichTextBlock = Type.Object({ type: Type.Literal('RichTextBlock'), inlines: Type.Array(TextRun), spacing: Type.Optional(Spacing) }, closed);
const WorkflowsMessage = Type.Object(
  {
    type: Type.Literal('message'),
    attachments: Type.Array(
      Type.Object(
        {
          contentType: Type.Literal('application/vnd.microsoft.card.adaptive'),
          contentUrl: Type.Null(),
          content: Type.Object(
            {
              $schema: Type.Literal('http://adaptivecards.io/schemas/adaptive-card.json'),
              type: Type.Literal('AdaptiveCard'),
              version: Type.Literal('1.4'),
              msteams: Type.Object({ width: Type.Literal('Full') }, closed),
              body: Type.Array(Type.Union([TextBlock, RichTextBlock]), { minItems: 1 }),
              actions: Type.Array(OpenUrl),
            },
            closed,
          ),
        },
        closed,
      ),
      { minItems: 1, maxItems: 1 },
    ),
  },
  closed,
);
const checker = Compile(WorkflowsMessage);
const errors = (m: unknown): string[] => [...checker.Errors(m)].map((e) => `${e.instancePath} ${e.message}`);
const TEAMS_MAX_BYTES = 28 * 1024;

const problemLink = `https://ops.example.com/problems/${PROBLEM_ID}`;
const run = (text: string, extra: object = {}) => ({ type: 'TextRun', text, ...extra });
const fact = (label: string, value: string) => ({ type: 'RichTextBlock', spacing: 'Small', inlines: [run(`${label}: `, { weight: 'Bolder' }), run(value)] });

t.test('worked example: problem.acknowledged as a Workflows message with an Adaptive Card', async (t) => {
  const req = formatTeams(
    message([acknowledged()]),
    { url: 'https://prod-00.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?sig=SECRET' },
    { consoleUrl: CONSOLE },
  );
  t.equal(req.url, 'https://prod-00.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?sig=SECRET');
  t.strictSame(req.headers, { 'content-type': 'application/json; charset=utf-8' });
  t.strictSame(JSON.parse(req.body), {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          msteams: { width: 'Full' },
          body: [
            { type: 'TextBlock', text: 'P1 acknowledged', wrap: true, weight: 'Bolder', size: 'Medium', color: 'Warning' },
            {
              type: 'RichTextBlock',
              inlines: [
                run('CPU load high', { selectAction: { type: 'Action.OpenUrl', url: problemLink } }),
                run(' on '),
                run('web-01', { selectAction: { type: 'Action.OpenUrl', url: 'https://ops.example.com/cmdb/ci/17' } }),
              ],
            },
            fact('Priority', 'P1'),
            fact('Started', '2025-03-01 12:00 UTC'),
            fact('Acknowledged by', 'alice'),
            fact('Comment', 'looking at it'),
            fact('Tags', 'env=prod'),
          ],
          actions: [{ type: 'Action.OpenUrl', title: 'Open problem', url: problemLink }],
        },
      },
    ],
  });
  t.equal(formatTeams(message([acknowledged()]), { url: 'https://x.example/' }, { consoleUrl: CONSOLE }).body, req.body, 'stable');
});

t.test('every kind, alone and grouped, matches the card schema (no O365 MessageCard)', async (t) => {
  for (const events of [...allKinds().map((e) => [e]), allKinds()]) {
    const m = teamsMessage(message(events), CONSOLE);
    t.strictSame(errors(m), [], events.map((e) => e.kind).join(', '));
    t.notOk('@type' in m || 'themeColor' in m || 'sections' in m, 'not a MessageCard');
  }
});

t.test('a group of 1000 with the longest multi-byte names: 20 lines, "and 980 more", under 28 KB', async (t) => {
  // CJK: three bytes each in UTF-8.
  const m = teamsMessage(message(openedMany(1000, '監'.repeat(5000))), CONSOLE);
  t.strictSame(errors(m), []);
  const body = m.attachments[0].content.body;
  t.equal(body.length, 22, 'counts, 20 lines, the rest');
  t.strictSame(body.at(-1), { type: 'TextBlock', text: 'and 980 more', wrap: true, spacing: 'Small' });
  const bytes = Buffer.byteLength(JSON.stringify(m));
  t.ok(bytes < TEAMS_MAX_BYTES, `${bytes} bytes`);
});

t.test('user text goes only into TextRuns (never Markdown-rendered), cleaned', async (t) => {
  const p = problem({ trigger: { id: 5, name: HOSTILE }, configItem: { id: 17, name: HOSTILE }, tags: [{ name: HOSTILE, value: HOSTILE }] });
  for (const m of [teamsMessage(message([opened(p)]), CONSOLE), teamsMessage(message([opened(p), opened(p)]), CONSOLE)] as TeamsMessage[]) {
    t.strictSame(errors(m), []);
    const blocks = m.attachments[0].content.body;
    const textBlocks = blocks.flatMap((b) => (b.type === 'TextBlock' ? [b.text] : []));
    t.ok(
      textBlocks.every((x) => !x.includes('bold')),
      'TextBlocks hold only the platform’s words',
    );
    const runsText = strings(blocks.flatMap((b) => (b.type === 'RichTextBlock' ? b.inlines.map((i) => i.text) : []))).join('\n');
    t.ok(runsText.includes('<!channel> @here *bold* _it_ [x](https://evil.example) <script>'), 'shown as typed, in TextRuns');
    t.notMatch(runsText, /[\r\u202e\ud800]|\n(?!$)Bcc/, 'no line break, bidi override or lone surrogate');
    const urls = [...JSON.stringify(m).matchAll(/"url":"([^"]*)"/g)].map(([, u]) => u!);
    t.ok(urls.length >= 3);
    t.ok(
      urls.every((u) => u.startsWith('https://ops.example.com/')),
      'every link goes to the console',
    );
  }
});
