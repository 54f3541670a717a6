/**
 * Domain errors (STYLE habit 8): raised anywhere with a code of the catalogue
 * (error-catalogue.ts) and the values its message names; the HTTP edge (http/problem.ts) alone
 * turns them into statuses and problem+json. A code outside the catalogue does not type-check.
 */
import type { Problem } from './problem.schema.js';
import { ERROR_CATALOGUE, type ErrorCode, type ErrorKind } from './error-catalogue.js';

export type { ErrorCode, ErrorKind } from './error-catalogue.js';

export interface FieldError {
  path: string;
  message: string;
}

/** The `{name}`s of a message template. */
type Placeholders<S extends string> = S extends `${string}{${infer Name}}${infer Rest}` ? Name | Placeholders<Rest> : never;
type MessageOf<C extends ErrorCode> = (typeof ERROR_CATALOGUE)[C]['message'];
export type ErrorParams<C extends ErrorCode> = { readonly [K in Placeholders<MessageOf<C>>]: string | number };

/** Members a problem may carry beside the standard ones (e.g. a 403's `right` and `roles`). */
export type ProblemMembers = Partial<Omit<Problem, 'type' | 'title' | 'status' | 'detail' | 'code' | 'errors'>>;

/** Codes whose message names only `{id}`, e.g. the CI rights refusals. */
export type IdErrorCode = { [C in ErrorCode]: [Placeholders<MessageOf<C>>] extends ['id'] ? C : never }[ErrorCode];

/** The parameters argument: required when the message names values, absent otherwise. */
type ParamsArg<C extends ErrorCode> = [Placeholders<MessageOf<C>>] extends [never] ? [params?: Record<string, never>] : [params: ErrorParams<C>];

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly kind: ErrorKind;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    /** Extra response headers (Retry-After, Allow). */
    readonly headers?: Record<string, string>,
    /** Extension members of the problem body, beside `detail` (machine-readable remedies). */
    readonly members?: ProblemMembers,
  ) {
    super(detail);
    this.kind = ERROR_CATALOGUE[code].kind;
  }

  /** The same error, with field errors (one per offending field). */
  withFields(errors: FieldError[]): AppError {
    return new AppError(this.code, this.detail, errors, this.headers, this.members);
  }

  /** The same error, with more response headers. */
  withHeaders(headers: Record<string, string>): AppError {
    return new AppError(this.code, this.detail, this.errors, { ...this.headers, ...headers }, this.members);
  }

  /** The same error, with extension members in its problem body. */
  withMembers(members: ProblemMembers): AppError {
    return new AppError(this.code, this.detail, this.errors, this.headers, { ...this.members, ...members });
  }

  /** The problem body without its status and title, which the HTTP edge adds. */
  toProblem(status: number, title: string): Problem {
    const problem: Problem = { type: `urn:ops:problem:${this.kind}`, title, status, detail: this.detail, code: this.code, ...this.members };
    if (this.errors && this.errors.length > 0) problem.errors = this.errors;
    return problem;
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** The message of `code` with its `{name}`s filled. */
export function messageOf(code: ErrorCode, params: object = {}): string {
  return ERROR_CATALOGUE[code].message.replace(/\{(\w+)\}/g, (_, name: string) => String(Reflect.get(params, name) ?? `{${name}}`));
}

/** The error of `code` (throw it): `fail('ci.not_found', { what: 'CI', id })`. */
export function fail<C extends ErrorCode>(code: C, ...[params]: ParamsArg<C>): AppError {
  return new AppError(code, messageOf(code, params));
}

/** As fail, with the offending fields listed. */
export function failFields<C extends ErrorCode>(code: C, fields: FieldError[], ...[params]: ParamsArg<C>): AppError {
  return new AppError(code, messageOf(code, params), fields);
}

/** The store or bus cannot take it now: `unavailable` kinds carry when to retry. */
export function failLater<C extends ErrorCode>(code: C, retryAfterSeconds: number, ...[params]: ParamsArg<C>): AppError {
  return new AppError(code, messageOf(code, params), undefined, { 'Retry-After': String(retryAfterSeconds) });
}
