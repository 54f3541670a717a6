import { AppError, errors, isAppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Reply } from './route.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** Every error becomes problem+json here (DESIGN §5); unknown errors are logged and hidden. */
export function problemReply(error: unknown, log: Logger): Reply {
  const appError: AppError = isAppError(error) ? error : errors.internal();
  if (!isAppError(error)) log.error({ err: error }, 'unhandled error');
  return {
    status: appError.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...appError.headers },
    body: appError.toProblem(),
  };
}
