/**
 * A receiver's rate limit (issue #31: at most `rateLimitPerSecond` messages, default 1 for Slack,
 * 10 for the others), kept in the keyed store so every dispatcher shares it: each send reserves
 * the receiver's next free slot (`notifications:pace:<id>`, compare-and-set) and waits for it.
 * The wait holds the partition the message is on, as a retry does, so the messages of one
 * problem keep their order; with eight partitions a slot is at most eight intervals ahead. A
 * platform in one process (the in-process bus) keeps the slots in memory instead.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { KeyedStore } from '../runtime/adapters/keyed/keyed-store.port.js';

const paceKey = (receiverId: number): string => `notifications:pace:${receiverId}`;
/** Reservations lost to other dispatchers before one gives up and sends anyway (never in practice). */
const MAX_ATTEMPTS = 20;

interface Slot {
  nextAt: number;
}

export interface ReceiverPace {
  /** Resolves when the receiver may be sent one more message (at once when it is under its rate). */
  take(receiverId: number, perSecond: number, signal?: AbortSignal): Promise<void>;
}

export interface PaceClock {
  /** The wall clock by default: a rate is real time, even where the platform's clock is injected. */
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const wallClock: PaceClock = { now: Date.now, sleep: (ms, signal) => sleep(ms, undefined, signal ? { signal } : {}) };

/**
 * The pace of one process that is the only dispatcher (the all-in-one platform): the same slots,
 * kept in memory, without a store write per message.
 */
export function createLocalPace(clock: PaceClock = wallClock): ReceiverPace {
  const nextAt = new Map<number, number>();
  return {
    async take(receiverId, perSecond, signal) {
      const at = Math.max(clock.now(), nextAt.get(receiverId) ?? 0);
      nextAt.set(receiverId, at + 1000 / perSecond);
      const wait = at - clock.now();
      if (wait > 0) await clock.sleep(wait, signal);
    },
  };
}

export function createReceiverPace(keyed: KeyedStore, clock: PaceClock = wallClock): ReceiverPace {
  const { now } = clock;
  return {
    async take(receiverId, perSecond, signal) {
      const key = paceKey(receiverId);
      const interval = 1000 / perSecond;
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const record = (await keyed.get<Slot>([key])).get(key);
        const at = Math.max(now(), record?.value.nextAt ?? 0);
        const reserved = await keyed.put<Slot>([{ key, expected: record?.version ?? 0, value: { nextAt: at + interval } }]);
        if (!reserved.ok) continue;
        const wait = at - now();
        if (wait > 0) await clock.sleep(wait, signal);
        return;
      }
    },
  };
}
