/**
 * The keyed problem stage (DESIGN §7a), run by each event worker (event-worker.part.ts starts it):
 * problems as actors keyed by (trigger, CI). Hits arrive on `hits.<partition>`; each partition
 * has one durable consumer that holds at most one message out at a time (maxAckPending 1), so
 * whichever worker holds it owns the partition until it acks, and a worker that dies hands it
 * over when the ack wait passes. Serial per key, parallel across keys. For each group of
 * messages, in this order:
 *   1. read the keys' states from the keyed store;
 *   2. place the hits and closes (pipelines/problems/key-state.ts);
 *   3. write the problem rows, with the key's next version;
 *   4. record the keys whose open/closed summary changed in the control plane;
 *   5. write the states, compare-and-set on the versions read in 1;
 *   6. ack.
 * A crash anywhere before 5 leaves the state as it was, so the redelivery computes and writes the
 * same rows and summaries again (idempotent); after 5, the hits are known and change nothing, and
 * a redelivered message rewrites its keys' rows and summaries as they stand, in case the crash
 * came between 5 and their writes. A write refused in 5 (two owners, during a takeover) is
 * counted and recomputed on what the other owner wrote. Messages are settled by the consumer edge
 * (runtime/consumer-edge.ts): an engine failure is retried without end, a message that fails by
 * itself is dead-lettered after OPS_MAX_DELIVERIES deliveries.
 */

import { performance } from 'node:perf_hooks';
import { createHash } from 'node:crypto';
import type { KeyClose } from '../../../pipelines/problems/hit-envelope.js';
import { decodeHits, type HitsEnvelope } from '../../../pipelines/problems/hit-envelope.js';
import { applyToKey, changedSpans, type KeyState, spansToWrite, type TriggerFacts } from '../../../pipelines/problems/key-state.js';
import { type PackedKeyState, packKeyState, unpackKeyState } from '../../../pipelines/problems/key-state-codec.js';
import { problemKeyOf } from '../../../pipelines/problems/partition.js';
import { type ActionVerdict, actionRow, type ProblemAction, type ProblemActionRow } from '../../../pipelines/problems/problem-actions.js';
import { encodeChangeChunks, keyChanges, type ProblemChange } from '../../../pipelines/problems/problem-changes.js';
import type { ProblemRow } from '../../../pipelines/problems/problem-row.js';
import { DEFAULT_LIMITS, type Hit, type ProblemSpan, problemId, problemsOf, type TimelineLimits } from '../../../pipelines/problems/problem-timeline.js';
import { clickhouseDateTime } from '../../../pipelines/records/timestamps.js';
import { type KeySummaryRecord, pendingCloseKey, summaryKey } from '../../control-plane/problems/problems.types.js';
import type { PlatformModel } from '../../control-plane/model.js';
import type { PlatformContext } from '../../part.js';
import type { BusConsumer, BusMessage, ConsumerSpec } from '../../runtime/adapters/bus/bus.port.js';
import type { JournalChange } from '../../runtime/adapters/journal/journal.port.js';
import type { KeyedRecord, KeyedWrite } from '../../runtime/adapters/keyed/keyed-store.port.js';
import { HITS_STREAM, hitsSubject, PROBLEM_CHANGES_SUBJECT } from '../../runtime/bus-streams.js';
import { createConsumerEdge, deadLetter, engineCall, isTransient, ok, type Outcome, outcomeOfError } from '../../runtime/consumer-edge.js';
import { fail } from '../../../schemas/errors.js';
import { TRIGGER_HITS, type TriggerHitRow } from '../../../schemas/tables/trigger-hits.table.js';
import { createGroupRunner } from './group-runner.js';
import { rowsOfKey } from './key-rows.js';
import { commentedRows } from './stored-comments.js';

/** Past this the partition goes to another worker; long enough for a slow store, short for a takeover. */
export const HITS_ACK_WAIT_MS = 30_000;
/** How long an idle partition pull waits on the server (also how long a stop may wait for it). */
const PULL_WAIT_MS = 500;
const RETRY_MS = 1000;
const MAX_ATTEMPTS = 8;
/** The longest a group waits for the next to gather (group-runner.ts). */
const MAX_LINGER_MS = 500;
/**
 * Key states an owner keeps decoded: its partitions' keys, read again from the store only when
 * another owner wrote them since (the store compares versions). Bounded by their hits (about
 * 100 bytes each decoded; a key holds up to its budget of 1 024), so a few hundred MB at most.
 */
