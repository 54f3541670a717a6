/**
 * Where the logger writes (issue #34): a file descriptor (standard output), written asynchronously
 * like pino's own SonicBoom, except that a write that fails never ends the process. SonicBoom
 * re-emits a failed write as an 'error' event that nothing can handle usefully (pino's own
 * handler stands aside for anything but EPIPE), so stdout on a full disk (ENOSPC) ended the
 * process; and its exit flush retries such a write forever.
 *
 * Here a write that fails is counted (`ops_log_write_errors_total`) and its lines are dropped
 * (`ops_log_lines_dropped_total`); the lines after it are tried as usual, so logging comes back
 * by itself once the disk has room. EAGAIN (a non-blocking pipe that is full) is waited out, not
 * dropped. While writes are slow the lines wait in memory up to `maxBufferChars`; lines beyond
 * that are dropped too, so a stuck output costs bounded memory.
 */
import { write as fsWrite, writeSync } from 'node:fs';

export interface LogOutputStats {
  /** Writes that failed (their lines dropped). */
  writeErrors: number;
  /** Lines dropped: those of failed writes, and those over the buffer. */
  droppedLines: number;
  /** The code of the last failure (ENOSPC, EPIPE, ...). */
  lastError: string | undefined;
}

export interface LogDestination {
  /** One log line (pino calls it once per line). */
  write(line: string): void;
  /** Calls `done` once every line given so far is written or dropped. */
  flush(done?: (error?: Error) => void): void;
  /** Writes what is waiting now, synchronously, giving up on a failure (at exit). */
  flushSync(): void;
  stats(): LogOutputStats;
}

export interface LogDestinationOptions {
  /** Default 1 (standard output). */
  fd?: number;
  /**
   * Lines waiting beyond this many characters are dropped (default 8 Mi). Sizes are counted in
   * characters (UTF-16 code units: a byte each for the ASCII most log lines are), not bytes:
   * measuring each line's UTF-8 length cost more than the rest of its way to the write.
   */
  maxBufferChars?: number;
  /** Lines written per write call at most, in characters (default 1 Mi), unless one line alone is longer. */
  maxWriteChars?: number;
  /**
   * How long a line may wait for others to share its write, in ms (default 10; 0 writes at once).
   * Under a request a millisecond each with its access line, writing as soon as the last write was
   * done made thousands of small writes a second, and each write's round trip through the thread
   * pool cost the event loop more than the lines it carried.
   */
  lingerMs?: number;
}

const EAGAIN_RETRY_MS = 10;
const SYNC_EAGAIN_TRIES = 50;
/** Bytes of a chunk of lines (a write's worth at most), and how many written ones are kept for reuse. */
const CHUNK_BYTES = 256 * 1024;
const SPARE_CHUNKS = 4;
const MAX_UTF8_PER_CHAR = 3;

interface Chunk {
  buffer: Buffer;
  /** Bytes of `buffer` holding lines. */
  used: number;
  chars: number;
  lines: number;
}

