/**
 * Runs a process (`services/main.ts`, each `services/<part>/main.ts`): parses the environment (a
 * bad value stops the start with one line naming the variable), starts the parts it is handed,
 * and stops them in order on SIGTERM or SIGINT, exiting 0.
 */

import type { Part } from './part.js';
import { startPlatform } from './platform.js';
import { type Config, ConfigError, isDistributed, loadConfig } from './runtime/config.js';
import { describeEngines } from './runtime/engines.js';
import { createLogDestination } from './runtime/log-destination.js';
import { createLogger } from './runtime/logger.js';
import { detachStdin } from './runtime/stdin.js';

function refuse(line: string): never {
  process.stderr.write(`ops: ${line}\n`);
  process.exit(1);
}

/** `scope`: `whole` runs every part (any engines); `alone` runs some, which only distributed mode allows. */
export async function runService(service: string, parts: readonly Part[], scope: 'whole' | 'alone'): Promise<void> {
  detachStdin();
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) refuse(error.message);
    throw error;
  }
  if (scope === 'alone' && !isDistributed(config)) {
    refuse(`the ${service} service runs as its own process only in distributed mode: set NATS_URL, REDIS_URL and CLICKHOUSE_URL, or run everything with npm start`);
  }
  // Standard output through a destination whose failed writes (a full disk) are counted and
  // dropped, never fatal; what waits is written at exit. stdout and stderr are written to
  // directly too (Node's warnings, a library's console.error): an error there is dropped alike.
  const logOutput = createLogDestination();
  for (const stdio of [process.stdout, process.stderr]) stdio.on('error', () => undefined);
  process.once('exit', () => logOutput.flushSync());
  const logger = createLogger(config.logLevel, logOutput);
  let platform: Awaited<ReturnType<typeof startPlatform>>;
  try {
    platform = await startPlatform(config, parts, { logger, logOutput });
  } catch (err) {
    logger.fatal({ err }, `${service} failed to start`);
    logger.flush();
    process.exit(1);
  }
  logger.info({ service, port: platform.port, parts: parts.map((p) => p.name), data: describeEngines(config) }, `${service} listening on port ${platform.port}`);
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signalled) return;
    signalled = true;
    void platform.stop(signal).then(
      () => {
        logger.flush();
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'stop failed');
        logger.flush();
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
