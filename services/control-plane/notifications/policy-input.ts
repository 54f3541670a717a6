/**
 * A policy as sent, checked against the model and turned into its record (issue #31). What the
 * schema cannot say: its receivers are receivers of its own workgroup; the CIs it names exist and
 * its workgroup may read them (notifications-access.ts); its triggers exist; labels and tags are
 * `name` or `name=value` with a name. Every problem is reported at once, each with its path in
 * the body, as one 400. Lists are kept in the order given, without repeats; defaults are filled.
 *
 * References are looked up on create, and on PATCH those the body gives — and all of them when the
 * owner changes (what the old workgroup could use, the new one may not): a CI or trigger deleted
 * since a policy was saved stays listed and simply matches nothing.
 */
import { POLICY_DEFAULTS, type PolicyCreateBody, type PolicyPatchBody } from '../../../schemas/notifications.schema.js';
import { type FieldError, failFields } from '../../../schemas/errors.js';
import type { PlatformModel } from '../model.js';
import { workGroupMayRead } from './notifications-access.js';
import type { PolicyRecord } from './notifications.types.js';

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

/** The record a create body makes (not yet checked: checkPolicy). */
export function policyOfBody(body: PolicyCreateBody, id: number, now: string): PolicyRecord {
  return {
    id,
    name: body.name,
    ownerWorkGroup: { id: body.ownerWorkGroup.id },
    configItems: selector(body.configItems),
    priorities: body.priorities ?? [],
    triggerIds: body.triggerIds ?? [],
    tags: body.tags ?? [],
    kinds: body.kinds ?? [],
    receiverIds: body.receiverIds,
    groupWindowSeconds: body.groupWindowSeconds ?? POLICY_DEFAULTS.groupWindowSeconds,
    repeatIntervalSeconds: body.repeatIntervalSeconds ?? null,
    enabled: body.enabled ?? true,
    createdAt: now,
    updatedAt: now,
  };
}

function selector(given: PolicyCreateBody['configItems']): PolicyRecord['configItems'] {
  if (given === 'all') return 'all';
  if ('labels' in given) return { labels: given.labels };
  return { ids: given.ids, withDescendants: given.withDescendants ?? false };
}

/** What a PATCH changes, and which references to look up again. */
export function patchedPolicy(current: PolicyRecord, patch: PolicyPatchBody, now: string): { policy: PolicyRecord; refs: PolicyRefs } {
  const ownerChanged = patch.ownerWorkGroup !== undefined && patch.ownerWorkGroup.id !== current.ownerWorkGroup.id;
  const policy: PolicyRecord = {
    ...current,
    name: patch.name ?? current.name,
    ownerWorkGroup: patch.ownerWorkGroup ? { id: patch.ownerWorkGroup.id } : current.ownerWorkGroup,
    configItems: patch.configItems !== undefined ? selector(patch.configItems) : current.configItems,
    priorities: patch.priorities ?? current.priorities,
    triggerIds: patch.triggerIds ?? current.triggerIds,
    tags: patch.tags ?? current.tags,
    kinds: patch.kinds ?? current.kinds,
    receiverIds: patch.receiverIds ?? current.receiverIds,
    groupWindowSeconds: patch.groupWindowSeconds ?? current.groupWindowSeconds,
    repeatIntervalSeconds: patch.repeatIntervalSeconds !== undefined ? patch.repeatIntervalSeconds : current.repeatIntervalSeconds,
    enabled: patch.enabled ?? current.enabled,
    updatedAt: now,
  };
  return {
    policy,
    refs: {
      receivers: ownerChanged || patch.receiverIds !== undefined,
      configItems: ownerChanged || patch.configItems !== undefined,
      triggers: patch.triggerIds !== undefined,
    },
  };
}

/** References to look up. */
export interface PolicyRefs {
  receivers: boolean;
  configItems: boolean;
  triggers: boolean;
}
export const ALL_POLICY_REFS: PolicyRefs = { receivers: true, configItems: true, triggers: true };

/** `name` or `name=value` with a name of no control character. */
// eslint-disable-next-line no-control-regex -- control characters are what it refuses.
const CONDITION = /^[^=\u0000-\u001f\u007f]+(=[^\u0000-\u001f\u007f]*)?$/;

/** 400 listing every problem of the policy with its path; returns it when valid. */
export function checkPolicy(model: PlatformModel, policy: PolicyRecord, refs: PolicyRefs): PolicyRecord {
  const problems: FieldError[] = [];
  const workGroupId = policy.ownerWorkGroup.id;
  const { notifications, cmdb, triggers } = model.slices;
  if (refs.receivers) {
    policy.receiverIds.forEach((id, i) => {
      // The same answer for a receiver that does not exist and one of another workgroup: a
      // workgroup learns nothing of the others' receivers.
      if (notifications.receivers.get(id)?.ownerWorkGroup.id !== workGroupId)
        problems.push({ path: `/receiverIds/${i}`, message: `receiver ${id} is not a receiver of workgroup ${workGroupId}` });
    });
  }
  const selected = policy.configItems;
  if (refs.configItems && selected !== 'all' && 'ids' in selected) {
    selected.ids.forEach((id, i) => {
      if (!cmdb.cis.has(id) || !workGroupMayRead(model, workGroupId, id))
        problems.push({ path: `/configItems/ids/${i}`, message: `CI ${id} does not exist or workgroup ${workGroupId} may not read it` });
    });
  }
  if (selected !== 'all' && 'labels' in selected) {
    selected.labels.forEach((label, i) => {
      if (!CONDITION.test(label)) problems.push({ path: `/configItems/labels/${i}`, message: 'must be name or name=value, with a name and no control character' });
    });
  }
  policy.tags.forEach((tag, i) => {
    if (!CONDITION.test(tag)) problems.push({ path: `/tags/${i}`, message: 'must be name or name=value, with a name and no control character' });
  });
  if (refs.triggers) {
    policy.triggerIds.forEach((id, i) => {
      if (!triggers.triggers.has(id)) problems.push({ path: `/triggerIds/${i}`, message: `trigger ${id} does not exist` });
    });
  }
  if (problems.length > 0) throw failFields('notification_policy.invalid', problems);
  return withoutRepeats(policy);
}

/** The policy with each list in the order given, without repeats (checked first, so paths are the body's). */
function withoutRepeats(policy: PolicyRecord): PolicyRecord {
  const selected = policy.configItems;
  return {
    ...policy,
    configItems: selected === 'all' ? 'all' : 'labels' in selected ? { labels: unique(selected.labels) } : { ...selected, ids: unique(selected.ids) },
    priorities: unique(policy.priorities),
    triggerIds: unique(policy.triggerIds),
    tags: unique(policy.tags),
    kinds: unique(policy.kinds),
    receiverIds: unique(policy.receiverIds),
  };
}
