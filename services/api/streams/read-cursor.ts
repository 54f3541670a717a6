/**
 * The keyset cursor of a page of events or dead letters: the date and id of the page's last
 * item, as base64url JSON. The next page holds what sorts after it (older, or as old with a
 * smaller id), so records arriving meanwhile neither shift a page nor repeat an item.
 */

export interface ReadCursor {
  /** Milliseconds since the epoch of the last item's date (`ts`, or `receivedAt` for dead letters). */
  ms: number;
  /** The last item's id, lower-case. */
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BASE64URL = /^[A-Za-z0-9_-]{1,512}$/;

export function encodeCursor(cursor: ReadCursor): string {
  return Buffer.from(JSON.stringify({ ts: new Date(cursor.ms).toISOString(), id: cursor.id })).toString('base64url');
}

/** The cursor, or undefined when `text` is not one encodeCursor made. */
export function decodeCursor(text: string): ReadCursor | undefined {
  if (!BASE64URL.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { ts, id } = value as Record<string, unknown>;
  if (typeof ts !== 'string' || typeof id !== 'string' || !UUID.test(id)) return undefined;
  const ms = Date.parse(ts);
  // Only the form encodeCursor writes: a date that prints back as it was given.
  if (!Number.isFinite(ms) || new Date(ms).toISOString() !== ts) return undefined;
  return { ms, id };
}
