/** Runs a platform entry point as a real child process, as `npm start` would. */
import { type ChildProcess, spawn } from 'node:child_process';

const root = new URL('../../', import.meta.url).pathname;

export interface ServiceProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (and the signal, if any). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
}

/** `stdin`: text waiting on the process's standard input (left open); none by default. */
export function runEntry(entry: string, env: Record<string, string>, options: { stdin?: string } = {}): ServiceProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (options.stdin !== undefined) {
    child.stdin?.on('error', () => undefined); // the child may never read it
    child.stdin?.write(options.stdin);
  }
  let output = '';
  const listeners = new Set<() => void>();
  const collect = (d: Buffer): void => {
    output += d.toString();
    for (const l of listeners) l();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    output: () => output,
    exited,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (pattern.test(output)) {
            cleanup();
            resolve();
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${pattern} in output after ${timeoutMs} ms:\n${output.slice(-3000)}`));
        }, timeoutMs);
        const onExit = (): void => {
          cleanup();
          reject(new Error(`process exited before ${pattern}:\n${output.slice(-3000)}`));
        };
        const cleanup = (): void => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off('exit', onExit);
        };
        listeners.add(check);
        child.once('exit', onExit);
        check();
      });
    },
  };
}
