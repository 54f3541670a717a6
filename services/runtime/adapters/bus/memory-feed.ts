/**
 * One feed of the in-process bus: a ring of the messages stored, dropped from the front past
 * maxMessages or maxAgeMs, and the tails reading it, each with its own cursor. Memory only: a
 * restart loses it, so every feed gets a new random epoch. The age limit is applied whenever the
 * feed is looked at (a publish, feedInfo, a tail's read), so no timer is needed: a message past
 * maxAge is never handed to anyone nor counted. Tails are called after publish has returned, one
 * chunk of messages per turn of the event loop, in sequence order.
 */
import { randomUUID } from 'node:crypto';
import type { FeedInfo, FeedMessage, FeedSpec, FeedTail, PublishAck } from './bus.port.js';

/** Messages handed to one tail in one turn of the event loop: a tail far behind holds nothing up. */
const CHUNK = 256;
/** The ring's dropped front is cut off once it is this long and half of the array. */
const COMPACT_AFTER = 1024;

type Handler = (message: FeedMessage) => void;

export class MemoryFeed {
  readonly epoch = randomUUID();
  lastSeq = 0;
  /** The messages held are ring[head..]; their sequences are contiguous. */
  private ring: FeedMessage[] = [];
  private head = 0;
  /** Insertion order is store order, so the expired ids are always at the front. */
  private readonly ids = new Map<string, { seq: number; storedAt: number }>();
  private readonly tails = new Set<MemoryFeedTail>();

  constructor(
    public spec: FeedSpec,
    private readonly onHandlerError: (err: unknown, feed: string, seq: number) => void,
  ) {}

  get name(): string {
    return this.spec.name;
  }

  /** Stores the message unless its id was seen within the window; the answer is final at once. */
  publish(subject: string, data: Uint8Array, msgId: string, now = Date.now()): PublishAck {
    this.prune(now);
    const window = this.spec.maxAgeMs > 0 ? Math.min(this.spec.duplicateWindowMs, this.spec.maxAgeMs) : this.spec.duplicateWindowMs;
    for (const [id, seen] of this.ids) {
      if (now - seen.storedAt < window) break;
      this.ids.delete(id);
    }
    const original = this.ids.get(msgId);
    if (original) return { stream: this.name, seq: original.seq, duplicate: true };
    const message: FeedMessage = { seq: ++this.lastSeq, subject, data, storedAt: now };
    this.ring.push(message);
    this.ids.set(msgId, { seq: message.seq, storedAt: now });
    this.prune(now);
    for (const tail of this.tails) tail.wake();
    return { stream: this.name, seq: message.seq, duplicate: false };
  }

  info(now = Date.now()): FeedInfo {
    this.prune(now);
    return { epoch: this.epoch, firstSeq: this.firstSeq, lastSeq: this.lastSeq };
  }

  tail(fromSeq: number, handler: Handler): FeedTail {
    // Past lastSeq means "only new ones": from the next sequence, not from fromSeq itself.
    const tail = new MemoryFeedTail(this, Math.min(fromSeq, this.lastSeq + 1), handler, () => this.tails.delete(tail));
    this.tails.add(tail);
    tail.wake();
    return tail;
  }

  /** Up to `max` messages held from sequence `seq` on (those dropped meanwhile are skipped). */
  read(seq: number, max: number, now = Date.now()): FeedMessage[] {
    this.prune(now);
    const from = this.head + Math.max(0, seq - this.firstSeq);
    return this.ring.slice(from, Math.min(from + max, this.ring.length));
  }

  handlerFailed(err: unknown, seq: number): void {
    this.onHandlerError(err, this.name, seq);
  }

  /** Stops every tail (the bus closes). */
  close(): void {
    for (const tail of [...this.tails]) void tail.stop();
  }

  private get firstSeq(): number {
    return this.ring[this.head]?.seq ?? this.lastSeq + 1;
  }

  private prune(now: number): void {
    const { maxMessages, maxAgeMs } = this.spec;
    let held = this.ring.length - this.head;
    if (maxMessages > 0) {
      while (held > maxMessages) {
        this.head++;
        held--;
      }
    }
    if (maxAgeMs > 0) {
      while (held > 0 && now - this.ring[this.head]!.storedAt >= maxAgeMs) {
        this.head++;
        held--;
      }
    }
    if (this.head >= COMPACT_AFTER && this.head * 2 >= this.ring.length) {
      this.ring = this.ring.slice(this.head);
      this.head = 0;
    }
  }
}

class MemoryFeedTail implements FeedTail {
  private stopped = false;
  private scheduled: NodeJS.Immediate | undefined;

  constructor(
    private readonly feed: MemoryFeed,
    /** The next sequence to hand over. */
    private next: number,
    private readonly handler: Handler,
    private readonly onStop: () => void,
  ) {}

  /** There may be something to hand over: schedule a read, never inside the caller's stack. */
  wake(): void {
    if (this.stopped || this.scheduled || this.next > this.feed.lastSeq) return;
    this.scheduled = setImmediate(() => this.drain());
  }

  stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      if (this.scheduled) clearImmediate(this.scheduled);
      this.scheduled = undefined;
      this.onStop();
    }
    return Promise.resolve();
  }

  private drain(): void {
    this.scheduled = undefined;
    for (const message of this.feed.read(this.next, CHUNK)) {
      if (this.stopped) return;
      this.next = message.seq + 1;
      try {
        this.handler(message);
      } catch (err) {
        this.feed.handlerFailed(err, message.seq);
      }
    }
    // Whatever was dropped before it was read is skipped, as JetStream skips deleted messages.
    this.next = Math.max(this.next, this.feed.info().firstSeq);
    this.wake();
  }
}
