/**
 * One consume() call on JetStream: a durable pull consumer and a fetch ▸ handler loop. Errors
 * (server gone, consumer lost with a restarted server) never end the loop: it backs off,
 * recreates the consumer and goes on, so consumers resume by themselves after a reconnect.
 */
import { AckPolicy, type ConsumerConfig, createInbox, DeliverPolicy, type JetStreamManager, type Msg, type NatsConnection, type NatsError, nanos, type Subscription } from 'nats';
import type { Logger } from '../../logger.js';
import type { BatchHandler, BusMessage, ConsumerSpec } from './bus.port.js';

/**
 * How long past its expiry, or past the last message it brought, a pull's answer may still come
 * before the pull counts as lost.
 */
const LOST_AFTER_MS = 1000;

/** The shortest expiry of a pull that waits (the server's answer comes after it). */
const MIN_EXPIRES_MS = 10;

export interface JetStreamConsumerDeps {
  nc: NatsConnection;
  jsm: JetStreamManager;
  logger: Logger;
  redelivered(): void;
}

interface Tracked {
  readonly message: BusMessage;
  open: boolean;
  /** After this the server has handed the message to someone else: it is no longer ours to nak. */
  deadline: number;
}

async function ensureConsumer(jsm: JetStreamManager, spec: ConsumerSpec): Promise<void> {
  const changeable = {
    ack_wait: nanos(spec.ackWaitMs),
    max_deliver: spec.maxDeliver ?? -1,
    ...(spec.maxAckPending === undefined ? {} : { max_ack_pending: spec.maxAckPending }),
    ...(spec.filterSubject === undefined ? {} : { filter_subject: spec.filterSubject }),
  };
  const config: Partial<ConsumerConfig> = {
    durable_name: spec.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ...changeable,
  };
  try {
    await jsm.consumers.add(spec.stream, config);
  } catch (error) {
    // add refuses an existing durable whose settings changed; update takes the ones that may.
    try {
      await jsm.consumers.update(spec.stream, spec.durable, changeable);
    } catch {
      throw error;
    }
  }
}

/** From the ack subject: $JS.ACK.<stream>.<consumer>.<delivered>.…, or with <domain>.<account> after ACK. */
function deliveryCountOf(reply: string | undefined): number {
  const tokens = (reply ?? '').split('.');
  const count = Number(tokens[tokens.length === 9 ? 4 : 6]);
  return Number.isInteger(count) && count > 0 ? count : 1;
}

export class JetStreamConsumer {
  readonly finished: Promise<void>;
  private stopped = false;
  private signalStop!: () => void;
  private readonly stopping = new Promise<void>((resolve) => (this.signalStop = resolve));
  private readonly open = new Set<Tracked>();
  private readonly logger: Logger;
  /**
   * One subscription for all of this consumer's pulls, each pull answered on a subject of its own
   * under it: a message that comes for a pull already given up (its answer late, see pull()) is
   * still seen, and handed back at once instead of waiting out ackWait (60 s for the event worker).
   */
  private readonly replyPrefix = `${createInbox()}.`;
  private inboxSubscription: Subscription | undefined;
  private pulls = 0;
  /** The pull in flight: its reply subject, and what takes its answers (pulls go one at a time). */
  private current: { subject: string; take: (err: NatsError | null, msg: Msg) => void } | undefined;

  constructor(
    private readonly spec: ConsumerSpec,
    private readonly handler: BatchHandler,
    private readonly deps: JetStreamConsumerDeps,
  ) {
    this.logger = deps.logger.child({ stream: spec.stream, durable: spec.durable });
    this.finished = this.run();
  }

  /** The pull in flight is left to end by itself (within maxWaitMs): see fetch(). */
  stop(): Promise<void> {
    this.stopped = true;
    this.signalStop();
    return this.finished;
  }

