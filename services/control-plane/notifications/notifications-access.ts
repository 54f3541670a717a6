/**
 * Who may manage notifications (issue #31, DESIGN §4): platform admins every receiver and policy;
 * a user holding `base-system.notifications.write` (role `notifications-writer`) those of the
 * workgroups it is a member of. The route checks the platform right; these check the workgroup,
 * on the model a command runs on (membership read there, not from the request's snapshot).
 *
 * A policy covers only CIs its workgroup may read: at least basic-read, the level at which the
 * problems API shows a CI's problems (DESIGN §11), so a notification tells a workgroup nothing
 * its members could not read there.
 */
import { fail } from '../../../schemas/errors.js';
import { canBasicRead, levelOn } from '../rights/ci-rights.js';
import type { PlatformModel } from '../model.js';
import type { NotificationsActor, PolicyRecord, ReceiverRecord } from './notifications.types.js';

export const NOTIFICATIONS_WRITE = 'base-system.notifications.write';

export const mayManage = (model: PlatformModel, actor: NotificationsActor, workGroupId: number): boolean =>
  actor.admin || model.slices.identity.workGroupsOf(actor.userId).has(workGroupId);

/** 403 unless the actor may manage what workgroup `workGroupId` owns. */
export function ensureMayManage(model: PlatformModel, actor: NotificationsActor, workGroupId: number): void {
  if (!mayManage(model, actor, workGroupId)) throw fail('notification.work_group_forbidden', { id: workGroupId });
}

/** The receiver, if the actor may manage it: 404 when there is none, 403 when it is another workgroup's. */
export function receiverFor(model: PlatformModel, actor: NotificationsActor, id: number): ReceiverRecord {
  const receiver = model.slices.notifications.receivers.get(id);
  if (!receiver) throw fail('notification_receiver.not_found', { id });
  if (!mayManage(model, actor, receiver.ownerWorkGroup.id)) throw fail('notification_receiver.forbidden', { id });
  return receiver;
}

/** The policy, if the actor may manage it: 404 when there is none, 403 when it is another workgroup's. */
export function policyFor(model: PlatformModel, actor: NotificationsActor, id: number): PolicyRecord {
  const policy = model.slices.notifications.policies.get(id);
  if (!policy) throw fail('notification_policy.not_found', { id });
  if (!mayManage(model, actor, policy.ownerWorkGroup.id)) throw fail('notification_policy.forbidden', { id });
  return policy;
}

/** The receivers the actor may manage, by id. */
export const receiversOf = (model: PlatformModel, actor: NotificationsActor): ReceiverRecord[] =>
  [...model.slices.notifications.receivers.values()].filter((r) => mayManage(model, actor, r.ownerWorkGroup.id)).sort((a, b) => a.id - b.id);

/** The policies the actor may manage, by id. */
export const policiesOf = (model: PlatformModel, actor: NotificationsActor): PolicyRecord[] =>
  [...model.slices.notifications.policies.values()].filter((p) => mayManage(model, actor, p.ownerWorkGroup.id)).sort((a, b) => a.id - b.id);

/** Workgroup `workGroupId` may read CI `ciId` (basic-read, through ownership or grants): what a policy of it may cover. */
export function workGroupMayRead(model: PlatformModel, workGroupId: number, ciId: number): boolean {
  return canBasicRead(levelOn(model.slices.cmdb, { workGroupIds: new Set([workGroupId]), admin: false }, ciId));
}