export function createLogDestination(options: LogDestinationOptions = {}): LogDestination {
  const fd = options.fd ?? 1;
  const maxBuffer = options.maxBufferChars ?? 8 * 1024 * 1024;
  const maxWrite = options.maxWriteChars ?? 1024 * 1024;
  const lingerMs = options.lingerMs ?? 10;
  const stats: LogOutputStats = { writeErrors: 0, droppedLines: 0, lastError: undefined };

  /**
   * Lines not yet handed to a write, oldest first, encoded as they come into chunks of bytes (the
   * last one still filling): a line costs one UTF-8 encoding into memory reused from write to
   * write, where joining lines into a string and encoding that at the write copied them twice.
   */
  const waiting: Chunk[] = [];
  let waitingChars = 0;
  /** Chunks whose write is done, for the next lines. */
  const spare: Buffer[] = [];
  const chunkBytes = Math.min(CHUNK_BYTES, maxWrite * MAX_UTF8_PER_CHAR);
  /** The write in progress: its chunk (whose lines it counts) and what is left of its bytes. */
  let inFlight: { chunk: Chunk; bytes: Buffer } | undefined;
  let drainedCallbacks: Array<(error?: Error) => void> = [];
  /** The write waiting for more lines (lingerMs). */
  let lingering: NodeJS.Timeout | undefined;

  /** A chunk with room for `bytes` at least. */
  const newChunk = (bytes: number): Chunk => ({
    buffer: bytes <= chunkBytes ? (spare.pop() ?? Buffer.allocUnsafeSlow(chunkBytes)) : Buffer.allocUnsafeSlow(bytes),
    used: 0,
    chars: 0,
    lines: 0,
  });

  const take = (): { chunk: Chunk; bytes: Buffer } => {
    const chunk = waiting.shift()!;
    waitingChars -= chunk.chars;
    return { chunk, bytes: chunk.buffer.subarray(0, chunk.used) };
  };

  /** The chunk's write is over: its memory serves the next lines. */
  const release = (chunk: Chunk): void => {
    if (chunk.buffer.length === chunkBytes && spare.length < SPARE_CHUNKS) spare.push(chunk.buffer);
  };

  const failed = (error: NodeJS.ErrnoException, lines: number): void => {
    stats.writeErrors++;
    stats.droppedLines += lines;
    stats.lastError = error.code ?? error.message;
  };

  /** Starts the next write: at once when asked to flush or when a write's worth waits, else after lingerMs. */
  function schedule(): void {
    if (inFlight) return;
    if (lingerMs === 0 || waiting.length > 1 || waitingChars >= maxWrite || drainedCallbacks.length > 0 || waiting.length === 0) next();
    else lingering ??= setTimeout(next, lingerMs).unref();
  }

  function next(): void {
    if (lingering) {
      clearTimeout(lingering);
      lingering = undefined;
    }
    if (inFlight) return;
    if (waiting.length === 0) {
      const callbacks = drainedCallbacks;
      drainedCallbacks = [];
      for (const done of callbacks) done();
      return;
    }
    inFlight = take();
    send();
  }

  function send(): void {
    const current = inFlight!;
    fsWrite(fd, current.bytes, 0, current.bytes.length, null, (error, written) => {
      if (error) {
        if (error.code === 'EAGAIN') {
          setTimeout(send, EAGAIN_RETRY_MS).unref();
          return;
        }
        failed(error, current.chunk.lines);
        release(current.chunk);
        inFlight = undefined;
        schedule();
        return;
      }
      if (written < current.bytes.length) {
        current.bytes = current.bytes.subarray(written);
        send();
        return;
      }
      release(current.chunk);
      inFlight = undefined;
      schedule();
    });
  }

  return {
    write(line) {
      const chars = line.length;
      if (waitingChars + chars > maxBuffer) {
        stats.droppedLines++;
        return;
      }
      // A UTF-16 code unit takes 3 bytes of UTF-8 at most: a line that may not fit starts a chunk.
      let last = waiting.at(-1);
      if (!last || last.chars + chars > maxWrite || last.buffer.length - last.used < chars * MAX_UTF8_PER_CHAR) {
        last = newChunk(chars * MAX_UTF8_PER_CHAR);
        waiting.push(last);
      }
      last.used += last.buffer.write(line, last.used);
      last.chars += chars;
      last.lines += 1;
      waitingChars += chars;
      schedule();
    },
    flush(done) {
      if (!done) return;
      if (!inFlight && waiting.length === 0) done();
      else {
        drainedCallbacks.push(done);
        schedule();
      }
    },
    flushSync() {
      // A write still in flight finishes on its own; what waits is written here, in order after it
      // only as far as the operating system orders two writes on one descriptor.
      while (waiting.length > 0) {
        const part = take();
        let bytes = part.bytes;
        let eagain = 0;
        while (bytes.length > 0) {
          try {
            bytes = bytes.subarray(writeSync(fd, bytes));
          } catch (error) {
            const e = error as NodeJS.ErrnoException;
            if (e.code === 'EAGAIN' && ++eagain < SYNC_EAGAIN_TRIES) {
              Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, EAGAIN_RETRY_MS);
              continue;
            }
            failed(e, part.chunk.lines);
            break;
          }
        }
      }
    },
    stats: () => ({ ...stats }),
  };
}
