/**
 * Records of the problem summary slice (DESIGN §7a). The keyed problem stage owns each key's
 * state; the control plane holds only what the API reads, written on transitions:
 *   `popen:<triggerId>:<ciId>`  whether the key has an open problem (and since when it is as it is)
 *   `pclose:<triggerId>:<ciId>` the key's CI or trigger was deleted: its open problem ends at `at`
 */
import type { InfluenceFacts } from '../../../pipelines/problems/key-state.js';

export interface KeySummaryRecord {
  triggerId: number;
  ciId: number;
  open: boolean;
  /** Event time of the last opening or closing of a problem of this key. */
  changedAt: number;
  /** The trigger's influence when the key last changed (used once the trigger is deleted). */
  influence: InfluenceFacts;
  /** The key's version in the keyed store: an older summary never replaces a newer one. */
  version: number;
}

export interface PendingCloseRecord {
  triggerId: number;
  ciId: number;
  at: number;
}

export const summaryKey = (triggerId: number, ciId: number): string => `popen:${triggerId}:${ciId}`;
export const pendingCloseKey = (triggerId: number, ciId: number): string => `pclose:${triggerId}:${ciId}`;
