/**
 * The HTTP server on uWebSockets.js: routing, body reading with a size limit, content-type
 * checks, JSON parsing and validation, problem+json errors, a log line and metrics per request,
 * and graceful draining for shutdown. Handlers see plain Request/Reply values.
 */
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import type { TSchema } from 'typebox';
import { accessLogOf, type Logger } from '../logger.js';
import { type CompiledRoute, Exchange, type ExchangeContext } from './exchange.js';
import type { Metrics } from './metrics.js';
import { matchPath } from './path-match.js';
import type { Method, Route } from './route.js';
import { App, us_listen_socket_close, us_socket_local_port } from './uws.js';
import { compileSchema } from './validate.js';

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

const uwsMethod: Record<Method, 'get' | 'head' | 'post' | 'put' | 'patch' | 'del'> = {
  GET: 'get',
  HEAD: 'head',
  POST: 'post',
  PUT: 'put',
  PATCH: 'patch',
  DELETE: 'del',
};

/** The methods a route answers: a GET route answers HEAD too, without the body. */
const methodsOf = (route: Route): Method[] => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]);

/** The properties of a query schema typed as booleans (optional or not). */
function booleanProperties(schema: TSchema | undefined): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {};
  return Object.entries(properties).flatMap(([name, property]) => (property.type === 'boolean' ? [name] : []));
}

export function createHttpServer(config: HttpServerConfig, deps: { logger: Logger; metrics: Metrics }): HttpServer {
  const { logger, metrics } = deps;
  const app: TemplatedApp = App();
  const registered: Route[] = [];
  let listenSocket: us_listen_socket | undefined;
  let inFlight = 0;
  let stopping = false;
  let drainWaiters: Array<() => void> = [];
  /** How to end each live stream (SSE) being written: at stop they end instead of being waited for. */
  const live = new Set<() => void>();
  let sequence = 0;
  const idPrefix = `${process.pid.toString(36)}-`;
  /** Routes that also answer GET and HEAD of paths no route has (Route.fallback). */
  const fallbacks: CompiledRoute[] = [];

  const context: ExchangeContext = {
    logger,
    accessLog: accessLogOf(logger),
    maxBodyBytes: config.maxBodyBytes,
    record(compiled, method, status, seconds) {
      if (compiled) (compiled.tallies[method] ??= metrics.http.of(compiled.route.name, method)).record(status, seconds);
      else metrics.http.of('unmatched', method).record(status, seconds);
    },
    finished() {
      inFlight -= 1;
      if (inFlight === 0 && drainWaiters.length > 0) {
        for (const w of drainWaiters) w();
        drainWaiters = [];
      }
    },
    allowedMethods: (path) => registered.filter((r) => matchPath(r.path, path)).flatMap(methodsOf),
    stopping: () => stopping,
    holdLive(stop) {
      if (stopping) queueMicrotask(stop);
      live.add(stop);
      return () => live.delete(stop);
    },
  };

  function serve(res: HttpResponse, req: HttpRequest, compiled: CompiledRoute | undefined, method: Method, params: Record<string, string>): void {
    const headers: Record<string, string> = {};
    let headerBytes = 0;
    req.forEach((k, v) => {
      headers[k] = v;
      headerBytes += k.length + v.length;
    });
    const id = headers['x-request-id']?.slice(0, 64) || idPrefix + (++sequence).toString(36);
    inFlight += 1;
    new Exchange(context, res, compiled, id, method, req.getUrl(), req.getQuery() ?? '', headers, params).start(headerBytes);
  }

  const server: HttpServer = {
    add(routes) {
      for (const route of routes) {
        if (route.fallback && route.method !== 'GET') throw new Error(`${route.name}: only a GET route can be a fallback`);
        const paramNames = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
        const hasBody = route.schema.body !== undefined || route.rawBody === true;
        const compiled: CompiledRoute = {
          route,
          paramNames,
          hasBody,
          accepts: new Set(route.accepts ?? (hasBody ? ['application/json'] : [])),
          bodyChecker: route.schema.body ? compileSchema(route.schema.body) : undefined,
          queryChecker: route.schema.query ? compileSchema(route.schema.query) : undefined,
          booleanParams: booleanProperties(route.schema.query),
          emptyQueryValid: false,
          checkedQueries: new Map(),
          parsedQueries: new Map(),
          tallies: {},
        };
        compiled.emptyQueryValid = !compiled.queryChecker || compiled.queryChecker.Check(compiled.queryChecker.Convert({}));
        registered.push(route);
        if (route.fallback) fallbacks.push(compiled);
        for (const method of methodsOf(route)) {
          app[uwsMethod[method]](route.path, (res, req) => {
            const params: Record<string, string> = {};
            for (let i = 0; i < paramNames.length; i++) params[paramNames[i]!] = safeDecode(req.getParameter(i) ?? '');
            serve(res, req, compiled, method, params);
          });
        }
      }
    },
    routes: () => registered,
    listen() {
      app.any('/*', (res, req) => {
        const method = req.getCaseSensitiveMethod().toUpperCase() as Method;
        const path = req.getUrl();
        const fallback = method === 'GET' || method === 'HEAD' ? fallbacks.find((f) => f.route.fallback!(path)) : undefined;
        serve(res, req, fallback, method, {});
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
      stopping = true;
      if (listenSocket) us_listen_socket_close(listenSocket);
      listenSocket = undefined;
      for (const stop of live) stop();
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

function safeDecode(value: string): string {
  // Most parameters (ids) hold nothing escaped.
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function localPort(socket: us_listen_socket, configured: number): number {
  return configured !== 0 ? configured : us_socket_local_port(socket as never);
}
