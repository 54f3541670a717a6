/**
 * A stream's activity (issue #33, the console's streams screen): records stored and dead letters
 * per minute by receipt, over the last hour by default. For the readers of its events.
 */
import { ACTIVITY_MINUTES, StreamActivity, type StreamActivityModel, StreamActivityQuery } from '../../../schemas/stream-activity.schema.js';
import { clickhouseDateTime } from '../../../pipelines/records/timestamps.js';
import { fail } from '../../../schemas/errors.js';
import { defineRoute, json, type Route } from '../../runtime/http/route.js';
import { ADMIN, type ApiDeps } from '../api-deps.js';
import { parseId, problems } from '../../runtime/http/route-kit.js';
import { STREAMS_READ } from './stream-events.routes.js';

const MINUTE_MS = 60_000;

const activityExample: StreamActivityModel = {
  from: '2026-11-21T09:58:00.000Z',
  to: '2026-11-21T10:00:12.345Z',
  bucketSeconds: 60,
  buckets: [
    { at: '2026-11-21T09:58:00.000Z', records: 1180, deadLetters: 0 },
    { at: '2026-11-21T09:59:00.000Z', records: 1212, deadLetters: 3 },
    { at: '2026-11-21T10:00:00.000Z', records: 240, deadLetters: 0 },
  ],
};

interface CountRow {
  minute_ms: string;
  n: string;
}

export function streamActivityRoutes(deps: ApiDeps): Route[] {
  const streams = deps.controlPlane.model.slices.streams.streams;
  /** Count per minute of `table`'s rows of the stream received in [from, to). */
  const perMinute = async (table: 'events' | 'dead_letters', streamId: number, from: number, to: number): Promise<Map<number, number>> => {
    const rows = await deps.analytics.query<CountRow>(
      `SELECT toUnixTimestamp(toStartOfMinute(received_at)) * 1000 AS minute_ms, count() AS n
       FROM ${table} FINAL
       WHERE stream_id = {stream:UInt64} AND received_at >= {from:DateTime64(3)} AND received_at < {to:DateTime64(3)}
       GROUP BY minute_ms`,
      { stream: streamId, from: clickhouseDateTime(from), to: clickhouseDateTime(to) },
    );
    return new Map(rows.map((row) => [Number(row.minute_ms), Number(row.n)]));
  };
  return [
    defineRoute({
      tags: ['streams'],
      security: 'bearer',
      authenticate: deps.auth.requireRight(STREAMS_READ, [ADMIN]),
      method: 'GET',
      path: '/api/public/cl/v1/streams/:id/activity',
      name: 'streams.activity',
      summary: 'Records stored and dead letters per minute, by receipt, over the last minutes',
      schema: {
        query: StreamActivityQuery,
        responses: { 200: { description: 'The activity', schema: StreamActivity, example: activityExample }, ...problems(400, 401, 403, 404) },
      },
      handler: async (request) => {
        const id = parseId(request.params['id'], 'id', 'stream id');
        if (!streams.has(id)) throw fail('stream.not_found', { id });
        const minutes = request.queryValues.minutes ?? ACTIVITY_MINUTES.default;
        const to = deps.now();
        // Whole minutes, the current one last (partial).
        const from = Math.floor(to / MINUTE_MS) * MINUTE_MS - (minutes - 1) * MINUTE_MS;
        const [records, deadLetters] = await Promise.all([perMinute('events', id, from, to + 1), perMinute('dead_letters', id, from, to + 1)]);
        const buckets: StreamActivityModel['buckets'] = [];
        for (let at = from; at <= to; at += MINUTE_MS) {
          buckets.push({ at: new Date(at).toISOString(), records: records.get(at) ?? 0, deadLetters: deadLetters.get(at) ?? 0 });
        }
        return json(200, { from: new Date(from).toISOString(), to: new Date(to).toISOString(), bucketSeconds: 60, buckets } satisfies StreamActivityModel);
      },
    }),
  ];
}
