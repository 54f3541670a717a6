/**
 * The most a reading reaches while something runs (a backlog during a load): `read` every
 * `everyMs` from now until `stop`, which answers the highest reading (0 when none succeeded).
 * One reading at a time, so a reader that shares a channel with the caller is never asked twice.
 */
export function sampleMax(read: () => Promise<number>, everyMs: number): { stop(): Promise<number> } {
  let sampling = true;
  let max = 0;
  const done = (async () => {
    while (sampling) {
      max = Math.max(max, await read().catch(() => 0));
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      sampling = false;
      await done;
      return max;
    },
  };
}
