/**
 * The in-process bus of the embedded mode (DESIGN §2): JetStream's semantics as far as the bus
 * port promises them, without a server. The one difference is deliberate: publish resolves only
 * once a consumer has acked (or termed) the message, since nothing in memory survives a restart;
 * so an embedded ingress, too, answers 200 only for records already stored downstream. Streams
 * declared `logged` are the exception when the bus has a log directory: their messages are
 * written to disk (memory-log.ts), publish resolves once they are, and a restart delivers again
 * whatever was not acked. Feeds (memory-feed.ts) live in memory only: a publish on one resolves
 * once it is stored, and a restart starts them empty, under a new epoch.
 */
import type { Logger } from '../../logger.js';
import {
  type BatchHandler,
  type Bus,
  type BusConsumer,
  type BusStats,
  BusUnavailableError,
  type ConsumerSpec,
  type FeedInfo,
  type FeedMessage,
  type FeedSpec,
  type FeedTail,
  type PublishAck,
  type PublishOptions,
  publishInOrder,
  type StreamSpec,
} from './bus.port.js';
import type { Delivery, MemoryDurable, Pull } from './memory-durable.js';
import { MemoryFeed } from './memory-feed.js';
import { openMemoryBusLog } from './memory-log.js';
import { MemoryStream, type StreamEntry } from './memory-stream.js';
import { subjectMatches, subjectsOverlap } from './subject-match.js';

export interface MemoryBusConfig {
  /** The LMDB directory of the log of `logged` streams; without it every stream is `consumed`. */
  logPath?: string;
}

export function createMemoryBus(deps: { logger: Logger }, config: MemoryBusConfig = {}): Bus {
  const logger = deps.logger.child({ component: 'bus', bus: 'memory' });
  const log = config.logPath === undefined ? undefined : openMemoryBusLog(config.logPath, (err) => logger.error({ err }, 'removing an acked message from the bus log failed'));
  const streams = new Map<string, MemoryStream>();
  const feeds = new Map<string, MemoryFeed>();
  const workers = new Set<MemoryWorker>();
  let redeliveries = 0;
  let closed = false;

  const events = {
    redelivered: () => void redeliveries++,
    dropped: (stream: string, durable: string, entry: StreamEntry) => logger.warn({ stream, durable, seq: entry.seq, msgId: entry.msgId }, 'message dropped after maxDeliver'),
  };

  const streamFor = (subject: string): MemoryStream | undefined => {
    for (const s of streams.values()) if (s.spec.subjects.some((p) => subjectMatches(p, subject))) return s;
    return undefined;
  };
  const feedFor = (subject: string): MemoryFeed | undefined => {
    for (const f of feeds.values()) if (f.spec.subjects.some((p) => subjectMatches(p, subject))) return f;
    return undefined;
  };
  /** Streams and feeds share one subject space and one name space, as on JetStream. */
  const checkSubjects = (kind: 'stream' | 'feed', name: string, subjects: string[]): void => {
    const streamSpecs = [...streams.values()].map((s) => ({ kind: 'stream', spec: s.spec }));
    const feedSpecs = [...feeds.values()].map((f) => ({ kind: 'feed', spec: f.spec }));
    for (const other of [...streamSpecs, ...feedSpecs]) {
      if (other.spec.name === name) {
        if (other.kind !== kind) throw new Error(`${kind} ${name}: a ${other.kind} of that name exists`);
        continue;
      }
      const clash = subjects.find((a) => other.spec.subjects.some((b) => subjectsOverlap(a, b)));
      if (clash) throw new Error(`subjects of ${kind} ${name} overlap with ${other.kind} ${other.spec.name} (${clash})`);
    }
  };
  const feedNamed = (name: string): MemoryFeed => {
    const feed = feeds.get(name);
    if (!feed) throw new Error(`feed ${name} not found: ensureFeed first`);
    return feed;
  };
  const handlerFailed = (err: unknown, feed: string, seq: number): void => logger.error({ err, feed, seq }, 'feed handler failed');

  return {
    kind: 'memory',
    profile: { oneProcess: true, acksMayBeLost: false },
    maxMessageBytes: Number.POSITIVE_INFINITY,

    async ensureStream(spec: StreamSpec): Promise<void> {
      if (closed) throw new BusUnavailableError('bus closed');
      checkSubjects('stream', spec.name, spec.subjects);
      const existing = streams.get(spec.name);
      if (!existing) streams.set(spec.name, new MemoryStream({ ...spec }, events, log));
      else if (existing.spec.retention !== spec.retention) {
        throw new Error(`stream ${spec.name}: retention cannot change from ${existing.spec.retention} to ${spec.retention}`);
      } else existing.spec = { ...spec };
    },

    async publish(subject: string, data: Uint8Array, options: PublishOptions): Promise<PublishAck> {
      if (closed) throw new BusUnavailableError('bus closed');
      const feed = feedFor(subject);
      if (feed) return feed.publish(subject, data, options.msgId);
      const stream = streamFor(subject);
      if (!stream) throw new BusUnavailableError(`no stream captures subject ${subject}`);
      if (stream.logged) {
        await stream.room(options.timeoutMs);
        if (closed) throw new BusUnavailableError('bus closed');
      }
      const now = Date.now();
      const original = stream.duplicateOf(options.msgId, now);
      const entry = original ?? stream.store(subject, data, options.msgId, now);
      if (stream.logged) return { stream: stream.name, seq: entry.seq, duplicate: original !== undefined };
      return outcomeOf(stream.name, entry, original !== undefined, options.timeoutMs);
    },

    async publishMany(this: Bus, items, options) {
      if (closed) throw new BusUnavailableError('bus closed');
      const stream = items.length > 0 && !items.some((item) => feedFor(item.subject)) ? streamFor(items[0]!.subject) : undefined;
      // The messages of one logged stream go to its log in one transaction; the rest one by one.
      if (!stream?.logged || items.some((item) => streamFor(item.subject) !== stream))
        return publishInOrder((subject, data, o) => this.publish(subject, data, o), items, options.timeoutMs);
      await stream.room(options.timeoutMs);
      if (closed) throw new BusUnavailableError('bus closed');
      const now = Date.now();
      const seen = new Set<string>();
      const fresh = items.filter((item) => {
        if (seen.has(item.msgId) || stream.duplicateOf(item.msgId, now)) return false;
        seen.add(item.msgId);
        return true;
      });
      if (fresh.length > 0) stream.storeMany(fresh, now);
    },

    consume(spec: ConsumerSpec, handler: BatchHandler): BusConsumer {
      if (closed) throw new Error('bus closed');
      const stream = streams.get(spec.stream);
      if (!stream) throw new Error(`stream ${spec.stream} not found: ensureStream first`);
      const profiled = { ...spec, ...spec.inProcess };
      const worker = new MemoryWorker(stream.durable(profiled), profiled, handler, logger);
      workers.add(worker);
      void worker.finished.then(() => workers.delete(worker));
      return { stop: () => worker.stop() };
    },

    async ensureFeed(spec: FeedSpec): Promise<void> {
      if (closed) throw new BusUnavailableError('bus closed');
      checkSubjects('feed', spec.name, spec.subjects);
      const existing = feeds.get(spec.name);
      if (existing) existing.spec = { ...spec };
      else feeds.set(spec.name, new MemoryFeed({ ...spec }, handlerFailed));
    },

    async feedInfo(name: string): Promise<FeedInfo> {
      if (closed) throw new BusUnavailableError('bus closed');
      return feedNamed(name).info();
    },

    tailFeed(name: string, fromSeq: number, handler: (message: FeedMessage) => void): FeedTail {
      if (closed) throw new Error('bus closed');
      return feedNamed(name).tail(fromSeq, handler);
    },

    // Feeds are left out: nothing on them is acknowledged, so nothing is pending.
    async stats(): Promise<BusStats> {
      const pending: Record<string, number> = {};
      const consumers: BusStats['consumers'] = [];
      for (const s of streams.values()) {
        pending[s.name] = s.size;
        for (const d of s.durables.values()) consumers.push({ stream: s.name, consumer: d.name, pending: d.pending() });
      }
      return { pending, consumers, redeliveries };
    },

    async ping(): Promise<void> {
      if (closed) throw new BusUnavailableError('bus closed');
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      const stopping = [...workers].map((w) => w.stop());
      // Fail waiting publishes first: a handler awaiting one of them must not block its own stop.
      for (const s of streams.values()) s.close();
      for (const f of feeds.values()) f.close();
      await Promise.all(stopping);
      streams.clear();
      feeds.clear();
      await log?.close();
    },
  };
}

