/**
 * What a notification says, once for every human-readable format (Slack, Teams, email): a
 * neutral view of one event — its heading, a headline whose names link to the console, facts
 * and a main link — that each format then escapes and lays out in its own way.
 *
 * User text (trigger, CI, template and maintenance names, comments, tags) can be anything, so
 * every piece of it goes through `cleanText` here: lone surrogates become U+FFFD, control and
 * line-separator characters become a space, bidi embeddings, overrides and isolates are dropped
 * (they can make a name read as another), and the result is clipped with "…" to a stated length
 * (names 200, comments 500, the tag list 300, never splitting a surrogate pair). The views hold
 * clean but unescaped text: escaping belongs to each format.
 *
 * Times are shown in UTC (`2025-03-01 12:00 UTC`); a fact that is a time also carries its ISO
 * instant so a format that can show it in the reader's zone (Slack) does.
 */
import { NOTIFICATION_EVENT_KINDS, type NotificationEvent, type NotificationEventKind, type NotifiedProblem } from '../../../schemas/notification-events.schema.js';

export const TEXT_LIMITS = { name: 200, comment: 500, tags: 300, listedCis: 10 } as const;

export interface Link {
  text: string;
  url: string;
  /** What the link is, where it is listed on its own (a plain-text mail): `CI web-01`. */
  title?: string;
}
/** A headline is text and links, in reading order. */
export type Segment = string | Link;
export interface Fact {
  label: string;
  /** Clean text (a time as UTC). */
  value: string;
  /** When the fact is an instant: its ISO form. */
  at?: string;
}
export type Tone = 'bad' | 'warn' | 'good' | 'info';

export interface EventView {
  kind: NotificationEventKind;
  /** `P1 opened`, `Flapping`, `Maintenance started`, `SLA budget burning`. */
  label: string;
  /** For a subject line: `P1`, `flapping`, `maintenance`, `SLA`. */
  badge: string;
  /** `opened`, `acknowledged`, `resolved`, `flapping`, `started`, `ended`, `budget burning`. */
  status: string;
  tone: Tone;
  /** 1 (most urgent) to 4 for problem events, else null. */
  priority: number | null;
  headline: Segment[];
  facts: Fact[];
  link: Link;
  /** When it happened (the event's time), as a fact. */
  when: Fact;
}

// The characters no name should carry into a message: C0/C1 controls and line separators.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` as well-formed Unicode: each lone surrogate as U+FFFD (some JSON parsers refuse them). */
export const wellFormed = (text: string): string => text.replace(LONE_SURROGATE, '\ufffd');

/** `text` cut to at most `max` UTF-16 units, "…" included, never between a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max - 1);
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return `${text.slice(0, cut)}…`;
}

/** User text made safe to show on one line (see the file's docblock). */
export function cleanText(text: string, max: number): string {
  return clip(wellFormed(text).replace(BIDI, '').replace(CONTROLS, ' ').trim(), max);
}

/** A clean name, or the fallback when nothing printable is left (a deleted CI has an empty name). */
export const cleanName = (name: string, fallback: string): string => cleanText(name, TEXT_LIMITS.name) || fallback;

export const ciName = (ci: { id: number; name: string }): string => cleanName(ci.name, `CI ${ci.id}`);
export const triggerName = (trigger: { id: number; name: string }): string => cleanName(trigger.name, `Trigger ${trigger.id}`);

/** `Problem1` → 1. */
export const priorityNumber = (p: NotifiedProblem['priority']): number => Number(p.slice('Problem'.length));

/** A console page under the base URL, whatever path the base has (`https://h/ops/` + `/problems/x`). */
export function consoleLink(consoleUrl: string, path: string): string {
  const url = new URL(consoleUrl);
  url.pathname = url.pathname.replace(/\/+$/, '') + path;
  url.search = '';
  url.hash = '';
  return url.href;
}
export const problemUrl = (consoleUrl: string, id: string): string => consoleLink(consoleUrl, `/problems/${encodeURIComponent(id)}`);
export const ciUrl = (consoleUrl: string, id: number): string => consoleLink(consoleUrl, `/cmdb/ci/${id}`);

