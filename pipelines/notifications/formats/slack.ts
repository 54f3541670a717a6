/**
 * The `slack` receiver: an incoming-webhook message with a `text` fallback (what notifications
 * and screen readers show) and Block Kit `blocks`.
 *
 * One event: header (`:red_circle: P1 opened: CPU load high on web-01`), a section with the
 * headline whose names link to the console, a section of fields (priority, times in the reader's
 * zone via `<!date^…>`, who acknowledged, tags, …) and a context line with the main link. A group:
 * a header with the counts (`5 notifications: 3 opened, 2 resolved`), one section per event for
 * the first 20, then "and N more" linking to the console's problem list.
 *
 * Escaping: in mrkdwn `&`, `<` and `>` become entities (so no text can open a link, a mention
 * like `<!channel>` or a date), and every mrkdwn object is `verbatim` (no auto-linking of
 * `#channel`, `@name` or URLs in user text). Header text is plain_text. Limits, as documented
 * for Block Kit: header 150 characters, section text 3000, ≤ 10 fields of ≤ 2000, ≤ 10 context
 * elements, ≤ 50 blocks; `text` is kept under 3000 (Slack truncates at 40 000). Text is clipped
 * before escaping until the escaped form fits. Link unfurling is off: console pages need a login.
 */
import type { NotificationMessage } from '../../../schemas/notification-events.schema.js';
import { clip, consoleLink, groupSummary, plain, viewOf, type EventView, type Fact, type Segment, type Tone } from './event-text.js';
import { JSON_UTF8, type FormatContext, type OutboundRequest } from './outbound-request.js';

export interface SlackSettings {
  /** The incoming-webhook URL (a secret: anyone holding it can post). */
  url: string;
}

export const SLACK_LIMITS = { headerText: 150, sectionText: 3000, fields: 10, fieldText: 2000, contextElements: 10, blocks: 50, text: 3000 } as const;
/** Events listed one by one in a group's message; the rest are counted. */
export const SLACK_GROUP_LIST = 20;

type Text = { type: 'plain_text'; text: string; emoji: true } | { type: 'mrkdwn'; text: string; verbatim: true };
export type SlackBlock =
  { type: 'header'; text: Extract<Text, { type: 'plain_text' }> } | { type: 'section'; text: Text } | { type: 'section'; fields: Text[] } | { type: 'context'; elements: Text[] };
export interface SlackMessage {
  text: string;
  blocks: SlackBlock[];
  unfurl_links: false;
  unfurl_media: false;
}

/** Slack's three reserved characters as entities. */
export const escapeMrkdwn = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `raw` clipped until its escaped form is at most `max` long. */
function fitEscaped(raw: string, max: number): string {
  let text = raw;
  let escaped = escapeMrkdwn(text);
  while (escaped.length > max) {
    text = clip(text, Math.max(1, text.length - (escaped.length - max) - 1));
    escaped = escapeMrkdwn(text);
  }
  return escaped;
}

const mrkdwn = (text: string): Text => ({ type: 'mrkdwn', text, verbatim: true });
const plainText = (text: string): Text & { type: 'plain_text' } => ({ type: 'plain_text', text: clip(text, SLACK_LIMITS.headerText), emoji: true });

const EMOJI: Record<Tone, string> = { bad: ':red_circle:', warn: ':large_orange_circle:', good: ':large_green_circle:', info: ':large_blue_circle:' };

const link = (url: string, text: string): string => `<${url}|${text}>`;
/** A headline in mrkdwn; each name gets at most a share of `max`. */
const headline = (segments: readonly Segment[]): string =>
  segments.map((s) => (typeof s === 'string' ? escapeMrkdwn(s) : link(s.url, fitEscaped(s.text, SLACK_LIMITS.sectionText / 4)))).join('');

/** An instant in the reader's zone, with the UTC text as fallback. */
const slackTime = (fact: Fact): string =>
  fact.at !== undefined && !Number.isNaN(Date.parse(fact.at))
    ? `<!date^${Math.floor(Date.parse(fact.at) / 1000)}^{date_short_pretty} {time}|${fact.value}>`
    : escapeMrkdwn(fact.value);

const field = (fact: Fact): Text => {
  const label = `*${escapeMrkdwn(fact.label)}*\n`;
  return mrkdwn(label + (fact.at !== undefined ? slackTime(fact) : fitEscaped(fact.value, SLACK_LIMITS.fieldText - label.length)));
};

function footer(message: NotificationMessage, ...parts: string[]): SlackBlock {
  return { type: 'context', elements: [mrkdwn([...parts, `Ops platform · policy ${message.policyId}`].join(' · '))] };
}

function singleMessage(message: NotificationMessage, view: EventView): SlackMessage {
  const title = `${view.label}: ${plain(view.headline)}`;
  return {
    text: fitEscaped(title, SLACK_LIMITS.text),
    blocks: [
      { type: 'header', text: plainText(`${EMOJI[view.tone]} ${title}`) },
      { type: 'section', text: mrkdwn(headline(view.headline)) },
      { type: 'section', fields: view.facts.slice(0, SLACK_LIMITS.fields).map(field) },
      footer(message, link(view.link.url, escapeMrkdwn(view.link.text))),
    ],
    unfurl_links: false,
    unfurl_media: false,
  };
}

function groupMessage(message: NotificationMessage, views: readonly EventView[], consoleUrl: string): SlackMessage {
  const summary = groupSummary(message.events);
  const listed = views.slice(0, SLACK_GROUP_LIST);
  const more = views.length - listed.length;
  const item = (v: EventView): SlackBlock => ({ type: 'section', text: mrkdwn(`${EMOJI[v.tone]} *${escapeMrkdwn(v.label)}*  ${headline(v.headline)} · ${slackTime(v.when)}`) });
  const problems = consoleLink(consoleUrl, '/problems');
  return {
    text: fitEscaped(summary, SLACK_LIMITS.text),
    blocks: [
      { type: 'header', text: plainText(`:bell: ${summary}`) },
      ...listed.map(item),
      more > 0 ? footer(message, `and ${more} more: ${link(problems, 'open the console')}`) : footer(message, link(problems, 'Open the console')),
    ],
    unfurl_links: false,
    unfurl_media: false,
  };
}

/** The message for one event or a group, links under `consoleUrl`. */
export function slackMessage(message: NotificationMessage, consoleUrl: string): SlackMessage {
  const views = message.events.map((e) => viewOf(e, consoleUrl));
  const [single] = views;
  if (single === undefined) throw new Error('slack receiver: a message without events');
  return views.length === 1 ? singleMessage(message, single) : groupMessage(message, views, consoleUrl);
}

export function formatSlack(message: NotificationMessage, settings: SlackSettings, ctx: Pick<FormatContext, 'consoleUrl'>): OutboundRequest {
  return { url: settings.url, method: 'POST', headers: { 'content-type': JSON_UTF8 }, body: JSON.stringify(slackMessage(message, ctx.consoleUrl)) };
}
