/**
 * The notification dispatcher (issue #31, DESIGN §11): a consumer of the problem change feed with
 * its own durable stream, NOTIFICATIONS.
 *
 *   problem change feed ─▶ feed-events.ts ─▶ NOTIFICATIONS `event` (msgId: the event's stable id)
 *   `event` ─▶ routing (pipelines/notifications: policies, flapping, maintenance, repeats,
 *              grouping) ─▶ NOTIFICATIONS `delivery`, one per (policy, receiver, events)
 *              (msgId: its deliveryId, the webhook-id)
 *   `delivery` ─▶ the receiver's format ─▶ the outbound client (SSRF guard, 15 s timeout)
 *
 * Every message is on the bus before anything is sent, and settled by the consumer edge from the
 * attempt's verdict (delivery-outcome.ts): delivered → ok; 410 → the receiver is disabled and the
 * message dropped; 429/503 with Retry-After, 408, 5xx, timeouts → retried after the delay
 * (without end for the edge, until the receiver's maximum age, then dead-lettered); another
 * 4xx → dead-lettered. Each partition has one message out at a time, so a retry waits in place
 * and the messages of one problem to one receiver keep their order.
 *
 * Routing state (groups, gates, repeats, flapping) is this process's memory: a restart forgets
 * the groups still open and the keys' counts; their events were acked once routed.
 */
import { createRouter, emptyRoute, type RouteInput, type RouteState } from '../../pipelines/notifications/index.js';
import { DEFAULT_MAX_AGE_MS, type DeliveryVerdict, judgeAttempt } from '../../pipelines/notifications/delivery-outcome.js';
import type { Part, PlatformContext } from '../platform.js';
import type { BusConsumer, BusMessage, ConsumerSpec } from '../runtime/adapters/bus/bus.port.js';
import { NOTIFICATIONS_STREAM, notificationsSubject } from '../runtime/bus-streams.js';
import { createConsumerEdge, deadLetter, drop, ok, type Outcome, retry } from '../runtime/consumer-edge.js';
import { createAddressPolicy } from '../runtime/outbound/address-policy.js';
import { DEFAULT_TIMEOUT_MS } from '../runtime/outbound/outbound-client.js';
import { createDeliveryLog, type DeliveryStatus } from './delivery-log.js';
import { modelDirectory, type NotificationDirectory } from './directory.js';
import { startFeedEvents } from './feed-events.js';
import { decodeEnvelope, encodeEnvelope, type Envelope, msgIdOf, NOTIFY_PARTITIONS, partitionOfEnvelope } from './notify-envelope.js';
import { sendToReceiver } from './receiver-send.js';

const ACK_WAIT_MS = 60_000;
const TICK_MS = 1000;

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

export interface DispatcherOptions {
  /** Where receivers and policies are read (default: the control plane's notifications slice). */
  directory?: (ctx: PlatformContext) => NotificationDirectory;
  /** The first retry delay (default 1 s; doubled each time, at most 5 min). */
  backoffBaseMs?: number;
  /** The console's base URL, for links in messages. */
  consoleUrl?: string;
  timeoutMs?: number;
}

const statusOf: Record<DeliveryVerdict['kind'], DeliveryStatus> = { delivered: 'delivered', retry: 'retrying', refused: 'failed', gone: 'failed', expired: 'dropped' };

export async function startDispatcher(ctx: PlatformContext, options: DispatcherOptions = {}): Promise<() => Promise<void>> {
  const { bus } = ctx.engines;
  const log = ctx.logger.child({ component: 'notifications' });
  const directory = options.directory?.(ctx) ?? modelDirectory(ctx.controlPlane, ctx.now);
  const policy = createAddressPolicy(ctx.config.notifyAllowNetworks);
  const deliveries = await createDeliveryLog(ctx.engines.analytics, ctx.logger);
  const edge = createConsumerEdge(
    { consumer: 'notifications', maxDeliveries: ctx.config.maxDeliveries, heartbeatMs: ACK_WAIT_MS / 3 },
    { analytics: ctx.engines.analytics, metrics: ctx.metrics, logger: ctx.logger, now: ctx.now },
  );
  const stopping = new AbortController();
  await bus.ensureStream(NOTIFICATIONS_STREAM);

  // Routing is one state for the process; inputs are routed one at a time, their deliveries
  // published before the state moves on (a failed publish leaves it as it was, for the retry).
  let state: RouteState = emptyRoute();
  let routing: Promise<unknown> = Promise.resolve();
  const publish = (envelope: Envelope) =>
    bus.publish(notificationsSubject(partitionOfEnvelope(envelope, NOTIFY_PARTITIONS)), encodeEnvelope(envelope), { msgId: msgIdOf(envelope), timeoutMs: 10_000 });

  function route(input: RouteInput, at: number): Promise<void> {
    const next = routing.then(async () => {
      const router = createRouter({ policies: directory.policies(), cmdb: directory.cmdb });
      const out = router.route(state, input, at);
      const firstAt = ctx.now();
      for (const message of out.messages) await publish({ type: 'delivery', message, firstAt });
      state = out.state;
    });
    routing = next.catch(() => undefined);
    return next;
  }

  async function deliver(envelope: Extract<Envelope, { type: 'delivery' }>, bus: BusMessage): Promise<Outcome> {
    const { message } = envelope;
    const receiver = directory.receiver(message.receiverId);
    if (!receiver || !receiver.enabled) {
      ctx.metrics.notifyDeliveries.inc({ receiver: String(message.receiverId), outcome: 'skipped' });
      return drop;
    }
    const now = ctx.now();
    const attempt = await sendToReceiver(message, receiver, {
      policy,
      consoleUrl: options.consoleUrl ?? 'http://localhost/',
      now,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      signal: stopping.signal,
    });
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
    await deliveries.write({
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

  async function step(messages: BusMessage[]): Promise<Outcome[]> {
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
        const at = Date.parse(envelope.event.time);
        await route({ kind: 'event', event: envelope.event }, Number.isNaN(at) ? ctx.now() : at);
        outcomes.push(ok);
      } else outcomes.push(await deliver(envelope, message));
    }
    return outcomes;
  }

  const consumers: BusConsumer[] = [];
  for (let p = 0; p < NOTIFY_PARTITIONS; p++) consumers.push(bus.consume(notifyConsumer(p), (batch) => edge.run(batch, step)));

  // Groups closing, repeats due, flapping keys settling: a tick when routing says one is due.
  const ticker = setInterval(() => {
    const now = ctx.now();
    const due = createRouter({ policies: directory.policies(), cmdb: directory.cmdb }).nextDueAt(state);
    if (due !== null && due <= now) route({ kind: 'tick' }, now).catch((err: unknown) => log.warn({ err }, 'routing tick failed; tried again on the next'));
  }, TICK_MS);

  const feed = await startFeedEvents({
    bus,
    logger: ctx.logger,
    now: ctx.now,
    ciName: (id) => ctx.controlPlane.model.slices.cmdb.cis.get(id)?.name,
    partitions: NOTIFY_PARTITIONS,
  });

  return async () => {
    clearInterval(ticker);
    await feed.stop();
    stopping.abort(new Error('the dispatcher is stopping'));
    await Promise.all(consumers.map((c) => c.stop()));
    await routing;
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
