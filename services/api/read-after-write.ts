/**
 * Read-after-write across API processes. Each process applies other processes' changes as its
 * journal tail delivers them, a few milliseconds late; a client that wrote through one replica
 * and reads through another must still see its write. So an answer that depends on something
 * possibly not yet applied here (401 unknown token, 403 no right, 404 not found) is given only
 * after this process has caught up with the journal and checked again. The happy path costs
 * nothing; only those refusals pay one journal read.
 */
import { type ErrorKind, isAppError } from '../../schemas/errors.js';
import type { Reply, Request, Route } from '../runtime/http/route.js';

const mayBeStale = (error: unknown, kinds: readonly ErrorKind[]): boolean => isAppError(error) && kinds.includes(error.kind);

export function withCatchUp(route: Route, catchUp: () => Promise<void>): Route {
  const { authenticate, handler } = route;
  // The retries are made only on a refusal, and the happy path makes no function per request:
  // the TypeScript loader names every function a request makes, and that showed in the profile.
  const authenticateAgain = (request: Request, error: unknown): Promise<unknown> => {
    if (!mayBeStale(error, ['unauthorized', 'forbidden'])) throw error;
    return catchUp().then(() => authenticate!(request));
  };
  const handleAgain = async (request: Request, error: unknown): Promise<Reply> => {
    if (!mayBeStale(error, ['forbidden', 'not-found'])) throw error;
    await catchUp();
    return handler(request);
  };
  return {
    ...route,
    authenticate:
      authenticate &&
      ((request: Request) => {
        // A Bearer token is checked synchronously, and stays so on the happy path; the console's
        // session cookie is checked asynchronously (the session store). Either way the caller
        // it establishes is passed on, for the exchange to keep in `request.auth`.
        try {
          const caller = authenticate(request);
          return caller instanceof Promise ? caller.catch((error: unknown) => authenticateAgain(request, error)) : caller;
        } catch (error) {
          return authenticateAgain(request, error);
        }
      }),
    handler: (request) => {
      // Synchronous handlers stay synchronous on the happy path (no promise per request).
      try {
        const reply = handler(request);
        return reply instanceof Promise ? reply.catch((error: unknown) => handleAgain(request, error)) : reply;
      } catch (error) {
        return handleAgain(request, error);
      }
    },
  };
}
