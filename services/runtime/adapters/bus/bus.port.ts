/**
 * The bus port (DESIGN §2): JetStream in distributed mode, an in-process queue with the same
 * semantics in embedded mode. Messages are persisted per stream, consumed by durable pull
 * consumers that share work, acknowledged explicitly, and redelivered when not acknowledged in
 * time. A message id makes a republish of the same message harmless within the stream's
 * duplicate window.
 */
export interface StreamSpec {
  /** Stream name, e.g. `RECORDS`. */
  name: string;
  /** Subjects the stream captures, e.g. `records.>`. */
  subjects: string[];
  /** Window in which a message id already seen is dropped as a duplicate. */
  duplicateWindowMs: number;
  /** `workqueue`: a message is gone once acknowledged; `limits`: kept until max age. */
  retention: 'workqueue' | 'limits';
  /** Messages above this count make publish fail with BusUnavailableError (backpressure). */
  maxMessages?: number;
  /** Message bytes above this bound make publish fail with BusUnavailableError, like maxMessages. */
  maxBytes?: number;
  /**
   * In-process bus only: what a publish waits for. `consumed` (the default): a consumer's ack,
   * since nothing in memory survives a restart. `logged`: the message's write to the bus's log
   * on disk, from which whatever was not acked is delivered again after a restart (as JetStream
   * does); a bus opened without a log keeps such a stream `consumed`.
   */
  inProcess?: 'consumed' | 'logged';
  /**
   * While the stream's messages hold more bytes than this, a publish waits (within its timeout)
   * for the consumers to bring them under it before it writes, then is refused. Producers go at
   * the consumers' pace, answering more slowly, instead of running into the bound's refusals.
   * In-process: `logged` streams only (memory-stream.ts); JetStream: jetstream-pace.ts.
   */
  paceBytes?: number;
}

export interface ConsumerSpec {
  stream: string;
  /** Durable name: consumers with the same name share (split) the messages. */
  durable: string;
  filterSubject?: string;
  /** Upper bound of messages handed to one handler call. */
  maxBatch: number;
  /** How long a fetch waits to fill a batch before handing over what it has. */
  maxWaitMs: number;
  /** A delivered message not acknowledged within this time is delivered again. */
  ackWaitMs: number;
  /** After this many deliveries a message is no longer redelivered (-1: no limit). */
  maxDeliver?: number;
  /**
   * Messages delivered and not yet acknowledged, across every worker sharing the durable (no
   * limit when absent). 1 makes the durable strictly serial: one message at a time, in order,
   * held by one worker until it acks (or dies and the ack wait passes).
   */
  maxAckPending?: number;
  /**
   * This consumer's profile on the in-process bus, where one process holds every worker of every
   * durable: what it sets there instead (e.g. wider batches, no pull wait). JetStream ignores it.
   */
  inProcess?: Partial<Pick<ConsumerSpec, 'maxBatch' | 'maxWaitMs' | 'maxAckPending'>>;
}

/**
 * Where the two buses differ in what a consumer may assume, named by what it means: consumers
 * ask the profile, never which bus it is.
 */
export interface BusProfile {
  /**
   * Every worker of every durable runs in this process (the in-process bus): a worker may
   * pipeline its work and group widely, and no other process takes over what it leaves at a stop.
   */
  oneProcess: boolean;
  /**
   * A message acknowledged just before the server went down may come back as a first delivery
   * (JetStream does not confirm acks), so even a first delivery may have been processed before.
   */
  acksMayBeLost: boolean;
}

export interface BusMessage {
  readonly subject: string;
  readonly data: Uint8Array;
  readonly msgId: string | undefined;
  /** 1 on the first delivery, 2 on the first redelivery, ... */
  readonly deliveryCount: number;
  /** The message is done: it will not be delivered again. */
  ack(): void;
  /** Processing failed: deliver again after `delayMs` (default: at once). */
  nak(delayMs?: number): void;
  /** The message can never be processed: drop it without redelivery. */
  term(): void;
  /** Still working on it: postpone the ack deadline. */
  working(): void;
}

export interface PublishAck {
  stream: string;
  seq: number;
  /** True when the message id was already stored within the duplicate window. */
  duplicate: boolean;
}

export interface PublishOptions {
  msgId: string;
  /** Give up (BusUnavailableError) when no acknowledgement arrives in this time. */
  timeoutMs?: number;
}

/** One message of publishMany. */
export interface PublishItem {
  readonly subject: string;
  readonly data: Uint8Array;
  readonly msgId: string;
}

export interface BusConsumer {
  /** Stops fetching and waits for the handler call in progress; unacked messages return. */
  stop(): Promise<void>;
}

