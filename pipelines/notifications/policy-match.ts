/**
 * Which notification policies select an event (issue #31): the first step of routing, pure.
 *
 * A policy selects an event by its subject — the CIs, the priority, the trigger and the tags —
 * and every condition must hold:
 * - CIs: the event's CI is one of `ids` (or below one of them, `withDescendants`), or carries
 *   every label of `labels` (`name`: has the label, whatever its value; `name=value`: has that
 *   value, alone or in its list; split at the first `=`), or `'all'`. Whatever the selector, only
 *   CIs the policy's owning workgroup may read count: a CI it may not read is never selected.
 * - `priorities`, `triggerIds`: the event's priority and trigger are listed (empty: any).
 * - `tags`: the problem carries every tag of the list (`name`, or `name=value`; empty: any).
 * Conditions on what an event has not are no condition for it: a maintenance or SLA event has no
 * priority, trigger or tags, so only its CIs are checked; a `problem.flapping` (made after this
 * step, from problems the policy already selected) has no priority or tags.
 *
 * A maintenance event names several CIs: a policy selects it when it selects one of them, and
 * receives it with only the CIs it selects, so a workgroup never learns of a CI it may not read.
 *
 * `kinds` is not checked here but last, by `listsKind` (empty: every kind): the maintenance gate
 * must see a problem's `problem.opened` to let its `problem.resolved` through, even for a policy
 * that sends only resolves (see docs/notifications.md, "Rules").
 */
import type { NotificationEvent, NotificationEventKind } from '../../schemas/notification-events.schema.js';

export type PriorityName = 'Problem1' | 'Problem2' | 'Problem3' | 'Problem4';

/** The events about one problem: those the flapping, maintenance and repeat rules hold back or let through. */
export type ProblemEvent = Extract<NotificationEvent, { kind: 'problem.opened' | 'problem.acknowledged' | 'problem.resolved' }>;
export type ProblemOpenedEvent = Extract<NotificationEvent, { kind: 'problem.opened' }>;
export type ProblemFlappingEvent = Extract<NotificationEvent, { kind: 'problem.flapping' }>;

/** `event` is about one problem (opened, acknowledged or resolved). */
export const isProblemEvent = (event: NotificationEvent): event is ProblemEvent =>
  event.kind === 'problem.opened' || event.kind === 'problem.acknowledged' || event.kind === 'problem.resolved';

/** The CIs a policy covers. */
export type CiSelector = { ids: number[]; withDescendants: boolean } | { labels: string[] } | 'all';

/** A notification policy as routing reads it (the admin model stores and validates it). */
export interface PolicyRule {
  id: number;
  ownerWorkGroupId: number;
  configItems: CiSelector;
  /** Empty: every priority. */
  priorities: PriorityName[];
  /** Empty: every trigger. */
  triggerIds: number[];
  /** `name` or `name=value`; all must match (empty: no condition). */
  tags: string[];
  /** Empty: every kind. */
  kinds: NotificationEventKind[];
  receiverIds: number[];
  /** Events selected within this many seconds of a group's first go out as one message (0: each alone). */
  groupWindowSeconds: number;
  /** A still-open problem is told again this often; null: never. */
  repeatIntervalSeconds: number | null;
}

export const DEFAULT_GROUP_WINDOW_SECONDS = 30;

/** A CI's labels as the CMDB keeps them: a value, a list of values, or null (a label without value). */
export type CiLabels = Readonly<Record<string, string | readonly string[] | null>>;

/** What matching reads of the CMDB and the rights, passed in (no I/O here). */
export interface CmdbView {
  /** Every CI below `ciId`, at any depth. */
  descendantsOf(ciId: number): Iterable<number>;
  labelsOf(ciId: number): CiLabels | null;
  canRead(workGroupId: number, ciId: number): boolean;
}

/** One policy that selected an event, and the event as that policy may see it. */
export interface PolicyMatch {
  policy: PolicyRule;
  event: NotificationEvent;
}

/** `name` or `name=value`, split at the first `=`. */
function parseCondition(condition: string): { name: string; value: string | undefined } {
  const at = condition.indexOf('=');
  return at < 0 ? { name: condition, value: undefined } : { name: condition.slice(0, at), value: condition.slice(at + 1) };
}

function hasLabel(labels: CiLabels | null, condition: string): boolean {
  const { name, value } = parseCondition(condition);
  if (!labels || !Object.hasOwn(labels, name)) return false;
  if (value === undefined) return true;
  const held = labels[name];
  return held === value || (Array.isArray(held) && held.includes(value));
}

/** The policy's CI selector and read rights select `ciId`. */
export function selectsCi(policy: PolicyRule, ciId: number, cmdb: CmdbView): boolean {
  if (!cmdb.canRead(policy.ownerWorkGroupId, ciId)) return false;
  const selector = policy.configItems;
  if (selector === 'all') return true;
  if ('labels' in selector) {
    const labels = cmdb.labelsOf(ciId);
    return selector.labels.every((condition) => hasLabel(labels, condition));
  }
  if (selector.ids.includes(ciId)) return true;
  if (!selector.withDescendants) return false;
  for (const root of selector.ids) {
    for (const below of cmdb.descendantsOf(root)) if (below === ciId) return true;
  }
  return false;
}

type ProblemTags = ReadonlyArray<{ name: string; value: string | null }>;

const hasTags = (wanted: readonly string[], tags: ProblemTags): boolean =>
  wanted.every((condition) => {
    const { name, value } = parseCondition(condition);
    return tags.some((tag) => tag.name === name && (value === undefined || tag.value === value));
  });

/** The event as `policy` sees it, or null when the policy does not select it. */
function selectEvent(policy: PolicyRule, event: NotificationEvent, cmdb: CmdbView): NotificationEvent | null {
  switch (event.kind) {
    case 'problem.opened':
    case 'problem.acknowledged':
    case 'problem.resolved': {
      const p = event.problem;
      if (policy.priorities.length > 0 && !policy.priorities.includes(p.priority)) return null;
      if (policy.triggerIds.length > 0 && !policy.triggerIds.includes(p.trigger.id)) return null;
      if (!hasTags(policy.tags, p.tags)) return null;
      return selectsCi(policy, p.configItem.id, cmdb) ? event : null;
    }
    case 'problem.flapping':
      if (policy.triggerIds.length > 0 && !policy.triggerIds.includes(event.trigger.id)) return null;
      return selectsCi(policy, event.configItem.id, cmdb) ? event : null;
    case 'sla.budget_burning':
      return selectsCi(policy, event.configItem.id, cmdb) ? event : null;
    case 'maintenance.started':
    case 'maintenance.ended': {
      const configItems = event.maintenance.configItems.filter((ci) => selectsCi(policy, ci.id, cmdb));
      if (configItems.length === 0) return null;
      return configItems.length === event.maintenance.configItems.length ? event : { ...event, maintenance: { ...event.maintenance, configItems } };
    }
  }
}

/** The policies that select `event`, in the order given, each with the event as it may see it. */
export function matchPolicies(policies: readonly PolicyRule[], event: NotificationEvent, cmdb: CmdbView): PolicyMatch[] {
  const matches: PolicyMatch[] = [];
  for (const policy of policies) {
    const seen = selectEvent(policy, event, cmdb);
    if (seen) matches.push({ policy, event: seen });
  }
  return matches;
}

/** The policy sends events of this kind (its `kinds`, empty: all): the last check before grouping. */
export const listsKind = (policy: PolicyRule, kind: NotificationEventKind): boolean => policy.kinds.length === 0 || policy.kinds.includes(kind);
