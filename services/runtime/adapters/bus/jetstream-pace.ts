/**
 * A stream's `paceBytes` on JetStream (issue #35): while the stream holds more bytes than that,
 * a publish waits, within its timeout, for the consumers to bring it under, then is refused with
 * BusUnavailableError (the ingress answers 503 with Retry-After). So producers go at the
 * consumers' pace, and a backlog stays near the pace, long before the stream's own limits
 * (`maxBytes`, `maxMessages`) refuse. The in-process bus paces its logged streams the same way
 * (memory-stream.ts `room`).
 *
 * The stream's size is read from the server (stream info) at most every FRESH_MS, one read at a
 * time, and grown by what this process published since, so a burst between two reads does not
 * pass far over the pace.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { BusUnavailableError, type StreamSpec } from './bus.port.js';
import { subjectMatches } from './subject-match.js';

/** How old a stream's size may be before a publish reads it again. */
const FRESH_MS = 100;
/** How often a waiting publish looks again. */
const POLL_MS = 50;

interface Paced {
  readonly name: string;
  readonly subjects: readonly string[];
  readonly limit: number;
  bytes: number;
  /** When `bytes` was read from the server (0: never). */
  readAt: number;
  reading: Promise<void> | undefined;
}

export interface StreamPace {
  /** Takes a stream's paceBytes (none: its publishes never wait). */
  configure(spec: StreamSpec): void;
  /** Resolves when a message to `subject` may be published; rejects when it still may not after `timeoutMs`. */
  room(subject: string, timeoutMs: number): Promise<void>;
  /** A message of `bytes` was stored on `stream`. */
  added(stream: string, bytes: number): void;
}

/** `bytesOf`: the bytes a stream holds now, as the server says. */
export function createStreamPace(bytesOf: (stream: string) => Promise<number>, clock: { now: () => number } = Date): StreamPace {
  const paced = new Map<string, Paced>();
  /** Subject → its paced stream (null: none), as found already. */
  const bySubject = new Map<string, Paced | null>();

  const pacedFor = (subject: string): Paced | undefined => {
    let found = bySubject.get(subject);
    if (found === undefined) {
      found = [...paced.values()].find((p) => p.subjects.some((pattern) => subjectMatches(pattern, subject))) ?? null;
      if (bySubject.size >= 4096) bySubject.clear();
      bySubject.set(subject, found);
    }
    return found ?? undefined;
  };

  const read = (p: Paced): Promise<void> =>
    (p.reading ??= bytesOf(p.name)
      .then(
        (bytes) => {
          p.bytes = bytes;
        },
        // Not known now (the server away): the publish itself will tell.
        () => undefined,
      )
      .finally(() => {
        p.readAt = clock.now();
        p.reading = undefined;
      }));

  return {
    configure(spec) {
      bySubject.clear();
      if (spec.paceBytes === undefined || spec.paceBytes < 0) paced.delete(spec.name);
      else paced.set(spec.name, { name: spec.name, subjects: spec.subjects, limit: spec.paceBytes, bytes: 0, readAt: 0, reading: undefined });
    },

    async room(subject, timeoutMs) {
      const p = pacedFor(subject);
      if (!p) return;
      const deadline = clock.now() + timeoutMs;
      for (;;) {
        if (clock.now() - p.readAt >= FRESH_MS) await read(p);
        if (p.bytes <= p.limit) return;
        if (clock.now() + POLL_MS >= deadline) {
          throw new BusUnavailableError(`stream ${p.name} holds ${p.bytes} bytes of messages, over its pace of ${p.limit}, for ${timeoutMs} ms`);
        }
        await sleep(POLL_MS);
      }
    },

    added(stream, bytes) {
      const p = paced.get(stream);
      if (p) p.bytes += bytes;
    },
  };
}
