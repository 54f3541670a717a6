/**
 * The bus on NATS JetStream (distributed mode, DESIGN §2). Streams are file-backed, consumers
 * are durable pull consumers (jetstream-consumer.ts); feeds are Limits streams read by ordered
 * consumers (jetstream-feed.ts). The connection retries forever, so a restarted nats-server is
 * picked up again without restarting the process; meanwhile publish fails fast with
 * BusUnavailableError and the ingress answers 503.
 */
import { connect, DiscardPolicy, ErrorCode, type JetStreamManager, type NatsConnection, NatsError, nanos, RetentionPolicy, StorageType, type StreamConfig } from 'nats';
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
import { JetStreamConsumer } from './jetstream-consumer.js';
import { feedStreamConfig, JetStreamFeedTail, jetStreamFeedInfo } from './jetstream-feed.js';
import { createStreamPace } from './jetstream-pace.js';

export interface JetStreamBusConfig {
  url: string;
  /** Connection name shown by the server's monitoring. */
  name?: string;
}

const API_TIMEOUT_MS = 5000;
const DEFAULT_PUBLISH_TIMEOUT_MS = 5000;
const PING_TIMEOUT_MS = 2000;
const CLOSE_TIMEOUT_MS = 5000;

const withoutCredentials = (url: string): string => url.replace(/\/\/[^@/]*@/, '//');

