/**
 * The `email` receiver: a message for nodemailer's `sendMail` (built here, sent by the
 * dispatcher's SMTP transport): `{ from, to, subject, text, html, messageId, references? }`.
 *
 * Subject: `[P1] CPU load high on web-01 — opened` for one problem event, `[flapping] …`,
 * `[maintenance] Patch night — started`, `[SLA] Core on web-01 — budget burning` for the others;
 * a group: `[P1] 5 notifications: 3 opened, 2 resolved` (the most urgent priority in it, no
 * bracket when it has no problem event). At most 200 characters, on one line (names are cleaned
 * of control characters, so no header can be injected; nodemailer encodes the rest).
 *
 * Text and HTML carry the same: the headline, the facts (UTC times), the console links; a group
 * lists its first 100 events and counts the rest. In HTML everything that is not the platform's
 * own markup is escaped (`&`, `<`, `>`, `"`, `'`), links included.
 *
 * `messageId` is `<deliveryId@domain of from>`, the same on every retry, so a mail client can
 * drop a repeat; one problem's mails share `references: <problem.<id>@domain>` so clients that
 * thread by references show its opened, acknowledged and resolved mails as one thread.
 */
import type { NotificationMessage } from '../../../schemas/notification-events.schema.js';
import type { FormatContext } from './outbound-request.js';
import { clip, consoleLink, groupSummary, plain, topPriority, viewOf, type EventView, type Link, type Segment } from './event-text.js';

export interface EmailSettings {
  /** The sender, `ops@example.com` or `"Ops" <ops@example.com>`. */
  from: string;
  to: readonly string[];
}

export interface EmailMessage {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
  references?: string;
}

export const EMAIL_SUBJECT_MAX = 200;
export const EMAIL_GROUP_LIST = 100;

export const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The domain of the sender's address, for message ids; a reserved name when there is none. */
function domainOf(from: string): string {
  const match = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from);
  return match?.[1] ?? 'ops-platform.invalid';
}
/** A msg-id's left part: only RFC 5322 atext and dots. */
const idPart = (text: string): string => text.replace(/[^A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]/g, '-');

const htmlSegments = (segments: readonly Segment[]): string =>
  segments.map((s) => (typeof s === 'string' ? escapeHtml(s) : `<a href="${escapeHtml(s.url)}">${escapeHtml(s.text)}</a>`)).join('');

const document = (body: string): string => `<!doctype html>\n<html><body>\n${body}\n</body></html>\n`;
const footerText = (message: NotificationMessage): string => `Ops platform · policy ${message.policyId} · delivery ${message.deliveryId}`;

function single(message: NotificationMessage, view: EventView): Pick<EmailMessage, 'subject' | 'text' | 'html'> {
  const title = plain(view.headline);
  const links = [view.link, ...view.headline.filter((s): s is Link => typeof s !== 'string' && s.url !== view.link.url)];
  const text = [
    `${view.label}: ${title}`,
    '',
    ...view.facts.map((f) => `${f.label}: ${f.value}`),
    '',
    ...links.map((l) => `${l.title ?? l.text}: ${l.url}`),
    '',
    '-- ',
    footerText(message),
    '',
  ].join('\n');
  const html = document(
    [
      `<p><strong>${escapeHtml(view.label)}</strong></p>`,
      `<h2>${htmlSegments(view.headline)}</h2>`,
      '<table>',
      ...view.facts.map((f) => `<tr><th align="left">${escapeHtml(f.label)}</th><td>${escapeHtml(f.value)}</td></tr>`),
      '</table>',
      `<p><a href="${escapeHtml(view.link.url)}">${escapeHtml(view.link.text)}</a></p>`,
      `<p><small>${escapeHtml(footerText(message))}</small></p>`,
    ].join('\n'),
  );
  return { subject: clip(`[${view.badge}] ${title} — ${view.status}`, EMAIL_SUBJECT_MAX), text, html };
}

function group(message: NotificationMessage, views: readonly EventView[], consoleUrl: string): Pick<EmailMessage, 'subject' | 'text' | 'html'> {
  const summary = groupSummary(message.events);
  const top = topPriority(views);
  const listed = views.slice(0, EMAIL_GROUP_LIST);
  const more = views.length - listed.length;
  const problems = consoleLink(consoleUrl, '/problems');
  const when = (v: EventView): string => ` · ${v.when.value}`;
  const text = [
    summary,
    '',
    ...listed.flatMap((v) => [`- ${v.label}: ${plain(v.headline)}${when(v)}`, `  ${v.link.url}`]),
    ...(more > 0 ? ['', `and ${more} more: ${problems}`] : ['', `All problems: ${problems}`]),
    '',
    '-- ',
    footerText(message),
    '',
  ].join('\n');
  const html = document(
    [
      `<h2>${escapeHtml(summary)}</h2>`,
      '<ul>',
      ...listed.map((v) => `<li><strong>${escapeHtml(v.label)}</strong>: ${htmlSegments(v.headline)}${escapeHtml(when(v))}</li>`),
      '</ul>',
      more > 0 ? `<p>and ${more} more: <a href="${escapeHtml(problems)}">open the console</a></p>` : `<p><a href="${escapeHtml(problems)}">Open the console</a></p>`,
      `<p><small>${escapeHtml(footerText(message))}</small></p>`,
    ].join('\n'),
  );
  return { subject: clip(`${top !== null ? `[P${top}] ` : ''}${summary}`, EMAIL_SUBJECT_MAX), text, html };
}

/** The mail for one event or a group, links under `ctx.consoleUrl`. */
export function formatEmail(message: NotificationMessage, settings: EmailSettings, ctx: Pick<FormatContext, 'consoleUrl'>): EmailMessage {
  const { consoleUrl } = ctx;
  const views = message.events.map((e) => viewOf(e, consoleUrl));
  const [first] = views;
  const [event] = message.events;
  if (first === undefined || event === undefined) throw new Error('email receiver: a message without events');
  const domain = domainOf(settings.from);
  const content = views.length === 1 ? single(message, first) : group(message, views, consoleUrl);
  const problemId = views.length === 1 && 'problem' in event ? event.problem.id : null;
  return {
    from: settings.from,
    to: [...settings.to],
    ...content,
    messageId: `<${idPart(message.deliveryId)}@${domain}>`,
    ...(problemId !== null ? { references: `<problem.${idPart(problemId)}@${domain}>` } : {}),
  };
}
