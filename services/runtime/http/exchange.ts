/**
 * One request from its headers to its answer: authentication, query and body checks, the
 * handler, the reply, then a metric and a log line. A class rather than closures: at tens of
 * thousands of requests a second, the closures made per request (and the names the TypeScript
 * loader gives them) showed in the ingestion profile.
 */
import type { HttpResponse } from 'uWebSockets.js';
import { fail, failFields, failLater } from '../../../schemas/errors.js';
import type { AccessFields, Logger } from '../logger.js';
import { bodyEncodingOf, decodeBody } from './decode-body.js';
import { problemReply } from './problem.js';
import { BodyReader } from './read-body.js';
import { MAX_HEADER_BYTES } from './uws.js';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../../../pipelines/records/json-depth.js';

/** Charsets a body may declare: UTF-8, and US-ASCII, which is a part of it. */
const UTF8_CHARSETS: ReadonlySet<string> = new Set(['utf-8', 'utf8', 'us-ascii']);

import type { Method, ReadonlyQuery, Reply, Request, Route } from './route.js';
import type { RouteTally } from './request-tally.js';
import { BOOLEAN_RULE, type Checker, fieldErrors, INTEGER_RULE, integerProperties, isIntegerText, queryBoolean } from './validate.js';
import { type ResponseState, writeStream, writeWhole } from './write-reply.js';

export interface CompiledRoute {
  route: Route;
  paramNames: string[];
  hasBody: boolean;
  accepts: Set<string>;
  bodyChecker: Checker | undefined;
  queryChecker: Checker | undefined;
  /** Query parameters the schema types as booleans, read by queryBoolean (one rule everywhere). */
  booleanParams: string[];
  emptyQueryValid: boolean;
  /** Checked query values by query string: clients repeat theirs (a stream key, a page size). */
  checkedQueries: Map<string, Readonly<Record<string, unknown>>>;
  /** Parsed query strings, for the same reason (a stream key in the query is read on every post). */
  parsedQueries: Map<string, URLSearchParams>;
  /** This route's metrics, by method (a GET route answers HEAD too): looked up once, not per request. */
  tallies: Partial<Record<Method, RouteTally>>;
}

/** What every exchange shares with its server. */
export interface ExchangeContext {
  logger: Logger;
  /** Writes the access line (logger.ts accessLogOf); undefined when info lines are not written. */
  accessLog: ((fields: AccessFields) => void) | undefined;
  maxBodyBytes: number;
  /** Counts the answer in the metrics (route undefined: no route matched). */
  record(route: CompiledRoute | undefined, method: Method, status: number, seconds: number): void;
  /** Called once per request when it is answered or aborted. */
  finished(): void;
  /** Methods with a route on this path, for 405. */
  allowedMethods(path: string): Method[];
  /** The listener is closed: requests still arriving on open connections are turned away. */
  stopping(): boolean;
  /** Registers how to end a live stream when the server stops; returns how to unregister it. */
  holdLive(stop: () => void): () => void;
}

/** Query strings a route remembers (parsed, checked) before it starts over. */
const QUERIES_KEPT = 512;
const NO_QUERY_VALUES: Readonly<Record<string, unknown>> = Object.freeze({});
const NO_BODY: Buffer = Buffer.alloc(0);

const parseQuery = (queryString: string): URLSearchParams => new URLSearchParams(queryString);

/** What `known` holds for `queryString`, made and kept on first use. */
function remembered<V>(known: Map<string, V>, queryString: string, make: (queryString: string) => V): V {
  let value = known.get(queryString);
  if (value === undefined) {
    value = make(queryString);
    if (known.size >= QUERIES_KEPT) known.clear();
    known.set(queryString, value);
  }
  return value;
}

class IncomingRequest implements Request {
  queryValues = NO_QUERY_VALUES;
  rawBody: Buffer = NO_BODY;
  body: unknown = undefined;
  auth: unknown = undefined;
  #search: ReadonlyQuery | undefined;
  #log: Logger | undefined;

  constructor(
    readonly id: string,
    readonly method: Method,
    readonly path: string,
    readonly params: Record<string, string>,
    readonly headers: Record<string, string>,
    readonly contentType: string,
    readonly queryString: string,
    private readonly logger: Logger,
    private readonly knownQueries: Map<string, URLSearchParams> | undefined,
  ) {}

