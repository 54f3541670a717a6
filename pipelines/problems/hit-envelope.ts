/**
 * The bus message of the keyed problem stage (DESIGN §7a), one per partition and batch (or more,
 * each under the bus's size limit): the trigger hits of its keys, each key's in the order they
 * came, and closes of keys whose CI or trigger is gone. JSON, one array per key holding the
 * hits in columns (ids, dates, priority and resolve in one number, incidents by index), so
 * encoding and decoding are mostly the engine's own JSON over arrays of strings and numbers; it
 * is written and read only by the platform's own processes. A key as an earlier version wrote
 * it (its hits as objects) is still read.
 */
import type { ProblemAction } from './problem-actions.js';
import type { Hit, IncidentRef, PriorityNumber } from './problem-timeline.js';
import type { KeyedHit } from './trigger-match.js';

export interface KeyClose {
  triggerId: number;
  ciId: number;
  at: number;
}

/** One key's hits in a message, in the order they came. */
export interface KeyHits {
  triggerId: number;
  ciId: number;
  hits: Hit[];
}

export interface HitsEnvelope {
  keys: KeyHits[];
  closes: KeyClose[];
  /** Operators' actions on the keys' problems (issue #30); absent in messages of hits. */
  actions?: ProblemAction[];
  /** When the message was published (ms): the problem stage's lag is measured from it. */
  sentAt?: number;
}

/** `ids` joined by spaces when none holds one (record ids are hex): one string is quicker in JSON. */
type WireKey = [triggerId: number, ciId: number, ids: string | string[], dates: number[], codes: number[], incidents: Array<[index: number, refs: IncidentRef[]]>];
type EarlierWireKey = [triggerId: number, ciId: number, hits: Hit[]];

/** Priority and resolve in one number: priority × 2, plus 1 for a resolving hit. */
const codeOf = (hit: Hit): number => hit.priority * 2 + (hit.resolve ? 1 : 0);

function wireKey(k: KeyHits): string {
  const n = k.hits.length;
  const ids = new Array<string>(n);
  const dates = new Array<number>(n);
  const codes = new Array<number>(n);
  const incidents: WireKey[5] = [];
  let spaced = false;
  for (let i = 0; i < n; i++) {
    const hit = k.hits[i]!;
    ids[i] = hit.id;
    spaced ||= hit.id.includes(' ');
    dates[i] = hit.ts;
    codes[i] = codeOf(hit);
    if (hit.incidents.length > 0) incidents.push([i, hit.incidents]);
  }
  return JSON.stringify([k.triggerId, k.ciId, spaced ? ids : ids.join(' '), dates, codes, incidents] satisfies WireKey);
}

function keyOf(wire: WireKey | EarlierWireKey): KeyHits {
  if (wire.length === 3) return { triggerId: wire[0], ciId: wire[1], hits: wire[2] };
  const [triggerId, ciId, joined, dates, codes, incidents] = wire;
  const ids = typeof joined === 'string' ? joined.split(' ') : joined;
  const hits = new Array<Hit>(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const code = codes[i]!;
    hits[i] = { id: ids[i]!, ts: dates[i]!, resolve: (code & 1) === 1, priority: (code >> 1) as PriorityNumber, incidents: [] };
  }
  for (const [i, refs] of incidents) hits[i]!.incidents = refs;
  return { triggerId, ciId, hits };
}

const headOf = (sentAt: number | undefined): string => (sentAt === undefined ? '{"keys":[' : `{"sentAt":${sentAt},"keys":[`);

export const encodeHits = (envelope: HitsEnvelope): Uint8Array =>
  Buffer.from(
    `${headOf(envelope.sentAt)}${envelope.keys.map(wireKey).join(',')}],"closes":${JSON.stringify(envelope.closes)}${envelope.actions ? `,"actions":${JSON.stringify(envelope.actions)}` : ''}}`,
  );

/** The hits grouped by key, each key's in the order given; keys in the order they first appear. */
export function byKey(hits: readonly KeyedHit[]): KeyHits[] {
  const keys = new Map<number, Map<number, KeyHits>>();
  const out: KeyHits[] = [];
  for (const { triggerId, ciId, hit } of hits) {
    let ofTrigger = keys.get(triggerId);
    if (!ofTrigger) keys.set(triggerId, (ofTrigger = new Map()));
    let key = ofTrigger.get(ciId);
    if (!key) {
      ofTrigger.set(ciId, (key = { triggerId, ciId, hits: [] }));
      out.push(key);
    }
    key.hits.push(hit);
  }
  return out;
}

/** A key's entry, or its hits split in order over several when one would pass `maxBytes`. */
function entriesOf(key: KeyHits, maxBytes: number): string[] {
  const json = wireKey(key);
  if (Buffer.byteLength(json) <= maxBytes || key.hits.length === 1) return [json];
  const half = key.hits.length >> 1;
  return [...entriesOf({ ...key, hits: key.hits.slice(0, half) }, maxBytes), ...entriesOf({ ...key, hits: key.hits.slice(half) }, maxBytes)];
}

/**
 * The hits as envelopes of at most `maxBytes` each (a bus refuses larger messages: NATS's
 * max_payload is 1 MB by default). A key's hits keep their order across the envelopes, which
 * must be handled in order; a single hit over the bound goes alone.
 */
export function encodeHitChunks(hits: readonly KeyedHit[], maxBytes: number, sentAt?: number): Uint8Array[] {
  const head = headOf(sentAt);
  const tail = '],"closes":[]}';
  const budget = maxBytes - head.length - tail.length;
  const chunks: Uint8Array[] = [];
  let parts: string[] = [];
  let bytes = 0;
  const flush = (): void => {
    if (parts.length > 0) chunks.push(Buffer.from(head + parts.join(',') + tail));
    parts = [];
    bytes = 0;
  };
  for (const key of byKey(hits)) {
    for (const entry of entriesOf(key, budget)) {
      const size = Buffer.byteLength(entry) + 1;
      if (parts.length > 0 && bytes + size > budget) flush();
      parts.push(entry);
      bytes += size;
    }
  }
  flush();
  return chunks;
}

export function decodeHits(data: Uint8Array): HitsEnvelope {
  const parsed = JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8')) as {
    keys?: Array<WireKey | EarlierWireKey>;
    closes?: KeyClose[];
    actions?: ProblemAction[];
    sentAt?: number;
  };
  return {
    keys: (parsed.keys ?? []).map(keyOf),
    closes: parsed.closes ?? [],
    ...(parsed.actions ? { actions: parsed.actions } : {}),
    ...(typeof parsed.sentAt === 'number' ? { sentAt: parsed.sentAt } : {}),
  };
}