  private async run(): Promise<void> {
    let ready = false;
    let failures = 0;
    while (!this.stopped) {
      try {
        if (!ready) {
          await Promise.race([ensureConsumer(this.deps.jsm, this.spec), this.stopping]);
          ready = !this.stopped;
          continue;
        }
        const msgs = await this.fetch();
        failures = 0;
        if (this.stopped) {
          for (const m of msgs) this.safely(() => m.respond('-NAK'));
          break;
        }
        if (msgs.length > 0) await this.handle(msgs);
      } catch (err) {
        ready = false;
        failures++;
        const log = failures === 1 ? this.logger.warn.bind(this.logger) : this.logger.debug.bind(this.logger);
        log({ err, failures }, 'bus consumer cannot fetch, retrying');
        await this.pause(Math.min(2000, 50 * 2 ** Math.min(failures, 6)));
      }
    }
    const now = Date.now();
    for (const t of this.open) if (t.open && t.deadline > now) t.message.nak();
    this.open.clear();
    this.safely(() => this.inboxSubscription?.unsubscribe());
  }

  /** The subscription the pulls are answered on, made again after the connection lost it. */
  private subscribeInbox(): void {
    if (this.inboxSubscription && !this.inboxSubscription.isClosed()) return;
    this.inboxSubscription = this.deps.nc.subscribe(`${this.replyPrefix}*`, {
      callback: (err, msg) => {
        const current = this.current;
        if (err) return current?.take(err, msg);
        // A status (404, 408) comes on the reply subject of its pull: one of a pull over is dropped.
        if ((msg.headers?.code ?? 0) !== 0) {
          if (current && (msg.subject === current.subject || !msg.subject.startsWith(this.replyPrefix))) current.take(null, msg);
          return;
        }
        // A message comes on its own subject, not the pull's: whichever pull is open takes it (it
        // is this consumer's all the same); with none open, it is handed back.
        if (current) return current.take(null, msg);
        this.logger.warn({ subject: msg.subject, pulls: this.pulls }, 'a message came for a pull already given up: handed back for redelivery');
        this.safely(() => msg.respond('-NAK'));
      },
    });
  }

  /**
   * The next batch. A consumer that may wait (maxWaitMs > 0) sends one pull that gathers up to
   * maxBatch messages for that long. One that may not (maxWaitMs 0) takes what is there at once
   * (a no_wait pull); only when nothing is, it waits for the next message (a pull of one, for the
   * shortest expiry) and adds what came beside it. A pull of several that waits is not used for
   * it: nats-server (2.9.10, measured) drops such a pull without its closing 408 when the pull
   * expires while it is still sending (large RECORDS messages), so the client only learned of its
   * end LOST_AFTER_MS later, and the event worker stood still about 1 s per pull.
   */
  private async fetch(): Promise<Msg[]> {
    const batch = Math.max(1, this.spec.maxBatch);
    if (this.spec.maxWaitMs > 0) return this.pull(batch, Math.max(MIN_EXPIRES_MS, this.spec.maxWaitMs));
    const ready = await this.pull(batch, 0);
    if (ready.length > 0 || this.stopped) return ready;
    const first = await this.pull(1, MIN_EXPIRES_MS);
    if (first.length === 0 || batch === 1 || this.stopped) return first;
    // The first message is already ours: a failure of this pull leaves it to be handled alone.
    const beside = await this.pull(batch - 1, 0).catch(() => []);
    return [...first, ...beside];
  }

