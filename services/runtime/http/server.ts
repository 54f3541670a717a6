/**
 * The HTTP server on uWebSockets.js: routing, body reading with a size limit, content-type
 * checks, JSON parsing and validation, problem+json errors, a log line and metrics per request,
 * and graceful draining for shutdown. Handlers see plain Request/Reply values.
 */
import { App, us_listen_socket_close, us_socket_local_port, type HttpResponse, type TemplatedApp, type us_listen_socket } from 'uWebSockets.js';
import { errors, AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Metrics } from './metrics.js';
import { problemReply } from './problem.js';
import type { Method, Reply, Request, Route } from './route.js';
import { compileSchema, fieldErrors, type Checker } from './validate.js';
import { matchPath } from './path-match.js';
import { writeReply, type ResponseState } from './write-reply.js';

export interface HttpServerConfig {
  host: string;
  port: number;
  maxBodyBytes: number;
}

export interface HttpServer {
  add(routes: Route[]): void;
  routes(): readonly Route[];
  /** Starts listening; resolves with the port (useful with port 0). */
  listen(): Promise<number>;
  /** Closes the listening socket: new connections are refused, open ones finish. */
  stopAccepting(): void;
  /** Waits until no request is in flight; false when `timeoutMs` passed first. */
  drain(timeoutMs: number): Promise<boolean>;
  inFlight(): number;
}

interface CompiledRoute {
  route: Route;
  paramNames: string[];
  hasBody: boolean;
  accepts: Set<string>;
  bodyChecker: Checker | undefined;
  queryChecker: Checker | undefined;
  emptyQueryValid: boolean;
  /** Metric children of this route, by status: labelled once instead of per request. */
  counters: Map<number, { inc(): void }>;
  duration: { observe(seconds: number): void };
}

const uwsMethod: Record<Method, 'get' | 'post' | 'put' | 'patch' | 'del'> = {
  GET: 'get',
  POST: 'post',
  PUT: 'put',
  PATCH: 'patch',
  DELETE: 'del',
};

