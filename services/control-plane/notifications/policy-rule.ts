/**
 * A stored policy as routing reads it (pipelines/notifications/policy-match.ts `PolicyRule`), and
 * the CMDB view matching needs, read from the control model. The dispatcher routes with these;
 * disabled policies and receivers are its to skip.
 */
import type { CmdbView, PolicyRule } from '../../../pipelines/notifications/policy-match.js';
import type { PlatformModel } from '../model.js';
import { workGroupMayRead } from './notifications-access.js';
import type { PolicyRecord } from './notifications.types.js';

export function toPolicyRule(policy: PolicyRecord): PolicyRule {
  const selected = policy.configItems;
  return {
    id: policy.id,
    ownerWorkGroupId: policy.ownerWorkGroup.id,
    configItems: selected === 'all' ? 'all' : 'labels' in selected ? { labels: [...selected.labels] } : { ids: [...selected.ids], withDescendants: selected.withDescendants },
    priorities: [...policy.priorities],
    triggerIds: [...policy.triggerIds],
    tags: [...policy.tags],
    kinds: [...policy.kinds],
    receiverIds: [...policy.receiverIds],
    groupWindowSeconds: policy.groupWindowSeconds,
    repeatIntervalSeconds: policy.repeatIntervalSeconds,
  };
}

/** The CMDB as policy matching reads it: descendants, labels, and what a workgroup may read. */
export function cmdbViewOf(model: PlatformModel): CmdbView {
  const cmdb = model.slices.cmdb;
  return {
    descendantsOf: (ciId) => cmdb.descendants(ciId),
    labelsOf: (ciId) => cmdb.cis.get(ciId)?.labels ?? null,
    canRead: (workGroupId, ciId) => workGroupMayRead(model, workGroupId, ciId),
  };
}