  /**
   * One pull request for up to `batch` messages, waiting `waitMs` for them (0: a no_wait pull, what
   * is there at once). The server ends the pull with a status (404 or 408), unless the batch is full. The client listens until then. The deprecated
   * js.fetch() stops listening on its own timer, just before the server's expiry; a message sent
   * into that gap came back with a wrong deliveryCount (1, 2, then 1 again with nats-server
   * 2.9.10), which defeats maxDeliver. consumer.fetch() does wait for the server, but refuses
   * waits under 1 s.
   */
  private pull(batch: number, waitMs: number): Promise<Msg[]> {
    const { nc } = this.deps;
    const request = waitMs > 0 ? { batch, expires: nanos(waitMs) } : { batch, no_wait: true };
    this.subscribeInbox();
    const subject = `${this.replyPrefix}${++this.pulls}`;
    return new Promise<Msg[]>((resolve, reject) => {
      const out: Msg[] = [];
      let done = false;
      const finish = (err?: Error): void => {
        done = true;
        clearTimeout(lost);
        if (this.current === mine) this.current = undefined;
        if (err && out.length === 0) reject(err);
        else resolve(out);
      };
      const mine = {
        subject,
        take: (err: NatsError | null, msg: Msg): void => {
          if (err) return finish(err);
          const code = msg.headers?.code ?? 0;
          if (code === 0) {
            out.push(msg);
            if (out.length >= batch) finish();
            else lost.refresh();
          } else if (code === 404 || code === 408) finish();
          else if (code >= 300) finish(new Error(`pull refused: ${code} ${msg.headers?.description ?? ''}`.trim()));
        },
      };
      this.current = mine;
      // Only when the answer never comes: the connection dropped meanwhile. A message that reaches
      // a pull given up is handed back to be delivered again (subscribeInbox), a redelivery all the
      // same, so the pull is not given up while its messages are still coming in: a no_wait pull
      // of 64 large RECORDS messages may take over a second on a busy machine (the likely cause of
      // a problems bench run whose drain took 120 s, with 59 messages delivered again). After an event loop held up for longer than this (a large
      // batch decoded in one go), the timer is due before the socket's data is read, and that
      // data may hold a message delivered to this pull (seen in the problems bench: a partition
      // stalled for 30 s): the timer lets pending input go first, and waits on if it brought one.
      const lost: NodeJS.Timeout = setTimeout(() => {
        const seen = out.length;
        setImmediate(() => {
          if (done) return;
          if (out.length === seen) finish();
          else lost.refresh();
        });
      }, waitMs + LOST_AFTER_MS);
      try {
        nc.publish(`$JS.API.CONSUMER.MSG.NEXT.${this.spec.stream}.${this.spec.durable}`, JSON.stringify(request), { reply: subject });
      } catch (err) {
        finish(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  private async handle(msgs: Msg[]): Promise<void> {
    const batch = msgs.map((m) => this.track(m));
    try {
      await this.handler(batch.map((t) => t.message));
    } catch (err) {
      this.logger.error({ err, size: batch.length }, 'batch handler failed');
      for (const t of batch) if (t.open) t.message.nak();
    }
    const now = Date.now();
    for (const t of this.open) if (!t.open || t.deadline <= now) this.open.delete(t);
  }

  private track(m: Msg): Tracked {
    const deliveryCount = deliveryCountOf(m.reply);
    if (deliveryCount > 1) this.deps.redelivered();
    const ackWaitMs = this.spec.ackWaitMs;
    const settle = (action: () => void): void => {
      if (!t.open) return;
      t.open = false;
      this.safely(action);
    };
    const t: Tracked = {
      open: true,
      deadline: Date.now() + ackWaitMs,
      message: {
        subject: m.subject,
        data: m.data,
        msgId: m.headers?.get('Nats-Msg-Id') || undefined,
        deliveryCount,
        ack: () => settle(() => m.respond('+ACK')),
        term: () => settle(() => m.respond('+TERM')),
        nak: (delayMs?: number) => settle(() => m.respond(delayMs ? `-NAK ${JSON.stringify({ delay: nanos(delayMs) })}` : '-NAK')),
        working: () => {
          if (!t.open) return;
          t.deadline = Date.now() + ackWaitMs;
          this.safely(() => m.respond('+WPI'));
        },
      },
    };
    this.open.add(t);
    return t;
  }

  /** An ack on a closed connection throws; the message simply comes back after ackWait. */
  private safely(action: () => void): void {
    try {
      action();
    } catch (err) {
      this.logger.debug({ err }, 'ack not sent');
    }
  }

  private pause(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), this.stopping]).finally(() => clearTimeout(timer));
  }
}
