/**
 * CPU time of benchmark processes, read from /proc (Linux): a process's user + system seconds, and
 * the machine's busy share, so a result can show which process used the cores during a window —
 * the server, or the load generator.
 */
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** User + system CPU seconds the process has used so far (NaN once it is gone). */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may hold spaces: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/** The machine's CPU counters: busy and total ticks over every core. */
export function machineTicks(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle, total };
}

/** A window over which CPU shares are read: `share(pid)` is the process's CPU over the window's wall time (1 = one core). */
export function cpuWindow(pids: Record<string, number | undefined>): () => { seconds: number; shares: Record<string, number>; machineBusy: number } {
  const wallStart = performance.now();
  const machineStart = machineTicks();
  const start = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
  return () => {
    const seconds = (performance.now() - wallStart) / 1000;
    const machine = machineTicks();
    const shares = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, (cpuSeconds(pid) - start[name]!) / seconds]));
    return { seconds, shares, machineBusy: (machine.busy - machineStart.busy) / Math.max(1, machine.total - machineStart.total) };
  };
}

/**
 * A latency histogram that processes can merge: 0.1 ms buckets up to 10 s, then one bucket per
 * 10 ms up to 100 s (the last bucket holds everything above).
 */
export class LatencyHistogram {
  static readonly FINE = 100_000;
  readonly counts = new Uint32Array(LatencyHistogram.FINE + 9_000 + 1);
  total = 0;

  record(ms: number): void {
    const fine = Math.floor(Math.max(0, ms) * 10);
    const bucket = fine < LatencyHistogram.FINE ? fine : Math.min(this.counts.length - 1, LatencyHistogram.FINE + Math.floor((ms - 10_000) / 10));
    this.counts[bucket]! += 1;
    this.total += 1;
  }

  /** Non-empty buckets as [bucket, count] pairs, for a JSON line. */
  toPairs(): Array<[number, number]> {
    const pairs: Array<[number, number]> = [];
    this.counts.forEach((count, bucket) => count > 0 && pairs.push([bucket, count]));
    return pairs;
  }

  add(pairs: ReadonlyArray<[number, number]>): void {
    for (const [bucket, count] of pairs) {
      this.counts[bucket]! += count;
      this.total += count;
    }
  }

  /** The latency (ms, the bucket's upper edge) at or below which `p` % of the samples fall. */
  percentile(p: number): number {
    if (this.total === 0) return Number.NaN;
    const rank = Math.ceil((p / 100) * this.total);
    let seen = 0;
    for (let bucket = 0; bucket < this.counts.length; bucket++) {
      seen += this.counts[bucket]!;
      if (seen >= rank) return bucket < LatencyHistogram.FINE ? (bucket + 1) / 10 : 10_000 + (bucket - LatencyHistogram.FINE + 1) * 10;
    }
    return Number.POSITIVE_INFINITY;
  }
}
