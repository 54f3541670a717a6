/**
 * POST /api/public/cl/v1/stream-data (spec 4.4, 7.4). Checks in the order of DESIGN §6: stream
 * key present and declared (422), active (422), not pending deletion (422), content type (415),
 * size (413), body valid for its type (400); then the records join a micro-batch and the answer
 * waits until the bus holds them: 200 only for records that cannot be lost, 503 with Retry-After
 * when the bus cannot take them. A refused body stores nothing.
 */
import Type from 'typebox';
import type { StreamsSlice } from '../control-plane/streams/streams.slice.js';
import { AppError, errors } from '../runtime/errors.js';
import { BusUnavailableError } from '../runtime/adapters/bus/bus.port.js';
import { json, type Request, type Route } from '../runtime/http/route.js';
import { MEDIA_TYPES, validateBody, type MediaType } from '../../pipelines/records/validate-body.step.js';
import { problems } from '../api/route-kit.js';
import { batchPart } from '../../pipelines/records/envelope.js';
import type { MicroBatcher } from './micro-batcher.js';

export const STREAM_DATA_PATH = '/api/public/cl/v1/stream-data';

function keyOf(request: Request): string | undefined {
  const fromQuery = request.query.get('streamKey');
  return fromQuery || request.headers['x-smon-stream-key'] || undefined;
}

export function streamDataRoute(deps: { streams: StreamsSlice; batcher: MicroBatcher; now: () => number; maxBodyBytes: number }): Route {
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
        200: { description: 'Every record is accepted and will be stored', schema: Type.Object({ accepted: Type.Integer() }) },
        ...problems(400, 413, 415, 422, 503),
      },
    },
    authenticate(request) {
      const key = keyOf(request);
      if (!key) throw errors.unprocessable('The stream key is missing: send the streamKey query parameter or the x-smon-stream-key header');
      const stream = deps.streams.byStreamKey(key);
      if (!stream) throw errors.unprocessable('The stream key is not declared');
      if (stream.status === 'inactive') throw errors.unprocessable(`Stream ${stream.id} is not active`);
      if (stream.status === 'pendingDeletion') throw errors.unprocessable(`Stream ${stream.id} is pending deletion`);
      request.auth = stream.id;
    },
    async handler(request) {
      const receivedAt = deps.now();
      const checked = validateBody(request.contentType as MediaType, request.rawBody.toString('utf8'));
      if (!checked.ok) throw errors.badRequest(checked.reason);
      if (checked.lines.length === 0) throw errors.badRequest('The body holds no record');
      try {
        await deps.batcher.add(request.auth as number, batchPart(receivedAt, checked.kind, checked.lines), request.rawBody.length);
      } catch (error) {
        if (error instanceof BusUnavailableError) throw errors.unavailable(`The records were not accepted: ${error.message}`, error.retryAfterSeconds);
        throw error instanceof AppError ? error : errors.unavailable('The records were not accepted; retry', 1);
      }
      return json(200, { accepted: checked.lines.length });
    },
  };
}