export interface BusStats {
  /** Messages stored and not yet acknowledged, per stream. */
  pending: Record<string, number>;
  /** Per durable consumer: messages of its stream it has not yet acknowledged (its lag). */
  consumers: Array<{ stream: string; consumer: string; pending: number }>;
  /** Messages delivered more than once since start. */
  redeliveries: number;
}

export type BatchHandler = (batch: BusMessage[]) => Promise<void>;

/**
 * A stream every reader reads whole, kept for a while: a live feed with a short memory (e.g. the
 * problem changes behind Server-Sent Events: every API replica sees every change). Nothing on a
 * feed is acknowledged, so feeds are not in stats(). Its subjects overlap no stream's.
 */
export interface FeedSpec {
  /** Stream name, e.g. `PROBLEM_CHANGES`. */
  name: string;
  /** Subjects the feed captures, e.g. `problems.changes`. */
  subjects: string[];
  /** A publish with a message id seen in this window is a duplicate, not stored again (at most maxAgeMs). */
  duplicateWindowMs: number;
  /** Messages older than this are dropped (0: no age limit). */
  maxAgeMs: number;
  /** Beyond this count the oldest are dropped: a publish is never refused (0: no count limit). */
  maxMessages: number;
}

export interface FeedMessage {
  seq: number;
  subject: string;
  data: Uint8Array;
  /** ms since epoch when stored */
  storedAt: number;
}

export interface FeedInfo {
  /** Names this feed's sequence space: changes when the feed was re-created (in-process: every start), so a sequence from another epoch means nothing. */
  epoch: string;
  /** The oldest sequence still held (lastSeq + 1 when empty). */
  firstSeq: number;
  /** The newest sequence stored (0 when none ever). */
  lastSeq: number;
}

export interface FeedTail {
  /** Ends delivery: the handler is not called once this has resolved. */
  stop(): Promise<void>;
}

export interface Bus {
  readonly kind: 'memory' | 'jetstream';
  readonly profile: BusProfile;
  /**
   * The largest message the bus takes, headers included (NATS's max_payload, 1 MB by default;
   * unbounded in-process): publishers size their messages under it.
   */
  readonly maxMessageBytes: number;
  /** Creates or updates the stream; idempotent. */
  ensureStream(spec: StreamSpec): Promise<void>;
  /**
   * Resolves once the message is durably accepted: JetStream's publish ack; in-process, once a
   * consumer has acknowledged it (so the embedded mode answers 200 only for stored records), or,
   * for a `logged` stream, once it is in the bus's log on disk.
   * Rejects with BusUnavailableError when the bus cannot take it.
   */
  publish(subject: string, data: Uint8Array, options: PublishOptions): Promise<PublishAck>;
  /**
   * Several messages, as publish would take them: those of one subject stored in the order
   * given, a failure leaving the rest of that subject unpublished (rejecting once all have
   * settled), the subjects side by side. In-process, the messages of a `logged` stream are
   * written to its log in one transaction, all or none.
   */
  publishMany(items: readonly PublishItem[], options: { timeoutMs?: number }): Promise<void>;
  consume(spec: ConsumerSpec, handler: BatchHandler): BusConsumer;
  stats(): Promise<BusStats>;
  ping(): Promise<void>;
  /** Creates or updates a feed; idempotent. A publish on its subjects resolves once stored. */
  ensureFeed(spec: FeedSpec): Promise<void>;
  feedInfo(name: string): Promise<FeedInfo>;
  /**
   * Calls `handler` with every message of the feed from sequence `fromSeq` on (inclusive; those
   * still held), in order, then with each new one as it is stored, until stop(). Each tail reads
   * the whole feed for itself. `fromSeq` past lastSeq: only new ones.
   */
  tailFeed(name: string, fromSeq: number, handler: (message: FeedMessage) => void): FeedTail;
  /** Stops every consumer (see BusConsumer.stop) and every feed tail, and closes the connection. */
  close(): Promise<void>;
}

/** The bus cannot accept a message now (down, timed out, or its backlog is over the bound). */
export class BusUnavailableError extends Error {
  override readonly name = 'BusUnavailableError';
  constructor(
    message: string,
    readonly retryAfterSeconds = 1,
    /** `cause`: what refused it, e.g. a full disk under the bus log (`storage.full`). */
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** publishMany from publish: each subject's messages in order, the subjects side by side. */
export async function publishInOrder(
  publish: (subject: string, data: Uint8Array, options: PublishOptions) => Promise<unknown>,
  items: readonly PublishItem[],
  timeoutMs: number | undefined,
): Promise<void> {
  const bySubject = new Map<string, PublishItem[]>();
  for (const item of items) {
    const list = bySubject.get(item.subject);
    if (list) list.push(item);
    else bySubject.set(item.subject, [item]);
  }
  const results = await Promise.allSettled(
    [...bySubject.values()].map(async (list) => {
      for (const item of list) await publish(item.subject, item.data, { msgId: item.msgId, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
    }),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
