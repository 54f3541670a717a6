/**
 * Benchmark children: TypeScript scripts run as separate Node processes (`node --import tsx`),
 * talking JSON lines over stdin / stdout. Every child started here is tracked so that the
 * orchestrator can stop them all, by their own handles, on success and on failure.
 */
import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url).pathname;

/**
 * The Node flags of `npm start` (package.json: what comes between `node` and `--import`), so a
 * benchmarked process runs with the heap settings the platform runs with.
 */
const startFlags: string[] = (() => {
  const start = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts['start'] ?? '';
  const words = start.split(/\s+/);
  const node = words.indexOf('node');
  return words.slice(node + 1, Math.max(node + 1, words.indexOf('--import')));
})();
const running = new Set<Child>();

export interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  /** Resolves with the first line the child writes on stdout. */
  firstLine(timeoutMs: number): Promise<string>;
  /** Resolves with everything written on stdout once the child exited with code 0. */
  output(timeoutMs: number): Promise<string>;
  /** Writes text on the child's stdin (and closes it with `end`). */
  send(text: string, end?: boolean): void;
  /** Sends a message on the IPC channel (children started with `ipc`). */
  message(value: string): void;
  /** Closes stdin, sends SIGTERM, and SIGKILL after `graceMs`; resolves when it is gone. */
  stop(graceMs?: number): Promise<void>;
  /** What went wrong, for an error message: the exit (if any) and the end of stderr. */
  describe(): string;
}

export interface ChildOptions {
  /** An IPC channel besides stdin, for children whose stdin must stay empty (an embedded chDB reads it). */
  ipc?: boolean;
  /**
   * Where the child's stdout goes instead of a pipe read here: a server's log lines, kept on disk
   * as a user's would be (a pipe read into memory would grow with every request logged).
   * `firstLine` and `output` are then unavailable; the child's stdin is closed at its start.
   */
  stdoutFile?: string;
}

export function startChild(name: string, script: string, env: Record<string, string> = {}, options: ChildOptions = {}): Child {
  // BENCH_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) goes to node in the child, for profiling.
  const extra = (env['BENCH_NODE_ARGS'] ?? process.env['BENCH_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
  const stdoutFd = options.stdoutFile === undefined ? undefined : openSync(options.stdoutFile, 'a');
  const child = spawn(process.execPath, [...startFlags, ...extra, '--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: stdoutFd !== undefined ? ['ignore', stdoutFd, 'pipe'] : options.ipc ? ['pipe', 'pipe', 'pipe', 'ipc'] : ['pipe', 'pipe', 'pipe'],
  }) as ChildProcessWithoutNullStreams;
  if (stdoutFd !== undefined) closeSync(stdoutFd);
  let stdout = '';
  let stderr = '';
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-8000)));
  child.stdin?.on('error', () => undefined); // the child may exit before reading everything
  // 'close' (not 'exit'): stdout has been read to its end by then.
  const exited = new Promise<void>((resolve) =>
    child.once('close', (code, signal) => {
      exit = { code, signal };
      running.delete(handle);
      resolve();
    }),
  );
  const failure = (what: string): Error => new Error(`${name}: ${what}${stderr ? `\n--- stderr of ${name} ---\n${stderr.trimEnd()}` : ''}`);

  const waitUntil = <T>(ready: () => T | undefined, timeoutMs: number, what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        let value: T | undefined;
        try {
          value = ready();
        } catch (error) {
          done(() => reject(error));
          return;
        }
        if (value !== undefined) done(() => resolve(value));
        else if (exit) done(() => reject(failure(`exited (code ${exit!.code}, signal ${exit!.signal}) before ${what}`)));
      };
      const timer = setTimeout(() => done(() => reject(failure(`no ${what} after ${timeoutMs} ms`))), timeoutMs);
      const done = (settle: () => void): void => {
        clearTimeout(timer);
        child.stdout?.off('data', check);
        child.off('close', check);
        settle();
      };
      child.stdout?.on('data', check);
      child.on('close', check);
      check();
    });

  const handle: Child = {
    name,
    process: child,
    firstLine: (timeoutMs) =>
      waitUntil(
        () => {
          const newline = stdout.indexOf('\n');
          return newline < 0 ? undefined : stdout.slice(0, newline);
        },
        timeoutMs,
        'line on stdout',
      ),
    output: (timeoutMs) =>
      waitUntil(
        () => {
          if (!exit) return undefined;
          if (exit.code !== 0) throw failure(`exited with code ${exit.code}, signal ${exit.signal}`);
          return stdout;
        },
        timeoutMs,
        'exit',
      ),
    send(text, end = false) {
      child.stdin.write(text);
      if (end) child.stdin.end();
    },
    message(value) {
      child.send(value);
    },
    describe() {
      return failure(exit ? `exited (code ${exit.code}, signal ${exit.signal})` : 'still running').message;
    },
    async stop(graceMs = 5000) {
      if (exit) return;
      child.stdin?.end();
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(handle);
  return handle;
}

/** Stops every child still running. */
export async function stopAllChildren(): Promise<void> {
  await Promise.allSettled([...running].map((c) => c.stop()));
}

/** The JSON lines a child writes on stdout, one at a time. */
export function lines(child: Child): () => Promise<string> {
  let buffer = '';
  let seen = 0;
  child.process.stdout!.on('data', (d: Buffer | string) => (buffer += d.toString()));
  return () =>
    new Promise((resolve, reject) => {
      const deadline = Date.now() + 300_000;
      const poll = (): void => {
        const all = buffer.split('\n');
        if (all.length - 1 > seen) resolve(all[seen++]!);
        else if (Date.now() > deadline || child.process.exitCode !== null) reject(new Error(`no answer in time: ${child.describe()}`));
        else setTimeout(poll, 10);
      };
      poll();
    });
}
