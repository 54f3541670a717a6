/**
 * Admin commands on notification receivers and policies (issue #31): pure, `(model) => {changes,
 * result}`, re-run on the caught-up model after a conflict. Checks (400 with each field's path)
 * are in receiver-input.ts and policy-input.ts, rights in notifications-access.ts; here: 409 for a
 * name its workgroup already uses, for a receiver a policy still sends to (deleting it, or moving
 * it to another workgroup), and for a workgroup that still owns either.
 *
 * A replay is recorded for the dispatcher to take up (`notification-replay:<id>`): it sends the
 * delivery's message again and deletes the record. Asking again while it waits answers the same
 * record; at most MAX_PENDING_REPLAYS wait per receiver.
 */
import type { PolicyCreateBody, PolicyPatchBody, ReceiverCreateBody, ReceiverPatchBody } from '../../../schemas/notifications.schema.js';
import type { JournalChange } from '../../runtime/adapters/journal/journal.port.js';
import { fail, failFields } from '../../../schemas/errors.js';
import type { PlatformCommand, PlatformModel } from '../model.js';
import { ensureMayManage, policyFor, receiverFor } from './notifications-access.js';
import type { NotificationsActor, PolicyRecord, ReceiverRecord, ReplayRecord } from './notifications.types.js';
import { ALL_POLICY_REFS, checkPolicy, patchedPolicy, policyOfBody } from './policy-input.js';
import { checkReceiver, patchedReceiver, receiverOfBody } from './receiver-input.js';

export const MAX_PENDING_REPLAYS = 100;

const receiverKey = (id: number): string => `notification-receiver:${id}`;
const policyKey = (id: number): string => `notification-policy:${id}`;
const replayKey = (id: number): string => `notification-replay:${id}`;

/** 400 for a workgroup that does not exist, 403 for one the actor may not manage. */
function ownerChecked(model: PlatformModel, actor: NotificationsActor, workGroupId: number, kind: 'receiver' | 'policy'): void {
  if (!model.slices.identity.workGroups.has(workGroupId)) {
    throw failFields(`notification_${kind}.invalid`, [{ path: '/ownerWorkGroup/id', message: `workgroup ${workGroupId} does not exist` }]);
  }
  ensureMayManage(model, actor, workGroupId);
}

function receiverNameFree(model: PlatformModel, receiver: ReceiverRecord): void {
  const other = model.slices.notifications.receiverNamed(receiver.ownerWorkGroup.id, receiver.name);
  if (other && other.id !== receiver.id)
    throw fail('notification_receiver.name_taken', { workGroupId: receiver.ownerWorkGroup.id, name: JSON.stringify(receiver.name), id: other.id });
}

function policyNameFree(model: PlatformModel, policy: PolicyRecord): void {
  const other = model.slices.notifications.policyNamed(policy.ownerWorkGroup.id, policy.name);
  if (other && other.id !== policy.id) throw fail('notification_policy.name_taken', { workGroupId: policy.ownerWorkGroup.id, name: JSON.stringify(policy.name), id: other.id });
}

/**
 * The receiver a create body makes, every check passed but not stored (the route checks its URLs
 * against the outbound address rules between this and the command, which checks again).
 */
export function draftReceiver(model: PlatformModel, body: ReceiverCreateBody, actor: NotificationsActor, id: number, now: string): ReceiverRecord {
  ownerChecked(model, actor, body.ownerWorkGroup.id, 'receiver');
  const receiver = checkReceiver(receiverOfBody(body, id, now));
  receiverNameFree(model, receiver);
  return receiver;
}

export function createReceiver(body: ReceiverCreateBody, actor: NotificationsActor, now: string): PlatformCommand<ReceiverRecord> {
  return (model) => {
    const { id, change } = model.sequences.next('notification-receiver');
    const receiver = draftReceiver(model, body, actor, id, now);
    return { changes: [change, { key: receiverKey(id), value: receiver }], result: (m) => m.slices.notifications.receivers.get(id)! };
  };
}

/** The receiver a PATCH makes, every check passed but not stored (see draftReceiver). */
export function draftReceiverPatch(
  model: PlatformModel,
  id: number,
  body: ReceiverPatchBody,
  actor: NotificationsActor,
  now: string,
): { current: ReceiverRecord; next: ReceiverRecord } {
  const current = receiverFor(model, actor, id);
  const next = checkReceiver(patchedReceiver(current, body, now));
  if (next.ownerWorkGroup.id !== current.ownerWorkGroup.id) {
    ownerChecked(model, actor, next.ownerWorkGroup.id, 'receiver');
    // Its policies are of the old workgroup: a policy sends only to receivers of its own.
    const [policyId] = model.slices.notifications.policiesUsing(id);
    if (policyId !== undefined) throw fail('notification_receiver.in_use', { id, policyId });
  }
  receiverNameFree(model, next);
  return { current, next };
}

export function patchReceiver(id: number, body: ReceiverPatchBody, actor: NotificationsActor, now: string): PlatformCommand<ReceiverRecord> {
  return (model) => {
    const { next } = draftReceiverPatch(model, id, body, actor, now);
    return { changes: [{ key: receiverKey(id), value: next }], result: (m) => m.slices.notifications.receivers.get(id)! };
  };
}

