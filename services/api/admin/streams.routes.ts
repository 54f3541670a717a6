/** Admin API: streams and their keys (DESIGN §6). */
import { randomBytes } from 'node:crypto';
import Type from 'typebox';
import { Stream, StreamCreate, StreamPatch } from '../../../schemas/stream.schema.js';
import { createStream, deleteStream, patchStream, rotateStreamKey, type StreamStatus, setStreamStatus } from '../../control-plane/streams/streams.commands.js';
import { fail } from '../../../schemas/errors.js';
import { defineRoute, json, noContent, type Route } from '../../runtime/http/route.js';
import { ADMIN, ADMIN_PREFIX, type ApiDeps, isoNow } from '../api-deps.js';
import { parseId, problems } from '../../runtime/http/route-kit.js';

const newStreamKey = (): string => randomBytes(24).toString('base64url');

export function streamRoutes(deps: ApiDeps): Route[] {
  const cp = deps.controlPlane;
  const base = { tags: ['admin'], security: 'bearer' as const, authenticate: deps.auth.requireRight(ADMIN) };
  const id = (params: Record<string, string>) => parseId(params['id'], 'id', 'stream id');
  const transition = (action: string, status: StreamStatus, summary: string): Route =>
    defineRoute({
      ...base,
      method: 'POST',
      path: `${ADMIN_PREFIX}/streams/:id/${action}`,
      name: `admin.${action.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}Stream`,
      summary,
      schema: { responses: { 200: { description: 'The stream', schema: Stream }, ...problems(400, 401, 403, 404, 409) } },
      handler: async (req) => json(200, await cp.execute(setStreamStatus(id(req.params), status, isoNow(deps)))),
    });
  return [
    defineRoute({
      ...base,
      method: 'GET',
      path: `${ADMIN_PREFIX}/streams`,
      name: 'admin.listStreams',
      summary: 'List streams with their keys',
      schema: { responses: { 200: { description: 'Streams', schema: Type.Array(Stream) }, ...problems(401, 403) } },
      handler: () =>
        json(
          200,
          [...cp.model.slices.streams.streams.values()].sort((a, b) => a.id - b.id),
        ),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: `${ADMIN_PREFIX}/streams`,
      name: 'admin.createStream',
      summary: 'Create a stream; its key is generated',
      schema: { body: StreamCreate, responses: { 201: { description: 'Created', schema: Stream }, ...problems(400, 401, 403, 409, 415) } },
      handler: async (req) => json(201, await cp.execute(createStream(req.body, newStreamKey(), isoNow(deps)))),
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${ADMIN_PREFIX}/streams/:id`,
      name: 'admin.getStream',
      summary: 'One stream',
      schema: { responses: { 200: { description: 'The stream', schema: Stream }, ...problems(400, 401, 403, 404) } },
      handler: (req) => {
        const stream = cp.model.slices.streams.streams.get(id(req.params));
        if (!stream) throw fail('stream.not_found', { id: req.params['id'] ?? '' });
        return json(200, stream);
      },
    }),
    defineRoute({
      ...base,
      method: 'PATCH',
      path: `${ADMIN_PREFIX}/streams/:id`,
      name: 'admin.patchStream',
      summary: 'Rename a stream or replace its configuration',
      schema: { body: StreamPatch, responses: { 200: { description: 'Updated', schema: Stream }, ...problems(400, 401, 403, 404, 409, 415) } },
      handler: async (req) => json(200, await cp.execute(patchStream(id(req.params), req.body, isoNow(deps)))),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: `${ADMIN_PREFIX}/streams/:id/rotate-key`,
      name: 'admin.rotateStreamKey',
      summary: 'Replace the stream key; the old key stops working at once',
      schema: { responses: { 200: { description: 'The stream with its new key', schema: Stream }, ...problems(400, 401, 403, 404) } },
      handler: async (req) => json(200, await cp.execute(rotateStreamKey(id(req.params), newStreamKey(), isoNow(deps)))),
    }),
    transition('activate', 'active', 'Activate a stream'),
    transition('deactivate', 'inactive', 'Deactivate a stream (its key answers 422)'),
    transition('mark-for-deletion', 'pendingDeletion', 'Mark a stream for deletion (its key answers 422)'),
    defineRoute({
      ...base,
      method: 'DELETE',
      path: `${ADMIN_PREFIX}/streams/:id`,
      name: 'admin.deleteStream',
      summary: 'Delete a stream (its key becomes unknown)',
      schema: { responses: { 204: { description: 'Deleted' }, ...problems(400, 401, 403, 404) } },
      handler: async (req) => {
        await cp.execute(deleteStream(id(req.params)));
        return noContent();
      },
    }),
  ];
}
