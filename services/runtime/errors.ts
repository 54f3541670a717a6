/**
 * The one error catalogue (STYLE habit 8): every error answer of the platform is an AppError
 * with a stable code, turned into problem+json in one place (http/problem.ts).
 */
import type { Problem } from '../../schemas/problem.schema.js';

export interface FieldError {
  path: string;
  message: string;
}

const catalogue = {
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
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof catalogue;

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly status: number;
  readonly title: string;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    /** Extra response headers (Retry-After, Allow). */
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.status = catalogue[code].status;
    this.title = catalogue[code].title;
  }

  toProblem(): Problem {
    const problem: Problem = { type: `urn:ops:problem:${this.code}`, title: this.title, status: this.status, detail: this.detail };
    if (this.errors && this.errors.length > 0) problem.errors = this.errors;
    return problem;
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** Builders for the common cases, so call sites read as the spec's conditions. */
export const errors = {
  badRequest: (detail: string, fieldErrors?: FieldError[]) => new AppError('bad-request', detail, fieldErrors),
  validation: (fieldErrors: FieldError[], detail = 'The request does not match the data model') =>
    new AppError('validation', detail, fieldErrors),
  unauthorized: (detail = 'A valid bearer token is required') => new AppError('unauthorized', detail),
  forbidden: (detail: string) => new AppError('forbidden', detail),
  notFound: (detail: string) => new AppError('not-found', detail),
  unprocessable: (detail: string) => new AppError('unprocessable', detail),
  conflict: (detail: string) => new AppError('conflict', detail),
  gone: (detail: string) => new AppError('gone', detail),
  payloadTooLarge: (detail: string) => new AppError('payload-too-large', detail),
  unsupportedMediaType: (detail: string) => new AppError('unsupported-media-type', detail),
  headerFieldsTooLarge: (detail: string) => new AppError('header-fields-too-large', detail),
  unavailable: (detail: string, retryAfterSeconds = 1) =>
    new AppError('unavailable', detail, undefined, { 'Retry-After': String(retryAfterSeconds) }),
  internal: () => new AppError('internal', 'An unexpected error occurred; it has been logged'),
};
