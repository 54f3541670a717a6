/**
 * The `pagerduty` receiver: Events API v2 (`POST https://events.pagerduty.com/v2/enqueue`, or the
 * EU host in the settings), one request per problem event, so a group gives several, in order:
 *
 *   problem.opened        → trigger      (then acknowledge, when the problem is already
 *                                          acknowledged: an open re-sent after maintenance)
 *   problem.acknowledged  → acknowledge
 *   problem.resolved      → resolve
 *   other kinds           → nothing (they have no problem to page, acknowledge or resolve;
 *                                    the admin API should not let a policy send them here)
 *
 * `dedup_key` is the problem id, so the three actions address one PagerDuty alert. A trigger
 * carries `payload`:
 *   summary   `<trigger> on <CI>`, at most 1024 characters (PagerDuty's limit)
 *   source    the CI's name (PagerDuty: "the unique location of the affected system")
 *   severity  from the priority: Problem1 → critical, Problem2 → error, Problem3 → warning,
 *             Problem4 → info
 *   timestamp the problem's dateStart
 *   class     the trigger's name ("the class/type of the event")
 *   component / group   the values of the problem's tags `component` / `group`, when it has them
 *   custom_details      problem id, priority, trigger, CI, start, tags
 * and `links` to the problem and the CI in the console, `client` / `client_url` naming the
 * platform. Acknowledge and resolve carry only routing_key, event_action and dedup_key: PagerDuty
 * ignores anything else on them. The routing key is the one secret, and PagerDuty wants it in the
 * body.
 */
import type { NotificationEvent, NotificationMessage, NotifiedProblem } from '../../../schemas/notification-events.schema.js';
import { ciName, cleanText, consoleLink, problemUrl, ciUrl, triggerName } from './event-text.js';
import { JSON_UTF8, type FormatContext, type OutboundRequest } from './outbound-request.js';

export interface PagerDutySettings {
  /** The Events API v2 integration key (32 characters). */
  routingKey: string;
  /** Default https://events.pagerduty.com/v2/enqueue; https://events.eu.pagerduty.com/v2/enqueue for EU accounts. */
  url?: string;
}

export const PAGERDUTY_EVENTS_URL = 'https://events.pagerduty.com/v2/enqueue';
export const PAGERDUTY_SUMMARY_MAX = 1024;

/** Problem1 is the most urgent priority. */
export const PAGERDUTY_SEVERITY = { Problem1: 'critical', Problem2: 'error', Problem3: 'warning', Problem4: 'info' } as const satisfies Record<NotifiedProblem['priority'], string>;

export interface PagerDutyEvent {
  routing_key: string;
  event_action: 'trigger' | 'acknowledge' | 'resolve';
  dedup_key: string;
  payload?: {
    summary: string;
    source: string;
    severity: (typeof PAGERDUTY_SEVERITY)[keyof typeof PAGERDUTY_SEVERITY];
    timestamp: string;
    component?: string;
    group?: string;
    class: string;
    custom_details: Record<string, unknown>;
  };
  client?: string;
  client_url?: string;
  links?: { href: string; text: string }[];
}

const tagValue = (p: NotifiedProblem, name: string): string | undefined => {
  const value = p.tags.find((t) => t.name === name)?.value;
  return value === undefined || value === null || cleanText(value, 255) === '' ? undefined : cleanText(value, 255);
};

function trigger(p: NotifiedProblem, routingKey: string, consoleUrl: string): PagerDutyEvent {
  const ci = ciName(p.configItem);
  const name = triggerName(p.trigger);
  const component = tagValue(p, 'component');
  const group = tagValue(p, 'group');
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: p.id,
    payload: {
      summary: cleanText(`${name} on ${ci}`, PAGERDUTY_SUMMARY_MAX),
      source: ci,
      severity: PAGERDUTY_SEVERITY[p.priority],
      timestamp: new Date(p.dateStart).toISOString(),
      ...(component !== undefined ? { component } : {}),
      ...(group !== undefined ? { group } : {}),
      class: name,
      custom_details: {
        problem_id: p.id,
        priority: p.priority,
        trigger: { id: p.trigger.id, name },
        configuration_item: { id: p.configItem.id, name: ci },
        started: p.dateStart,
        tags: p.tags.map((t) => (t.value === null ? cleanText(t.name, 255) : `${cleanText(t.name, 255)}=${cleanText(t.value, 255)}`)),
      },
    },
    client: 'Ops platform',
    client_url: consoleLink(consoleUrl, '/problems'),
    links: [
      { href: problemUrl(consoleUrl, p.id), text: 'Problem in the console' },
      { href: ciUrl(consoleUrl, p.configItem.id), text: `CI ${ci}` },
    ],
  };
}

const action = (routingKey: string, event_action: 'acknowledge' | 'resolve', p: NotifiedProblem): PagerDutyEvent => ({ routing_key: routingKey, event_action, dedup_key: p.id });

/** The Events API v2 events of one notification event (none for a kind that is not about a problem). */
export function pagerDutyEventsOf(event: NotificationEvent, routingKey: string, consoleUrl: string): PagerDutyEvent[] {
  switch (event.kind) {
    case 'problem.opened':
      return event.problem.acknowledged
        ? [trigger(event.problem, routingKey, consoleUrl), action(routingKey, 'acknowledge', event.problem)]
        : [trigger(event.problem, routingKey, consoleUrl)];
    case 'problem.acknowledged':
      return [action(routingKey, 'acknowledge', event.problem)];
    case 'problem.resolved':
      return [action(routingKey, 'resolve', event.problem)];
    default:
      return [];
  }
}

/** One request per PagerDuty event, in the message's order; empty when nothing is for PagerDuty. */
export function formatPagerDuty(message: NotificationMessage, settings: PagerDutySettings, ctx: Pick<FormatContext, 'consoleUrl'>): OutboundRequest[] {
  const url = settings.url ?? PAGERDUTY_EVENTS_URL;
  return message.events
    .flatMap((e) => pagerDutyEventsOf(e, settings.routingKey, ctx.consoleUrl))
    .map((e) => ({ url, method: 'POST' as const, headers: { 'content-type': JSON_UTF8 }, body: JSON.stringify(e) }));
}
