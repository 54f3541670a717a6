/**
 * POST /api/public/cl/v1/stream-data (spec 4.4, 7.4). Checks in the order of DESIGN §6: stream
 * key present and declared (422), active (422), not pending deletion (422), content type and
 * encoding (415), size, decoded (413), body valid for its type and the stream's framing (400;
 * a stream with a parser preset and no framing reads text by lines, presets/presets.ts);
 * then the records join micro-batches and the answer waits until the bus holds them: 200 only
 * for records that cannot be lost, 503 with Retry-After when the bus cannot take them. A refused
 * body stores nothing. A large line-read body is checked in slices, so other requests are served
 * meanwhile, and its records go in several messages, each under the batch bounds and the bus's
 * message size (a body that large may be partly stored when the bus refuses the rest: the 503
 * says so).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import Type from 'typebox';
import type { RecordKind } from '../../pipelines/records/envelope.js';
import { streamFraming } from '../../pipelines/records/presets/presets.js';
import { type BodyCheck, type Framing, lineSlices, MEDIA_TYPES, type MediaType, readsLines, validateBody } from '../../pipelines/records/validate-body.step.js';
import { problems } from '../runtime/http/route-kit.js';
import { fail } from '../../schemas/errors.js';
import { defineRoute, json, type Reply, type Route } from '../runtime/http/route.js';
import { handOverThen, type ReceiverDeps } from './hand-over.js';
import { authenticateStreamKey } from './stream-key.js';

export const STREAM_DATA_PATH = '/api/public/cl/v1/stream-data';

/** Line-read bodies larger than this are checked slice by slice, yielding in between. */
const SLICE_CHARS = 1024 * 1024;

const NDJSON_EXAMPLE =
  '{"@timestamp":"2026-03-01T01:00:00.000Z","check":"db","host":"billing-db","severity":"critical","ticket":"INC-1042"}\n' +
  '{"@timestamp":"2026-03-01T03:00:00.000Z","check":"db","host":"billing-db","status":"ok"}\n';

/** One body per media type, for the OpenAPI document (checked as strings by openapi-lint.test.ts). */
const BODY_EXAMPLES: Record<MediaType, string> = {
  'application/json': '{"@timestamp":"2026-03-01T01:00:00.000Z","check":"db","host":"billing-db","severity":"critical","ticket":"INC-1042"}',
  'application/x-ndjson': NDJSON_EXAMPLE,
  'application/ndjson': NDJSON_EXAMPLE,
  'application/jsonlines': NDJSON_EXAMPLE,
  'text/xml': '<event><host>billing-db</host><check>db</check><severity>critical</severity></event>',
  'text/plain': 'Mar  1 01:00:00 billing-db postgres[812]: FATAL: the database system is shutting down',
};

/**
 * The body's records. A line-read body over SLICE_CHARS is checked slice by slice, yielding in
 * between (a promise); any other is checked at once, without one.
 */
function checkBody(mediaType: MediaType, text: string, framing: Framing): BodyCheck | Promise<BodyCheck> {
  if (!readsLines(mediaType, framing) || text.length <= SLICE_CHARS || text.trim() === '') return validateBody(mediaType, text, framing);
  return checkSlices(mediaType, text, framing);
}

async function checkSlices(mediaType: MediaType, text: string, framing: Framing): Promise<BodyCheck> {
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

/** Hands the checked records over; the answer once the bus holds them. */
function store(deps: ReceiverDeps, streamId: number, receivedAt: number, checked: BodyCheck): Promise<Reply> {
  if (!checked.ok) throw fail('ingest.body_unreadable', { reason: checked.reason });
  const accepted = checked.lines.length;
  if (accepted === 0) throw fail('ingest.no_record');
  return handOverThen(deps, streamId, receivedAt, checked.kind, checked.lines, 'record', () => json(200, { accepted }));
}

export function streamDataRoute(deps: ReceiverDeps): Route {
  return defineRoute({
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
      rawBodyExamples: BODY_EXAMPLES,
      responses: {
        200: { description: 'Every record is stored', schema: Type.Object({ accepted: Type.Integer({ description: 'Records stored' }) }), example: { accepted: 2 } },
        ...problems(400, 413, 415, 422, 503),
      },
    },
    // The spec's two places for the key; the receivers for agents also take a Basic password.
    authenticate: authenticateStreamKey(deps.streams, ['query', 'header']),
    // Not async: a body checked at once goes to the batcher in the same turn, and the answer
    // waits on one promise chain rather than one more per function (see handOverThen).
    handler(request) {
      const stream = request.auth;
      const receivedAt = deps.now();
      const mediaType = request.contentType as MediaType;
      const checked = checkBody(mediaType, request.rawBody.toString('utf8'), streamFraming(stream.config, mediaType));
      if (checked instanceof Promise) return checked.then((c) => store(deps, stream.id, receivedAt, c));
      return store(deps, stream.id, receivedAt, checked);
    },
  });
}
