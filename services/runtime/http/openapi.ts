/**
 * The OpenAPI 3.1 document, generated from the routes' TypeBox schemas (DESIGN §10): the same
 * schemas that validate requests describe them, so the document cannot drift from the code.
 * It lints clean with Redocly's recommended rules (redocly.yaml), and every example in it is
 * checked against its schema (test/integration/runtime/openapi-lint.test.ts).
 */
import type { TSchema } from 'typebox';
import { ProblemSchema } from '../../../schemas/problem.schema.js';
import { PROBLEM_CONTENT_TYPE } from './problem.js';
import type { ResponseSpec, Route } from './route.js';
import { MAX_HEADER_BYTES } from './uws.js';

interface ParameterObject {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: unknown;
  description?: string;
}

/** The platform's licence (LICENSE, package.json): the API document names it too. */
const LICENSE = { name: 'Apache-2.0', identifier: 'Apache-2.0' };

/**
 * Relative, so the document is right behind any host, port or proxy: each process documents the
 * routes it serves itself (in distributed mode the API and ingress processes differ).
 */
const SERVERS = [{ url: '/', description: 'The server that served this document' }];

/** What each route's `authenticate` checks, as security requirements (alternatives: any one). */
const REQUIREMENTS: Record<NonNullable<Route['security']>, Array<Record<string, string[]>>> = {
  bearer: [{ bearer: [] }, { session: [] }],
  session: [{ session: [] }],
  streamKey: [{ streamKeyQuery: [] }, { streamKeyHeader: [] }],
  streamKeyOrBasic: [{ streamKeyQuery: [] }, { streamKeyHeader: [] }, { streamKeyBasic: [] }],
  feedToken: [{ feedToken: [] }],
};

const STREAM_KEY_REFUSED = 'A missing or undeclared key, or the key of an inactive stream or of one pending deletion, gets 422 (spec 7.4).';

/** services/api/auth.ts and services/ingress/stream-key.ts, in words. */
const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'opaque; issued tokens are ops_ and 43 base64url characters',
    description:
      'The header `Authorization: Bearer <token>` (spec 5). Tokens are issued per user by the admin API (`POST /api/admin/v1/users/{id}/tokens`) or `ops tokens`; ' +
      'the admin token can be chosen with OPS_ADMIN_TOKEN. A missing or malformed header, or a token that is unknown, revoked, expired or belongs to a disabled user, gets 401; ' +
      'a route that needs a platform right the user lacks answers 403.',
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'ops_session',
    description:
      "The web console's session cookie, set by `POST /api/console/v1/session` in exchange for a personal token (HttpOnly, SameSite=Strict). It is taken by every route that takes the bearer token, " +
      'when no Authorization header is sent (a Bearer header wins). With it, a change (POST, PUT, PATCH, DELETE) needs the header `X-CSRF-Token` holding the `csrfToken` of the session, else 403 ' +
      '(`session.csrf_missing`, `session.csrf_mismatch`). A session ends after OPS_SESSION_IDLE_MINUTES without use, OPS_SESSION_MAX_HOURS after sign-in, at sign-out, and when its token is revoked or expires ' +
      'or its user is disabled; its cookie then gets 401.',
  },
  streamKeyQuery: { type: 'apiKey', in: 'query', name: 'streamKey', description: `The key of the target stream. ${STREAM_KEY_REFUSED}` },
  streamKeyHeader: { type: 'apiKey', in: 'header', name: 'x-smon-stream-key', description: `The key of the target stream. ${STREAM_KEY_REFUSED}` },
  streamKeyBasic: {
    type: 'http',
    scheme: 'basic',
    description: `The stream key as the password of HTTP Basic authentication; the user name is ignored (for shippers that can send nothing else). ${STREAM_KEY_REFUSED}`,
  },
  feedToken: {
    type: 'apiKey',
    in: 'query',
    name: 'feedToken',
    description:
      'The token of a calendar feed (`POST /api/public/sm/v1/rsm-maintenance/calendar-feeds`), in the query because calendar clients subscribe to a bare URL. ' +
      'It reads that one calendar and nothing else, and is not a bearer token. A missing, unknown or revoked token, or one whose owner is disabled or deleted, gets 401; ' +
      'an owner without base-system.rsm-maintenance.read gets 403.',
  },
};

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };

