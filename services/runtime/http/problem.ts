import type { ErrorKind } from '../../../schemas/error-catalogue.js';
import { type AppError, fail, isAppError } from '../../../schemas/errors.js';
import type { Logger } from '../logger.js';
import type { Reply } from './route.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** The HTTP edge's one mapping from what went wrong to a status and its title. */
export const STATUS_OF_KIND: Readonly<Record<ErrorKind, { status: number; title: string }>> = {
  'bad-request': { status: 400, title: 'Bad request' },
  validation: { status: 400, title: 'Invalid data model' },
  'invalid-json': { status: 400, title: 'Malformed JSON body' },
  'empty-body': { status: 400, title: 'Empty body' },
  unauthorized: { status: 401, title: 'Not authorised' },
  forbidden: { status: 403, title: 'Insufficient rights' },
  'not-found': { status: 404, title: 'Not found' },
  'route-not-found': { status: 404, title: 'No such route' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  conflict: { status: 409, title: 'Conflict' },
  gone: { status: 410, title: 'Gone' },
  'payload-too-large': { status: 413, title: 'Payload too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'header-fields-too-large': { status: 431, title: 'Request header fields too large' },
  unprocessable: { status: 422, title: 'Unprocessable request' },
  internal: { status: 500, title: 'Internal server error' },
  unavailable: { status: 503, title: 'Service unavailable' },
};

export const statusOf = (error: AppError): number => STATUS_OF_KIND[error.kind].status;

/** Every error becomes problem+json here (DESIGN §5); unknown errors are logged and hidden. */
export function problemReply(error: unknown, log: Logger): Reply {
  const appError: AppError = isAppError(error) ? error : fail('internal');
  if (!isAppError(error)) log.error({ err: error }, 'unhandled error');
  const { status, title } = STATUS_OF_KIND[appError.kind];
  return {
    status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...appError.headers },
    body: appError.toProblem(status, title),
  };
}
