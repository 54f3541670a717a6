/**
 * Lets an event worker insert the next batch while earlier ones are still being inserted, and
 * keeps what follows the inserts (trigger hits, problem rows, acks) in the order the batches were
 * pulled, one follow-up at a time: the hits of one worker reach the control plane in the same
 * order, and through the same one-at-a-time commands, as with a single insert at a time. A
 * follow-up takes every batch stored by the time it starts, so batches that finished together
 * share one control-plane commit (fewer, larger commits: two workers contend less).
 */
export interface StoreWindow<T> {
  /**
   * `store` is already running and resolves with its outcome (it must not reject). Resolves as
   * soon as another batch may start (at once while fewer than `size` are in the window), or,
   * once draining, when this batch's follow-up is done.
   */
  admit(store: Promise<T>): Promise<void>;
  /** Stops admitting ahead; resolves when every admitted batch's follow-up is done. */
  drain(): Promise<void>;
}

interface Entry<T> {
  stored: boolean;
  /** The store threw instead of returning an outcome: nothing to follow up. */
  failed: boolean;
  outcome: T | undefined;
  /** Resolves once the store settled; carries no value (see `stored`/`outcome`). */
  settled: Promise<void>;
  /** Called once the batch's follow-up is done. */
  done: () => void;
}

/**
 * `follow` gets the outcomes of consecutive batches, oldest first; `onError` hears of a follow-up
 * or store that threw instead of returning its outcome (a bug, not an outage).
 */
export function createStoreWindow<T>(size: number, follow: (outcomes: T[]) => Promise<void>, onError: (error: unknown) => void): StoreWindow<T> {
  const queue: Array<Entry<T>> = [];
  let inWindow = 0;
  let draining = false;
  let waiting: (() => void) | undefined;
  let running: Promise<void> | undefined;

  /** Runs while the queue holds batches; it clears `running` in the same turn it finds it empty. */
  async function settleInOrder(): Promise<void> {
    try {
      while (queue.length > 0) {
        await queue[0]!.settled;
        let count = 1;
        while (count < queue.length && queue[count]!.stored) count++;
        const group = queue.splice(0, count);
        const outcomes = group.filter((e) => !e.failed).map((e) => e.outcome as T);
        try {
          if (outcomes.length > 0) await follow(outcomes);
        } catch (error) {
          onError(error);
        }
        inWindow -= group.length;
        for (const entry of group) entry.done();
        const wake = waiting;
        waiting = undefined;
        wake?.();
      }
    } finally {
      running = undefined;
    }
  }

  return {
    admit(store) {
      let done!: () => void;
      const finished = new Promise<void>((resolve) => (done = resolve));
      const entry: Entry<T> = { stored: false, failed: false, outcome: undefined, settled: Promise.resolve(), done };
      entry.settled = store.then(
        (outcome) => {
          entry.outcome = outcome;
          entry.stored = true;
        },
        (error: unknown) => {
          onError(error);
          entry.failed = true;
          entry.stored = true;
        },
      );
      queue.push(entry);
      inWindow++;
      // The queue is not empty, so the loop awaits before it could clear `running` again.
      if (!running) running = settleInOrder();
      if (draining) return finished;
      if (inWindow < size) return Promise.resolve();
      return new Promise<void>((resolve) => (waiting = resolve));
    },
    async drain() {
      draining = true;
      while (running) await running;
    },
  };
}
