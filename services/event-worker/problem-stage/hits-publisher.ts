/**
 * The event workers' side of the keyed stage (DESIGN §7a): trigger hits grouped by the partition
 * of their key, one bus message per partition (or several, each under the bus's size limit).
 * Resolves once every message is durably on the bus (JetStream: stored by the server;
 * in-process: written to the hits stream's log, bus-streams.ts), so the records that made the
 * hits may be acked then; the key's owner writes the problems later.
 */
import { encodeHitChunks, encodeHits, type KeyClose } from '../../../pipelines/problems/hit-envelope.js';
import { partitionOf } from '../../../pipelines/problems/partition.js';
import type { KeyedHit } from '../../../pipelines/problems/trigger-match.js';
import type { Bus } from '../../runtime/adapters/bus/bus.port.js';
import { hitsSubject } from '../../runtime/bus-streams.js';

export interface HitsPublisher {
  /** `batchId` names what the hits came from: published again, they are recognised. */
  publish(hits: readonly KeyedHit[], batchId: string): Promise<void>;
  /** Closes of keys whose CI or trigger is gone (the id makes repeats from several processes one). */
  close(closes: readonly KeyClose[]): Promise<void>;
}

/** Half of NATS's default max_payload (1 MB): room for headers and a server set lower. */
export const MAX_HITS_MESSAGE_BYTES = 512 * 1024;

export function createHitsPublisher(bus: Bus, partitions: number, maxMessageBytes = MAX_HITS_MESSAGE_BYTES, now: () => number = Date.now): HitsPublisher {
  return {
    async publish(hits, batchId) {
      const byPartition = new Map<number, KeyedHit[]>();
      for (const hit of hits) {
        const p = partitionOf(hit.triggerId, hit.ciId, partitions);
        let group = byPartition.get(p);
        if (!group) byPartition.set(p, (group = []));
        group.push(hit);
      }
      // A partition's chunks in order, one after another; the partitions side by side.
      await Promise.all(
        [...byPartition].map(async ([p, group]) => {
          const chunks = encodeHitChunks(group, maxMessageBytes, now());
          for (let i = 0; i < chunks.length; i++) await bus.publish(hitsSubject(p), chunks[i]!, { msgId: `hits:${batchId}:${p}:${i}` });
        }),
      );
    },
    async close(closes) {
      await Promise.all(
        closes.map((c) =>
          bus.publish(hitsSubject(partitionOf(c.triggerId, c.ciId, partitions)), encodeHits({ keys: [], closes: [c], sentAt: now() }), {
            msgId: `close:${c.triggerId}:${c.ciId}:${c.at}`,
          }),
        ),
      );
    },
  };
}
