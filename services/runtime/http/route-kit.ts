/** Shared pieces of route definitions: the standard error responses and id parsing. */

import { failFields } from '../../../schemas/errors.js';
import type { ResponseSpec } from './route.js';

const descriptions: Record<number, string> = {
  400: 'Invalid request (problem+json, with the offending fields)',
  401: 'Not authorised: missing, malformed, unknown, expired or revoked token',
  403: 'Insufficient rights',
  404: 'Not found',
  409: 'Conflicts with the current state',
  410: 'Gone',
  413: 'Body too large',
  415: 'Unsupported content type',
  422: 'Unprocessable',
  503: 'Temporarily unavailable; retry after the Retry-After delay',
};

/** Problem responses for the given status codes, for a route's schema. */
export function problems(...codes: number[]): Record<number, ResponseSpec> {
  return Object.fromEntries(codes.map((c) => [c, { description: descriptions[c] ?? 'Error' }]));
}

/** A numeric path id, or 400 naming the parameter (spec: "invalid ... id"). */
export function parseId(value: string | undefined, name = 'id', what = 'id'): number {
  const id = Number(value);
  if (!value || !/^-?\d+$/.test(value) || !Number.isSafeInteger(id) || id <= 0) {
    throw failFields('http.parameter_invalid', [{ path: `/${name}`, message: 'must be a positive integer' }], { name: what, value: JSON.stringify(value ?? '') });
  }
  return id;
}
