/**
 * What a route is: its method and path, the schemas that validate it and document it in the
 * OpenAPI document, and a handler from a parsed request to a reply.
 */
import type { Static, TSchema } from 'typebox';
import type { Logger } from '../logger.js';

/** HEAD is never declared: every GET route answers it too, without the body (RFC 9110 §9.3.2). */
export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One media type of a response. Without a schema the body is opaque bytes (a workbook). */
export interface MediaSpec {
  schema?: TSchema;
  /** Shown in the OpenAPI document; a test checks it against `schema`, so it cannot drift. */
  example?: unknown;
}

export interface ResponseSpec {
  description: string;
  schema?: TSchema;
  /** Defaults to application/json. */
  contentType?: string;
  /** An example body of `schema`, for the OpenAPI document. */
  example?: unknown;
  /**
   * One entry per media type the route may answer with, when the request picks among several
   * (an export's `format`); replaces `schema`, `contentType` and `example`.
   */
  content?: Readonly<Record<string, MediaSpec>>;
  /** Response headers a client relies on (the file name of an export). */
  headers?: Readonly<Record<string, { description: string; schema: TSchema }>>;
}

export interface RouteSchema {
  params?: TSchema;
  query?: TSchema;
  /** A JSON body, validated before the handler runs. */
  body?: TSchema;
  /** An example of `body`, for the OpenAPI document. */
  bodyExample?: unknown;
  /** Examples of a raw body (`Route.rawBody`) by media type, for the OpenAPI document. */
  rawBodyExamples?: Readonly<Record<string, string>>;
  responses: Record<number, ResponseSpec>;
}

/** URLSearchParams without the methods that change it. */
export type ReadonlyQuery = Omit<URLSearchParams, 'append' | 'delete' | 'set' | 'sort'>;

/** The query values of a route without a query schema: none. */
export type NoQueryValues = Readonly<Record<string, never>>;

/**
 * A request as its handler sees it. The type parameters are what the route's schemas and its
 * `authenticate` establish (see `defineRoute`); without them, what any route may receive.
 */
export interface Request<Body = unknown, QueryValues = Readonly<Record<string, unknown>>, Params = Record<string, string>, Auth = unknown> {
  readonly id: string;
  readonly method: Method;
  readonly path: string;
  /** Path parameters by name, as strings (the handler decides what is a valid id). */
  readonly params: Params;
  /** The query parameters, parsed once per query string and shared by its requests: read-only. */
  readonly query: ReadonlyQuery;
  /** The query parameters converted to the route's query schema (booleans, numbers), when it has one. */
  readonly queryValues: QueryValues;
  /** Header values by lower-case name. */
  readonly headers: Readonly<Record<string, string>>;
  /** The media type of the body, lower-case, without parameters ('' when absent). */
  readonly contentType: string;
  readonly rawBody: Buffer;
  /** The parsed and validated JSON body (undefined for routes without a body schema). */
  readonly body: Body;
  readonly log: Logger;
  /** What `authenticate` returned (the user, the stream...), for the handler; undefined without it. */
  readonly auth: Auth;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** JSON-serialised unless a Buffer or string (sent as is, with its content-type header). */
  body?: unknown;
  /** A large body, written chunk by chunk with backpressure. */
  stream?: AsyncIterable<Uint8Array | string>;
  /**
   * The stream has no end of its own (Server-Sent Events): it is ended when the server stops
   * taking requests, rather than waited for.
   */
  live?: boolean;
}

export interface Route {
  method: Method;
  /** uWebSockets.js pattern, parameters as `:name`. */
  path: string;
  /** Stable name for metrics and logs, e.g. `cmdb.getConfigItem`. */
  name: string;
  summary: string;
  tags: string[];
  /**
   * How the caller proves who it is; documented in the OpenAPI document. `streamKeyOrBasic`:
   * the stream key in the query, the header, or as the password of HTTP Basic authentication.
   * `feedToken`: a calendar feed's token in the query, for clients that can send nothing else.
   * `bearer` routes also take the console's session cookie; `session` routes take only that.
   */
  security?: 'bearer' | 'session' | 'streamKey' | 'streamKeyOrBasic' | 'feedToken';
  /** Left out of the OpenAPI document: not part of the API (the console's page and files). */
  hidden?: boolean;
  /**
   * A GET route that also answers GET and HEAD of every path no route has for which this is
   * true (the console's page, for its deep links: `/problems/…`, `/cmdb/ci/5`).
   */
  fallback?: (path: string) => boolean;
  schema: RouteSchema;
  /** Media types accepted for the body; a route with a body defaults to application/json. */
  accepts?: string[];
  /** Overrides the server's body limit. */
  maxBodyBytes?: number;
  /** True when the route reads a body without a JSON schema (e.g. stream data). */
  rawBody?: boolean;
  /**
   * Runs on the headers, before the body is used, so a caller without a key or token is turned
   * away early. What it returns (or resolves to) becomes `request.auth`. Throws (or rejects
   * with) an AppError to refuse. Keep it synchronous on hot paths: an asynchronous check makes
   * the server buffer the body while it waits, and costs a promise per request.
   */
  authenticate?: Authenticate<unknown>;
  handler: (request: Request) => Reply | Promise<Reply>;
}

/**
 * How a route learns who calls: the caller (a Principal, a stream...) returned synchronously
 * where it can be (no promise per request), or a promise of it. It sees the request before its
 * query and body are checked, so it reads only the headers, the path and the raw query.
 */
export type Authenticate<A> = (request: Request) => A | Promise<A>;

/** The validated body of a route with schema `S`: undefined without a body schema (or when it may have none). */
export type BodyOf<S extends RouteSchema> = S extends { body: infer B extends TSchema }
  ? Static<B>
  : S extends { body?: infer B extends TSchema }
    ? Static<B> | undefined
    : undefined;

/** The converted query values of a route with schema `S`: none without a query schema. */
export type QueryValuesOf<S extends RouteSchema> = S extends { query: infer Q extends TSchema }
  ? Readonly<Static<Q>>
  : S extends { query?: infer Q extends TSchema }
    ? Readonly<Static<Q>> | NoQueryValues
    : NoQueryValues;

/** Path parameters are never converted: the schema names them, each is a string. */
export type ParamsOf<S extends RouteSchema> = S extends { params: infer P extends TSchema } ? { readonly [K in keyof Static<P>]: string } : Record<string, string>;

/** The request a handler of a route with schema `S` and authentication `A` receives. */
export type RequestOf<S extends RouteSchema, A = undefined> = Request<BodyOf<S>, QueryValuesOf<S>, ParamsOf<S>, A>;

/** A route as written: its handler's request typed by its schemas and by what `authenticate` returns. */
export interface TypedRoute<S extends RouteSchema, A> extends Omit<Route, 'schema' | 'authenticate' | 'handler'> {
  schema: S;
  authenticate?: Authenticate<A>;
  handler: (request: RequestOf<S, A>) => Reply | Promise<Reply>;
}

/**
 * A route whose handler reads its body, query values, path parameters and caller as the
 * schemas and `authenticate` type them, as Fastify's TypeBox type provider does. The exchange
 * runs `authenticate`, validates the query and the body against these very schemas, then calls
 * the handler (exchange.ts): that is what makes the widening to `Route` sound.
 */
export function defineRoute<S extends RouteSchema, A = undefined>(route: TypedRoute<S, A>): Route {
  return route as unknown as Route;
}

export const json = (status: number, body: unknown, headers?: Record<string, string>): Reply => (headers ? { status, body, headers } : { status, body });

export const noContent = (): Reply => ({ status: 204 });
