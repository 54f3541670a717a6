/**
 * Receivers and policies handed to the dispatcher directly (its `directory` option) by the
 * delivery tests: the fields every record shares, so each test writes only what it is about.
 */
import type { PolicyRule } from '../../../pipelines/notifications/policy-match.js';

/** A receiver's fields besides its type's: enabled, the default limits, made at `stamp`. */
export const receiverFields = (id: number, name: string, workGroupId: number, stamp: string) => ({
  id,
  name,
  ownerWorkGroup: { id: workGroupId },
  enabled: true,
  disabledReason: null,
  rateLimitPerSecond: 10,
  maxAgeHours: 24,
  createdAt: stamp,
  updatedAt: stamp,
});

/** A policy (id = its one receiver's) sending one trigger's problems on one CI, without grouping. */
export const policyRule = (receiverId: number, workGroupId: number, ciId: number, triggerId: number, over: Partial<PolicyRule> = {}): PolicyRule => ({
  id: receiverId,
  ownerWorkGroupId: workGroupId,
  configItems: { ids: [ciId], withDescendants: false },
  priorities: [],
  triggerIds: [triggerId],
  tags: [],
  kinds: [],
  receiverIds: [receiverId],
  groupWindowSeconds: 0,
  repeatIntervalSeconds: null,
  ...over,
});
