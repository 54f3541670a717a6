/**
 * Where a process's CPU went during a window, from the V8 CPU profile it wrote at exit
 * (`node --cpu-prof --cpu-prof-dir=…`): the functions of the platform's own code (services/,
 * pipelines/, less the HTTP plumbing every request passes through) by inclusive time — each counted once per sample even when it recurses —, and the
 * engine's own shares (garbage collection, idle). Samples are kept when they fall in the window
 * given in the monotonic clock's microseconds (process.hrtime), the clock V8 stamps them with.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export const monotonicMicros = (): number => Number(process.hrtime.bigint() / 1000n);

/** The main thread's profile of process `pid` in `dir` (worker threads write `.<pid>.<n>.` with n > 0). */
export function readProfile(dir: string, pid: number): Profile | undefined {
  const file = readdirSync(dir).find((name) => name.includes(`.${pid}.0.`) && name.endsWith('.cpuprofile'));
  return file ? (JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile) : undefined;
}

/** Markdown lines: the busy time in the window, then the `top` functions of the platform's code by inclusive time. */
export function profileLines(profile: Profile, fromUs: number, toUs: number, top = 18): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n: ProfileNode): string => {
    const file = n.callFrame.url.replace(/^.*\/(services|pipelines)\//, '$1/');
    return `${n.callFrame.functionName || '(anonymous)'} ${file.includes('://') || file === '' ? '' : `(${file})`}`.trim();
  };
  // The platform's code, without the HTTP plumbing every request passes through (server, exchange, read-after-write).
  const ours = (n: ProfileNode): boolean => /\/(services|pipelines)\//.test(n.callFrame.url) && !/\/(http\/server|http\/exchange|read-after-write)\.ts$/.test(n.callFrame.url);
  const inclusive = new Map<string, number>();
  const engine = new Map<string, number>();
  let at = profile.startTime;
  let total = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    const us = profile.timeDeltas[i + 1] ?? 0;
    if (at < fromUs || at > toUs) return;
    total += us;
    const leaf = byId.get(id)!;
    if (/^\((idle|garbage collector|program)\)$/.test(leaf.callFrame.functionName)) engine.set(leaf.callFrame.functionName, (engine.get(leaf.callFrame.functionName) ?? 0) + us);
    const seen = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
      const n = byId.get(node)!;
      const key = name(n);
      if (!ours(n) || seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  });
  const ms = (us: number): string => (us / 1000).toFixed(0);
  const idle = engine.get('(idle)') ?? 0;
  return [
    `Samples over ${ms(total)} ms of the timed runs: busy ${ms(total - idle)} ms, of which garbage collection ${ms(engine.get('(garbage collector)') ?? 0)} ms and native / unattributed ${ms(engine.get('(program)') ?? 0)} ms.`,
    '',
    '| function (platform code) | inclusive CPU ms | share of busy |',
    '| --- | --: | --: |',
    ...[...inclusive]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, us]) => `| ${key.replace(/\|/g, '\\|')} | ${ms(us)} | ${((100 * us) / Math.max(1, total - idle)).toFixed(1)} % |`),
  ];
}
