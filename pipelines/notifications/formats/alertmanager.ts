/**
 * The `alertmanager` receiver: problems pushed as alerts to an Alertmanager's v2 API
 * (`POST <url>/api/v2/alerts`, a JSON array of postable alerts), so its existing routing,
 * grouping, silences and receivers serve the platform.
 *
 * An alert is firing while its `endsAt` is in the future, so an open problem is sent with
 * `endsAt` = now + 3 × the resend interval and re-sent every interval while it stays open (the
 * dispatcher calls `alertsOf` on the open set): Alertmanager keeps it firing through two lost
 * pushes, and resolves it by itself at worst three intervals after the platform went silent. A
 * closed problem is sent once more with `endsAt` = its dateEnd, which resolves it at once.
 * `endsAt` is never before `startsAt` (Alertmanager refuses that).
 *
 * Labels name the alert, so they hold only what does not change while the problem lives:
 *   alertname   the trigger's name       problem_id   the problem's id
 *   trigger     the trigger's name       trigger_id   its id
 *   ci          the CI's name            ci_id        its id
 *   priority    Problem1..Problem4       severity     critical / error / warning / info
 *   tag_<name>  each tag with a value, the name with every character outside [a-zA-Z0-9_]
 *               as `_`; the first of two tags that map to one name wins
 * Every label name matches Prometheus' `^[a-zA-Z_][a-zA-Z0-9_]*$`, the rule Alertmanager
 * applies; empty values are left out (Alertmanager drops them). Whether it is acknowledged goes
 * into the annotations (`summary`, `description`), which may change; `generatorURL` is the
 * problem's page in the console. Names are cleaned and clipped to 200 characters.
 */
import type { NotificationMessage, NotifiedProblem } from '../../../schemas/notification-events.schema.js';
import { ciName, cleanText, problemUrl, triggerName, utc } from './event-text.js';
import { JSON_UTF8, splitCredentials, type FormatContext, type OutboundRequest } from './outbound-request.js';
import { PAGERDUTY_SEVERITY } from './pagerduty.js';

export interface AlertmanagerSettings {
  /** The Alertmanager's base URL (`http://am:9093`); `/api/v2/alerts` is added unless already there. User-info becomes Basic auth. */
  url: string;
  /** Sent as `authorization: Bearer …` when set (an Alertmanager behind an authenticating proxy). */
  bearerToken?: string | null;
}

export interface PostableAlert {
  labels: Record<string, string>;
  annotations: { summary: string; description: string };
  startsAt: string;
  endsAt: string;
  generatorURL: string;
}

export const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
export const ALERTS_PATH = '/api/v2/alerts';
/** How many resend intervals an open problem's alert lasts without a new push. */
export const ENDS_AFTER_INTERVALS = 3;

/** A tag's label name: `tag_` and the tag name with every character outside [a-zA-Z0-9_] as `_`. */
export const tagLabelName = (tag: string): string => `tag_${tag.replace(/[^a-zA-Z0-9_]/g, '_')}`;

const iso = (ms: number): string => new Date(ms).toISOString();

function labelsOf(p: NotifiedProblem): Record<string, string> {
  const trigger = triggerName(p.trigger);
  const labels: Record<string, string> = {
    alertname: trigger,
    problem_id: p.id,
    trigger,
    trigger_id: String(p.trigger.id),
    ci: ciName(p.configItem),
    ci_id: String(p.configItem.id),
    priority: p.priority,
    severity: PAGERDUTY_SEVERITY[p.priority],
  };
  for (const tag of p.tags) {
    const name = tagLabelName(tag.name);
    const value = tag.value === null ? '' : cleanText(tag.value, 200);
    if (value !== '' && !(name in labels)) labels[name] = value;
  }
  return labels;
}

/**
 * The alerts for problems at `now`: an open one firing until now + 3 × `resendEveryMs`, a
 * closed one ending at its dateEnd.
 */
export function alertsOf(problems: readonly NotifiedProblem[], now: number, resendEveryMs: number, consoleUrl: string): PostableAlert[] {
  return problems.map((p) => {
    const start = Date.parse(p.dateStart);
    const end = p.dateEnd === null ? now + ENDS_AFTER_INTERVALS * resendEveryMs : Date.parse(p.dateEnd);
    const ci = ciName(p.configItem);
    const state = p.dateEnd !== null ? `resolved at ${utc(p.dateEnd)}` : p.acknowledged ? 'open, acknowledged' : 'open';
    return {
      labels: labelsOf(p),
      annotations: {
        summary: `${triggerName(p.trigger)} on ${ci}`,
        description: `P${p.priority.slice('Problem'.length)} problem on ${ci} since ${utc(p.dateStart)}: ${state}.`,
      },
      startsAt: iso(start),
      endsAt: iso(Math.max(start, end)),
      generatorURL: problemUrl(consoleUrl, p.id),
    };
  });
}

/** The push of some alerts to the receiver's Alertmanager. */
export function alertmanagerRequest(alerts: readonly PostableAlert[], settings: AlertmanagerSettings): OutboundRequest {
  const { url, authorization } = splitCredentials(settings.url);
  const target = new URL(url);
  const path = target.pathname.replace(/\/+$/, '');
  target.pathname = path.endsWith(ALERTS_PATH) ? path : path + ALERTS_PATH;
  const headers: Record<string, string> = { 'content-type': JSON_UTF8 };
  const auth = settings.bearerToken ? `Bearer ${settings.bearerToken}` : authorization;
  if (auth !== null) headers.authorization = auth;
  return { url: target.href, method: 'POST', headers, body: JSON.stringify(alerts) };
}

/**
 * The push for a message's problem events (opened, acknowledged: firing; resolved: ended), a
 * problem named twice in a group sent once, as its last event tells it; null when the message
 * has no problem event (other kinds are not alerts).
 */
export function formatAlertmanager(message: NotificationMessage, settings: AlertmanagerSettings, ctx: FormatContext & { resendEveryMs: number }): OutboundRequest | null {
  const latest = new Map<string, NotifiedProblem>();
  for (const e of message.events) {
    if (e.kind === 'problem.resolved') latest.set(e.problem.id, { ...e.problem, dateEnd: e.problem.dateEnd ?? e.time });
    else if (e.kind === 'problem.opened' || e.kind === 'problem.acknowledged') latest.set(e.problem.id, e.problem);
  }
  if (latest.size === 0) return null;
  return alertmanagerRequest(alertsOf([...latest.values()], ctx.now, ctx.resendEveryMs, ctx.consoleUrl), settings);
}
