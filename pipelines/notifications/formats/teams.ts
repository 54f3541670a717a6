/**
 * The `teams` receiver: a Teams Workflows webhook ("Post to a channel when a webhook request is
 * received") takes a message whose attachment is an Adaptive Card:
 *   { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive',
 *     contentUrl: null, content: <AdaptiveCard 1.4> }] }
 * The retired Office 365 connector `MessageCard` is not used. Version 1.4 is what Teams renders
 * on every client (desktop, web, mobile).
 *
 * One event: a coloured heading (`P1 opened`), the headline with its names as links, one line per
 * fact and an `Action.OpenUrl` button to the console. A group: the counts, one line per event for
 * the first 20 ("and N more" after), and a button to the console's problem list.
 *
 * Escaping: a TextBlock renders Markdown, so user text never goes into one; it goes into
 * `RichTextBlock` `TextRun`s, which render their text as is (links are a TextRun's
 * `selectAction`). Only the platform's own words (`P1 opened`, the counts) are TextBlocks. Names
 * are clipped (200, 80 in a group's lines) so the largest group stays under Teams' 28 KB message
 * limit.
 */
import type { NotificationMessage } from '../../../schemas/notification-events.schema.js';
import { clip, consoleLink, groupSummary, viewOf, type EventView, type Segment, type Tone } from './event-text.js';
import { JSON_UTF8, type FormatContext, type OutboundRequest } from './outbound-request.js';

export interface TeamsSettings {
  /** The Workflows webhook URL (its `sig` parameter is a secret). */
  url: string;
}

export const TEAMS_GROUP_LIST = 20;
const GROUP_NAME_MAX = 80;

type OpenUrl = { type: 'Action.OpenUrl'; title?: string; url: string };
type TextRun = { type: 'TextRun'; text: string; weight?: 'Bolder'; color?: CardColor; selectAction?: OpenUrl };
type CardColor = 'Attention' | 'Warning' | 'Good' | 'Accent';
export type CardElement =
  | { type: 'TextBlock'; text: string; wrap: true; weight?: 'Bolder'; size?: 'Medium' | 'Large'; color?: CardColor; spacing?: 'Small' | 'Medium' }
  | { type: 'RichTextBlock'; inlines: TextRun[]; spacing?: 'Small' | 'Medium' };
export interface AdaptiveCard {
  $schema: 'http://adaptivecards.io/schemas/adaptive-card.json';
  type: 'AdaptiveCard';
  version: '1.4';
  msteams: { width: 'Full' };
  body: CardElement[];
  actions: OpenUrl[];
}
export interface TeamsMessage {
  type: 'message';
  attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive'; contentUrl: null; content: AdaptiveCard }];
}

const COLOR: Record<Tone, CardColor> = { bad: 'Attention', warn: 'Warning', good: 'Good', info: 'Accent' };

const run = (text: string, extra: Omit<TextRun, 'type' | 'text'> = {}): TextRun => ({ type: 'TextRun', text, ...extra });
const runs = (segments: readonly Segment[], max: number): TextRun[] =>
  segments.map((s) => (typeof s === 'string' ? run(s) : run(clip(s.text, max), { selectAction: { type: 'Action.OpenUrl', url: s.url } })));

function card(body: CardElement[], action: OpenUrl): TeamsMessage {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: { $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4', msteams: { width: 'Full' }, body, actions: [action] },
      },
    ],
  };
}

function singleCard(view: EventView): TeamsMessage {
  return card(
    [
      { type: 'TextBlock', text: view.label, wrap: true, weight: 'Bolder', size: 'Medium', color: COLOR[view.tone] },
      { type: 'RichTextBlock', inlines: runs(view.headline, Infinity) },
      ...view.facts.map((f): CardElement => ({ type: 'RichTextBlock', spacing: 'Small', inlines: [run(`${f.label}: `, { weight: 'Bolder' }), run(f.value)] })),
    ],
    { type: 'Action.OpenUrl', title: view.link.text, url: view.link.url },
  );
}

function groupCard(message: NotificationMessage, views: readonly EventView[], consoleUrl: string): TeamsMessage {
  const listed = views.slice(0, TEAMS_GROUP_LIST);
  const more = views.length - listed.length;
  const line = (v: EventView): CardElement => ({
    type: 'RichTextBlock',
    spacing: 'Small',
    inlines: [run(`${v.label}: `, { weight: 'Bolder', color: COLOR[v.tone] }), ...runs(v.headline, GROUP_NAME_MAX), run(` · ${v.when.value}`)],
  });
  return card(
    [
      { type: 'TextBlock', text: groupSummary(message.events), wrap: true, weight: 'Bolder', size: 'Medium' },
      ...listed.map(line),
      ...(more > 0 ? [{ type: 'TextBlock', text: `and ${more} more`, wrap: true, spacing: 'Small' } satisfies CardElement] : []),
    ],
    { type: 'Action.OpenUrl', title: 'Open the console', url: consoleLink(consoleUrl, '/problems') },
  );
}

/** The Workflows message for one event or a group. */
export function teamsMessage(message: NotificationMessage, consoleUrl: string): TeamsMessage {
  const views = message.events.map((e) => viewOf(e, consoleUrl));
  const [single] = views;
  if (single === undefined) throw new Error('teams receiver: a message without events');
  return views.length === 1 ? singleCard(single) : groupCard(message, views, consoleUrl);
}

export function formatTeams(message: NotificationMessage, settings: TeamsSettings, ctx: Pick<FormatContext, 'consoleUrl'>): OutboundRequest {
  return { url: settings.url, method: 'POST', headers: { 'content-type': JSON_UTF8 }, body: JSON.stringify(teamsMessage(message, ctx.consoleUrl)) };
}
