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

export function decodeHits(data: Uint8Array): HitsEnvelope {
  const parsed = JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8')) as Partial<HitsEnvelope>;
  return { hits: parsed.hits ?? [], closes: parsed.closes ?? [] };
}
