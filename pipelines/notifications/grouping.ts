/**
 * Grouping (issue #31, "Without noise"): the events a policy sends one receiver within its
 * window go out as one message listing them. Pure: the open groups and an event or a flush at an
 * injected instant `now` (epoch ms).
 *
 * - Each (policy, receiver) has at most one open group. The first event opens it at `now`; it
 *   closes `windowSeconds` later (default 30, policy-match.ts): every event added before then
 *   joins it, in the order added. A window of 0 sends each event alone, at once.
 * - `flushGroups(now)` hands over every group closed by `now`, oldest first; `addToGroup` first
 *   hands over its own (policy, receiver)'s group if closed, then starts a new one. With one open
 *   group per pair and the closed one always out before the next begins, the messages of one
 *   problem leave in the order its events came in, across groups.
 * - A group holding `maxEvents` (default 100) closes at once, so one message stays bounded in a
 *   flood (the bench's 10 000 transitions in 10 s).
 * - The same event (same id) added twice to an open group is there once.
 * - `deliveryId` (the Standard Webhooks `webhook-id`) is a hash of the policy id, the receiver id
 *   and the sorted event ids: the same group made again — after a crash, by another dispatcher —
 *   has the same id, and a single event's message is one id per (policy, receiver, event).
 */
import { createHash } from 'node:crypto';
import type { NotificationEvent, NotificationMessage } from '../../schemas/notification-events.schema.js';

export const MAX_GROUP_EVENTS = 100;

/** Where a group goes and how long it stays open. */
export interface GroupTarget {
  policyId: number;
  receiverId: number;
  windowSeconds: number;
}

export interface OpenGroup {
  policyId: number;
  receiverId: number;
  firstAt: number;
  closesAt: number;
  events: NotificationEvent[];
}

export interface GroupingState {
  /** By `policyId:receiverId`. */
  groups: Record<string, OpenGroup>;
}

/** A message to one receiver. */
export interface RoutedMessage extends NotificationMessage {
  receiverId: number;
  /**
   * Made by a group (a policy with a window): it may list several problems, so it keeps its
   * order with the other messages of its (policy, receiver), not with its first problem's.
   */
  grouped?: true;
}

export interface GroupingOutcome {
  state: GroupingState;
  /** Messages due, in the order they must leave. */
  messages: RoutedMessage[];
}

export const emptyGrouping = (): GroupingState => ({ groups: {} });

/** The `webhook-id` of a message: the same policy, receiver and event ids give the same id. */
export function deliveryId(policyId: number, receiverId: number, eventIds: readonly string[]): string {
  const sorted = [...eventIds].sort();
  return `msg_${createHash('sha256')
    .update(JSON.stringify([policyId, receiverId, sorted]))
    .digest('hex')
    .slice(0, 32)}`;
}

const messageOf = (policyId: number, receiverId: number, events: NotificationEvent[], grouped: boolean): RoutedMessage => ({
  deliveryId: deliveryId(
    policyId,
    receiverId,
    events.map((e) => e.id),
  ),
  policyId,
  receiverId,
  events,
  ...(grouped ? { grouped: true as const } : {}),
});

const groupKey = (policyId: number, receiverId: number): string => `${policyId}:${receiverId}`;

function without(groups: Record<string, OpenGroup>, key: string): Record<string, OpenGroup> {
  const rest = { ...groups };
  delete rest[key];
  return rest;
}

/** When the next open group closes; null when none is open. */
export function nextFlushAt(state: GroupingState): number | null {
  const times = Object.values(state.groups).map((g) => g.closesAt);
  return times.length > 0 ? Math.min(...times) : null;
}

/** Hands over every group closed by `now`, the earliest closing first. */
export function flushGroups(state: GroupingState, now: number): GroupingOutcome {
  const due = Object.entries(state.groups)
    .filter(([, g]) => g.closesAt <= now)
    .sort(([ka, a], [kb, b]) => a.closesAt - b.closesAt || (ka < kb ? -1 : 1));
  if (due.length === 0) return { state, messages: [] };
  let groups = state.groups;
  for (const [key] of due) groups = without(groups, key);
  return { state: { groups }, messages: due.map(([, g]) => messageOf(g.policyId, g.receiverId, g.events, true)) };
}

/** Adds one event for one (policy, receiver) at `now`; hands over what is due on that pair. */
export function addToGroup(state: GroupingState, target: GroupTarget, event: NotificationEvent, now: number, maxEvents: number = MAX_GROUP_EVENTS): GroupingOutcome {
  const key = groupKey(target.policyId, target.receiverId);
  const messages: RoutedMessage[] = [];
  let groups = state.groups;
  let open = groups[key];
  if (open && open.closesAt <= now) {
    messages.push(messageOf(open.policyId, open.receiverId, open.events, true));
    groups = without(groups, key);
    open = undefined;
  }
  if (open?.events.some((e) => e.id === event.id)) return { state: { groups }, messages };
  if (target.windowSeconds <= 0) return { state: { groups }, messages: [...messages, messageOf(target.policyId, target.receiverId, [event], false)] };
  const group: OpenGroup = open
    ? { ...open, events: [...open.events, event] }
    : { policyId: target.policyId, receiverId: target.receiverId, firstAt: now, closesAt: now + target.windowSeconds * 1000, events: [event] };
  if (group.events.length >= maxEvents)
    return { state: { groups: without(groups, key) }, messages: [...messages, messageOf(group.policyId, group.receiverId, group.events, true)] };
  return { state: { groups: { ...groups, [key]: group } }, messages };
}
