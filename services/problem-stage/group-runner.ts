/**
 * Gathers the messages the partition consumers hand over into groups processed one at a time:
 * what arrives while a group runs forms the next one. Each partition has at most one message
 * out (its consumer is strictly serial), so a group holds at most one message per partition, and
 * partitions still run in parallel with each other through the group. One group is one store
 * read, one insert of problem rows, one store write.
 */
export function createGroupRunner<T>(run: (items: T[]) => Promise<void>, onError: (error: unknown) => void): (item: T) => Promise<void> {
  let queue: Array<{ item: T; done: () => void }> = [];
  let running = false;

  async function loop(): Promise<void> {
    running = true;
    try {
      while (queue.length > 0) {
        const group = queue;
        queue = [];
        try {
          await run(group.map((g) => g.item));
        } catch (error) {
          onError(error);
        } finally {
          for (const g of group) g.done();
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