const CACHED_KEYS = 50_000;
const CACHED_HITS = 2_000_000;

/**
 * Messages of one partition a worker takes at once. On JetStream 1: holding the partition's one
 * un-acked message is what makes a worker its owner among many processes. In-process, the one
 * process is the only consumer of every partition and handles one batch at a time, so several
 * messages at once are still serial per partition; as the stage works behind the ingest there
 * (HITS is logged), a group then takes everything that gathered while the last one ran. (After a
 * failed group, newer messages of a partition may go before the nakked ones come back, 1 s
 * later: placing hits does not depend on their order, except for hits older than the key's
 * window, which are counted as too late.)
 */
const IN_PROCESS_BATCH = 64;

export const partitionConsumer = (partition: number): ConsumerSpec => ({
  stream: HITS_STREAM.name,
  durable: `problems-${partition}`,
  filterSubject: hitsSubject(partition),
  maxBatch: 1,
  maxWaitMs: PULL_WAIT_MS,
  ackWaitMs: HITS_ACK_WAIT_MS,
  maxDeliver: -1,
  maxAckPending: 1,
  // In-process a pull that may not wait hands over what is there and otherwise waits for the next.
  inProcess: { maxBatch: IN_PROCESS_BATCH, maxWaitMs: 0, maxAckPending: IN_PROCESS_BATCH },
});

interface KeyWork {
  triggerId: number;
  ciId: number;
  hits: Hit[];
  closeAt?: number;
  actions: ProblemAction[];
  /** A message bringing it was delivered before: rewrite what the key stands at. */
  repair: boolean;
}

/** A message of the group, decoded. */
interface Decoded {
  envelope: HitsEnvelope;
  /** Delivered before: rewrite what its keys stand at. */
  repair: boolean;
}

/** The messages' keys and work, and when each message was published (for the lag). */
function gather(messages: readonly Decoded[]): { work: Map<string, KeyWork>; sentAt: number[] } {
  const work = new Map<string, KeyWork>();
  const sentAt: number[] = [];
  const of = (triggerId: number, ciId: number, repair: boolean): KeyWork => {
    const key = problemKeyOf(triggerId, ciId);
    let w = work.get(key);
    if (!w) work.set(key, (w = { triggerId, ciId, hits: [], actions: [], repair }));
    w.repair ||= repair;
    return w;
  };
  for (const { envelope, repair } of messages) {
    if (envelope.sentAt !== undefined) sentAt.push(envelope.sentAt);
    for (const k of envelope.keys) {
      const w = of(k.triggerId, k.ciId, repair);
      w.hits = w.hits.length === 0 ? k.hits : w.hits.concat(k.hits);
    }
    for (const c of envelope.closes as KeyClose[]) {
      const w = of(c.triggerId, c.ciId, repair);
      w.closeAt = Math.min(w.closeAt ?? c.at, c.at);
    }
    for (const a of envelope.actions ?? []) of(a.triggerId, a.ciId, repair).actions.push(a);
  }
  return { work, sentAt };
}

/** The key's late window: its trigger's, or the default once the trigger is gone. */
const limitsOf = (model: PlatformModel, triggerId: number): TimelineLimits => {
  const minutes = model.slices.triggers.triggers.get(triggerId)?.lateWindowMinutes;
  return minutes === undefined ? DEFAULT_LIMITS : { ...DEFAULT_LIMITS, lateWindowMs: minutes * 60_000 };
};

const factsOf = (model: PlatformModel, triggerId: number): TriggerFacts | undefined => {
  const t = model.slices.triggers.triggers.get(triggerId);
  return t ? { name: t.name, influence: t.influence, tags: t.tags } : undefined;
};

const summaryOf = (state: KeyState, version: number): KeySummaryRecord => ({
  triggerId: state.triggerId,
  ciId: state.ciId,
  open: state.open !== null,
  changedAt: state.changedAt,
  influence: state.trigger.influence,
  version,
});

/** The problems a key holds or just folded, by id (none for a new key). */
const spansById = (state: KeyState | undefined): Map<string, ProblemSpan> =>
  new Map(state ? [...state.folded, ...problemsOf(state, state.triggerId, state.ciId)].map((p) => [p.id, p]) : []);

interface LateHitRow {
  id: string;
  stream_id: number;
  received_at: string;
  reason: string;
  payload: string;
}

/**
 * Dead letters (stream 0: the problem stage's) of the key's hits dated before its window, with
 * the reason; the id comes from the key and the record, so a redelivery writes the same row.
 */