/**
 * Disables a receiver, saying why (the dispatcher's one write: it answered 410 Gone); nothing when
 * it is gone or already disabled. The result says whether it was disabled now.
 */
export function disableReceiver(id: number, reason: string, now: number): PlatformCommand<boolean> {
  return (model) => {
    const receiver = model.slices.notifications.receivers.get(id);
    if (!receiver || !receiver.enabled) return { changes: [], result: () => false };
    const disabled: ReceiverRecord = { ...receiver, enabled: false, disabledReason: reason, updatedAt: new Date(now).toISOString() };
    return { changes: [{ key: receiverKey(id), value: disabled }], result: () => true };
  };
}

/** The dispatcher sent the replay's message (or its delivery is gone from the log): the record goes. */
export function completeReplay(id: number): PlatformCommand<boolean> {
  return (model) => {
    if (!model.slices.notifications.replays.has(id)) return { changes: [], result: () => false };
    return { changes: [{ key: replayKey(id), value: null }], result: () => true };
  };
}

/** Deletes the receiver and the replays waiting for it; 409 while a policy sends to it. */
export function deleteReceiver(id: number, actor: NotificationsActor): PlatformCommand<void> {
  return (model) => {
    receiverFor(model, actor, id);
    const [policyId] = model.slices.notifications.policiesUsing(id);
    if (policyId !== undefined) throw fail('notification_receiver.in_use', { id, policyId });
    const replays = model.slices.notifications.replaysOf(id).map((r): JournalChange => ({ key: replayKey(r.id), value: null }));
    return { changes: [{ key: receiverKey(id), value: null }, ...replays], result: () => undefined };
  };
}

export function createPolicy(body: PolicyCreateBody, actor: NotificationsActor, now: string): PlatformCommand<PolicyRecord> {
  return (model) => {
    ownerChecked(model, actor, body.ownerWorkGroup.id, 'policy');
    const { id, change } = model.sequences.next('notification-policy');
    const policy = checkPolicy(model, policyOfBody(body, id, now), ALL_POLICY_REFS);
    policyNameFree(model, policy);
    return { changes: [change, { key: policyKey(id), value: policy }], result: (m) => m.slices.notifications.policies.get(id)! };
  };
}

export function patchPolicy(id: number, body: PolicyPatchBody, actor: NotificationsActor, now: string): PlatformCommand<PolicyRecord> {
  return (model) => {
    const current = policyFor(model, actor, id);
    const patched = patchedPolicy(current, body, now);
    if (patched.policy.ownerWorkGroup.id !== current.ownerWorkGroup.id) ownerChecked(model, actor, patched.policy.ownerWorkGroup.id, 'policy');
    const policy = checkPolicy(model, patched.policy, patched.refs);
    policyNameFree(model, policy);
    return { changes: [{ key: policyKey(id), value: policy }], result: (m) => m.slices.notifications.policies.get(id)! };
  };
}

export function deletePolicy(id: number, actor: NotificationsActor): PlatformCommand<void> {
  return (model) => {
    policyFor(model, actor, id);
    return { changes: [{ key: policyKey(id), value: null }], result: () => undefined };
  };
}

/** What a replay names: the delivery as the log has it (the route read it there). */
export interface ReplayTarget {
  receiverId: number;
  policyId: number;
  deliveryId: string;
}

/** Records a replay of one delivery for the dispatcher; the one already waiting when there is one. */
export function requestReplay(target: ReplayTarget, actor: NotificationsActor, now: string): PlatformCommand<ReplayRecord> {
  return (model) => {
    receiverFor(model, actor, target.receiverId);
    const waiting = model.slices.notifications.replaysOf(target.receiverId);
    const same = waiting.find((r) => r.deliveryId === target.deliveryId);
    if (same) return { changes: [], result: () => same };
    if (waiting.length >= MAX_PENDING_REPLAYS) throw fail('notification_delivery.replays_pending', { id: target.receiverId, limit: MAX_PENDING_REPLAYS });
    const { id, change } = model.sequences.next('notification-replay');
    const replay: ReplayRecord = { id, ...target, requestedBy: { id: actor.userId }, requestedAt: now };
    return { changes: [change, { key: replayKey(id), value: replay }], result: (m) => m.slices.notifications.replays.get(id) ?? replay };
  };
}

/** For the identity commands: 409 when a workgroup about to be deleted owns a receiver or a policy (they would lose every manager). */
export function refuseIfOwnsNotifications(model: PlatformModel, workGroupId: number): void {
  const { receivers, policies } = model.slices.notifications;
  for (const policy of policies.values()) {
    if (policy.ownerWorkGroup.id === workGroupId) throw fail('notification.work_group_in_use', { id: workGroupId, what: 'policy', itemId: policy.id });
  }
  for (const receiver of receivers.values()) {
    if (receiver.ownerWorkGroup.id === workGroupId) throw fail('notification.work_group_in_use', { id: workGroupId, what: 'receiver', itemId: receiver.id });
  }
}
