/**
 * CPU time of a process by thread name, from /proc/<pid>/task/<tid>/stat (Linux): which of the
 * platform's threads worked during a window — Node's main thread (`node (main thread)`; its worker
 * threads are `node` too), libuv's pool
 * (`libuv-worker`), V8's helpers, or chDB's own threads (named by ClickHouse: QueryPipelineEx,
 * MergeMutate, BgSchPool, …). Threads of one name are summed; a thread that ended within the
 * window loses what it used.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) so far, per thread name; empty once the process is gone. */
export function threadSeconds(pid: number | undefined): Map<string, number> {
  const byName = new Map<string, number>();
  if (pid === undefined) return byName;
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // The main thread is the one whose id is the process's; worker threads are named `node` too.
      const name =
        tid === String(pid)
          ? 'node (main thread)'
          : stat
              .slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
              .replace(/[0-9]+$/, '')
              .trim() || '(unnamed)';
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return byName;
}

/** A window: its end gives the CPU seconds each thread name used since its start. */
export function threadWindow(pid: number | undefined): () => Record<string, number> {
  const start = threadSeconds(pid);
  return () => {
    const end = threadSeconds(pid);
    return Object.fromEntries([...end].map(([name, seconds]) => [name, seconds - (start.get(name) ?? 0)]).filter(([, seconds]) => (seconds as number) > 0));
  };
}
