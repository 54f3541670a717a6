/**
 * Gathers the messages the partition consumers hand over into groups processed one at a time:
 * what arrives while a group runs forms the next one. Each partition's consumer hands over one
 * batch at a time and waits for it, so a partition's messages are never in two groups at once,
 * and partitions still run in parallel with each other through the group. One group is one
 * store read, one insert of problem rows, one store write.
 *
 * A group's cost is mostly per key, not per hit, so larger groups are cheaper per hit. With
 * `linger`, the next group starts no sooner than twice what the last one took (at most `maxMs`)
 * after it ended: idle, a hit waits for about nothing; under load the stage takes at most a
 * third of the time while it keeps up, and its groups grow with the load, as a producer's linger
 * does. (In the embedded problems bench, lingering as long as the last group, at most 250 ms,
 * gave 13–15 groups and 0.48 of the plain stream's throughput; twice, at most 500 ms, 8 and 0.51.)
 */
export interface Linger {
  maxMs: number;
  /** Milliseconds, monotonic (performance.now in production). */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export function createGroupRunner<T>(run: (items: T[]) => Promise<void>, onError: (error: unknown) => void, linger?: Linger): (item: T) => Promise<void> {
  let queue: Array<{ item: T; done: () => void }> = [];
  let running = false;
  /** When the last group ended, and how long it took. */
  let lastEnd = 0;
  let lastTook = 0;

  async function loop(): Promise<void> {
    running = true;
    try {
      while (queue.length > 0) {
        if (linger) {
          const wait = lastEnd + Math.min(2 * lastTook, linger.maxMs) - linger.now();
          if (wait > 0) await linger.sleep(wait);
        }
        const group = queue;
        queue = [];
        const started = linger?.now() ?? 0;
        try {
          await run(group.map((g) => g.item));
        } catch (error) {
          onError(error);
        } finally {
          for (const g of group) g.done();
          if (linger) {
            lastEnd = linger.now();
            lastTook = lastEnd - started;
          }
        }
      }
    } finally {
      running = false;
    }
  }

  return (item) =>
    new Promise<void>((resolve) => {
      queue.push({ item, done: resolve });
      // The other partitions' messages of the same batch arrive in this turn: start after it.
      if (!running) {
        running = true;
        setImmediate(() => void loop());
      }
    });
}
