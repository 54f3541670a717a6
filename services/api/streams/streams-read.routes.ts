/**
 * Issue #33: the streams as their readers see them (`base-system.streams.read`, or admins): each
 * stream's name, status and configuration, never its key, which stays with the admin API. The
 * console's streams screen lists them for readers as it does for admins.
 */
import Type from 'typebox';
import { StreamRead, streamReadExample } from '../../../schemas/stream.schema.js';
import type { StreamRecord } from '../../control-plane/streams/streams.slice.js';
import { fail } from '../../../schemas/errors.js';
import { defineRoute, json, type Route } from '../../runtime/http/route.js';
import { ADMIN, type ApiDeps } from '../api-deps.js';
import { parseId, problems } from '../../runtime/http/route-kit.js';
import { STREAMS_READ } from './stream-events.routes.js';

const PREFIX = '/api/public/cl/v1/streams';

const readView = ({ id, name, status, config, createdAt, updatedAt }: StreamRecord) => ({ id, name, status, config, createdAt, updatedAt });

export function streamReadRoutes(deps: ApiDeps): Route[] {
  const streams = deps.controlPlane.model.slices.streams.streams;
  const base = { tags: ['streams'], security: 'bearer' as const, authenticate: deps.auth.requireRight(STREAMS_READ, [ADMIN]) };
  return [
    defineRoute({
      ...base,
      method: 'GET',
      path: PREFIX,
      name: 'streams.list',
      summary: 'The streams, by id: name, status and configuration, without their keys',
      schema: { responses: { 200: { description: 'Streams', schema: Type.Array(StreamRead), example: [streamReadExample] }, ...problems(401, 403) } },
      handler: () => json(200, [...streams.values()].sort((a, b) => a.id - b.id).map(readView)),
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${PREFIX}/:id`,
      name: 'streams.get',
      summary: 'One stream: name, status and configuration, without its key',
      schema: { responses: { 200: { description: 'The stream', schema: StreamRead, example: streamReadExample }, ...problems(400, 401, 403, 404) } },
      handler: (req) => {
        const id = parseId(req.params['id'], 'id', 'stream id');
        const stream = streams.get(id);
        if (!stream) throw fail('stream.not_found', { id });
        return json(200, readView(stream));
      },
    }),
  ];
}
