/**
 * Small HTTP helpers for tests: a request returning status, headers and the parsed body. Every
 * problem+json answer met through them is checked against the error catalogue (issue #15), so
 * an error raised without a catalogue entry, or with a status its kind does not map to, fails
 * whichever test meets it.
 */
import { ERROR_CATALOGUE, type ErrorCode } from '../../schemas/error-catalogue.js';
import { STATUS_OF_KIND } from '../../services/runtime/http/problem.js';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export async function call(
  base: string,
  method: string,
  path: string,
  options: { body?: string | Buffer; headers?: Record<string, string>; json?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(base + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (response.headers.get('content-type') === 'application/problem+json') checkProblem(response.status, parsed, `${method} ${path}`);
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** A problem body names a catalogued code whose kind is its `type` and maps to its status. */
export function checkProblem(status: number, body: unknown, what: string): void {
  const problem = body as { code?: unknown; type?: unknown; status?: unknown } | undefined;
  const code = problem?.code;
  if (typeof code !== 'string' || !Object.hasOwn(ERROR_CATALOGUE, code)) throw new Error(`${what}: the problem's code ${JSON.stringify(code)} is not in the error catalogue`);
  const { kind } = ERROR_CATALOGUE[code as ErrorCode];
  if (problem?.type !== `urn:ops:problem:${kind}`) throw new Error(`${what}: code ${code} is of kind ${kind}, the problem's type is ${String(problem?.type)}`);
  if (STATUS_OF_KIND[kind].status !== status || problem?.status !== status) throw new Error(`${what}: code ${code} (${kind}) answered with status ${status}`);
}
