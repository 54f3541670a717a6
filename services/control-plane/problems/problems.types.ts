/** Records of the problems slice (DESIGN §7), as stored in the journal. */
import type { KeyTimeline, ProblemSpan } from '../../../pipelines/problems/problem-timeline.js';

export interface InfluenceRecord {
  value: number;
  maxInfluence: boolean;
}

/**
 * The state of one (trigger, CI) key, `pkey:<triggerId>:<ciId>`: its timeline of hits, and what
 * the last change did, so every process can write the problem rows of that change.
 */
export interface ProblemKeyRecord extends KeyTimeline {
  triggerId: number;
  ciId: number;
  /** The journal revision of the last change: the version of the rows it writes. */
  version: number;
  /** The trigger's influence, name and tags when the key last changed (used once it is deleted). */
  influence: InfluenceRecord;
  triggerName: string;
  tags: Array<{ id: number; name: string; colorName: string }>;
  /** The problem open now, if any (derived from the timeline, kept for cheap reads). */
  open: ProblemSpan | null;
  /** Event time of the last opening or closing of a problem of this key. */
  changedAt: number;
  /** Problems the last change closed and folded out of the timeline: written once more. */
  folded: ProblemSpan[];
  /** Problems the last change showed never existed (re-ordered away): written as deleted. */
  removedIds: string[];
}

export const problemKey = (triggerId: number, ciId: number): string => `pkey:${triggerId}:${ciId}`;
