/**
 * Which stream a request writes to: its stream key, and the checks of DESIGN §6 on the stream
 * it names — declared, active, not pending deletion — each refused with 422 (spec 7.4). One
 * place for every listener, so a rotated, deactivated or deleted key is refused alike everywhere.
 *
 * The key may come from the `streamKey` query parameter, the `x-smon-stream-key` header, or the
 * password of HTTP Basic authentication (the user name is ignored): agents that speak another
 * product's protocol (Elasticsearch shippers, Alertmanager) can always send one of these. A
 * listener names the sources it takes; the first non-empty one, in that order, wins.
 */
import type { StreamRecord, StreamsSlice } from '../control-plane/streams/streams.slice.js';
import { fail } from '../../schemas/errors.js';
import type { Request } from '../runtime/http/route.js';

export type StreamKeySource = 'query' | 'header' | 'basic';

export const ALL_KEY_SOURCES: readonly StreamKeySource[] = ['query', 'header', 'basic'];

const HOW_TO_SEND: Record<StreamKeySource, string> = {
  query: 'the streamKey query parameter',
  header: 'the x-smon-stream-key header',
  basic: 'the password of HTTP Basic authentication',
};

const BASIC = /^basic\s+([A-Za-z0-9+/=_-]+)\s*$/i;

/** The password of an `Authorization: Basic` header, or undefined when there is none. */
export function basicPassword(authorization: string | undefined): string | undefined {
  const m = authorization ? BASIC.exec(authorization) : null;
  if (!m) return undefined;
  const credentials = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = credentials.indexOf(':');
  return colon < 0 ? undefined : credentials.slice(colon + 1) || undefined;
}

/** The key the request sends through one of `sources`; empty values count as absent. */
export function streamKeyOf(request: Request, sources: readonly StreamKeySource[] = ALL_KEY_SOURCES): string | undefined {
  for (const source of sources) {
    const key = source === 'query' ? request.query.get('streamKey') : source === 'header' ? request.headers['x-smon-stream-key'] : basicPassword(request.headers['authorization']);
    if (key) return key;
  }
  return undefined;
}

/** The stream `key` opens; 422 when the key is missing or the stream cannot take data. */
export function openStream(streams: StreamsSlice, key: string | undefined, sources: readonly StreamKeySource[] = ALL_KEY_SOURCES): StreamRecord {
  if (!key) throw fail('ingest.key_missing', { how: listed(sources.map((s) => HOW_TO_SEND[s])) });
  const stream = streams.byStreamKey(key);
  if (!stream) throw fail('ingest.key_unknown');
  if (stream.status === 'inactive') throw fail('ingest.stream_inactive', { id: stream.id });
  if (stream.status === 'pendingDeletion') throw fail('ingest.stream_pending_deletion', { id: stream.id });
  return stream;
}

/**
 * A route's `authenticate`: finds the stream and returns it (its record, configuration included),
 * for the handler's `request.auth`. Synchronous, so the server does not buffer the body of a
 * caller it will refuse. With sources `['query', 'header']` the answers are stream-data's, word for word.
 */
export function authenticateStreamKey(streams: StreamsSlice, sources: readonly StreamKeySource[] = ALL_KEY_SOURCES): (request: Request) => StreamRecord {
  return (request) => openStream(streams, streamKeyOf(request, sources), sources);
}

/** "a", "a or b", "a, b or c". */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
