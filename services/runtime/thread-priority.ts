/**
 * The event loop's thread answers every request, so it must not wait for a core behind the
 * process's other threads: chDB's insert and merge pools, libuv's workers, LMDB's writer, V8's
 * garbage-collection helpers, the SLA threads. Those threads run at a higher nice value (a lower
 * priority); the event loop's thread keeps its own. They still get every core the event loop does
 * not need: a nice value only orders threads that want the same core.
 *
 * Linux only: its nice values are per thread, listed under /proc/self/task. Elsewhere nothing
 * changes. Threads start all along (chDB's pools grow on demand) and take the nice value of the
 * thread that starts them, so the list is walked again every few seconds. A thread already at the
 * nice value or above is left as it is: this only ever lowers a priority.
 */
import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

const RESCAN_MS = 5000;
const TASKS = '/proc/self/task';

export interface HelperThreadPriority {
  /** Lowers the threads started since the last walk; returns how many it lowered. */
  apply(): number;
  stop(): void;
}

/** The ids of this process's threads, or none where the system does not list them. */
function threadIds(): number[] {
  try {
    return readdirSync(TASKS).map(Number);
  } catch {
    return [];
  }
}

/** `niceness` 0 leaves every thread as it is. */
export function lowerHelperThreads(niceness: number, options: { rescanMs?: number } = {}): HelperThreadPriority {
  // The main thread's id is the process id.
  const eventLoop = process.pid;
  const apply = (): number => {
    if (niceness <= 0) return 0;
    let lowered = 0;
    for (const id of threadIds()) {
      if (id === eventLoop) continue;
      try {
        if (getPriority(id) >= niceness) continue;
        setPriority(id, niceness);
        lowered += 1;
      } catch {
        // The thread ended since the directory was read.
      }
    }
    return lowered;
  };
  apply();
  const timer = niceness > 0 ? setInterval(apply, options.rescanMs ?? RESCAN_MS).unref() : undefined;
  return { apply, stop: () => clearInterval(timer) };
}
