/** Personal token secrets: 32 random bytes, shown once, stored only as SHA-256 (DESIGN §4). */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'ops_';

export function newTokenSecret(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

/** One-shot hash: every authenticated request pays it, and it skips the Hash object. */
export function sha256Hex(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
