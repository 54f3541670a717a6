/**
 * The OpenAPI 3.1 document, generated from the routes' TypeBox schemas (DESIGN §10): the same
 * schemas that validate requests describe them, so the document cannot drift from the code.
 */
import type { TSchema } from 'typebox';
import { ProblemSchema } from '../../../schemas/problem.schema.js';
import type { Route } from './route.js';

interface ParameterObject {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: unknown;
  description?: string;
}

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

export function buildOpenApi(routes: readonly Route[], info: { title: string; version: string }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const pathParams = parameters(route.schema.params, 'path');
    for (const name of [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!)) {
      if (!pathParams.some((p) => p.name === name)) pathParams.push({ name, in: 'path', required: true, schema: { type: 'string' } });
    }
    const operation: Record<string, unknown> = {
      operationId: route.name,
      summary: route.summary,
      tags: route.tags,
      parameters: [...pathParams, ...parameters(route.schema.query, 'query')],
      responses: Object.fromEntries(
        Object.entries(route.schema.responses).map(([status, spec]) => {
          const contentType = spec.contentType ?? (Number(status) >= 400 ? 'application/problem+json' : 'application/json');
          const schema = spec.schema ? plain(spec.schema) : Number(status) >= 400 ? { $ref: '#/components/schemas/Problem' } : undefined;
          return [status, schema ? { description: spec.description, content: { [contentType]: { schema } } } : { description: spec.description }];
        }),
      ),
    };
    if (route.security === 'bearer') operation['security'] = [{ bearer: [] }];
    if (route.security === 'streamKey') operation['security'] = [{ streamKeyQuery: [] }, { streamKeyHeader: [] }];
    if (route.security === 'streamKeyOrBasic') operation['security'] = [{ streamKeyQuery: [] }, { streamKeyHeader: [] }, { streamKeyBasic: [] }];
    if (route.schema.body) {
      operation['requestBody'] = { required: true, content: { [(route.accepts ?? ['application/json'])[0]!]: { schema: plain(route.schema.body) } } };
    } else if (route.rawBody) {
      operation['requestBody'] = {
        required: true,
        content: Object.fromEntries((route.accepts ?? []).map((type) => [type, { schema: { type: 'string' } }])),
      };
    }
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }
  const { $id: _id, ...problem } = plain(ProblemSchema);
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: {
      schemas: { Problem: problem },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A personal token issued through the admin API or CLI' },
        streamKeyQuery: { type: 'apiKey', in: 'query', name: 'streamKey' },
        streamKeyHeader: { type: 'apiKey', in: 'header', name: 'x-smon-stream-key' },
        streamKeyBasic: { type: 'http', scheme: 'basic', description: 'The stream key as the password; the user name is ignored' },
      },
    },
  };
}