  get query(): ReadonlyQuery {
    // A request no route matched has no route to remember its query.
    return (this.#search ??= this.knownQueries ? remembered(this.knownQueries, this.queryString, parseQuery) : parseQuery(this.queryString));
  }

  get log(): Logger {
    return (this.#log ??= this.logger.child({ reqId: this.id }));
  }
}

export class Exchange implements ResponseState {
  aborted = false;
  done = false;
  stopStream?: () => void;
  /** In the route handler's own turn (start), where uWS has corked the response already. */
  private inStart = false;
  private readonly started = performance.now();
  private readonly request: IncomingRequest;

  constructor(
    private readonly context: ExchangeContext,
    private readonly res: HttpResponse,
    private readonly compiled: CompiledRoute | undefined,
    id: string,
    method: Method,
    path: string,
    queryString: string,
    headers: Record<string, string>,
    params: Record<string, string>,
  ) {
    const typeHeader = headers['content-type'];
    const contentType = typeHeader === undefined ? '' : mediaTypeOf(typeHeader);
    this.request = new IncomingRequest(id, method, path, params, headers, contentType, queryString, context.logger, compiled?.parsedQueries);
    res.onAborted(() => {
      this.aborted = true;
      this.stopStream?.();
      this.complete(499);
    });
  }

  /** `headerBytes`: the size of the header fields' names and values. */
  start(headerBytes: number): void {
    this.inStart = true;
    try {
      this.startInTurn(headerBytes);
    } finally {
      this.inStart = false;
    }
  }

  private startInTurn(headerBytes: number): void {
    const { compiled, request } = this;
    if (headerBytes > MAX_HEADER_BYTES) {
      // Answered before the body is read: the connection closes rather than carry it unread.
      this.fail(fail('http.header_fields_too_large', { bytes: headerBytes, limit: MAX_HEADER_BYTES }), compiled?.hasBody ?? true);
      return;
    }
    if (this.context.stopping()) {
      // A kept-alive connection still brings requests once the listener is closed: answered at
      // once and closed, so the client goes elsewhere and nothing new starts during the stop.
      this.fail(failLater('http.stopping', 1), true);
      return;
    }
    if (!compiled) {
      const allowed = this.context.allowedMethods(request.path);
      this.fail(
        allowed.length > 0
          ? fail('http.method_not_allowed', { method: request.method, path: request.path }).withHeaders({ Allow: [...new Set(allowed)].join(', ') })
          : fail('http.route_not_found', { method: request.method, path: request.path }),
      );
      return;
    }
    try {
      const authenticated = compiled.route.authenticate?.(request);
      if (authenticated instanceof Promise) {
        // uWS hands the body over only to a reader attached now, so start reading while waiting.
        const reader = compiled.hasBody ? new BodyReader(this.res, this.limit()) : undefined;
        authenticated.then(
          (auth: unknown) => {
            request.auth = auth;
            try {
              this.afterAuthentication(reader);
            } catch (error) {
              this.fail(error, reader !== undefined && !reader.complete());
            }
          },
          (error: unknown) => this.fail(error, reader !== undefined && !reader.complete()),
        );
        return;
      }
      // The caller, established synchronously (a Bearer token, a stream key): no promise.
      request.auth = authenticated;
      this.afterAuthentication(undefined);
    } catch (error) {
      this.fail(error);
    }
  }

  private limit(): number {
    return this.compiled!.route.maxBodyBytes ?? this.context.maxBodyBytes;
  }

  private afterAuthentication(reader: BodyReader | undefined): void {
    const compiled = this.compiled!;
    const request = this.request;
    // The query is checked after the caller is known: a bad query from a stranger is 401, not 400.
    // An absent query string validates like an empty object: check it once, not per request.
    if (compiled.queryChecker && (request.queryString !== '' || !compiled.emptyQueryValid)) request.queryValues = this.checkedQuery(compiled, compiled.queryChecker);
    if (!compiled.hasBody) {
      this.run();
      return;
    }
    if (!compiled.accepts.has(request.contentType)) {
      const accepted = [...compiled.accepts].join(' or ');
      throw request.contentType ? fail('http.content_type_unsupported', { accepted, given: request.contentType }) : fail('http.content_type_missing', { accepted });
    }
    // Parameters come after a `;`: a bare media type (nearly every request) has no charset to read.
    const typeHeader = request.headers['content-type'] ?? '';
    const charset = typeHeader.includes(';') ? CHARSET.exec(typeHeader)?.[1]?.toLowerCase() : undefined;
    // Bodies are read as UTF-8: another charset would be decoded wrong, not refused.
    if (charset !== undefined && !UTF8_CHARSETS.has(charset)) throw fail('http.charset_unsupported', { charset });
    const encoding = bodyEncodingOf(request.headers['content-encoding']);
    const limit = this.limit();
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > limit) {
      this.fail(fail('http.body_too_large_declared', { declared, limit }), true);
      return;
    }
    // No named function per request here: the TypeScript loader names each one with an
    // Object.defineProperty, 2.7 % of the ingestion profile's main thread for this one.
    (reader ?? new BodyReader(this.res, limit)).take((body) => {
      if (body === undefined) this.fail(fail('http.body_too_large', { limit }), true);
      else if (encoding === 'identity') this.useBody(body);
      else
        decodeBody(body, encoding, limit).then(
          (decoded) => this.useBody(decoded),
          (error: unknown) => this.fail(error),
        );
    });
  }

  /** The decoded body: parsed and checked when the route has a schema, then given to the handler. */
  private useBody(body: Buffer): void {
    const { compiled, request } = this;
    request.rawBody = body;
    try {
      if (compiled!.bodyChecker) request.body = parseJson(body, compiled!.bodyChecker);
      this.run();
    } catch (error) {
      this.fail(error);
    }
  }

  /** Converts and checks the query; a query string seen before is not checked again. */
  private checkedQuery(compiled: CompiledRoute, checker: Checker): Readonly<Record<string, unknown>> {
    return remembered(compiled.checkedQueries, this.request.queryString, () => {
      const raw: Record<string, unknown> = Object.fromEntries(this.request.query);
      const notBoolean: string[] = [];
      for (const name of compiled.booleanParams) {
        if (raw[name] === undefined) continue;
        const value = queryBoolean(raw[name] as string);
        if (value === undefined) notBoolean.push(name);
        else raw[name] = value;
      }
      // Convert would round `1.5` to 1: an integer is digits, or the query is refused (issue #34).
      const notInteger = integerProperties(compiled.route.schema.query).filter((name) => typeof raw[name] === 'string' && !isIntegerText(raw[name]));
      if (notBoolean.length > 0 || notInteger.length > 0)
        throw failFields('http.query_invalid', [
          ...notBoolean.map((name) => ({ path: `/${name}`, message: BOOLEAN_RULE })),
          ...notInteger.map((name) => ({ path: `/${name}`, message: INTEGER_RULE })),
        ]);
      const converted = checker.Convert(raw) as Record<string, unknown>;
      if (!checker.Check(converted)) throw failFields('http.query_invalid', fieldErrors(checker, converted));
      return Object.freeze(converted);
    });
  }

  private run(): void {
    try {
      const out = this.compiled!.route.handler(this.request);
      if (out instanceof Promise)
        out.then(
          (reply) => this.send(reply),
          (error: unknown) => this.fail(error),
        );
      else this.send(out);
    } catch (error) {
      this.fail(error);
    }
  }

  private send(reply: Reply, closeConnection = false): void {
    const head = this.request.method === 'HEAD';
    if (reply.stream && !head) {
      writeStream(this.res, this, reply as Reply & { stream: AsyncIterable<Uint8Array | string> }, this.request.id, this.context.holdLive).then(
        () => this.complete(reply.status),
        (err: unknown) => this.failedWriting(err, reply.status),
      );
      return;
    }
    try {
      writeWhole(this.res, this, reply, this.request.id, closeConnection, head, this.inStart);
      this.complete(reply.status);
    } catch (err) {
      this.failedWriting(err, reply.status);
    }
  }

  private failedWriting(err: unknown, status: number): void {
    this.context.logger.error({ err, reqId: this.request.id }, 'writing the answer failed');
    this.complete(status);
  }

  private fail(error: unknown, closeConnection = false): void {
    this.send(problemReply(error, this.request.log), closeConnection);
  }

  private complete(status: number): void {
    if (this.done) return;
    this.done = true;
    this.context.finished();
    const seconds = (performance.now() - this.started) / 1000;
    this.context.record(this.compiled, this.request.method, status, seconds);
    const { accessLog } = this.context;
    if (accessLog) {
      const { request } = this;
      accessLog({ reqId: request.id, method: request.method, path: request.path, route: this.compiled?.route.name ?? 'unmatched', status, ms: Math.round(seconds * 1e5) / 100 });
    }
  }
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)/i;

/** The media type of a Content-Type header, without its parameters, in lower case. */
function mediaTypeOf(header: string): string {
  const semicolon = header.indexOf(';');
  return (semicolon < 0 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}

function parseJson(body: Buffer, checker: Checker): unknown {
  const text = body.toString('utf8');
  if (body.length === 0 || text.trim() === '') throw fail('http.body_empty');
  if (jsonNestsDeeperThan(text)) throw fail('http.body_too_deep', { limit: MAX_JSON_DEPTH });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw fail('http.body_not_json', { reason: (error as Error).message });
  }
  if (!checker.Check(value)) throw failFields('http.body_invalid', fieldErrors(checker, value));
  return value;
}
