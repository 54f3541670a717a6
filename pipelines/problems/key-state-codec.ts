/**
 * How a key's state is stored in the keyed store: its hits (up to 256 per key, the bulk of it)
 * in columns instead of one object each, so writing a thousand keys encodes a few strings and
 * number arrays rather than a quarter of a million small objects (measured with LMDB's msgpack:
 * about 55 ms against 8 ms per thousand keys of 256 hits). JSON-safe, for the Redis adapter.
 */
import type { KeyState } from './key-state.js';
import type { Hit, IncidentRef, PriorityNumber } from './problem-timeline.js';

export interface PackedHits {
  /** The ids joined by newlines, or as an array when one of them holds a newline. */
  ids: string | string[];
  ts: number[];
  /** One character per hit: its priority, `1`–`4`, or `a`–`d` for a resolving hit. */
  flags: string;
  /** The hits that name incidents: [index, incidents]. */
  incidents: Array<[number, IncidentRef[]]>;
}

export type PackedKeyState = Omit<KeyState, 'hits'> & { hits: PackedHits };

const RESOLVING = 'a'.charCodeAt(0) - 1;
const PLAIN = '1'.charCodeAt(0) - 1;

export function packKeyState(state: KeyState): PackedKeyState {
  const n = state.hits.length;
  const ids = new Array<string>(n);
  const ts = new Array<number>(n);
  const codes = new Array<number>(n);
  const incidents: Array<[number, IncidentRef[]]> = [];
  let newline = false;
  for (let i = 0; i < n; i++) {
    const h = state.hits[i]!;
    ids[i] = h.id;
    newline ||= h.id.includes('\n');
    ts[i] = h.ts;
    codes[i] = (h.resolve ? RESOLVING : PLAIN) + h.priority;
    if (h.incidents.length > 0) incidents.push([i, h.incidents]);
  }
  return { ...state, hits: { ids: newline ? ids : ids.join('\n'), ts, flags: String.fromCharCode(...codes), incidents } };
}

export function unpackKeyState(packed: PackedKeyState): KeyState {
  const { ids, ts, flags, incidents } = packed.hits;
  const idList = typeof ids === 'string' ? (ids === '' && ts.length === 0 ? [] : ids.split('\n')) : ids;
  const refs = new Map(incidents);
  const hits: Hit[] = ts.map((at, i) => {
    const code = flags.charCodeAt(i);
    const resolve = code > RESOLVING;
    return { id: idList[i]!, ts: at, resolve, priority: (code - (resolve ? RESOLVING : PLAIN)) as PriorityNumber, incidents: refs.get(i) ?? [] };
  });
  return { ...packed, hits };
}
