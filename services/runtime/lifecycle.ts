/**
 * Orderly stop (issue: SIGTERM stops accepting, finishes in-flight work, flushes, acks or naks,
 * closes the engines, exits 0). Parts register their stop step as they start; steps run in
 * reverse order of registration, so what started last (the HTTP listener) stops first and the
 * engines everything depends on close last.
 */
import type { Logger } from './logger.js';

export interface Lifecycle {
  onStop(name: string, step: () => Promise<void> | void): void;
  /** Runs every stop step once; later calls wait for the first. */
  stop(reason: string): Promise<void>;
}

export function createLifecycle(deps: { logger: Logger; stepTimeoutMs: number }): Lifecycle {
  const steps: Array<{ name: string; step: () => Promise<void> | void }> = [];
  let stopping: Promise<void> | undefined;
  return {
    onStop(name, step) {
      steps.push({ name, step });
    },
    stop(reason) {
      stopping ??= (async () => {
        deps.logger.info({ reason }, 'stopping');
        for (const { name, step } of [...steps].reverse()) {
          let timer: NodeJS.Timeout | undefined;
          try {
            await Promise.race([
              Promise.resolve().then(step),
              new Promise((_, reject) => {
                timer = setTimeout(() => reject(new Error(`did not finish in ${deps.stepTimeoutMs} ms`)), deps.stepTimeoutMs);
              }),
            ]);
          } catch (err) {
            deps.logger.error({ err, step: name }, 'stop step failed');
          } finally {
            clearTimeout(timer);
          }
        }
        deps.logger.info('stopped');
      })();
      return stopping;
    },
  };
}
