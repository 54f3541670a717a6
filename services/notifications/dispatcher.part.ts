/**
 * The notification dispatcher (issue #31, DESIGN §11): a consumer of the problem change feed with
 * its own durable stream, NOTIFICATIONS. Any number of dispatchers may run.
 *
 *   problem change feed ─▶ feed-events.ts ─▶ `notifications.route` (msgId: the event's stable id)
 *   `notifications.route` ─▶ route-step.ts: the pure router (policies, flapping, maintenance,
 *        repeats, grouping) on the routing state of the keyed store ─▶ `notifications.<p>`, one
 *        message per (policy, receiver, events) (msgId: its deliveryId, the webhook-id)
 *   `notifications.<p>` ─▶ the receiver's rate limit ▸ its format ▸ the outbound client (SSRF
 *        guard, 15 s timeout)
 *
 * Routing is one durable consumer handing one batch at a time to whichever dispatcher pulls it,
 * on a state written by compare-and-set: serial across processes, and nothing of it lost at a
 * restart. Every message is on the bus before anything is sent, and settled by the consumer edge
 * from the attempt's verdict (delivery-outcome.ts): delivered → ok; 410 → the receiver is
 * disabled and the message dropped; 429/503 with Retry-After, 408, 5xx, timeouts → retried after
 * the delay (without end for the edge, until the receiver's maximum age, then dead-lettered);
 * another 4xx → dead-lettered. Each partition has one message out at a time, so a retry waits in
 * place and the messages of one problem to one receiver keep their order.
 *
 * A tick each second sends what routing has due (groups closing, repeats, flapping keys
 * settling), what the maintenance and SLA sources tell, and the replays asked through the API.
 */
import { createRouter, type Router } from '../../pipelines/notifications/index.js';
import { DEFAULT_MAX_AGE_MS, type DeliveryVerdict, judgeAttempt } from '../../pipelines/notifications/delivery-outcome.js';
import type { Part, PlatformContext } from '../part.js';
import type { BusConsumer, BusMessage, ConsumerSpec } from '../runtime/adapters/bus/bus.port.js';
import { NOTIFICATIONS_ROUTE_DURABLE, NOTIFICATIONS_ROUTE_SUBJECT, NOTIFICATIONS_STREAM, notificationsSubject } from '../runtime/bus-streams.js';
import { createConsumerEdge, deadLetter, drop, ok, type Outcome, outcomeOfError, retry } from '../runtime/consumer-edge.js';
import { DEFAULT_TIMEOUT_MS } from '../runtime/outbound/outbound-client.js';
import { createDeliveryLog, type DeliveryStatus } from './delivery-log.js';
import { modelDirectory, type NotificationDirectory } from './directory.js';
import { createEventSources } from './event-sources.js';
import { startFeedEvents } from './feed-events.js';
import { decodeEnvelope, type DeliveryEnvelope, encodeEnvelope, type Envelope, type EventEnvelope, msgIdOf, NOTIFY_PARTITIONS, subjectOf } from './notify-envelope.js';
import { createLocalPace, createReceiverPace } from './receiver-pace.js';
import { createRouteStore } from './route-store.js';
import { createRouting, type TimedEvent } from './route-step.js';
import { createSender } from './send-pool.js';

const ACK_WAIT_MS = 60_000;
const TICK_MS = 1000;
/** Events handed to one routing step at most: one state write for all of them. */
const ROUTE_BATCH = 500;
/** A routing step that failed (the store or the bus unavailable) is tried again after this. */
const ROUTE_RETRY_MS = 1000;
const PUBLISH_TIMEOUT_MS = 10_000;

/** The deliveries of one partition: one message out at a time, in order. */
export const notifyConsumer = (partition: number): ConsumerSpec => ({
  stream: NOTIFICATIONS_STREAM.name,
  durable: `notifications-${partition}`,
  filterSubject: notificationsSubject(partition),
  maxBatch: 1,
  maxWaitMs: 1000,
  ackWaitMs: ACK_WAIT_MS,
  maxDeliver: -1,
  maxAckPending: 1,
});

/** The events to route: one batch out at a time across every dispatcher (maxAckPending = maxBatch). */
export const routeConsumer: ConsumerSpec = {
  stream: NOTIFICATIONS_STREAM.name,
  durable: NOTIFICATIONS_ROUTE_DURABLE,
  filterSubject: NOTIFICATIONS_ROUTE_SUBJECT,
  maxBatch: ROUTE_BATCH,
  maxWaitMs: 100,
  ackWaitMs: ACK_WAIT_MS,
  maxDeliver: -1,
  maxAckPending: ROUTE_BATCH,
};