/**
 * Answers any route may give before its own checks (exchange.ts), so every operation lists them.
 * 404 and 405 are not among them: they answer a path or method no operation has.
 */
const SERVER_RESPONSES = {
  HeaderFieldsTooLarge: {
    status: 431,
    response: {
      description: `The request's header fields (names and values) take more than ${MAX_HEADER_BYTES / 1024} KiB`,
      content: { [PROBLEM_CONTENT_TYPE]: { schema: PROBLEM_REF } },
    },
  },
};

const SERVER_RESPONSE_REFS = Object.fromEntries(Object.entries(SERVER_RESPONSES).map(([name, { status }]) => [status, { $ref: `#/components/responses/${name}` }]));

const plain = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

function parameters(schema: TSchema | undefined, where: 'path' | 'query'): ParameterObject[] {
  if (!schema) return [];
  const object = plain(schema);
  const properties = (object['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((object['required'] ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    const parameter: ParameterObject = { name, in: where, required: where === 'path' || required.has(name), schema: rest };
    if (typeof description === 'string') parameter.description = description;
    return parameter;
  });
}

function mediaType(schema: TSchema | undefined, example: unknown): Record<string, unknown> {
  const media: Record<string, unknown> = {};
  if (schema) media['schema'] = plain(schema);
  if (example !== undefined) media['example'] = example;
  return media;
}

function response(status: number, spec: ResponseSpec): Record<string, unknown> {
  const out: Record<string, unknown> = { description: spec.description };
  if (spec.headers) {
    out['headers'] = Object.fromEntries(Object.entries(spec.headers).map(([name, header]) => [name, { description: header.description, schema: plain(header.schema) }]));
  }
  if (spec.content) out['content'] = Object.fromEntries(Object.entries(spec.content).map(([type, media]) => [type, mediaType(media.schema, media.example)]));
  else if (spec.schema) out['content'] = { [spec.contentType ?? 'application/json']: mediaType(spec.schema, spec.example) };
  // Every error answer without a schema of its own is problem+json (http/problem.ts).
  else if (status >= 400) out['content'] = { [spec.contentType ?? PROBLEM_CONTENT_TYPE]: { schema: PROBLEM_REF } };
  return out;
}

function requestBody(route: Route): Record<string, unknown> | undefined {
  if (route.schema.body) {
    return { required: true, content: { [(route.accepts ?? ['application/json'])[0]!]: mediaType(route.schema.body, route.schema.bodyExample) } };
  }
  if (!route.rawBody) return undefined;
  const examples = route.schema.rawBodyExamples ?? {};
  return {
    required: true,
    content: Object.fromEntries((route.accepts ?? []).map((type) => [type, { schema: { type: 'string' }, ...(examples[type] !== undefined ? { example: examples[type] } : {}) }])),
  };
}

export function buildOpenApi(routes: readonly Route[], info: { title: string; version: string }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.hidden) continue;
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const pathParams = parameters(route.schema.params, 'path');
    for (const name of [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!)) {
      if (!pathParams.some((p) => p.name === name)) pathParams.push({ name, in: 'path', required: true, schema: { type: 'string' } });
    }
    const operation: Record<string, unknown> = {
      operationId: route.name,
      summary: route.summary,
      tags: route.tags,
      // Explicit everywhere, `[]` included: a route without `security` authenticates no one.
      security: route.security ? REQUIREMENTS[route.security] : [],
      parameters: [...pathParams, ...parameters(route.schema.query, 'query')],
      responses: {
        ...SERVER_RESPONSE_REFS,
        ...Object.fromEntries(Object.entries(route.schema.responses).map(([status, spec]) => [status, response(Number(status), spec)])),
      },
    };
    const body = requestBody(route);
    if (body) operation['requestBody'] = body;
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }
  const { $id: _id, ...problem } = plain(ProblemSchema);
  return {
    openapi: '3.1.0',
    info: { ...info, license: LICENSE },
    servers: SERVERS,
    // The default of the public and admin APIs; every operation states its own all the same.
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas: { Problem: problem },
      responses: Object.fromEntries(Object.entries(SERVER_RESPONSES).map(([name, { response }]) => [name, response])),
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
