/**
 * Issue #30: a stream's events and dead letters, read by page (newest first, keyset cursors) or
 * tailed live as Server-Sent Events. For platform admins and holders of base-system.streams.read
 * (role `stream-reader`); the stream must exist.
 */
import Type from 'typebox';
import { isIsoDateTime } from '../../../pipelines/records/timestamps.js';
import {
  DeadLetterPage,
  DeadLettersQuery,
  deadLetterPageExample,
  MAX_FILTERS,
  MAX_READ_DAYS,
  PAGE_LIMITS,
  StreamEventPage,
  StreamEventsQuery,
  StreamTailQuery,
  streamEventExample,
  streamEventPageExample,
  tailSampledExample,
} from '../../../schemas/stream-events.schema.js';
import type { PlatformRight } from '../../control-plane/identity/identity.types.js';
import { fail, failFields } from '../../../schemas/errors.js';
import { defineRoute, json, type Request, type Route } from '../../runtime/http/route.js';
import { ADMIN, type ApiDeps } from '../api-deps.js';
import { parseId, problems } from '../../runtime/http/route-kit.js';
import { filterConditions, parseEventFilter } from './event-filter.js';
import { NO_CONDITIONS, type PageRequest, readDeadLetters, readEvents, type RowConditions } from './event-reads.js';
import { DEFAULT_TAIL_TIMING, eventTail, SSE_KEEP_ALIVE, sseRecord, sseSampled, type TailTiming } from './event-tail.js';
import { decodeCursor } from './read-cursor.js';

export const STREAMS_READ: PlatformRight = 'base-system.streams.read';
const STREAMS_PREFIX = '/api/public/cl/v1/streams';
const DAY_MS = 86_400_000;

/** A date-time of the query (the schema checked its form): a day that exists, a storable year. */
function instant(request: Request, name: 'from' | 'to'): number {
  const text = request.query.get(name) ?? '';
  if (!isIsoDateTime(text)) {
    throw failFields('http.query_invalid', [{ path: `/${name}`, message: 'must be an ISO 8601 date-time with an offset, of a day that exists, in the years 1900 to 2299' }]);
  }
  return Date.parse(text);
}

function readRange(request: Request): { from: number; to: number } {
  const from = instant(request, 'from');
  const to = instant(request, 'to');
  if (from >= to) throw fail('stream_read.range_reversed', { from: request.query.get('from') ?? '', to: request.query.get('to') ?? '' });
  if (to - from > MAX_READ_DAYS * DAY_MS) throw fail('stream_read.range_too_long', { days: MAX_READ_DAYS });
  return { from, to };
}

/** `limit` as sent: the schema's conversion would read 1.5 as 1, so the text is checked here. */
function pageLimit(request: Request): number {
  const text = request.query.get('limit');
  if (text === null) return PAGE_LIMITS.default;
  const n = Number(text);
  if (!/^\d{1,7}$/.test(text) || n < 1 || n > PAGE_LIMITS.max) {
    throw failFields('http.query_invalid', [{ path: '/limit', message: `must be an integer from 1 to ${PAGE_LIMITS.max}` }]);
  }
  return n;
}

/** The `filter`s (repeated) and `route` as conditions on event rows. */
function eventConditions(request: Request): RowConditions {
  const texts = request.query.getAll('filter');
  if (texts.length > MAX_FILTERS) throw fail('stream_read.filters_too_many', { count: texts.length, limit: MAX_FILTERS });
  const filters = texts.map((text) => {
    const parsed = parseEventFilter(text);
    if (!parsed.ok) throw fail('stream_read.filter_invalid', { filter: JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text), reason: parsed.reason });
    return parsed.filter;
  });
  const { sql, params } = filterConditions(filters);
  const route = request.query.get('route');
  return route === null ? { sql, params } : { sql: [...sql, 'route = {route:String}'], params: { ...params, route } };
}

function cursorOf(request: Request): PageRequest['cursor'] {
  const text = request.query.get('cursor');
  if (text === null) return undefined;
  const cursor = decodeCursor(text);
  if (!cursor) throw fail('stream_read.cursor_invalid');
  return cursor;
}

/** The SSE text a tail may send, for the OpenAPI document. */
const tailExample = `retry: 3000\n\n${sseRecord(streamEventExample)}${sseSampled(tailSampledExample)}${SSE_KEEP_ALIVE}`;

export function streamEventRoutes(deps: ApiDeps, timing: Partial<TailTiming> = {}): Route[] {
  const streams = deps.controlPlane.model.slices.streams.streams;
  const tailTiming: TailTiming = { ...DEFAULT_TAIL_TIMING, ...timing };
  const authenticate = deps.auth.requireRight(STREAMS_READ, [ADMIN]);
  const base = { tags: ['streams'], security: 'bearer' as const, authenticate };
  /** The path's stream id, once the stream is known. */
  const streamOf = (request: Request): number => {
    const id = parseId(request.params['id'], 'id', 'stream id');
    if (!streams.has(id)) throw fail('stream.not_found', { id });
    return id;
  };
  /** The page asked for; the stream is looked up first, so an unknown one is 404 whatever the query. */
  const page = (request: Request, conditions?: (request: Request) => RowConditions): PageRequest => {
    const streamId = streamOf(request);
    return { streamId, ...readRange(request), limit: pageLimit(request), cursor: cursorOf(request), conditions: conditions?.(request) ?? NO_CONDITIONS };
  };

  return [
    defineRoute({
      ...base,
      method: 'GET',
      path: `${STREAMS_PREFIX}/:id/events`,
      name: 'streams.listEvents',
      summary: "A page of the stream's events in a date range, newest first; filter on the records' fields and route label",
      schema: {
        query: StreamEventsQuery,
        responses: { 200: { description: 'A page of events', schema: StreamEventPage, example: streamEventPageExample }, ...problems(400, 401, 403, 404) },
      },
      handler: async (request) => json(200, await readEvents(deps.analytics, page(request, eventConditions))),
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${STREAMS_PREFIX}/:id/dead-letters`,
      name: 'streams.listDeadLetters',
      summary: "A page of the stream's dead letters (records that could not become events) in a receipt date range, newest first",
      schema: {
        query: DeadLettersQuery,
        responses: { 200: { description: 'A page of dead letters', schema: DeadLetterPage, example: deadLetterPageExample }, ...problems(400, 401, 403, 404) },
      },
      handler: async (request) => json(200, await readDeadLetters(deps.analytics, page(request))),
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${STREAMS_PREFIX}/:id/events/stream`,
      name: 'streams.tailEvents',
      summary: `New events of the stream as Server-Sent Events (event \`record\`); at most ${tailTiming.maxPerSecond} a second, sampled above with an event \`sampled\``,
      schema: {
        query: StreamTailQuery,
        responses: {
          200: {
            description:
              'An endless text/event-stream: `record` events (`id`: the event id, `data`: the event as in the pages), `sampled` events (`data`: `{"rate","seen","sent"}` of one second) and a `: keep-alive` comment every 15 s without output',
            content: { 'text/event-stream': { schema: Type.String(), example: tailExample } },
          },
          ...problems(400, 401, 403, 404),
        },
      },
      handler: (request) => {
        const streamId = streamOf(request);
        const conditions = eventConditions(request);
        const tailDeps = { analytics: deps.analytics, now: deps.now, log: request.log, timing: tailTiming, streamExists: () => streams.has(streamId) };
        return {
          status: 200,
          headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' },
          stream: eventTail(tailDeps, streamId, conditions),
          live: true,
        };
      },
    }),
  ];
}
