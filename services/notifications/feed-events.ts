/**
 * From the problem change feed to the NOTIFICATIONS stream (issue #31): every change that is a
 * notification event (problem-events.ts) is published, in feed order, as an `event` envelope on
 * the routing subject, whose message id is the event's stable id.
 *
 * The feed is read from the oldest change it holds: a dispatcher that restarts, or a second one,
 * publishes those changes again and the stream's duplicate window, longer than the feed's
 * retention, stores each event once. Nothing is lost while the feed still holds it (ten minutes);
 * a publish the bus refuses is tried again, in order, until it is taken or the reader stops.
 */
import { problemEventsOf } from '../../pipelines/notifications/problem-events.js';
import { decodeChanges } from '../../pipelines/problems/problem-changes.js';
import type { Bus, FeedMessage, FeedTail } from '../runtime/adapters/bus/bus.port.js';
import { PROBLEM_CHANGES_FEED } from '../runtime/bus-streams.js';
import type { Logger } from '../runtime/logger.js';
import { encodeEnvelope, type Envelope, msgIdOf, subjectOf } from './notify-envelope.js';

const RETRY_MS = 1000;

export interface FeedEventsDeps {
  bus: Bus;
  logger: Logger;
  now: () => number;
  ciName: (ciId: number) => string | undefined;
}

export interface FeedEvents {
  /** The newest feed sequence whose events are all on the stream (0: none). */
  readonly doneSeq: number;
  stop(): Promise<void>;
}

export async function startFeedEvents(deps: FeedEventsDeps): Promise<FeedEvents> {
  const { bus } = deps;
  const log = deps.logger.child({ component: 'notify-feed' });
  let stopped = false;
  let doneSeq = 0;
  let chain: Promise<void> = Promise.resolve();

  /** The envelopes of one feed message, in order, together (in-process: one write). */
  async function publish(envelopes: readonly Envelope[]): Promise<void> {
    const items = envelopes.map((envelope) => ({ subject: subjectOf(envelope), data: encodeEnvelope(envelope), msgId: msgIdOf(envelope) }));
    for (;;) {
      try {
        await bus.publishMany(items, { timeoutMs: 10_000 });
        return;
      } catch (err) {
        if (stopped) return;
        // Those already taken are dropped as repeats by their message ids.
        log.warn({ err }, 'notification events could not be published; trying again');
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        if (stopped) return;
      }
    }
  }

  function receive(message: FeedMessage): void {
    let envelopes: Envelope[];
    try {
      envelopes = decodeChanges(message.data)
        .changes.flatMap((change) => problemEventsOf(change, deps.ciName, deps.now()))
        .map((event) => ({ type: 'event', event, at: deps.now() }));
    } catch (err) {
      log.error({ err, seq: message.seq }, 'a problem change message could not be read; skipped');
      return;
    }
    chain = chain.then(async () => {
      if (envelopes.length > 0) await publish(envelopes);
      doneSeq = message.seq;
    });
  }

  await bus.ensureFeed(PROBLEM_CHANGES_FEED);
  const info = await bus.feedInfo(PROBLEM_CHANGES_FEED.name);
  const tail: FeedTail = bus.tailFeed(PROBLEM_CHANGES_FEED.name, info.firstSeq, receive);
  return {
    get doneSeq() {
      return doneSeq;
    },
    async stop() {
      await tail.stop();
      // What was read is published before the stop, unless the bus refuses it.
      const waited = await Promise.race([chain.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000).unref())]);
      stopped = true;
      if (!waited) log.warn('stopping with notification events not yet published; the feed holds them for the next start');
    },
  };
}