/** A CI's name linking to its page; `CI web-01` when listed on its own. */
function ciLink(consoleUrl: string, ci: { id: number; name: string }): Link {
  const text = ciName(ci);
  return { text, url: ciUrl(consoleUrl, ci.id), title: text === `CI ${ci.id}` ? text : `CI ${text}` };
}

/** `2025-03-01 12:00 UTC`; an unparseable value is shown as clean text. */
export function utc(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return cleanText(iso, 40);
  const d = new Date(ms).toISOString();
  return `${d.slice(0, 10)} ${d.slice(11, 16)} UTC`;
}

/** `45 s`, `12 min`, `1 h 5 min`, `2 d 3 h`. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 === 0 ? `${h} h` : `${h} h ${m % 60} min`;
  const d = Math.floor(h / 24);
  return h % 24 === 0 ? `${d} d` : `${d} d ${h % 24} h`;
}

const timeFact = (label: string, iso: string): Fact => ({ label, value: utc(iso), at: iso });

/** The text of a headline, links as their text. */
export const plain = (segments: readonly Segment[]): string => segments.map((s) => (typeof s === 'string' ? s : s.text)).join('');

function tagList(tags: NotifiedProblem['tags']): string {
  const list = tags
    .map((t) => (t.value === null ? cleanText(t.name, TEXT_LIMITS.tags) : `${cleanText(t.name, TEXT_LIMITS.tags)}=${cleanText(t.value, TEXT_LIMITS.tags)}`))
    .join(', ');
  return clip(list, TEXT_LIMITS.tags);
}

function problemView(event: Extract<NotificationEvent, { kind: 'problem.opened' | 'problem.acknowledged' | 'problem.resolved' }>, consoleUrl: string): Omit<EventView, 'when'> {
  const p = event.problem;
  const priority = priorityNumber(p.priority);
  const status = event.kind.slice('problem.'.length);
  const facts: Fact[] = [{ label: 'Priority', value: `P${priority}` }, timeFact('Started', p.dateStart)];
  if (event.kind === 'problem.acknowledged') {
    facts.push({ label: 'Acknowledged by', value: cleanName(event.by.name, `User ${event.by.id}`) });
    if (event.comment !== null && cleanText(event.comment, TEXT_LIMITS.comment) !== '') facts.push({ label: 'Comment', value: cleanText(event.comment, TEXT_LIMITS.comment) });
  } else if (event.kind === 'problem.resolved') {
    const end = p.dateEnd ?? event.time;
    facts.push(timeFact('Resolved', end), { label: 'Duration', value: duration(Date.parse(end) - Date.parse(p.dateStart)) });
    facts.push({
      label: 'Resolved by',
      value: event.resolvedBy === 'record' ? 'a resolving record' : `hand${event.by === null ? '' : ` (${cleanName(event.by.name, `User ${event.by.id}`)})`}`,
    });
  } else if (p.acknowledged) {
    facts.push({ label: 'Acknowledged', value: 'yes' });
  }
  if (p.tags.length > 0) facts.push({ label: 'Tags', value: tagList(p.tags) });
  const url = problemUrl(consoleUrl, p.id);
  return {
    kind: event.kind,
    label: `P${priority} ${status}`,
    badge: `P${priority}`,
    status,
    tone: event.kind === 'problem.opened' ? 'bad' : event.kind === 'problem.acknowledged' ? 'warn' : 'good',
    priority,
    headline: [{ text: triggerName(p.trigger), url }, ' on ', ciLink(consoleUrl, p.configItem)],
    facts,
    link: { text: 'Open problem', url },
  };
}

/** The view of one event, links under `consoleUrl`. */
export function viewOf(event: NotificationEvent, consoleUrl: string): EventView {
  return { ...viewWithoutTime(event, consoleUrl), when: timeFact('When', event.time) };
}

