/**
 * The live tail of a stream (issue #30) as Server-Sent Events: new events of the stream read
 * from the `events` table about once a second, so a tail on any API replica sees what any event
 * worker stored. Each record is an SSE event `record` (its id, the item as JSON); a comment
 * `: keep-alive` goes out after `keepAliveMs` without output, so proxies keep the connection.
 *
 * At most `maxPerSecond` records are sent per second. A poll that finds more sends a sample of
 * them (spread over the poll by a hash of their ids) and says so first with an SSE event
 * `sampled`: `{"rate": sent / seen, "seen": n, "sent": m}`.
 *
 * Bounded by the client: each record is one chunk, and the server asks for the next chunk only
 * once the last is written (write-reply.ts), so a slow client holds one record at a time and
 * the polls wait; what arrived meanwhile is then sampled like any other burst. Ending the
 * iteration (the client went away, the server stops) aborts the wait or poll under way.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { clickhouseDateTime } from '../../../pipelines/records/timestamps.js';
import type { StreamEventModel, TailSampledModel } from '../../../schemas/stream-events.schema.js';
import type { AnalyticsStore } from '../../runtime/adapters/analytics/analytics.port.js';
import type { Logger } from '../../runtime/logger.js';
import { EVENT_ITEM_LIST } from '../../../schemas/tables/events.table.js';
import { type EventRow, eventItem, keysWithin, type RowConditions, rowsByIds } from './event-reads.js';
import { SendBudget, type TailKey, TailWindow } from './tail-window.js';

export interface TailTiming {
  /** From the end of one poll to the start of the next. */
  pollMs: number;
  /** A keep-alive comment after this long without output. */
  keepAliveMs: number;
  /** How long after a newer record a record stored late is still sent (tail-window.ts). */
  lateMs: number;
  /** Records sent per second at most; more are sampled. */
  maxPerSecond: number;
}

export const DEFAULT_TAIL_TIMING: TailTiming = { pollMs: 1000, keepAliveMs: 15_000, lateMs: 10_000, maxPerSecond: 100 };

/** How long a client waits before it reconnects (the SSE `retry` field, sent first). */
const RETRY_MS = 3000;
/** Record bytes read from the store at once while sending a poll's records. */
const READ_BYTES = 1024 * 1024;

export const sseRecord = (item: StreamEventModel): string => `event: record\nid: ${item.id}\ndata: ${JSON.stringify(item)}\n\n`;
export const sseSampled = (data: TailSampledModel): string => `event: sampled\ndata: ${JSON.stringify(data)}\n\n`;
export const SSE_KEEP_ALIVE = ': keep-alive\n\n';

export interface TailDeps {
  analytics: AnalyticsStore;
  now: () => number;
  log: Logger;
  timing: TailTiming;
  /** False once the stream is deleted: the tail then ends. */
  streamExists: () => boolean;
}

interface CountRow {
  n: string;
  last_ms: string;
  last_id: string;
}

interface KeyRow {
  item_id: string;
  received_ms: string;
  bytes: string;
}

/**
 * The tail as an iterable of SSE text chunks. Its iterator's `return` (how a writer ends it)
 * takes effect at once, even while the tail waits or polls.
 */
export function eventTail(deps: TailDeps, streamId: number, conditions: RowConditions): AsyncIterable<string> {
  return {
    [Symbol.asyncIterator]() {
      const stop = new AbortController();
      const tail = logged(deps.log, streamId, run(deps, streamId, conditions, stop.signal));
      return {
        next: () => tail.next(),
        return: async (value?: unknown) => {
          stop.abort();
          return tail.return(value as undefined);
        },
      };
    },
  };
}

/** `tail`, with a log line when it ends, however it ends (a tail is a long request: its request line says little). */
async function* logged(log: Logger, streamId: number, tail: AsyncGenerator<string, undefined>): AsyncGenerator<string, undefined> {
  const started = performance.now();
  let records = 0;
  try {
    for await (const chunk of tail) {
      if (chunk.startsWith('event: record')) records += 1;
      yield chunk;
    }
  } finally {
    log.info({ streamId, records, seconds: Math.round(performance.now() - started) / 1000 }, 'live tail ended');
  }
  return undefined;
}

