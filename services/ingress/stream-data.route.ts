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
import type { StreamsSlice } from '../control-plane/streams/streams.slice.js';
import { AppError, errors } from '../runtime/errors.js';
import { BusUnavailableError } from '../runtime/adapters/bus/bus.port.js';
import { json, type Request, type Route } from '../runtime/http/route.js';
import { lineSlices, MEDIA_TYPES, readsLines, validateBody, type BodyCheck, type Framing, type MediaType } from '../../pipelines/records/validate-body.step.js';
import { problems } from '../api/route-kit.js';
import { batchParts, type RecordKind } from '../../pipelines/records/envelope.js';
import type { StreamModel } from '../../schemas/stream.schema.js';
import type { MicroBatcher } from './micro-batcher.js';

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

function keyOf(request: Request): string | undefined {
  const fromQuery = request.query.get('streamKey');
  return fromQuery || request.headers['x-smon-stream-key'] || undefined;
}

export interface StreamDataDeps {
  streams: StreamsSlice;
  batcher: MicroBatcher;
  now: () => number;
  maxBodyBytes: number;
  /** One message's records and record bytes at most (the batch bounds, under the bus's message size). */
  maxRecords: number;
  maxMessageBytes: number;
}

/** A part's header line in its message, counted with its records. */
const PART_HEADER_BYTES = 64;

export function streamDataRoute(deps: StreamDataDeps): Route {
  const maxPartBytes = deps.maxMessageBytes;
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
        200: { description: 'Every record is stored (or, in-process, in the bus log on disk)', schema: Type.Object({ accepted: Type.Integer() }) },
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
      request.auth = stream;
    },
    async handler(request) {
      const stream = request.auth as StreamModel;
      const receivedAt = deps.now();
      const checked = await checkBody(request.contentType as MediaType, request.rawBody.toString('utf8'), stream.config.framing ?? 'body');
      if (!checked.ok) throw errors.badRequest(checked.reason);
      if (checked.lines.length === 0) throw errors.badRequest('The body holds no record');
      const parts = batchParts(receivedAt, checked.kind, checked.lines, deps.maxRecords, maxPartBytes - PART_HEADER_BYTES);
      const sizes = parts.map((p) => Buffer.byteLength(p.text) + PART_HEADER_BYTES);
      // Only a part of one record can be over: batchParts cuts the others under the bound.
      const tooLarge = sizes.findIndex((size) => size > maxPartBytes);
      if (tooLarge >= 0) {
        throw errors.payloadTooLarge(`A record of ${sizes[tooLarge]! - PART_HEADER_BYTES} bytes is larger than the largest message the bus takes (${maxPartBytes} bytes of records)`);
      }
      const added = await Promise.allSettled(parts.map((part, i) => deps.batcher.add(stream.id, part, sizes[i]!)));
      const failed = added.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) {
        const error: unknown = failed.reason;
        const partly = parts.length > 1 && added.some((r) => r.status === 'fulfilled') ? ' (some of this body’s records were stored: the body was sent in several messages)' : '';
        if (error instanceof BusUnavailableError) throw errors.unavailable(`The records were not accepted: ${error.message}${partly}`, error.retryAfterSeconds);
        throw error instanceof AppError ? error : errors.unavailable(`The records were not accepted; retry${partly}`, 1);
      }
      return json(200, { accepted: checked.lines.length });
    },
  };
}