function lateHitRows(w: KeyWork, settledUntil: number, now: number): LateHitRow[] {
  return w.hits
    .filter((h) => h.ts < settledUntil)
    .map((h) => ({
      id: problemId(w.triggerId, w.ciId, `late:${h.id}`),
      stream_id: 0,
      received_at: clickhouseDateTime(now),
      reason: `too late for trigger ${w.triggerId} on CI ${w.ciId}: dated ${new Date(h.ts).toISOString()}, before the key's late window (settled until ${new Date(settledUntil).toISOString()})`,
      payload: JSON.stringify({ triggerId: w.triggerId, ciId: w.ciId, eventId: h.id, ts: new Date(h.ts).toISOString(), resolve: h.resolve, priority: h.priority }),
    }));
}

/** The `trigger_hits` rows of the records' hits (schemas/tables/trigger-hits.table.ts). */
function hitRows(work: ReadonlyMap<string, KeyWork>) {
  const rows: TriggerHitRow[] = [];
  for (const w of work.values()) {
    for (const h of w.hits) rows.push({ trigger_id: w.triggerId, ci_id: w.ciId, ts: clickhouseDateTime(h.ts), event_id: h.id, resolve: h.resolve ? 1 : 0 });
  }
  return rows;
}

/** The change message's id: the same rows at the same versions, and the same answers, are the same message. */
function changesId(changes: readonly ProblemChange[], verdicts: readonly ActionVerdict[]): string {
  const hash = createHash('sha256');
  for (const c of changes) hash.update(`${c.kind}:${c.row.id}@${c.row.version}\n`);
  for (const v of verdicts) hash.update(`${v.actionId}:${v.refused ?? 'ok'}\n`);
  return `changes:${hash.digest('hex').slice(0, 32)}`;
}

export interface ProblemStage {
  stop(): Promise<void>;
}

/** What the stage uses of its process: its engines, the model, its clock and two settings. */
export type ProblemStageDeps = Pick<PlatformContext, 'engines' | 'controlPlane' | 'metrics' | 'logger' | 'now'> & {
  config: Pick<PlatformContext['config'], 'maxDeliveries' | 'problemPartitions'>;
};

