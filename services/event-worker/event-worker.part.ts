/**
 * The event worker (DESIGN §6, §7a): pulls record batches from the bus, runs pipelines/records on
 * each, inserts the event rows (and dead letters) of all the messages fetched together in one
 * insert; then, batch after batch in pull order, the records of streams with triggers become
 * trigger hits, handed to the owners of their keys in the keyed problem stage (one bus message
 * per partition); only once those are on the bus are the record messages acked. The next batch
 * may be inserted meanwhile (store-window.ts). A batch redelivered after a crash adds no second
 * row (0001_events.sql says how) and no second hit (a key knows the hits it placed). Several
 * workers share one durable consumer; each also runs the problem stage (services/problem-stage),
 * whose partitions go to whichever worker holds them.
 */
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { KeyedHit } from '../../pipelines/problems/trigger-match.js';
import type { TriggeredEvent } from '../../pipelines/records/record-pipeline.js';
import { EVENT_ROW_SETTINGS } from '../../pipelines/records/event-row.js';
import { type BatchRows, processBatch } from '../../pipelines/records/record-pipeline.js';
import type { Part, PlatformContext } from '../part.js';
import { startCloseSweep } from './problem-stage/close-sweep.js';
import { createHitsPublisher, type HitsPublisher, MAX_HITS_MESSAGE_BYTES } from './problem-stage/hits-publisher.js';
import { startProblemStage } from './problem-stage/problem-stage.js';
import type { BusMessage } from '../runtime/adapters/bus/bus.port.js';
import { HITS_STREAM, PROBLEM_CHANGES_FEED, RECORDS_STREAM } from '../runtime/bus-streams.js';
import { createConsumerEdge, deadLetter, isTransient, ok, type Outcome, outcomeOfError, retry } from '../runtime/consumer-edge.js';
import { analyticsThroughEngineCalls, engineCall } from '../runtime/engine-call.js';
import { insertGroups } from './insert-groups.js';
import { insertSpacingMs } from './insert-spacing.js';
import { createStoreWindow } from './store-window.js';
import { createTriggerIndex, type TriggerIndex } from '../control-plane/triggers/trigger-index.js';
import { type RowTable, unstoredRows } from './unstored-rows.js';

export const EVENT_WORKER_CONSUMER = {
  stream: RECORDS_STREAM.name,
  durable: 'event-worker',
  maxBatch: 64,
  // Ingress requests wait for these acks and the ingress sends one message per stream at a time:
  // hand over at once what is there (JetStream's shortest pull expiry still applies).
  maxWaitMs: 0,
  ackWaitMs: 60_000,
  maxDeliver: -1,
};

/**
 * Batches one worker inserts at once (each its own insert, over its own chDB connection when
 * embedded): while one is being inserted the next is decoded and inserted beside it. Measured
 * in-process, 1 000-record bodies: about 240 000 → 310 000 records/s stored. On JetStream, one
 * worker storing a backlog alone against the test ClickHouse endpoint (bench/problems.bench.ts,
 * when the endpoint ran one statement at a time): 0.52 of its insert ceiling one batch at a time,
 * 0.69–0.87 with two. (Several workers
 * sharing two cores with everything else, as distributed/problems-equivalence.test.ts runs them,
 * take longer with two: 51 s against 41–42 s for that test alone.)
 */
export const STORE_AHEAD = 2;

/**
 * Message data inserted at once at most (insert-groups.ts). The rows of one insert, about as large
 * again, are built and copied in one go on the event loop, which must stay free for the requests
 * (a logged stream hands a worker whatever gathered behind it, up to maxBatch messages of
 * megabytes each).
 */
const MAX_INSERT_BYTES = 16 * 1024 * 1024;

const BACKLOG_POLL_MS = 20;

/**
 * Work done between two yields to the requests waiting on the event loop while decoding: a yield
 * per message cost a whole turn of the loop each, and under load the worker fell behind.
 */
const YIELD_MS = 2;

/** Retry delay after a failed insert: the store is likely down or overloaded. */
const RETRY_MS = 1000;

export interface EventWorkerHooks {
  /** Runs after a batch's rows are stored and before its ack (tests inject a crash here). */
  afterInsert?: (message: BusMessage) => void;
  /** Runs as a group's insert starts, which waits for it (tests hold inserts here). */
  beforeInsert?: () => Promise<void>;
  /** Runs once a group is decoded, before its insert waits for a slot (tests watch the pulls). */
  afterDecode?: (messages: readonly BusMessage[]) => void;
}