function viewWithoutTime(event: NotificationEvent, consoleUrl: string): Omit<EventView, 'when'> {
  switch (event.kind) {
    case 'problem.opened':
    case 'problem.acknowledged':
    case 'problem.resolved':
      return problemView(event, consoleUrl);
    case 'problem.flapping': {
      const ci = ciLink(consoleUrl, event.configItem);
      const window = duration(event.windowSeconds * 1000);
      return {
        kind: event.kind,
        label: 'Flapping',
        badge: 'flapping',
        status: 'flapping',
        tone: 'warn',
        priority: null,
        headline: [triggerName(event.trigger), ' on ', ci],
        facts: [
          { label: 'Changes', value: `${event.transitions} opens and closes in ${window}` },
          { label: 'Meanwhile', value: `no messages for it until it has been stable for ${window}` },
          timeFact('Since', event.time),
        ],
        link: { text: 'Open CI', url: ci.url },
      };
    }
    case 'maintenance.started':
    case 'maintenance.ended': {
      const m = event.maintenance;
      const url = consoleLink(consoleUrl, '/maintenance');
      const listed = m.configItems.slice(0, TEXT_LIMITS.listedCis).map(ciName);
      const more = m.configItems.length - listed.length;
      const status = event.kind === 'maintenance.started' ? 'started' : 'ended';
      return {
        kind: event.kind,
        label: `Maintenance ${status}`,
        badge: 'maintenance',
        status,
        tone: 'info',
        priority: null,
        headline: [{ text: cleanName(m.title, `Maintenance ${m.id}`), url }],
        facts: [
          { label: 'Window', value: `${utc(m.windowStart)} – ${utc(m.windowEnd)}` },
          { label: m.configItems.length === 1 ? 'CI' : 'CIs', value: listed.join(', ') + (more > 0 ? ` and ${more} more` : '') || 'none' },
        ],
        link: { text: 'Open maintenance', url },
      };
    }
    case 'sla.budget_burning': {
      const ci = ciLink(consoleUrl, event.configItem);
      return {
        kind: event.kind,
        label: 'SLA budget burning',
        badge: 'SLA',
        status: 'budget burning',
        tone: 'warn',
        priority: null,
        headline: [{ text: cleanName(event.template.name, `SLA template ${event.template.id}`), url: consoleLink(consoleUrl, '/sla'), title: 'SLA' }, ' on ', ci],
        facts: [
          { label: 'Burn rate', value: `${round(event.burnRate, 2)} (threshold ${round(event.threshold, 2)})` },
          { label: 'Budget left', value: `${round(event.budgetLeft * 100, 1)} %` },
          timeFact('Since', event.time),
        ],
        link: { text: 'Open CI', url: ci.url },
      };
    }
  }
}

const round = (x: number, digits: number): string => String(Number(x.toFixed(digits)));

/** How a kind is counted in a group's summary. */
const COUNTED: Record<NotificationEventKind, string> = {
  'problem.opened': 'opened',
  'problem.acknowledged': 'acknowledged',
  'problem.resolved': 'resolved',
  'problem.flapping': 'flapping',
  'maintenance.started': 'maintenance started',
  'maintenance.ended': 'maintenance ended',
  'sla.budget_burning': 'SLA budget burning',
};

/** `5 notifications: 3 opened, 2 resolved` (kinds in catalogue order). */
export function groupSummary(events: readonly NotificationEvent[]): string {
  const counts = NOTIFICATION_EVENT_KINDS.map((k) => [k, events.filter((e) => e.kind === k).length] as const).filter(([, n]) => n > 0);
  return `${events.length} notifications: ${counts.map(([k, n]) => `${n} ${COUNTED[k]}`).join(', ')}`;
}

/** The most urgent priority among the views, or null when none is a problem event. */
export const topPriority = (views: readonly EventView[]): number | null =>
  views.reduce<number | null>((top, v) => (v.priority !== null && (top === null || v.priority < top) ? v.priority : top), null);
