/**
 * What bus handlers received, awaited by predicate instead of by sleeping (STYLE habit 10).
 * Every wait has a deadline whose timer is cleared, so a failed wait fails the test and a
 * passed one leaves no handle behind.
 */
import type { BusMessage } from '../../services/runtime/adapters/bus/bus.port.js';

export interface Seen {
  text: string;
  subject: string;
  deliveryCount: number;
  msgId: string | undefined;
  /** Which consume() call got it. */
  consumer: string;
  at: number;
}

interface Waiter {
  test(): boolean;
  resolve(): void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
export const encode = (text: string): Uint8Array => encoder.encode(text);
export const decode = (data: Uint8Array): string => decoder.decode(data);

export class Recorder {
  readonly seen: Seen[] = [];
  /** Texts seen at least once. */
  readonly distinct = new Set<string>();
  private readonly waiters = new Set<Waiter>();

  record(consumer: string, m: BusMessage): Seen {
    const s: Seen = { text: decode(m.data), subject: m.subject, deliveryCount: m.deliveryCount, msgId: m.msgId, consumer, at: Date.now() };
    this.seen.push(s);
    this.distinct.add(s.text);
    for (const w of this.waiters) if (w.test()) w.resolve();
    return s;
  }

  texts(consumer?: string): string[] {
    return this.seen.filter((s) => consumer === undefined || s.consumer === consumer).map((s) => s.text);
  }

  count(text: string): number {
    return this.seen.filter((s) => s.text === text).length;
  }

  /** Resolves once `predicate(seen)` holds; rejects after `timeoutMs` saying what was awaited. */
  until(what: string, predicate: (seen: Seen[]) => boolean, timeoutMs = 15_000): Promise<void> {
    if (predicate(this.seen)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        test: () => predicate(this.seen),
        resolve: () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${what} (${this.seen.length} deliveries seen: ${this.seen.map((s) => `${s.text}#${s.deliveryCount}@${s.at % 100_000}`).join(', ')})`,
          ),
        );
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }
}

/** Polls `check` until it holds, for states that have no event (bus statistics, server ready). */
export async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 15_000, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Settles to the error a promise rejected with, or undefined; keeps a rejection from going unhandled. */
export function outcome(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => undefined,
    (err: unknown) => err,
  );
}
