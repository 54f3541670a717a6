import { type DestinationStream, type Logger, pino } from 'pino';

export type { Logger };

/**
 * The one logger (DESIGN §10). Secrets are never logged: headers that carry them are redacted
 * wherever a request is logged, and adapters log URLs without their credentials.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-smon-stream-key"]', 'req.query.streamKey', '*.password', '*.token', '*.key'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/** A logger that writes nothing, for tests and tools. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