/**
 * The trigger hits of the events of streams with triggers. Sliced like decoding: one event's
 * matching is bounded (linear-time patterns on a bounded prefix, pipelines/records/linear-pattern.ts),
 * and the requests waiting on the event loop are served every YIELD_MS of this work.
 */
async function hitsOf(events: readonly TriggeredEvent[], triggers: TriggerIndex): Promise<KeyedHit[]> {
  const hits: KeyedHit[] = [];
  let since = performance.now();
  for (const event of events) {
    if (performance.now() - since > YIELD_MS) {
      await nextTurn();
      since = performance.now();
    }
    for (const trigger of triggers.forStream(event.streamId)) {
      const hit = trigger.hitOf(event, triggers.cis);
      if (hit) hits.push(hit);
    }
  }
  return hits;
}

/** The consumer's batch handler, and `drain`, which finishes the batches still in its store window. */
/** What the batch worker uses of its process: its engines, the model, its clock and a setting. */
export type BatchWorkerDeps = Pick<PlatformContext, 'engines' | 'controlPlane' | 'metrics' | 'logger' | 'now'> & { config: Pick<PlatformContext['config'], 'maxDeliveries'> };

export function createBatchWorker(ctx: BatchWorkerDeps, publisher: HitsPublisher, hooks: EventWorkerHooks = {}) {
  const analytics = analyticsThroughEngineCalls(ctx.engines.analytics);
  const edge = createConsumerEdge(
    { consumer: 'event-worker', maxDeliveries: ctx.config.maxDeliveries, heartbeatMs: EVENT_WORKER_CONSUMER.ackWaitMs / 3 },
    { analytics: ctx.engines.analytics, metrics: ctx.metrics, logger: ctx.logger, now: ctx.now },
  );
  const model = ctx.controlPlane.model;
  const streams = model.slices.streams.streams;
  const configOf = (id: number) => streams.get(id)?.config;
  const triggers = createTriggerIndex(model);
  const hasTriggers = (streamId: number) => model.slices.triggers.forStream(streamId).some((t) => t.enabled);
  const batchIdOf = (message: BusMessage): string =>
    message.msgId && /^[0-9a-f]{32}$/.test(message.msgId) ? message.msgId : createHash('sha256').update(message.data).digest('hex').slice(0, 32);

  type Decoded = { message: BusMessage; batchId: string; rows: BatchRows };
  type Stored = { ok: true } | { ok: false; error: unknown };
  /** `release` ends the edge's hold on the batch's messages once they are settled. */
  type StoredBatch = { decoded: Decoded[]; outcome: Stored; release: () => void };

  /**
   * Decodes each message; one that cannot even be decoded is dead-lettered whole by the edge (the
   * message as it came, with the reason), never dropped.
   */
  async function decodeAll(batch: BusMessage[]): Promise<Decoded[]> {
    const decoded: Decoded[] = [];
    const undecodable: BusMessage[] = [];
    const reasons: Outcome[] = [];
    let since = performance.now();
    for (const message of batch) {
      // Requests waiting on the event loop are served every few milliseconds of this work.
      if (performance.now() - since > YIELD_MS) {
        await nextTurn();
        since = performance.now();
      }
      const batchId = batchIdOf(message);
      try {
        decoded.push({ message, batchId, rows: processBatch(batchId, message.data, configOf, hasTriggers) });
      } catch (error) {
        undecodable.push(message);
        reasons.push(deadLetter(`undecodable batch ${batchId}: ${(error as Error).message}`));
      }
    }
    if (undecodable.length > 0) await edge.settle(undecodable, reasons);
    return decoded;
  }

  const groupToken = (decoded: Decoded[]): string =>
    createHash('sha256')
      .update(
        decoded
          .map((d) => d.batchId)
          .sort()
          .join(','),
      )
      .digest('hex')
      .slice(0, 32);

  /**
   * A message delivered before may have been stored in another group, whose token does not cover
   * it. So is, on JetStream, a message acked just before a nats-server crash: it comes back with
   * deliveryCount 1. Such messages are checked against the table, by their first row: a message's
   * rows go in with one insert, one block, so all of them are stored or none.
   */
  const mayBeStored = (d: Decoded, recheck: boolean): boolean => recheck || d.message.deliveryCount > 1 || ctx.engines.bus.profile.acksMayBeLost;
  const NONE = Buffer.alloc(0);
  const firstLine = (rows: Buffer): string => rows.toString('utf8', 0, rows.indexOf(10) + 1);
  /** `all` as one buffer, without the rows of `checked` (each message's, or none) that `table` holds already. */
  async function unstoredOf(table: RowTable, checked: Buffer[], all: Buffer[]): Promise<Buffer> {
    const heads = checked.map(firstLine);
    let keep = all;
    if (heads.some((h) => h !== '')) {
      const left = new Set((await unstoredRows(analytics, table, heads.join(''))).split('\n'));
      keep = all.filter((_, i) => heads[i] === '' || left.has(heads[i]!.slice(0, -1)));
    }
    return keep.length === 1 ? keep[0]! : Buffer.concat(keep);
  }

  /**
   * One insert for every message fetched together; its token names the group (see 0001_events.sql).
   * `recheck`: the messages were part of a group whose insert failed, which may have stored some
   * of their rows (an insert of several blocks).
   */
  async function store(decoded: Decoded[], recheck = false): Promise<Stored> {
    const token = groupToken(decoded);
    try {
      await hooks.beforeInsert?.();
      const events = await unstoredOf(
        'events',
        decoded.map((d) => (mayBeStored(d, recheck) ? d.rows.events : NONE)),
        decoded.map((d) => d.rows.events),
      );
      const deadLetters = await unstoredOf(
        'dead_letters',
        decoded.map((d) => (mayBeStored(d, recheck) ? d.rows.deadLetters : NONE)),
        decoded.map((d) => d.rows.deadLetters),
      );
      if (events.length > 0) await analytics.insert('events', events, { deduplicationToken: token, settings: EVENT_ROW_SETTINGS });
      if (deadLetters.length > 0) {
        await analytics.insert('dead_letters', deadLetters, { deduplicationToken: `${token}:dead` });
        ctx.logger.warn({ deadLetters: decoded.reduce((n, d) => n + d.rows.deadLetterCount, 0) }, 'records dead-lettered');
      }
      return { ok: true };
    } catch (error) {
      return { ok: false, error };
    }
  }

  /**
   * After the inserts, in pull order, for the batches stored by now: trigger hits, handed to the
   * problem stage, then each message's outcome to the edge. A group whose insert the engine
   * refused is inserted again message by message, so a message it refuses fails alone (and is
   * dead-lettered after its deliveries) while the others are stored; an engine that is down
   * fails them all, to be delivered again without end.
   */
  async function settle(batches: StoredBatch[]): Promise<void> {
    const messages: BusMessage[] = [];
    const outcomes: Outcome[] = [];
    const put = (d: Decoded, outcome: Outcome): void => {
      messages.push(d.message);
      outcomes.push(outcome);
    };
    const failed = (decoded: Decoded[], error: unknown): void => {
      const records = decoded.reduce((n, d) => n + d.rows.eventCount, 0);
      ctx.logger.error({ err: error, messages: decoded.length, records }, 'storing record batches or their problems failed; they will be delivered again');
      for (const d of decoded) put(d, outcomeOfError(error, RETRY_MS));
    };
    try {
      let stored: Decoded[] = [];
      for (const { decoded, outcome } of batches) {
        if (outcome.ok) stored.push(...decoded);
        else if (isTransient(outcome.error) || decoded.length === 1) failed(decoded, outcome.error);
        else {
          ctx.logger.warn({ err: outcome.error, messages: decoded.length }, 'a group of record batches was refused; storing its messages one by one');
          for (const d of decoded) {
            const alone = await store([d], true);
            if (alone.ok) stored.push(d);
            else failed([d], alone.error);
          }
        }
      }
      if (stored.length > 0) {
        try {
          const hits = await hitsOf(
            stored.flatMap((d) => d.rows.fielded),
            triggers,
          );
          if (hits.length > 0) await engineCall('bus', () => publisher.publish(hits, groupToken(stored)));
        } catch (error) {
          failed(stored, error);
          stored = [];
        }
      }
      if (stored.length > 0) countStored(stored);
      for (const d of stored) {
        try {
          hooks.afterInsert?.(d.message);
          put(d, ok);
        } catch (error) {
          // What a crash between insert and ack leaves: the message is delivered again.
          ctx.logger.warn({ err: error, batchId: d.batchId }, 'batch stored but not acknowledged');
          put(d, retry('stored but not acknowledged', 0, true));
        }
      }
      await edge.settle(messages, outcomes);
    } finally {
      for (const b of batches) b.release();
    }
  }

  function countStored(stored: readonly Decoded[]): void {
    ctx.metrics.batchRecords.observe(
      { stage: 'insert' },
      stored.reduce((n, d) => n + d.rows.eventCount, 0),
    );
    for (const d of stored) {
      const stream = String(d.rows.streamId);
      if (d.rows.eventCount > 0) ctx.metrics.streamEvents.inc({ stream }, d.rows.eventCount);
      if (d.rows.deadLetterCount > 0) ctx.metrics.streamDeadLetters.inc({ stream }, d.rows.deadLetterCount);
    }
  }

  const window = createStoreWindow<StoredBatch>(STORE_AHEAD, settle, (err) => ctx.logger.error({ err }, 'an event worker stage failed unexpectedly'));
  /**
   * A slot in the window for the next insert. The handler does not wait for it before it returns:
   * the next batch is pulled and decoded while STORE_AHEAD inserts run, and only its insert waits
   * for the slot. Waiting before the pull left the endpoint one insert short for the time of a
   * pull and a decode after every insert.
   */
  let room: Promise<void> = Promise.resolve();
  const handler = async (batch: BusMessage[]): Promise<void> => {
    const started = Date.now();
    let records = 0;
    for (const group of insertGroups(batch, MAX_INSERT_BYTES)) {
      const decoded = await decodeAll(group);
      if (decoded.length === 0) continue;
      for (const d of decoded) records += d.rows.eventCount + d.rows.deadLetterCount;
      const release = edge.hold(decoded.map((d) => d.message));
      hooks.afterDecode?.(group);
      await room;
      room = window.admit(store(decoded).then((outcome) => ({ decoded, outcome, release })));
    }
    // What arrives meanwhile gathers in the bus for the next pull.
    const wait = started + insertSpacingMs(ctx.engines.bus.profile.oneProcess, records) - Date.now();
    if (batch.length < EVENT_WORKER_CONSUMER.maxBatch && wait > 0) await sleep(wait);
  };
  return { handler, drain: () => window.drain() };
}