export interface DispatcherOptions {
  /** Where receivers and policies are read (default: the control plane's notifications slice). */
  directory?: (ctx: PlatformContext) => NotificationDirectory;
  /** The first retry delay (default 1 s; doubled each time, at most 5 min). */
  backoffBaseMs?: number;
  /** The console's base URL, for links in messages (default: OPS_CONSOLE_URL). */
  consoleUrl?: string;
  timeoutMs?: number;
  /** Threads the attempts run on (default: OPS_NOTIFY_SEND_THREADS; 0: the main thread). */
  sendThreads?: number;
}

const statusOf: Record<DeliveryVerdict['kind'], DeliveryStatus> = { delivered: 'delivered', retry: 'retrying', refused: 'failed', gone: 'failed', expired: 'dropped' };

export async function startDispatcher(ctx: PlatformContext, options: DispatcherOptions = {}): Promise<() => Promise<void>> {
  const { bus } = ctx.engines;
  const log = ctx.logger.child({ component: 'notifications' });
  const directory = options.directory?.(ctx) ?? modelDirectory(ctx.controlPlane, ctx.now);
  const consoleUrl = options.consoleUrl ?? ctx.config.consoleUrl;
  const deliveries = await createDeliveryLog(ctx.engines.analytics, ctx.logger);
  const pace = bus.profile.oneProcess ? createLocalPace() : createReceiverPace(ctx.engines.keyed);
  const edge = createConsumerEdge(
    { consumer: 'notifications', maxDeliveries: ctx.config.maxDeliveries, heartbeatMs: ACK_WAIT_MS / 3 },
    { analytics: ctx.engines.analytics, metrics: ctx.metrics, logger: ctx.logger, now: ctx.now },
  );
  const stopping = new AbortController();
  const sender = createSender({ threads: options.sendThreads ?? ctx.config.notifySendThreads, allowNetworks: ctx.config.notifyAllowNetworks, consoleUrl, signal: stopping.signal });
  await bus.ensureStream(NOTIFICATIONS_STREAM);

  const publishOne = (envelope: Envelope) => bus.publish(subjectOf(envelope), encodeEnvelope(envelope), { msgId: msgIdOf(envelope), timeoutMs: PUBLISH_TIMEOUT_MS });

  /** Each partition's deliveries in the order given, the partitions side by side (in-process: one write). */
  const publish = (envelopes: readonly DeliveryEnvelope[]): Promise<void> =>
    bus.publishMany(
      envelopes.map((envelope) => ({ subject: subjectOf(envelope), data: encodeEnvelope(envelope), msgId: msgIdOf(envelope) })),
      { timeoutMs: PUBLISH_TIMEOUT_MS },
    );

  const router = (): Router =>
    createRouter({
      policies: directory.policies(),
      cmdb: directory.cmdb,
      resendSeconds: (receiverId) => {
        const receiver = directory.receiver(receiverId);
        return receiver?.type === 'alertmanager' ? receiver.resendSeconds : null;
      },
    });
  const sources = createEventSources(ctx, () => directory.policies());
  const routing = createRouting({ store: createRouteStore(ctx.engines.keyed), router, publish, now: ctx.now, sources: sources.tell });

  const timedEvent = (envelope: EventEnvelope): TimedEvent => {
    const at = envelope.at ?? Date.parse(envelope.event.time);
    return { event: envelope.event, at: Number.isNaN(at) ? ctx.now() : at };
  };

  async function deliver(envelope: DeliveryEnvelope, bus: BusMessage): Promise<Outcome> {
    const { message } = envelope;
    const receiver = directory.receiver(message.receiverId);
    if (!receiver || !receiver.enabled) {
      ctx.metrics.notifyDeliveries.inc({ receiver: String(message.receiverId), outcome: 'skipped' });
      return drop;
    }
    await pace.take(receiver.id, receiver.rateLimitPerSecond, stopping.signal);
    const attempt = await sender.send(message, receiver, { now: ctx.now(), timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS });
    const verdict = judgeAttempt(attempt.result, {
      attempt: bus.deliveryCount,
      firstAt: envelope.firstAt,
      now: ctx.now(),
      maxAgeMs: receiver.maxAgeHours > 0 ? receiver.maxAgeHours * 3600_000 : DEFAULT_MAX_AGE_MS,
      ...(options.backoffBaseMs === undefined ? {} : { backoffBaseMs: options.backoffBaseMs }),
    });
    ctx.metrics.notifyDeliveries.inc({ receiver: String(receiver.id), outcome: verdict.kind });
    if (attempt.latencyMs !== null) ctx.metrics.notifyDeliverySeconds.observe({ type: receiver.type }, attempt.latencyMs / 1000);
    const error = verdict.kind === 'delivered' ? null : verdict.reason;
    deliveries.write({
      message,
      attempt: bus.deliveryCount,
      status: statusOf[verdict.kind],
      statusCode: attempt.statusCode,
      error,
      latencyMs: attempt.latencyMs,
      at: ctx.now(),
    });
    const where = { receiverId: receiver.id, policyId: message.policyId, deliveryId: message.deliveryId, attempt: bus.deliveryCount };
    switch (verdict.kind) {
      case 'delivered':
        return ok;
      case 'gone':
        log.warn(where, 'the receiver answered 410 Gone: disabled');
        await directory.disable(receiver.id, verdict.reason);
        return drop;
      case 'retry':
        log.info({ ...where, reason: verdict.reason, delayMs: verdict.delayMs }, 'delivery failed; will retry');
        return retry(verdict.reason, verdict.delayMs, true);
      case 'refused':
      case 'expired':
        return deadLetter(`receiver ${receiver.id}: ${verdict.reason}`);
    }
  }

  /** A batch of the routing subject: one routing step for every event in it. */
  async function routeStep(messages: BusMessage[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    const events: TimedEvent[] = [];
    const routed: number[] = [];
    for (const message of messages) {
      try {
        const envelope = decodeEnvelope(message.data);
        if (envelope.type !== 'event') throw new Error('a delivery on the routing subject');
        events.push(timedEvent(envelope));
        routed.push(outcomes.length);
        outcomes.push(ok);
      } catch (error) {
        outcomes.push(deadLetter(error instanceof Error ? error.message : String(error)));
      }
    }
    try {
      if (events.length > 0) await routing.events(events);
    } catch (error) {
      log.warn({ err: error, events: events.length }, 'routing failed; the events are tried again');
      for (const i of routed) outcomes[i] = outcomeOfError(error, ROUTE_RETRY_MS);
    }
    return outcomes;
  }

  /** A partition's message: a delivery (or an event an older dispatcher put there, routed). */
  async function deliveryStep(messages: BusMessage[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    for (const message of messages) {
      let envelope: Envelope;
      try {
        envelope = decodeEnvelope(message.data);
      } catch (error) {
        outcomes.push(deadLetter(error instanceof Error ? error.message : String(error)));
        continue;
      }
      if (envelope.type === 'event') {
        await routing.events([timedEvent(envelope)]);
        outcomes.push(ok);
      } else outcomes.push(await deliver(envelope, message));
    }
    return outcomes;
  }

  /** The replays asked through the API: each delivery's message on the bus again, then its record gone. */
  async function takeReplays(): Promise<void> {
    for (const replay of directory.replays?.() ?? []) {
      const message = await deliveries.message(replay.receiverId, replay.policyId, replay.deliveryId);
      if (message) await publishOne({ type: 'delivery', message, firstAt: ctx.now(), replayId: replay.id });
      else log.warn({ replayId: replay.id, deliveryId: replay.deliveryId }, 'the delivery log holds no copy of the message to replay; the replay is dropped');
      await directory.completeReplay?.(replay.id);
    }
  }

  const consumers: BusConsumer[] = [bus.consume(routeConsumer, (batch) => edge.run(batch, routeStep))];
  for (let p = 0; p < NOTIFY_PARTITIONS; p++) consumers.push(bus.consume(notifyConsumer(p), (batch) => edge.run(batch, deliveryStep)));

  let ticking = false;
  const ticker = setInterval(() => {
    if (ticking) return;
    ticking = true;
    Promise.all([routing.tick(), takeReplays()])
      .catch((err: unknown) => log.warn({ err }, 'a routing tick failed; tried again on the next'))
      .finally(() => (ticking = false));
  }, TICK_MS);

  const feed = await startFeedEvents({
    bus,
    logger: ctx.logger,
    now: ctx.now,
    ciName: (id) => ctx.controlPlane.model.slices.cmdb.cis.get(id)?.name,
  });

  return async () => {
    clearInterval(ticker);
    await feed.stop();
    stopping.abort(new Error('the dispatcher is stopping'));
    await Promise.all(consumers.map((c) => c.stop()));
    await sources.stop();
    await deliveries.close();
    await sender.close();
  };
}

export function createDispatcherPart(options: DispatcherOptions = {}): Part {
  return {
    name: 'notifications',
    async start(ctx) {
      const stop = await startDispatcher(ctx, options);
      ctx.lifecycle.onStop('notification dispatcher', stop);
      return [];
    },
  };
}

export const dispatcherPart: Part = createDispatcherPart();