/** Errors that say "not now" rather than "wrong": the caller should retry later. */
function isUnavailable(err: unknown): boolean {
  if (!(err instanceof NatsError)) return false;
  const codes: string[] = [ErrorCode.Timeout, ErrorCode.NoResponders, ErrorCode.ConnectionClosed, ErrorCode.Disconnect, ErrorCode.ConnectionDraining];
  return codes.includes(err.code);
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export async function createJetStreamBus(config: JetStreamBusConfig, deps: { logger: Logger }): Promise<Bus> {
  const logger = deps.logger.child({ component: 'bus', bus: 'jetstream', url: withoutCredentials(config.url) });
  const nc = await connect({
    servers: config.url,
    ...(config.name === undefined ? {} : { name: config.name }),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    reconnectJitter: 100,
  });
  // A publish made while disconnected is lost at the next reconnect attempt (nats.js resets its
  // outbound buffer then), so it fails at once rather than at its timeout.
  let connected = true;
  void watchConnection(nc, logger, (up) => (connected = up));
  let jsm: JetStreamManager;
  try {
    jsm = await nc.jetstreamManager({ timeout: API_TIMEOUT_MS });
  } catch (err) {
    await nc.close();
    throw new Error(`JetStream is not available at ${withoutCredentials(config.url)}: ${describe(err)}`, { cause: err });
  }
  const js = nc.jetstream({ timeout: API_TIMEOUT_MS });
  const streams = new Map<string, StreamSpec>();
  const pace = createStreamPace(async (name) => (await jsm.streams.info(name)).state.bytes);
  const consumers = new Set<JetStreamConsumer>();
  const tails = new Set<JetStreamFeedTail>();
  let redeliveries = 0;
  let closed = false;

  const unavailable = (what: string, err: unknown): BusUnavailableError => new BusUnavailableError(`${what}: ${describe(err)}`);

  /** Creates the stream, or updates it when it exists (add refuses a changed configuration). */
  const upsertStream = async (cfg: Partial<StreamConfig> & { name: string }): Promise<void> => {
    try {
      await jsm.streams.add(cfg);
    } catch (addError) {
      if (isUnavailable(addError)) throw unavailable(`stream ${cfg.name} not created`, addError);
      try {
        await jsm.streams.update(cfg.name, cfg);
      } catch (err) {
        if (isUnavailable(err)) throw unavailable(`stream ${cfg.name} not updated`, err);
        throw new Error(`stream ${cfg.name} cannot be created (${describe(addError)}) nor updated (${describe(err)})`, { cause: err });
      }
    }
  };

  return {
    kind: 'jetstream',
    profile: { oneProcess: false, acksMayBeLost: true },
    // The server's limit, as it announced it when the connection was made.
    get maxMessageBytes() {
      return nc.info?.max_payload ?? 1024 * 1024;
    },

    async ensureStream(spec: StreamSpec): Promise<void> {
      const bounded = spec.maxMessages !== undefined && spec.maxMessages >= 0;
      const boundedBytes = spec.maxBytes !== undefined && spec.maxBytes >= 0;
      await upsertStream({
        name: spec.name,
        subjects: spec.subjects,
        retention: spec.retention === 'workqueue' ? RetentionPolicy.Workqueue : RetentionPolicy.Limits,
        storage: StorageType.File,
        duplicate_window: nanos(spec.duplicateWindowMs),
        max_msgs: bounded ? spec.maxMessages : -1,
        max_bytes: boundedBytes ? spec.maxBytes : -1,
        // Refusing the new message is what turns a full stream into backpressure on publish.
        discard: bounded || boundedBytes ? DiscardPolicy.New : DiscardPolicy.Old,
      });
      streams.set(spec.name, spec);
      pace.configure(spec);
    },

    async publish(subject: string, data: Uint8Array, options: PublishOptions): Promise<PublishAck> {
      if (closed) throw new BusUnavailableError('bus closed');
      if (!connected) throw new BusUnavailableError('NATS connection lost, reconnecting');
      const timeoutMs = options.timeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS;
      const deadline = Date.now() + timeoutMs;
      await pace.room(subject, timeoutMs);
      try {
        const ack = await js.publish(subject, data, { msgID: options.msgId, timeout: Math.max(1, deadline - Date.now()) });
        if (!ack.duplicate) pace.added(ack.stream, data.byteLength);
        return { stream: ack.stream, seq: ack.seq, duplicate: ack.duplicate };
      } catch (err) {
        // Timeout, no responders, closed connection, a full stream: all mean "try again later".
        throw unavailable(`publish to ${subject} not acknowledged`, err);
      }
    },

    publishMany(this: Bus, items, options) {
      return publishInOrder((subject, data, o) => this.publish(subject, data, o), items, options.timeoutMs);
    },

    consume(spec: ConsumerSpec, handler: BatchHandler): BusConsumer {
      if (closed) throw new Error('bus closed');
      const consumer = new JetStreamConsumer(spec, handler, { nc, jsm, logger, redelivered: () => void redeliveries++ });
      consumers.add(consumer);
      void consumer.finished.then(() => consumers.delete(consumer));
      return { stop: () => consumer.stop() };
    },

    async ensureFeed(spec: FeedSpec): Promise<void> {
      if (closed) throw new BusUnavailableError('bus closed');
      await upsertStream(feedStreamConfig(spec));
    },

    async feedInfo(name: string): Promise<FeedInfo> {
      if (closed) throw new BusUnavailableError('bus closed');
      try {
        return await jetStreamFeedInfo(jsm, name);
      } catch (err) {
        if (isUnavailable(err)) throw unavailable(`feed ${name} unavailable`, err);
        throw err;
      }
    },

    /** A feed another process created works as well: the tail waits (retrying) until it exists. */
    tailFeed(name: string, fromSeq: number, handler: (message: FeedMessage) => void): FeedTail {
      if (closed) throw new Error('bus closed');
      const tail = new JetStreamFeedTail(name, fromSeq, handler, { js, jsm, logger, connected: () => connected });
      tails.add(tail);
      void tail.finished.then(() => tails.delete(tail));
      return { stop: () => tail.stop() };
    },

    // Feeds are left out (only the streams of ensureStream): nothing on them is acknowledged.
    async stats(): Promise<BusStats> {
      const pending: Record<string, number> = {};
      const consumers: BusStats['consumers'] = [];
      try {
        for (const spec of streams.values()) {
          let count: number | undefined;
          // Asked of the consumers even for a work queue: after a crash nats-server 2.9 may put
          // back messages already acknowledged (nats-io/nats-server#3996), which then sit in the
          // stream below the ack floor, never to be delivered, and would count as lag forever.
          for await (const ci of jsm.consumers.list(spec.name)) {
            const lag = ci.num_pending + ci.num_ack_pending;
            consumers.push({ stream: spec.name, consumer: ci.name, pending: lag });
            count = Math.max(count ?? 0, lag);
          }
          pending[spec.name] = count ?? (await jsm.streams.info(spec.name)).state.messages;
        }
      } catch (err) {
        throw unavailable('bus statistics unavailable', err);
      }
      return { pending, consumers, redeliveries };
    },

    async ping(): Promise<void> {
      if (closed || nc.isClosed()) throw new BusUnavailableError('bus closed');
      if (!connected) throw new BusUnavailableError('NATS connection lost, reconnecting');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
      });
      try {
        await Promise.race([jsm.getAccountInfo(), late]);
      } catch (err) {
        throw unavailable('JetStream does not answer', err);
      } finally {
        clearTimeout(timer);
      }
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await Promise.all([...consumers, ...tails].map((c) => c.stop()));
      await closeConnection(nc, logger);
    },
  };
}

/** Drains (so the last acks and naks go out), but never hangs on a server that is gone. */
async function closeConnection(nc: NatsConnection, logger: Logger): Promise<void> {
  if (nc.isClosed()) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS)));
  try {
    await Promise.race([nc.drain(), late]);
  } catch (err) {
    logger.debug({ err }, 'drain failed');
  } finally {
    clearTimeout(timer);
  }
  if (!nc.isClosed()) await nc.close();
}

async function watchConnection(nc: NatsConnection, logger: Logger, connected: (up: boolean) => void): Promise<void> {
  for await (const s of nc.status()) {
    if (s.type === 'disconnect') {
      connected(false);
      logger.warn({ server: s.data }, 'NATS connection lost, reconnecting');
    } else if (s.type === 'reconnect') {
      connected(true);
      logger.info({ server: s.data }, 'NATS connection restored');
    } else if (s.type === 'error') logger.warn({ err: s.data }, 'NATS connection error');
  }
}
