/**
 * Feeds on JetStream: a stream with Limits retention (max age, max count, discard old), read by
 * one ordered consumer per tail. An ordered consumer is ephemeral, unacknowledged and in memory
 * on the server; the client checks the sequence of every delivery and re-creates it from the
 * next one after a gap, a lost consumer or a reconnect, so a tail survives a server restart. If
 * its consume ends all the same, the tail backs off and starts a new one from its own cursor.
 */
import {
  type ConsumerMessages,
  DeliverPolicy,
  DiscardPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  nanos,
  type OrderedConsumerOptions,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
} from 'nats';
import type { Logger } from '../../logger.js';
import type { FeedInfo, FeedMessage, FeedSpec, FeedTail } from './bus.port.js';

/**
 * How long a pull waits on the server, and so the beat of its idle heartbeats and the delay of
 * the ordered consumer's own retries after a failed re-creation (nats.js's default is 30 s).
 */
const PULL_EXPIRES_MS = 5000;

export function feedStreamConfig(spec: FeedSpec): Partial<StreamConfig> & { name: string } {
  const aged = spec.maxAgeMs > 0;
  return {
    name: spec.name,
    subjects: spec.subjects,
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: aged ? nanos(spec.maxAgeMs) : 0,
    max_msgs: spec.maxMessages > 0 ? spec.maxMessages : -1,
    // The oldest go: a feed never refuses a publish.
    discard: DiscardPolicy.Old,
    // nats-server refuses a duplicate window longer than the max age.
    duplicate_window: nanos(aged ? Math.min(spec.duplicateWindowMs, spec.maxAgeMs) : spec.duplicateWindowMs),
  };
}

export async function jetStreamFeedInfo(jsm: JetStreamManager, name: string): Promise<FeedInfo> {
  const si = await jsm.streams.info(name);
  const { messages, first_seq: first, last_seq: last } = si.state;
  return { epoch: si.created, firstSeq: messages === 0 ? last + 1 : first, lastSeq: last };
}

export interface JetStreamFeedTailDeps {
  js: JetStreamClient;
  jsm: JetStreamManager;
  logger: Logger;
  /** False while the connection is down: the consumer is then not deleted on stop (it expires). */
  connected(): boolean;
}

export class JetStreamFeedTail implements FeedTail {
  readonly finished: Promise<void>;
  private stopped = false;
  private signalStop!: () => void;
  private readonly stopping = new Promise<void>((resolve) => (this.signalStop = resolve));
  private readonly logger: Logger;

  constructor(
    private readonly name: string,
    /** The next sequence to hand over: fromSeq, clamped to what is held whenever a consumer is created. */
    private next: number,
    private readonly handler: (message: FeedMessage) => void,
    private readonly deps: JetStreamFeedTailDeps,
  ) {
    this.logger = deps.logger.child({ feed: name });
    this.finished = this.run();
  }

  stop(): Promise<void> {
    this.stopped = true;
    this.signalStop();
    return this.finished;
  }

  private async run(): Promise<void> {
    let failures = 0;
    let messages: ConsumerMessages | undefined;
    let deleteConsumer: (() => Promise<unknown>) | undefined;
    while (!this.stopped) {
      try {
        const options = await this.startAt();
        if (this.stopped) break;
        const consumer = await this.deps.js.consumers.get(this.name, options);
        deleteConsumer = () => consumer.delete();
        if (this.stopped) break;
        // consume() creates the server's consumer, retrying on its own: a stop does not wait for it.
        const consuming = consumer.consume({ expires: PULL_EXPIRES_MS, callback: (m) => this.deliver(m) });
        const started = await Promise.race([consuming, this.stopping]);
        if (!started) {
          void consuming.then((m) => m.close()).catch(() => undefined);
          break;
        }
        messages = started;
        failures = 0;
        await Promise.race([messages.closed(), this.stopping]);
        if (this.stopped) break;
        this.logger.warn('feed tail ended by itself, starting again');
        messages = undefined;
        void consumer.delete().catch(() => undefined);
      } catch (err) {
        failures++;
        const log = failures === 1 ? this.logger.warn.bind(this.logger) : this.logger.debug.bind(this.logger);
        log({ err, failures }, 'feed tail cannot read, retrying');
        await this.pause(Math.min(2000, 50 * 2 ** Math.min(failures, 6)));
      }
    }
    await messages?.close();
    // An ordered consumer goes away by itself after 5 min of inactivity; this is just tidier.
    if (deleteConsumer && this.deps.connected()) await deleteConsumer().catch((err: unknown) => this.logger.debug({ err }, 'feed consumer not deleted'));
  }

  /** Where the (re)created consumer starts: this tail's cursor, clamped to what is held. */
  private async startAt(): Promise<Partial<OrderedConsumerOptions>> {
    const info = await jetStreamFeedInfo(this.deps.jsm, this.name);
    if (this.next > info.lastSeq + 1) this.next = info.lastSeq + 1;
    // Below the first held the server starts at the first held, whichever it is by then. Not
    // DeliverPolicy.All: nats.js 2.29 sends opt_start_seq with it, which the server refuses.
    this.next = Math.max(this.next, info.firstSeq, 1);
    return { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: this.next };
  }

  private deliver(m: JsMsg): void {
    if (this.stopped || m.seq < this.next) return;
    this.next = m.seq + 1;
    try {
      this.handler({ seq: m.seq, subject: m.subject, data: m.data, storedAt: Math.floor(m.info.timestampNanos / 1e6) });
    } catch (err) {
      this.logger.error({ err, seq: m.seq }, 'feed handler failed');
    }
  }

  private pause(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), this.stopping]).finally(() => clearTimeout(timer));
  }
}
