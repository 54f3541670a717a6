/**
 * A full store, told apart from every other failure (issue #34), so that a write refused for want
 * of space answers 503 `storage.full` with Retry-After instead of 500, and the consumers retry it
 * later like any `unavailable` error. Each engine says it its own way:
 *
 * - a file write: `ENOSPC` ("No space left on device") or `EDQUOT`;
 * - LMDB (journal, keyed store, bus log): `ENOSPC` when not a byte could be written, but `EIO`
 *   (code 5) when the disk took part of a write, LMDB's answer to a short write. Measured on a
 *   full tmpfs: small commits still succeed there (they reuse freed pages), larger ones fail with
 *   EIO. So an EIO counts as a full disk when the filesystem it came from is nearly full
 *   (under LMDB_SHORT_WRITE_FREE_BYTES free), and as the I/O error it says otherwise;
 * - ClickHouse and chDB: code 243 `NOT_ENOUGH_SPACE` ("Cannot reserve 1.00 MiB, not enough
 *   space"), or a file error quoting ENOSPC;
 * - Redis: `MISCONF` (it cannot persist, and refuses writes until it can; a full disk is the
 *   common cause) and `OOM` (over maxmemory with a no-eviction policy): the store is full either way;
 * - NATS JetStream: "insufficient resources" / "insufficient storage".
 *
 * The write that failed stored nothing in every case: an LMDB transaction, a ClickHouse insert
 * (one part) and the Redis scripts (their writes come after all their reads) are all-or-nothing.
 */
import { statfsSync } from 'node:fs';
import { type AppError, failLater } from '../../schemas/errors.js';

/** What a client is told to wait: space comes back by an operator's hand or a merge, not in a second. */
export const STORAGE_FULL_RETRY_AFTER_SECONDS = 30;

/** Under this much free space, an LMDB EIO is taken for a short write on a full disk. */
export const LMDB_SHORT_WRITE_FREE_BYTES = 64 * 1024 * 1024;

interface ErrorShape {
  code?: unknown;
  errno?: unknown;
  clickhouseCode?: unknown;
  type?: unknown;
  message?: unknown;
  cause?: unknown;
}

function reasonOf(e: ErrorShape, dir: string | undefined): string | undefined {
  const { code, errno, clickhouseCode, type } = e;
  const message = typeof e.message === 'string' ? e.message : '';
  // Already told (storage.full raised below, e.g. by the bus log): its message says why.
  if (code === 'storage.full') return message;
  if (code === 'ENOSPC' || errno === -28 || code === 28 || /No space left on device/i.test(message)) return 'no space left on device';
  if (code === 'EDQUOT' || errno === -122) return 'disk quota exceeded';
  if (clickhouseCode === 243 || code === '243' || type === 'NOT_ENOUGH_SPACE' || /\bNOT_ENOUGH_SPACE\b/.test(message))
    return 'ClickHouse cannot reserve the space (NOT_ENOUGH_SPACE)';
  // At the start of the reply, or quoted inside a script's error.
  if (/(?:^|[\s:])MISCONF\b/.test(message)) return 'Redis cannot persist to its disk (MISCONF)';
  if (/(?:^|[\s:])OOM command not allowed\b/.test(message)) return 'Redis is at its maxmemory (OOM)';
  if (/insufficient (storage )?resources/i.test(message)) return 'JetStream has no storage left';
  if (dir !== undefined && (code === 5 || code === 'EIO')) {
    const free = freeBytes(dir);
    if (free !== undefined && free < LMDB_SHORT_WRITE_FREE_BYTES) return `a short write with ${free} bytes free on its disk`;
  }
  return undefined;
}

/**
 * Why `error` (or an error in its `cause` chain) says its store is full, or undefined when it
 * says something else. `dir`: the directory of the LMDB environment the error came from, for
 * the EIO rule above.
 */
export function storageFullReason(error: unknown, dir?: string): string | undefined {
  let e: unknown = error;
  for (let depth = 0; depth < 5 && e !== null && e !== undefined; depth++) {
    if (typeof e === 'string') return reasonOf({ message: e }, undefined);
    if (typeof e !== 'object') return undefined;
    const reason = reasonOf(e as ErrorShape, dir);
    if (reason !== undefined) return reason;
    e = (e as ErrorShape).cause;
  }
  return undefined;
}

/** The 503 `storage.full` of `engine` (a key of /readyz's engines), keeping what the engine said. */
export function storageFull(engine: string, reason: string, cause?: unknown): AppError {
  const error = failLater('storage.full', STORAGE_FULL_RETRY_AFTER_SECONDS, { engine, reason });
  if (cause !== undefined) error.cause = cause;
  return error;
}

/** Free bytes for an unprivileged writer on the filesystem of `dir`, or undefined when it cannot be read. */
export function freeBytes(dir: string): number | undefined {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}

/**
 * lmdb-js rejects a failed asynchronous commit with "Commit failed (see commitError for details)"
 * and the engine's error in a second promise, `commitError`, which nobody else awaits: left
 * alone, it ends the process as an unhandled rejection. This takes it over and returns the
 * engine's error (or `error` itself when there is none).
 */
export async function lmdbCommitError(error: unknown): Promise<unknown> {
  const pending = (error as { commitError?: unknown } | null)?.commitError;
  if (!(pending instanceof Promise)) return error;
  try {
    await pending;
    return error;
  } catch (cause) {
    return cause;
  }
}
