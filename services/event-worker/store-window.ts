/**
 * Lets an event worker insert the next batch while earlier ones are still being inserted, and
 * keeps what follows each insert (trigger hits, problem rows, acks) in the order the batches were
 * pulled, one batch at a time: the hits of one worker reach the control plane in the same order,
 * and through the same one-at-a-time commands, as with a single insert at a time.
 */
export interface StoreWindow {
  /**
   * `store` is already running; `follow` runs once it has settled and every earlier batch's
   * follow-up has finished. Resolves as soon as another batch may start (at once while fewer than
   * `size` are in the window), or, once draining, when this batch is done.
   */
  admit<T>(store: Promise<T>, follow: (stored: T) => Promise<void>): Promise<void>;
  /** Stops admitting ahead; resolves when every admitted batch is done. */
  drain(): Promise<void>;
}

/** `onError` hears of a stage that threw instead of returning its outcome (a bug, not an outage). */
export function createStoreWindow(size: number, onError: (error: unknown) => void): StoreWindow {
  let tail: Promise<void> = Promise.resolve();
  let inWindow = 0;
  let draining = false;
  let waiting: (() => void) | undefined;

  return {
    admit(store, follow) {
      inWindow++;
      const done = tail
        .then(() => store)
        .then(follow)
        .catch(onError)
        .finally(() => {
          inWindow--;
          const wake = waiting;
          waiting = undefined;
          wake?.();
        });
      tail = done;
      if (draining) return done;
      if (inWindow < size) return Promise.resolve();
      return new Promise<void>((resolve) => (waiting = resolve));
    },
    drain() {
      draining = true;
      return tail;
    },
  };
}