export function startProblemStage(ctx: ProblemStageDeps): ProblemStage {
  const { bus, keyed, analytics } = ctx.engines;
  // Half the bus's limit (unbounded in-process): room for the headers.
  const changesMessageBytes = bus.maxMessageBytes / 2;
  const { controlPlane, metrics, logger } = ctx;
  const model = controlPlane.model;
  const log = logger.child({ component: 'problem-stage' });
  const cache = new Map<string, KeyedRecord<PackedKeyState>>();
  /** The states behind the packed values this owner holds (read or written), not unpacked again. */
  const unpacked = new WeakMap<PackedKeyState, KeyState>();
  let cachedHits = 0;
  const forget = (key: string): void => {
    const held = cache.get(key);
    if (!held) return;
    cachedHits -= held.value.hits.flags.length;
    cache.delete(key);
  };
  const remember = (key: string, version: number, value: PackedKeyState, state: KeyState): void => {
    unpacked.set(value, state);
    forget(key);
    cache.set(key, { version, value });
    cachedHits += value.hits.flags.length;
    while (cache.size > CACHED_KEYS || cachedHits > CACHED_HITS) forget(cache.keys().next().value!);
  };
  const stateOf = (packed: PackedKeyState): KeyState => {
    let state = unpacked.get(packed);
    if (!state) unpacked.set(packed, (state = unpackKeyState(packed)));
    return state;
  };

  /** One attempt: false when another owner wrote one of the keys first. */
  async function attempt(work: Map<string, KeyWork>, dirty: Map<string, Set<string>>): Promise<boolean> {
    const keys = [...work.keys()];
    const stored = await engineCall('keyed store', () => keyed.get<PackedKeyState>(keys, cache));
    const now = ctx.now();
    const rows: ProblemRow[] = [];
    const changes: JournalChange[] = [];
    const writes: Array<KeyedWrite<PackedKeyState>> = [];
    const next = new Map<string, KeyState>();
    const written = new Map<string, Set<string>>();
    const feed: ProblemChange[] = [];
    const verdicts: ActionVerdict[] = [];
    const actionRows: ProblemActionRow[] = [];
    const outside: Array<{ action: ProblemAction; version: number | undefined }> = [];
    const lateRows: LateHitRow[] = [];
    let placed = 0;
    let tooLate = 0;
    let known = 0;
    for (const [key, w] of work) {
      const found = stored.get(key);
      const before: KeyedRecord<KeyState> | undefined = found && { version: found.version, value: stateOf(found.value) };
      const input = { hits: w.hits, ...(w.closeAt === undefined ? {} : { closeAt: w.closeAt }), ...(w.actions.length > 0 ? { actions: w.actions } : {}) };
      const outcome = applyToKey(before?.value, w.triggerId, w.ciId, input, factsOf(model, w.triggerId), limitsOf(model, w.triggerId));
      placed += outcome.placed;
      tooLate += outcome.tooLate;
      if (outcome.tooLate > 0) lateRows.push(...lateHitRows(w, before!.value.settledUntil!, now));
      known += w.hits.length - outcome.placed - outcome.tooLate;
      verdicts.push(...outcome.verdicts);
      const taken = new Set(outcome.verdicts.filter((v) => !v.refused).map((v) => v.actionId));
      for (const a of w.actions) if (taken.has(a.id)) actionRows.push(actionRow(a, clickhouseDateTime));
      const gone = [...(dirty.get(key) ?? [])];
      const rewrite = w.repair || dirty.has(key);
      const state = outcome.state ?? (rewrite ? before?.value : undefined);
      const version = outcome.state ? (before?.version ?? 0) + 1 : before?.version;
      for (const action of outcome.outside) outside.push({ action, version });
      if (state && version !== undefined) {
        const touched = new Set(outcome.touched);
        const changed = rewrite ? spansToWrite(state) : changedSpans(before?.value, state);
        const spans = [...changed, ...spansToWrite(state).filter((s) => touched.has(s.id) && !changed.includes(s))];
        const keyRows = rowsOfKey(model, state, version, now, spans, gone);
        rows.push(...keyRows);
        feed.push(
          ...keyChanges(
            keyRows,
            spansById(before?.value),
            spansById(state),
            w.actions.filter((a) => taken.has(a.id) && touched.has(a.problemId)),
          ),
        );
        written.set(key, new Set(spans.map((s) => s.id)));
        if (outcome.transition || rewrite) changes.push({ key: summaryKey(w.triggerId, w.ciId), value: summaryOf(state, version) });
        if (outcome.transition) metrics.problemTransitions.inc();
        if (outcome.state) {
          writes.push({ key, expected: before?.version ?? 0, value: packKeyState(outcome.state, found && before && { state: before.value, packed: found.value }) });
          next.set(key, outcome.state);
        }
      }
      const pending = model.slices.problems.pendingCloses.get(pendingCloseKey(w.triggerId, w.ciId));
      if (w.closeAt !== undefined && pending && pending.at >= w.closeAt) changes.push({ key: pendingCloseKey(w.triggerId, w.ciId), value: null });
    }
    const commented = await engineCall('analytics store', () =>
      commentedRows(
        analytics,
        outside.map((o) => o.action),
        (action) => outside.find((o) => o.action === action)?.version,
      ),
    );
    for (const row of commented) feed.push({ kind: 'commented', row, actionId: outside.find((o) => o.action.problemId === row.id)!.action.id });
    rows.push(...commented);
    if (actionRows.length > 0) await engineCall('analytics store', () => analytics.insert('problem_actions', actionRows));
    if (lateRows.length > 0) await engineCall('analytics store', () => analytics.insert('dead_letters', lateRows));
    const hits = hitRows(work);
    if (hits.length > 0) await engineCall('analytics store', () => analytics.insert(TRIGGER_HITS.name, hits));
    if (rows.length > 0) await engineCall('analytics store', () => analytics.insert('problems', rows));
    await engineCall('control-plane journal', () => controlPlane.record(changes));
    // Before the states: a crash after this publish computes the same message again, which the
    // bus takes as a duplicate; after them, the redelivery would see nothing new to announce.
    if (feed.length > 0 || verdicts.length > 0) {
      // In parts under the bus's limit, one after another: a redelivery makes the same parts,
      // which the bus takes as duplicates by their ids.
      const id = changesId(feed, verdicts);
      const parts = encodeChangeChunks({ changes: feed, verdicts }, changesMessageBytes);
      for (let i = 0; i < parts.length; i++) await engineCall('bus', () => bus.publish(PROBLEM_CHANGES_SUBJECT, parts[i]!, { msgId: i === 0 ? id : `${id}:${i}` }));
    }
    const put = writes.length > 0 ? await engineCall('keyed store', () => keyed.put(writes)) : ({ ok: true } as const);
    if (put.ok) {
      for (const w of writes) remember(w.key, w.expected + 1, w.value, next.get(w.key)!);
      metrics.problemHits.inc({ outcome: 'placed' }, placed);
      if (known > 0) metrics.problemHits.inc({ outcome: 'known' }, known);
      if (tooLate > 0) {
        metrics.problemHits.inc({ outcome: 'too_late' }, tooLate);
        log.warn({ tooLate }, 'trigger hits dated before their key’s late window were dead-lettered');
      }
      return true;
    }
    metrics.problemConflicts.inc(put.conflicts.length);
    for (const key of put.conflicts) forget(key);
    log.warn({ conflicts: put.conflicts.length }, 'another owner wrote these problem keys first; recomputing');
    // What this attempt wrote for them must be superseded by what the next one writes.
    for (const key of put.conflicts) {
      const ids = dirty.get(key) ?? new Set<string>();
      for (const id of written.get(key) ?? []) ids.add(id);
      dirty.set(key, ids);
    }
    return false;
  }

  /** Places a group's hits, closes and actions; throws when it cannot (the edge retries). */
  async function place(messages: readonly Decoded[]): Promise<number[]> {
    const { work, sentAt } = gather(messages);
    const dirty = new Map<string, Set<string>>();
    for (let i = 0; i < MAX_ATTEMPTS; i++) if (await attempt(work, dirty)) return sentAt;
    throw fail('engine.unavailable', { engine: 'keyed store', reason: `problem keys still contended after ${MAX_ATTEMPTS} attempts` });
  }

  /**
   * One group, through the consumer edge. A message that cannot be decoded is dead-lettered; when
   * the group fails for another reason than an engine, its messages are placed one by one, so a
   * poison message fails alone (and is dead-lettered after maxDeliveries) while the others of its
   * partition and of every other partition go on.
   */
  async function processGroup(messages: BusMessage[]): Promise<void> {
    const sentAt: number[] = [];
    await edge.run(messages, async (batch) => {
      const outcomes: Outcome[] = batch.map(() => ok);
      const decoded: Array<Decoded & { index: number }> = [];
      batch.forEach((m, index) => {
        try {
          decoded.push({ envelope: decodeHits(m.data), repair: m.deliveryCount > 1, index });
        } catch (error) {
          outcomes[index] = deadLetter(`not a hits message: ${(error as Error).message}`);
        }
      });
      try {
        sentAt.push(...(await place(decoded)));
      } catch (error) {
        if (isTransient(error) || decoded.length === 1) {
          log.error({ err: error, messages: decoded.length }, 'placing trigger hits failed; they will be delivered again');
          for (const d of decoded) outcomes[d.index] = outcomeOfError(error, RETRY_MS);
          return outcomes;
        }
        log.warn({ err: error, messages: decoded.length }, 'a group of trigger hits failed; placing its messages one by one');
        for (const d of decoded) {
          try {
            sentAt.push(...(await place([d])));
          } catch (alone) {
            outcomes[d.index] = outcomeOfError(alone, RETRY_MS);
          }
        }
      }
      return outcomes;
    });
    const placedAt = ctx.now();
    for (const at of sentAt) metrics.problemLag.observe(Math.max(0, placedAt - at) / 1000);
  }

  const edge = createConsumerEdge(
    { consumer: 'problem-stage', maxDeliveries: ctx.config.maxDeliveries, heartbeatMs: HITS_ACK_WAIT_MS / 3 },
    { analytics, metrics, logger, now: ctx.now },
  );
  const runGroup = createGroupRunner<BusMessage>(
    (group) => processGroup(group),
    (err) => log.error({ err }, 'the problem stage failed unexpectedly'),
    // In-process only: there a group may take many messages of each partition. On JetStream a
    // partition has one message out, so lingering would only hold the partitions longer.
    bus.profile.oneProcess ? { maxMs: MAX_LINGER_MS, now: () => performance.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) } : undefined,
  );
  const consumers: BusConsumer[] = [];
  for (let p = 0; p < ctx.config.problemPartitions; p++) {
    consumers.push(bus.consume(partitionConsumer(p), (batch) => Promise.all(batch.map(runGroup)).then(() => undefined)));
  }
  return {
    async stop() {
      await Promise.all(consumers.map((c) => c.stop()));
    },
  };
}