function outcomeOf(stream: string, entry: StreamEntry, duplicate: boolean, timeoutMs: number | undefined): Promise<PublishAck> {
  const ack: PublishAck = { stream, seq: entry.seq, duplicate };
  if (timeoutMs === undefined) return entry.outcome.then(() => ack);
  return new Promise<PublishAck>((resolve, reject) => {
    const timer = setTimeout(() => reject(new BusUnavailableError(`no consumer acknowledged the message within ${timeoutMs} ms`)), timeoutMs);
    entry.outcome.then(
      () => {
        clearTimeout(timer);
        resolve(ack);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/** One consume() call: a loop of pull ▸ handler over a durable it may share with others. */
class MemoryWorker {
  readonly finished: Promise<void>;
  private stopped = false;
  private pull: Pull | undefined;
  /** Delivered to this worker and not yet settled: they go back at once on stop. */
  private readonly open = new Set<Delivery>();

  constructor(
    private readonly durable: MemoryDurable,
    private readonly spec: ConsumerSpec,
    private readonly handler: BatchHandler,
    private readonly logger: Logger,
  ) {
    this.finished = this.run();
  }

  stop(): Promise<void> {
    this.stopped = true;
    if (this.pull) this.durable.cancel(this.pull);
    return this.finished;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.pull = this.durable.pull(this.spec.maxBatch, this.spec.maxWaitMs);
      const batch = await this.pull.done;
      this.pull = undefined;
      if (this.stopped) {
        for (const d of batch) this.durable.unclaim(d);
        break;
      }
      // Only a closed durable answers a pull with nothing.
      if (batch.length === 0) break;
      for (const d of batch) this.open.add(d);
      try {
        await this.handler(batch.map((d) => d.message));
      } catch (err) {
        this.logger.error({ err, stream: this.spec.stream, durable: this.spec.durable, size: batch.length }, 'batch handler failed');
        for (const d of batch) if (this.durable.isOpen(d)) d.message.nak();
      }
      for (const d of this.open) if (!this.durable.isOpen(d)) this.open.delete(d);
    }
    for (const d of this.open) if (this.durable.isOpen(d)) d.message.nak();
    this.open.clear();
  }
}
