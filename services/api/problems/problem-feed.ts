/**
 * One reader of the problem change feed per API process (issue #30, DESIGN §11). It reads the
 * feed from the oldest change the bus still holds, and
 * - keeps the open-problem index current (open-problems.ts);
 * - answers the action requests waiting for the problem stage's verdicts;
 * - keeps the recent changes in a ring, each with an SSE id `<epoch>.<seq>.<index>`, so a client
 *   that reconnects with Last-Event-ID gets what it missed, or is told to reload when the ring no
 *   longer reaches back that far (or the feed is another one: a new epoch);
 * - hands every change to the SSE subscribers.
 */
import type { ActionVerdict } from '../../../pipelines/problems/problem-actions.js';
import { decodeChanges, type ProblemChange } from '../../../pipelines/problems/problem-changes.js';
import type { AnalyticsStore } from '../../runtime/adapters/analytics/analytics.port.js';
import type { Bus, FeedMessage, FeedTail } from '../../runtime/adapters/bus/bus.port.js';
import { PROBLEM_CHANGES_FEED } from '../../runtime/bus-streams.js';
import type { Logger } from '../../runtime/logger.js';
import { OpenProblems } from './open-problems.js';
import { factsOf, type RowFacts } from './problem-item.js';

/** Changes the ring keeps at most: a reconnecting client is sure of the last 100 000 at least. */
export const RING_CHANGES = 200_000;
/** And for how long (the bus keeps them as long). */
export const RING_AGE_MS = PROBLEM_CHANGES_FEED.maxAgeMs;
/** How long a start waits to read the changes the feed holds before it loads the open problems. */
const CATCH_UP_MS = 30_000;

export interface FeedEntry {
  /** The SSE id. */
  id: string;
  seq: number;
  index: number;
  storedAt: number;
  change: ProblemChange;
  facts: RowFacts;
}

export interface ActionAnswer {
  verdict: ActionVerdict;
  /** The change the action made, when it made one. */
  change?: ProblemChange;
}

export type Listener = (entry: FeedEntry) => void;

export interface ProblemFeed {
  readonly open: OpenProblems;
  /** The newest feed message this process has read (0: none). */
  readonly lastSeq: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The entries after the position of `lastEventId` (then each new one), or 'reset' when they are not all known. */
  subscribe(lastEventId: string | undefined, listener: Listener): { missed: FeedEntry[]; stop: () => void } | 'reset';
  /** Resolves with each action's answer as the stage publishes it; call before sending the actions. */
  awaitAnswers(actionIds: readonly string[], timeoutMs: number): { answers: Promise<Map<string, ActionAnswer>>; cancel: () => void };
}

interface Position {
  seq: number;
  index: number;
}

const before = (a: Position, b: Position): boolean => a.seq < b.seq || (a.seq === b.seq && a.index < b.index);

export function createProblemFeed(deps: { bus: Bus; analytics: AnalyticsStore; logger: Logger; now: () => number }): ProblemFeed {
  const { bus, analytics } = deps;
  const log = deps.logger.child({ component: 'problem-feed' });
  const open = new OpenProblems();
  const ring: FeedEntry[] = [];
  /** Where the ring starts: every entry at or before this position may be missing. */
  let droppedThrough: Position = { seq: 0, index: Number.MAX_SAFE_INTEGER };
  let epoch = '';
  let tail: FeedTail | undefined;
  let lastSeq = 0;
  const listeners = new Set<Listener>();
  const waiters = new Map<string, (answer: ActionAnswer) => void>();

  /** Resolves once the messages up to `seq` were read, or after CATCH_UP_MS (then the load goes on). */
  async function caughtUp(seq: number): Promise<void> {
    const deadline = Date.now() + CATCH_UP_MS;
    while (lastSeq < seq && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    if (lastSeq < seq) log.warn({ read: lastSeq, held: seq }, 'the problem change feed was not read up to its end in time; loading the open problems anyway');
  }

  function prune(now: number): void {
    let drop = 0;
    while (drop < ring.length && (ring.length - drop > RING_CHANGES || now - ring[drop]!.storedAt > RING_AGE_MS)) drop++;
    if (drop === 0) return;
    const last = ring[drop - 1]!;
    droppedThrough = { seq: last.seq, index: last.index };
    ring.splice(0, drop);
  }

  function receive(message: FeedMessage): void {
    lastSeq = message.seq;
    let decoded;
    try {
      decoded = decodeChanges(message.data);
    } catch (err) {
      log.error({ err, seq: message.seq }, 'a problem change message could not be read; skipped');
      return;
    }
    const byAction = new Map<string, ProblemChange>();
    decoded.changes.forEach((change, index) => {
      const entry: FeedEntry = { id: `${epoch}.${message.seq}.${index}`, seq: message.seq, index, storedAt: message.storedAt, change, facts: factsOf(change.row) };
      open.apply(change.row);
      ring.push(entry);
      if (change.actionId) byAction.set(change.actionId, change);
      for (const listener of listeners) listener(entry);
    });
    for (const verdict of decoded.verdicts) {
      const waiter = waiters.get(verdict.actionId);
      if (!waiter) continue;
      waiters.delete(verdict.actionId);
      const change = byAction.get(verdict.actionId);
      waiter(change ? { verdict, change } : { verdict });
    }
    prune(deps.now());
  }

  return {
    open,
    get lastSeq() {
      return lastSeq;
    },
    async start() {
      await bus.ensureFeed(PROBLEM_CHANGES_FEED);
      const info = await bus.feedInfo(PROBLEM_CHANGES_FEED.name);
      epoch = info.epoch.replace(/[^A-Za-z0-9_-]/g, '');
      droppedThrough = { seq: info.firstSeq - 1, index: Number.MAX_SAFE_INTEGER };
      tail = bus.tailFeed(PROBLEM_CHANGES_FEED.name, info.firstSeq, receive);
      // The index merges what the feed held at start before it reads the store: the feed is in
      // order, but the store is read once, so an old opening replayed after it would show a
      // problem closed since.
      await caughtUp(info.lastSeq);
      await open.load(analytics);
      log.info({ open: open.size, epoch, firstSeq: info.firstSeq, lastSeq: info.lastSeq }, 'open problems loaded');
    },
    async stop() {
      await tail?.stop();
      listeners.clear();
    },
    subscribe(lastEventId, listener) {
      let missed: FeedEntry[] = [];
      if (lastEventId !== undefined) {
        const m = /^([A-Za-z0-9_-]*)\.(\d+)\.(\d+)$/.exec(lastEventId.trim());
        if (!m || m[1] !== epoch) return 'reset';
        const at = { seq: Number(m[2]), index: Number(m[3]) };
        if (before(at, droppedThrough)) return 'reset';
        missed = ring.filter((e) => before(at, e));
      }
      listeners.add(listener);
      return { missed, stop: () => void listeners.delete(listener) };
    },
    awaitAnswers(actionIds, timeoutMs) {
      const answers = new Map<string, ActionAnswer>();
      let cancel = (): void => undefined;
      const promise = new Promise<Map<string, ActionAnswer>>((resolve) => {
        let left = actionIds.length;
        const timer = setTimeout(() => cancel(), timeoutMs);
        cancel = () => {
          clearTimeout(timer);
          for (const id of actionIds) waiters.delete(id);
          resolve(answers);
        };
        if (left === 0) cancel();
        for (const id of actionIds) {
          waiters.set(id, (answer) => {
            answers.set(id, answer);
            if (--left === 0) cancel();
          });
        }
      });
      return { answers: promise, cancel: () => cancel() };
    },
  };
}
