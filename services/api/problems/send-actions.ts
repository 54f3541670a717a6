/**
 * Sends operators' actions to the owners of their problems' keys (issue #30): one bus message per
 * partition, on the same subject as the keys' hits, so a key's changes stay serial and nothing
 * writes problem rows around the problem stage. Waits for the stage's verdicts on the change feed.
 */
import { randomUUID } from 'node:crypto';
import { encodeHits } from '../../../pipelines/problems/hit-envelope.js';
import { partitionOf } from '../../../pipelines/problems/partition.js';
import type { ProblemAction } from '../../../pipelines/problems/problem-actions.js';
import { type Bus, BusUnavailableError } from '../../runtime/adapters/bus/bus.port.js';
import { hitsSubject } from '../../runtime/bus-streams.js';
import { failLater } from '../../../schemas/errors.js';
import type { ActionAnswer, ProblemFeed } from './problem-feed.js';

/** How long a request waits for the stage (in-process it works behind the ingest, up to ~0.5 s per group). */
export const ACTION_WAIT_MS = 15_000;

export interface ActionSender {
  /** The answers by action id; 503 problem.action_pending when the stage did not answer in time. */
  send(actions: readonly ProblemAction[]): Promise<Map<string, ActionAnswer>>;
}

export const newActionId = (): string => randomUUID();

export function createActionSender(deps: { bus: Bus; feed: ProblemFeed; partitions: number; now: () => number; waitMs?: number }): ActionSender {
  return {
    async send(actions) {
      const waiting = deps.feed.awaitAnswers(
        actions.map((a) => a.id),
        deps.waitMs ?? ACTION_WAIT_MS,
      );
      const byPartition = new Map<number, ProblemAction[]>();
      for (const a of actions) {
        const p = partitionOf(a.triggerId, a.ciId, deps.partitions);
        let list = byPartition.get(p);
        if (!list) byPartition.set(p, (list = []));
        list.push(a);
      }
      try {
        await Promise.all(
          [...byPartition].map(([p, list]) =>
            deps.bus.publish(hitsSubject(p), encodeHits({ keys: [], closes: [], actions: list, sentAt: deps.now() }), { msgId: `actions:${list[0]!.id}:${list.length}` }),
          ),
        );
      } catch (error) {
        waiting.cancel();
        if (error instanceof BusUnavailableError) throw failLater('problem.bus_unavailable', error.retryAfterSeconds, { reason: error.message });
        throw error;
      }
      const answers = await waiting.answers;
      if (answers.size < actions.length) throw failLater('problem.action_pending', 1);
      return answers;
    },
  };
}
