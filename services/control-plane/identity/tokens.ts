/** Personal token secrets: 32 random bytes, shown once, stored only as SHA-256 (DESIGN §4). */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'ops_';

export function newTokenSecret(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
