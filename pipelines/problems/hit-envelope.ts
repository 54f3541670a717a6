/**
 * The bus message of the keyed problem stage (DESIGN §7a), one per partition and batch: the
 * trigger hits of its keys, and closes of keys whose CI or trigger is gone. JSON: it is written
 * and read only by the platform's own processes, of the same version.
 */
import type { KeyedHit } from './trigger-match.js';

export interface KeyClose {
  triggerId: number;
  ciId: number;
  at: number;
}

export interface HitsEnvelope {
  hits: KeyedHit[];
  closes: KeyClose[];
}

export const encodeHits = (envelope: HitsEnvelope): Uint8Array => Buffer.from(JSON.stringify(envelope));

/**
 * The hits as envelopes of at most `maxBytes` each (a bus refuses larger messages: NATS's
 * max_payload is 1 MB by default), in the order given. A single hit over the bound goes alone.
 */
export function encodeHitChunks(hits: readonly KeyedHit[], maxBytes: number): Uint8Array[] {
  const head = '{"hits":[';
  const tail = '],"closes":[]}';
  const chunks: Uint8Array[] = [];
  let parts: string[] = [];
  let bytes = head.length + tail.length;
  const flush = (): void => {
    if (parts.length > 0) chunks.push(Buffer.from(head + parts.join(',') + tail));
    parts = [];
    bytes = head.length + tail.length;
  };
  for (const hit of hits) {
    const json = JSON.stringify(hit);
    const size = Buffer.byteLength(json) + 1;
    if (parts.length > 0 && bytes + size > maxBytes) flush();
    parts.push(json);
    bytes += size;
  }
  flush();
  return chunks;
}

export function decodeHits(data: Uint8Array): HitsEnvelope {
  const parsed = JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8')) as Partial<HitsEnvelope>;
  return { hits: parsed.hits ?? [], closes: parsed.closes ?? [] };
}
