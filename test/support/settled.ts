/**
 * A 200 from a receiver means the records are on the bus, durably (issue #14: in-process, in the
 * bus log), not yet that their rows can be read: the event worker inserts them behind the answer,
 * as it does with JetStream. Tests that read what they sent wait here first.
 */
import type { AnalyticsStore } from '../../services/runtime/adapters/analytics/analytics.port.js';
import type { Bus } from '../../services/runtime/adapters/bus/bus.port.js';
import { HITS_STREAM, RECORDS_STREAM } from '../../services/runtime/bus-streams.js';
import { eventually } from './bus-recorder.js';

/**
 * Every record acknowledged so far is stored and its trigger hits placed: neither the records nor
 * the hits stream holds a message. One look at both suffices: a records message is acked only
 * once its hits are on the bus.
 */
export async function ingestSettled(platform: { engines: { bus: Bus } }, timeoutMs = 60_000): Promise<void> {
  await eventually(
    'the records and their trigger hits to be stored',
    async () => {
      const { pending } = await platform.engines.bus.stats();
      return (pending[RECORDS_STREAM.name] ?? 0) === 0 && (pending[HITS_STREAM.name] ?? 0) === 0;
    },
    timeoutMs,
    5,
  );
}

export interface StoredEvent {
  ts: string;
  received_at: string;
  payload: string;
}

type Analysed = { engines: { bus: Bus; analytics: AnalyticsStore } };

/** A stream's event rows (by date, then payload), once every record acknowledged so far is stored. */
export async function storedEvents(platform: Analysed, streamId: number): Promise<StoredEvent[]> {
  await ingestSettled(platform);
  return platform.engines.analytics.query<StoredEvent>('SELECT ts, received_at, payload FROM events WHERE stream_id = {s:UInt64} ORDER BY ts, payload', { s: streamId });
}

/** How many event rows a stream has on disk (no FINAL), once every record acknowledged so far is stored. */
export async function storedRowCount(platform: Analysed, streamId: number): Promise<number> {
  await ingestSettled(platform);
  return Number((await platform.engines.analytics.query<{ n: string }>('SELECT count() AS n FROM events WHERE stream_id = {s:UInt64}', { s: streamId }))[0]!.n);
}
