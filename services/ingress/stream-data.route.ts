/**
 * POST /api/public/cl/v1/stream-data (spec 4.4, 7.4). Checks in the order of DESIGN §6: stream
 * key present and declared (422), active (422), not pending deletion (422), content type and
 * encoding (415), size, decoded (413), body valid for its type and the stream's framing (400);
 * then the records join micro-batches and the answer waits until the bus holds them: 200 only
 * for records that cannot be lost, 503 with Retry-After when the bus cannot take them. A refused
 * body stores nothing. A large line-read body is checked in slices, so other requests are served
 * meanwhile, and its records go in several messages, each under the batch bounds and the bus's
 * message size (a body that large may be partly stored when the bus refuses the rest: the 503
 * says so).
 */
import Type from 'typebox';
import type { StreamRecord } from '../control-plane/streams/streams.slice.js';
import { errors } from '../runtime/errors.js';
import { json, type Route } from '../runtime/http/route.js';
import { lineSlices, MEDIA_TYPES, readsLines, validateBody, type BodyCheck, type Framing, type MediaType } from '../../pipelines/records/validate-body.step.js';
import { problems } from '../api/route-kit.js';
import type { RecordKind } from '../../pipelines/records/envelope.js';
import { handOver, type ReceiverDeps } from './hand-over.js';
import { authenticateStreamKey } from './stream-key.js';

export const STREAM_DATA_PATH = '/api/public/cl/v1/stream-data';

/** Line-read bodies larger than this are checked slice by slice, yielding in between. */
const SLICE_CHARS = 1024 * 1024;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function checkBody(mediaType: MediaType, text: string, framing: Framing): Promise<BodyCheck> {
  if (!readsLines(mediaType, framing) || text.length <= SLICE_CHARS || text.trim() === '') return validateBody(mediaType, text, framing);
  const lines: string[] = [];
  let kind: RecordKind = 'json';
  for (const slice of lineSlices(text, SLICE_CHARS)) {
    if (slice.text.trim() === '') continue;
    const checked = validateBody(mediaType, slice.text, framing, slice.firstLine);
    if (!checked.ok) return checked;
    kind = checked.kind;
    for (const line of checked.lines) lines.push(line);
    await nextTurn();
  }
  return { ok: true, kind, lines };
}

export function streamDataRoute(deps: ReceiverDeps): Route {
  return {
    method: 'POST',
    path: STREAM_DATA_PATH,
    name: 'ingress.streamData',
    summary: 'Send data records to a stream',
    tags: ['stream-data'],
    security: 'streamKey',
    rawBody: true,
    accepts: [...MEDIA_TYPES],
    maxBodyBytes: deps.maxBodyBytes,
    schema: {
      query: Type.Object({ streamKey: Type.Optional(Type.String({ description: 'Key of the target stream, unless sent in x-smon-stream-key' })) }),
      responses: {
        200: { description: 'Every record is stored', schema: Type.Object({ accepted: Type.Integer() }) },
        ...problems(400, 413, 415, 422, 503),
      },
    },
    // The spec's two places for the key; the receivers for agents also take a Basic password.
    authenticate: authenticateStreamKey(deps.streams, ['query', 'header']),
    async handler(request) {
      const stream = request.auth as StreamRecord;
      const receivedAt = deps.now();
      const checked = await checkBody(request.contentType as MediaType, request.rawBody.toString('utf8'), stream.config.framing ?? 'body');
      if (!checked.ok) throw errors.badRequest(checked.reason);
      if (checked.lines.length === 0) throw errors.badRequest('The body holds no record');
      await handOver(deps, stream.id, receivedAt, checked.kind, checked.lines);
      return json(200, { accepted: checked.lines.length });
    },
  };
}
