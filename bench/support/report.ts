/** Benchmark figures: medians over runs, the aligned Markdown table, the machine description. */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, type as osType, release, totalmem } from 'node:os';

export interface RunFigures {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  meanBytes: number;
  /** non-2xx answers + connection errors + timeouts. */
  failures: number;
}

export interface ScenarioFigures extends RunFigures {
  scenario: string;
  connections: number;
  runs: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Medians of each figure over the runs of one scenario (failures are summed). */
export function summarize(scenario: string, connections: number, runs: readonly RunFigures[]): ScenarioFigures {
  return {
    scenario,
    connections,
    runs: runs.length,
    reqPerSec: median(runs.map((r) => r.reqPerSec)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    meanBytes: median(runs.map((r) => r.meanBytes)),
    failures: runs.reduce((sum, r) => sum + r.failures, 0),
  };
}

const integer = (n: number): string => Math.round(n).toLocaleString('en-US');

/** An aligned Markdown table; `ratio` is req/s over the baseline's req/s. */
export function figuresTable(rows: readonly ScenarioFigures[], baselineReqPerSec: number): string {
  const header = ['scenario', 'conns', 'req/s', 'p50 ms', 'p99 ms', 'ratio to baseline req/s', 'bytes/answer', 'non-2xx + errors'];
  const body = rows.map((r) => [
    r.scenario,
    String(r.connections),
    integer(r.reqPerSec),
    r.p50Ms.toFixed(2),
    r.p99Ms.toFixed(2),
    (r.reqPerSec / baselineReqPerSec).toFixed(2),
    integer(r.meanBytes),
    String(r.failures),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? ` ${'-'.repeat(w)} ` : ` ${'-'.repeat(w - 1)}: `)).join('|')}|`;
  return [line(header), rule, ...body.map(line)].join('\n');
}

const loads = (l: number[]): string => l.map((x) => x.toFixed(2)).join(' / ');

/** `loadAtStart`: os.loadavg() before the benchmark started its processes. */
/** The commit the run measured, and whether files other than results differed from it. */
function codeDescription(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const commit = git('rev-parse', '--short', 'HEAD');
    const changed = git('status', '--porcelain', '--', '.', ':(exclude)bench/results');
    return `commit ${commit}${changed ? ', with uncommitted changes' : ''}`;
  } catch {
    return 'not a git checkout';
  }
}

/**
 * Writes a result file with the code it describes named under its title (its first line): a
 * result is read against the commit that made it.
 */
export function writeResultFile(file: URL, text: string): void {
  const newline = text.indexOf('\n');
  const head = newline < 0 ? text : text.slice(0, newline);
  const rest = newline < 0 ? '' : text.slice(newline);
  writeFileSync(file, `${head}\n\nCode: ${codeDescription()}; measured ${new Date().toISOString()}.${rest}`);
}

export function machineDescription(loadAtStart: number[]): string[] {
  const cpu = cpus();
  return [
    `- code: ${codeDescription()}`,
    `- CPU: ${cpu[0]?.model ?? 'unknown'}, ${cpu.length} cores`,
    `- memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB (${(freemem() / 2 ** 30).toFixed(1)} GiB free at the end)`,
    `- OS: ${osType()} ${release()}`,
    `- Node ${process.version}`,
    `- load average (1 / 5 / 15 min): ${loads(loadAtStart)} before the run, ${loads(loadavg())} at the end`,
    `- date: ${new Date().toISOString()}`,
  ];
}