/**
 * In-process, the batches the ingress acknowledged and this worker has not stored yet wait in the
 * bus log: at a stop (the ingress has flushed its last batches by then) they are stored first, so
 * a stopped installation holds every record it acknowledged. Within half the stop timeout; what
 * remains then is stored after the next start. With JetStream the other workers take them.
 */
async function storeBacklog(ctx: PlatformContext): Promise<void> {
  const { bus } = ctx.engines;
  if (!bus.profile.oneProcess) return;
  const deadline = Date.now() + ctx.config.shutdownTimeoutMs / 2;
  for (;;) {
    const left = (await bus.stats()).pending[RECORDS_STREAM.name] ?? 0;
    if (left === 0) return;
    if (Date.now() >= deadline) {
      ctx.logger.warn({ batches: left }, 'stopping with record batches not yet stored; they stay in the bus log and are stored after the next start');
      return;
    }
    await sleep(BACKLOG_POLL_MS);
  }
}

export function createEventWorkerPart(hooks: EventWorkerHooks = {}): Part {
  return {
    name: 'event-worker',
    async start(ctx) {
      const { bus } = ctx.engines;
      await bus.ensureStream(RECORDS_STREAM);
      await bus.ensureStream(HITS_STREAM);
      await bus.ensureFeed(PROBLEM_CHANGES_FEED);
      const stage = startProblemStage(ctx);
      const publisher = createHitsPublisher(bus, ctx.config.problemPartitions, Math.min(MAX_HITS_MESSAGE_BYTES, bus.maxMessageBytes / 2), ctx.now);
      const stopSweep = startCloseSweep({ model: ctx.controlPlane.model, publisher, logger: ctx.logger, now: ctx.now });
      const worker = createBatchWorker(ctx, publisher, hooks);
      const consumer = bus.consume(EVENT_WORKER_CONSUMER, worker.handler);
      ctx.lifecycle.onStop('event worker', async () => {
        await storeBacklog(ctx);
        // Batches still being inserted are finished and acked first: the consumer naks at stop
        // whatever it handed over and was not settled. The problem stage goes last: in-process,
        // the batches' hits wait for it.
        await worker.drain();
        await consumer.stop();
        stopSweep();
        await stage.stop();
      });
      return [];
    },
  };
}

export const eventWorkerPart: Part = createEventWorkerPart();