async function* run(deps: TailDeps, streamId: number, conditions: RowConditions, signal: AbortSignal): AsyncGenerator<string, undefined> {
  const { timing } = deps;
  const window = new TailWindow(deps.now(), timing.lateMs);
  const budget = new SendBudget(timing.maxPerSecond);
  let lastOutput = deps.now();
  let failing = false;
  // Sent at once, so the client has the answer's head without waiting for the first record.
  yield `retry: ${RETRY_MS}\n\n`;
  for (;;) {
    try {
      await sleep(timing.pollMs, undefined, { signal });
    } catch {
      return undefined; // ended
    }
    if (!deps.streamExists()) return undefined;
    // With this second's records sent, what arrives waits for the next (and is sampled then).
    const allowed = budget.available(deps.now());
    if (allowed > 0) {
      try {
        for await (const chunk of newRecords(deps, { streamId, conditions, window, budget, allowed, signal })) {
          yield chunk;
          lastOutput = deps.now();
        }
        failing = false;
      } catch (err) {
        if (signal.aborted) return undefined;
        // Once per outage, not once per poll and client.
        if (!failing) deps.log.warn({ err, streamId }, 'reading new events for a live tail failed; retrying at the next poll');
        failing = true;
      }
    }
    if (signal.aborted) return undefined;
    if (deps.now() - lastOutput >= timing.keepAliveMs) {
      lastOutput = deps.now();
      yield SSE_KEEP_ALIVE;
    }
  }
}

interface Poll {
  streamId: number;
  conditions: RowConditions;
  window: TailWindow;
  budget: SendBudget;
  /** Records that may be sent now (at least one). */
  allowed: number;
  signal: AbortSignal;
}

/** One poll: what is new since the last, as SSE text (a `sampled` event first when it is a sample). */
async function* newRecords(deps: TailDeps, poll: Poll): AsyncGenerator<string> {
  const { analytics } = deps;
  const { streamId, window, allowed, signal } = poll;
  const { floor, lowerMs, seenIds } = window.bounds();
  const sql = `stream_id = {stream:UInt64} AND received_at >= {lower:DateTime64(3)}
    AND (received_at, toString(id)) > ({floor:DateTime64(3)}, {floorId:String})
    ${seenIds.length > 0 ? 'AND id NOT IN {seen:Array(UUID)}' : ''}
    ${poll.conditions.sql.map((condition) => `AND ${condition}`).join(' ')}`;
  const params = { ...poll.conditions.params, stream: streamId, lower: clickhouseDateTime(lowerMs), floor: clickhouseDateTime(floor.ms), floorId: floor.id, seen: seenIds };

  const [count] = await analytics.query<CountRow>(
    `SELECT count() AS n, toUnixTimestamp64Milli(max(received_at)) AS last_ms, argMax(toString(id), (received_at, toString(id))) AS last_id
     FROM events FINAL WHERE ${sql}`,
    params,
  );
  const seen = Number(count?.n ?? 0);
  if (seen === 0 || signal.aborted) return;
  const last: TailKey = { ms: Number(count!.last_ms), id: count!.last_id };
  const sampled = seen > allowed;
  // Up to `last` only: what is stored meanwhile is the next poll's. A sample is spread over the
  // poll by a hash of the ids, then sent in order like the rest.
  const keys = await analytics.query<KeyRow>(
    `SELECT item_id, received_ms, bytes FROM (
       SELECT toString(id) AS item_id, toUnixTimestamp64Milli(received_at) AS received_ms, length(payload) AS bytes, received_at
       FROM events FINAL
       WHERE ${sql} AND received_at <= {last:DateTime64(3)} AND (received_at, toString(id)) <= ({last:DateTime64(3)}, {lastId:String})
       ORDER BY ${sampled ? 'cityHash64(item_id)' : 'received_at, item_id'}
       LIMIT {take:UInt32})
     ORDER BY received_at, item_id`,
    { ...params, last: clickhouseDateTime(last.ms), lastId: last.id, take: allowed },
  );
  if (signal.aborted) return;
  poll.budget.spend(deps.now(), keys.length);
  if (sampled) {
    window.passed(last);
    yield sseSampled({ rate: Math.round((keys.length / seen) * 1e4) / 1e4, seen, sent: keys.length });
  } else {
    window.took(
      keys.map((key) => ({ ms: Number(key.received_ms), id: key.item_id })),
      last,
    );
  }
  for (let i = 0; i < keys.length;) {
    const chunk = keysWithin(keys.slice(i), READ_BYTES);
    i += chunk.length;
    const dates = chunk.map((key) => Number(key.received_ms));
    const range = { low: Math.min(...dates), high: Math.max(...dates) };
    const ids = chunk.map((key) => key.item_id);
    for (const row of await rowsByIds<EventRow>(analytics, 'events', EVENT_ITEM_LIST, streamId, 'received_at', range, ids, 'ASC')) {
      if (signal.aborted) return;
      yield sseRecord(eventItem(streamId, row));
    }
  }
}