export function createHttpServer(config: HttpServerConfig, deps: { logger: Logger; metrics: Metrics }): HttpServer {
  const { logger, metrics } = deps;
  const app: TemplatedApp = App();
  const registered: Route[] = [];
  let listenSocket: us_listen_socket | undefined;
  let inFlight = 0;
  let drainWaiters: Array<() => void> = [];
  let sequence = 0;
  const idPrefix = `${process.pid.toString(36)}-`;

  const finished = (): void => {
    inFlight -= 1;
    if (inFlight === 0 && drainWaiters.length > 0) {
      for (const w of drainWaiters) w();
      drainWaiters = [];
    }
  };

  function serve(res: HttpResponse, compiled: CompiledRoute | undefined, method: Method, url: string, query: string, headers: Record<string, string>, params: Record<string, string>): void {
    const started = performance.now();
    const state: ResponseState = { aborted: false, done: false };
    const id = headers['x-request-id']?.slice(0, 64) || idPrefix + (++sequence).toString(36);
    let log: Logger | undefined;
    let searchParams: URLSearchParams | undefined;
    inFlight += 1;
    const routeName = compiled?.route.name ?? 'unmatched';
    const complete = (status: number): void => {
      if (state.done) return;
      state.done = true;
      finished();
      const seconds = (performance.now() - started) / 1000;
      if (compiled) {
        let counter = compiled.counters.get(status);
        if (!counter) compiled.counters.set(status, (counter = metrics.httpRequests.labels({ route: routeName, method, status: String(status) })));
        counter.inc();
        compiled.duration.observe(seconds);
      } else {
        metrics.httpRequests.inc({ route: routeName, method, status: String(status) });
        metrics.httpDuration.observe({ route: routeName, method }, seconds);
      }
      logger.info({ reqId: id, method, path: url, route: routeName, status, ms: Math.round(seconds * 1e5) / 100 }, 'request');
    };
    res.onAborted(() => {
      state.aborted = true;
      complete(499);
    });
    const contentType = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const request: Request = {
      id,
      method,
      path: url,
      params,
      get query() {
        return (searchParams ??= new URLSearchParams(query));
      },
      queryValues: {},
      headers,
      contentType,
      rawBody: Buffer.alloc(0),
      body: undefined,
      get log() {
        return (log ??= logger.child({ reqId: id }));
      },
      auth: undefined,
    };
    const send = (reply: Reply, closeConnection = false): void => {
      writeReply(res, state, reply, id, closeConnection)
        .then(() => complete(reply.status))
        .catch((err: unknown) => {
          logger.error({ err, reqId: id }, 'writing the answer failed');
          complete(reply.status);
        });
    };
    const fail = (error: unknown, closeConnection = false): void => send(problemReply(error, request.log), closeConnection);

    if (!compiled) {
      const allowed = registered.filter((r) => matchPath(r.path, url)).map((r) => r.method);
      fail(
        allowed.length > 0
          ? new AppError('method-not-allowed', `${method} is not allowed on ${url}`, undefined, { Allow: [...new Set(allowed)].join(', ') })
          : new AppError('route-not-found', `No route for ${method} ${url}`),
      );
      return;
    }
    const { route } = compiled;
    const limit = route.maxBodyBytes ?? config.maxBodyBytes;
    const afterAuthentication = (reader: BodyReader | undefined): void => {
      // The query is checked after the caller is known: a bad query from a stranger is 401, not 400.
      // An absent query string validates like an empty object: check it once, not per request.
      if (compiled.queryChecker && (query !== '' || !compiled.emptyQueryValid)) {
        const raw = Object.fromEntries(request.query);
        const converted = compiled.queryChecker.Convert(raw);
        if (!compiled.queryChecker.Check(converted)) throw errors.validation(fieldErrors(compiled.queryChecker, converted), 'Invalid query parameters');
        (request as { queryValues: unknown }).queryValues = converted;
      }
      if (!compiled.hasBody) {
        run(request);
        return;
      }
      if (!compiled.accepts.has(contentType)) {
        throw new AppError('unsupported-media-type', `Content-Type must be ${[...compiled.accepts].join(' or ')}${contentType ? `, not ${contentType}` : ''}`);
      }
      const declared = Number(headers['content-length'] ?? 0);
      if (declared > limit) {
        fail(new AppError('payload-too-large', `The body is ${declared} bytes; the limit is ${limit}`), true);
        return;
      }
      (reader ?? readBody(res, limit)).take((body) => {
        if (body === undefined) {
          fail(new AppError('payload-too-large', `The body exceeds the limit of ${limit} bytes`), true);
          return;
        }
        (request as { rawBody: Buffer }).rawBody = body;
        try {
          if (compiled.bodyChecker) (request as { body: unknown }).body = parseJson(body, compiled.bodyChecker);
          run(request);
        } catch (error) {
          fail(error);
        }
      });
    };
    try {
      const authenticated = route.authenticate?.(request);
      if (authenticated instanceof Promise) {
        // uWS hands the body over only to a reader attached now, so start reading while waiting.
        const reader = compiled.hasBody ? readBody(res, limit) : undefined;
        authenticated.then(
          () => {
            try {
              afterAuthentication(reader);
            } catch (error) {
              fail(error, reader !== undefined && !reader.complete());
            }
          },
          (error: unknown) => fail(error, reader !== undefined && !reader.complete()),
        );
        return;
      }
      afterAuthentication(undefined);
    } catch (error) {
      fail(error);
    }

    function run(req: Request): void {
      try {
        const out = route.handler(req);
        if (out instanceof Promise) out.then(send, (e: unknown) => fail(e));
        else send(out);
      } catch (error) {
        fail(error);
      }
    }
  }

  const server: HttpServer = {
    add(routes) {
      for (const route of routes) {
        const paramNames = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
        const hasBody = route.schema.body !== undefined || route.rawBody === true;
        const compiled: CompiledRoute = {
          route,
          paramNames,
          hasBody,
          accepts: new Set(route.accepts ?? (hasBody ? ['application/json'] : [])),
          bodyChecker: route.schema.body ? compileSchema(route.schema.body) : undefined,
          queryChecker: route.schema.query ? compileSchema(route.schema.query) : undefined,
          emptyQueryValid: false,
          counters: new Map(),
          duration: metrics.httpDuration.labels({ route: route.name, method: route.method }),
        };
        compiled.emptyQueryValid = !compiled.queryChecker || compiled.queryChecker.Check(compiled.queryChecker.Convert({}));
        registered.push(route);
        app[uwsMethod[route.method]](route.path, (res, req) => {
          const headers: Record<string, string> = {};
          req.forEach((k, v) => (headers[k] = v));
          const params: Record<string, string> = {};
          for (let i = 0; i < paramNames.length; i++) params[paramNames[i]!] = safeDecode(req.getParameter(i) ?? '');
          serve(res, compiled, route.method, req.getUrl(), req.getQuery() ?? '', headers, params);
        });
      }
    },
    routes: () => registered,
    listen() {
      app.any('/*', (res, req) => {
        const headers: Record<string, string> = {};
        req.forEach((k, v) => (headers[k] = v));
        serve(res, undefined, req.getCaseSensitiveMethod().toUpperCase() as Method, req.getUrl(), req.getQuery() ?? '', headers, {});
      });
      return new Promise((resolve, reject) => {
        app.listen(config.host, config.port, (socket) => {
          if (!socket) return reject(new Error(`cannot listen on ${config.host}:${config.port} (port in use?)`));
          listenSocket = socket;
          resolve(localPort(socket, config.port));
        });
      });
    },
    stopAccepting() {
      if (listenSocket) us_listen_socket_close(listenSocket);
      listenSocket = undefined;
    },
    drain(timeoutMs) {
      if (inFlight === 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        drainWaiters.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
    inFlight: () => inFlight,
  };
  return server;
}

interface BodyReader {
  /** Calls back once with the whole body, or undefined as soon as it passes the limit. */
  take(done: (body: Buffer | undefined) => void): void;
  complete(): boolean;
}

/** Starts collecting the body (uWS delivers it only to a reader attached in the request's tick). */
function readBody(res: HttpResponse, limit: number): BodyReader {
  const chunks: Buffer[] = [];
  let size = 0;
  let outcome: { body: Buffer | undefined } | undefined;
  let waiting: ((body: Buffer | undefined) => void) | undefined;
  const settle = (body: Buffer | undefined): void => {
    outcome = { body };
    waiting?.(body);
  };
  res.onData((chunk, isLast) => {
    if (outcome) return;
    size += chunk.byteLength;
    if (size > limit) return settle(undefined);
    // uWS reuses the chunk's memory after this callback: copy it.
    chunks.push(Buffer.from(new Uint8Array(chunk)));
    if (isLast) settle(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
  });
  return {
    take(done) {
      if (outcome) done(outcome.body);
      else waiting = done;
    },
    complete: () => outcome !== undefined,
  };
}

function parseJson(body: Buffer, checker: Checker): unknown {
  if (body.length === 0 || body.toString('utf8').trim() === '') throw new AppError('empty-body', 'The request body is empty');
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new AppError('invalid-json', `The body is not valid JSON: ${(error as Error).message}`);
  }
  if (!checker.Check(value)) throw errors.validation(fieldErrors(checker, value));
  return value;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function localPort(socket: us_listen_socket, configured: number): number {
  return configured !== 0 ? configured : us_socket_local_port(socket as never);
}
