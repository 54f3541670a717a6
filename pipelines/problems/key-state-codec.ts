/**
 * How a key's state is stored in the keyed store: its hits (up to 256 per key, the bulk of it)
 * in columns instead of one object each, so writing a thousand keys encodes a few strings rather
 * than a quarter of a million small objects or numbers (measured with LMDB's msgpack: about 55 ms
 * against 8 ms per thousand keys of 256 hits, with dates as numbers). A change that folds hits
 * off the front and appends newer ones (in-order telemetry, the usual case) repacks only what it
 * added: the kept part of each column is a slice of the stored one. JSON-safe, for the Redis
 * adapter.
 */
import type { KeyState } from './key-state.js';
import type { Hit, IncidentRef, PriorityNumber } from './problem-timeline.js';

export interface PackedHits {
  /** The ids joined by newlines, or as an array when one of them holds a newline. */
  ids: string | string[];
  /**
   * The dates in base 36, comma-separated: the first as it is, each next one as its distance to
   * the one before (hits are sorted, so small). Numbers in states stored before this form.
   */
  ts: string | number[];
  /** One character per hit: its priority, `1`–`4`, or `a`–`d` for a resolving hit. */
  flags: string;
  /** The hits that name incidents: [index, incidents]. */
  incidents: Array<[number, IncidentRef[]]>;
}

export type PackedKeyState = Omit<KeyState, 'hits'> & { hits: PackedHits };

const RESOLVING = 'a'.charCodeAt(0) - 1;
const PLAIN = '1'.charCodeAt(0) - 1;

const flagOf = (h: Hit): string => String.fromCharCode((h.resolve ? RESOLVING : PLAIN) + h.priority);

/** The columns of `hits`, appended to those of the `offset` hits in `into` (the last dated `lastTs`). */
function append(into: { ids: string; ts: string; flags: string; incidents: Array<[number, IncidentRef[]]> }, hits: readonly Hit[], offset: number, lastTs: number | undefined) {
  const ids: string[] = [];
  const ts: string[] = [];
  let flags = '';
  let previous = lastTs;
  for (let i = 0; i < hits.length; i++) {
    const h = hits[i]!;
    ids.push(h.id);
    ts.push((previous === undefined ? h.ts : h.ts - previous).toString(36));
    previous = h.ts;
    flags += flagOf(h);
    if (h.incidents.length > 0) into.incidents.push([offset + i, h.incidents]);
  }
  if (hits.length > 0) {
    into.ids = offset === 0 ? ids.join('\n') : `${into.ids}\n${ids.join('\n')}`;
    into.ts = offset === 0 ? ts.join(',') : `${into.ts},${ts.join(',')}`;
    into.flags += flags;
  }
}

/** Hits in columns (what a key state stores, and what a hits message carries per key). */
export function packHits(hits: readonly Hit[]): PackedHits {
  const packed = { ids: '', ts: '', flags: '', incidents: [] };
  append(packed, hits, 0, undefined);
  return hits.some((h) => h.id.includes('\n')) ? { ...packed, ids: hits.map((h) => h.id) } : packed;
}

/** Where the `n`th `char` of `text` is (n ≥ 1), or -1. */
function nth(text: string, char: string, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i++) {
    at = text.indexOf(char, at + 1);
    if (at < 0) return -1;
  }
  return at;
}

/**
 * `next` packed, given an earlier hits array and its packed form: when `next` is that array with
 * some hits dropped from the front and some appended, the kept part is sliced from the packed
 * columns, and only the appended hits are packed. Anything else is packed whole.
 */
export function repackHits(previous: readonly Hit[], packed: PackedHits, next: readonly Hit[]): PackedHits {
  const dropped = next.length > 0 ? previous.indexOf(next[0]!) : -1;
  const kept = previous.length - dropped;
  const reusable =
    dropped >= 0 &&
    typeof packed.ids === 'string' &&
    typeof packed.ts === 'string' &&
    kept <= next.length &&
    next[kept - 1] === previous[previous.length - 1] &&
    !next.some((h, i) => i >= kept && h.id.includes('\n'));
  if (!reusable) return packHits(next);
  let ids = packed.ids as string;
  let ts = packed.ts as string;
  if (dropped > 0) {
    ids = ids.slice(nth(ids, '\n', dropped) + 1);
    const rest = nth(ts, ',', dropped + 1);
    ts = next[0]!.ts.toString(36) + (rest < 0 ? '' : ts.slice(rest));
  }
  const out = {
    ids,
    ts,
    flags: packed.flags.slice(dropped),
    incidents: packed.incidents.filter(([i]) => i >= dropped).map(([i, refs]): [number, IncidentRef[]] => [i - dropped, refs]),
  };
  append(out, next.slice(kept), kept, next[kept - 1]!.ts);
  return out;
}

export function unpackHits({ ids, ts, flags, incidents }: PackedHits): Hit[] {
  const n = flags.length;
  const idList = typeof ids === 'string' ? (n === 0 ? [] : ids.split('\n')) : ids;
  const dates = typeof ts === 'string' ? datesOf(ts, n) : ts;
  const refs = new Map(incidents);
  const hits = new Array<Hit>(n);
  for (let i = 0; i < n; i++) {
    const code = flags.charCodeAt(i);
    const resolve = code > RESOLVING;
    hits[i] = { id: idList[i]!, ts: dates[i]!, resolve, priority: (code - (resolve ? RESOLVING : PLAIN)) as PriorityNumber, incidents: refs.get(i) ?? [] };
  }
  return hits;
}

function datesOf(ts: string, n: number): number[] {
  if (n === 0) return [];
  const parts = ts.split(',');
  const dates = new Array<number>(parts.length);
  let at = 0;
  for (let i = 0; i < parts.length; i++) dates[i] = at = (i === 0 ? 0 : at) + parseInt(parts[i]!, 36);
  return dates;
}

/** `previous`: the key's state as stored before this change, to repack only what changed. */
export const packKeyState = (state: KeyState, previous?: { state: KeyState; packed: PackedKeyState }): PackedKeyState => ({
  ...state,
  hits: previous ? repackHits(previous.state.hits, previous.packed.hits, state.hits) : packHits(state.hits),
});

export const unpackKeyState = (packed: PackedKeyState): KeyState => ({ ...packed, hits: unpackHits(packed.hits) });
