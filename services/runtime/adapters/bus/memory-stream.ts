/**
 * One stream of the in-process bus: the stored messages, the message ids seen within the
 * duplicate window, and its durables. Each stored message carries the outcome its publishers
 * wait for: the first ack or term of any consumer settles it, a drop after maxDeliver fails it.
 * A `logged` stream also writes each message to the bus's log until it is gone, and starts with
 * what the log still holds; its publishers wait for that write instead.
 */
import { BusUnavailableError, type ConsumerSpec, type StreamSpec } from './bus.port.js';
import { type DurableHost, MemoryDurable, type StoredMessage } from './memory-durable.js';
import type { MemoryBusLog } from './memory-log.js';

export interface StreamEntry extends StoredMessage {
  readonly storedAt: number;
  /** Resolves on the first ack/term, rejects when dropped or when the bus closes. */
  readonly outcome: Promise<void>;
  done: boolean;
  settle(error?: Error): void;
}

export interface StreamEvents {
  redelivered(): void;
  dropped(stream: string, durable: string, entry: StreamEntry): void;
}

export class MemoryStream implements DurableHost {
  lastSeq = 0;
  /** The bytes of the messages stored, against spec.maxBytes. */
  private bytes = 0;
  private readonly messages = new Map<number, StreamEntry>();
  /** Insertion order is store order, so the expired ids are always at the front. */
  private readonly ids = new Map<string, StreamEntry>();
  readonly durables = new Map<string, MemoryDurable>();

  /** Publishers waiting for the backlog to fall under spec.paceBytes. */
  private roomWaiters: Array<() => void> = [];

  /** Set when the stream's messages go to the log: decided once, when the stream is created. */
  private readonly log: MemoryBusLog | undefined;

  constructor(
    public spec: StreamSpec,
    private readonly events: StreamEvents,
    log?: MemoryBusLog,
  ) {
    this.log = spec.inProcess === 'logged' ? log : undefined;
    if (this.log) this.restore(this.log);
  }

  /** Its messages are written to the bus log: publishers need not wait for a consumer. */
  get logged(): boolean {
    return this.log !== undefined;
  }

  get name(): string {
    return this.spec.name;
  }

  get size(): number {
    return this.messages.size;
  }

  message(seq: number): StoredMessage | undefined {
    return this.messages.get(seq);
  }

  durable(spec: ConsumerSpec): MemoryDurable {
    let d = this.durables.get(spec.durable);
    if (d) d.configure(spec);
    else {
      d = new MemoryDurable(spec.durable, spec, this);
      this.durables.set(spec.durable, d);
    }
    return d;
  }

  /** The entry already stored under this message id within the window, if any. */
  duplicateOf(msgId: string, now: number): StreamEntry | undefined {
    for (const [id, entry] of this.ids) {
      if (now - entry.storedAt < this.spec.duplicateWindowMs) break;
      this.ids.delete(id);
    }
    return this.ids.get(msgId);
  }

  /**
   * Resolves once the stream's messages hold no more than spec.paceBytes (at once when they do);
   * rejects when they still do after `timeoutMs` (waits as long as it takes without one).
   */
  async room(timeoutMs: number | undefined): Promise<void> {
    const pace = this.spec.paceBytes;
    if (pace === undefined || this.bytes <= pace) return;
    let timer: NodeJS.Timeout | undefined;
    let waiter: (() => void) | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        waiter = resolve;
        this.roomWaiters.push(resolve);
        if (timeoutMs !== undefined)
          timer = setTimeout(
            () => reject(new BusUnavailableError(`stream ${this.name} holds ${this.bytes} bytes of messages, over its pace of ${pace}, for ${timeoutMs} ms`)),
            timeoutMs,
          );
      });
    } finally {
      clearTimeout(timer);
      this.roomWaiters = this.roomWaiters.filter((w) => w !== waiter);
    }
  }

  private wakeRoomWaiters(): void {
    if (this.roomWaiters.length === 0 || this.bytes > (this.spec.paceBytes ?? Number.POSITIVE_INFINITY)) return;
    const waiters = this.roomWaiters;
    this.roomWaiters = [];
    for (const wake of waiters) wake();
  }

  store(subject: string, data: Uint8Array, msgId: string | undefined, now: number): StreamEntry {
    return this.storeMany([{ subject, data, msgId }], now)[0]!;
  }

  /** Stores the messages in order, written to the log (a logged stream) in one transaction: all or none. */
  storeMany(items: ReadonlyArray<{ subject: string; data: Uint8Array; msgId: string | undefined }>, now: number): StreamEntry[] {
    const max = this.spec.maxMessages;
    if (max !== undefined && max >= 0 && this.messages.size + items.length > max) {
      throw new BusUnavailableError(`stream ${this.name} holds ${this.messages.size} messages, its bound`);
    }
    const maxBytes = this.spec.maxBytes;
    const bytes = items.reduce((sum, item) => sum + item.data.byteLength, 0);
    if (maxBytes !== undefined && this.messages.size > 0 && this.bytes + bytes > maxBytes) {
      throw new BusUnavailableError(`stream ${this.name} holds ${this.bytes} bytes of messages, near its bound of ${maxBytes}`);
    }
    const messages = items.map((item, i) => ({ seq: this.lastSeq + 1 + i, subject: item.subject, data: item.data, msgId: item.msgId, storedAt: now }));
    if (this.log) {
      try {
        if (messages.length === 1) this.log.append(this.name, messages[0]!);
        else this.log.appendMany(this.name, messages);
      } catch (error) {
        throw new BusUnavailableError(`a message of ${this.name} could not be written to the bus log: ${(error as Error).message}`, 1, { cause: error });
      }
    }
    this.lastSeq += messages.length;
    // All are stored before any durable looks: one that looked between would pass over the rest.
    const entries = messages.map((m) => this.add({ ...m, deliveredBefore: false }, false));
    for (const d of this.durables.values()) d.dispatch();
    return entries;
  }

  private add(m: StoredMessage & { storedAt: number }, dispatch = true): StreamEntry {
    let settle!: (error?: Error) => void;
    const outcome = new Promise<void>((resolve, reject) => {
      settle = (error) => (error ? reject(error) : resolve());
    });
    // A publisher may have given up (timeout) before the outcome: that is not an unhandled error.
    outcome.catch(() => undefined);
    const entry: StreamEntry = {
      ...m,
      outcome,
      done: false,
      settle(error) {
        if (entry.done) return;
        entry.done = true;
        settle(error);
      },
    };
    this.messages.set(entry.seq, entry);
    this.bytes += entry.data.byteLength;
    if (entry.msgId !== undefined) this.ids.set(entry.msgId, entry);
    if (dispatch) for (const d of this.durables.values()) d.dispatch();
    return entry;
  }

  /**
   * The messages a previous run logged and nobody acked. They may have been delivered then, so
   * their first delivery now counts as a redelivery. Their ids stay known for the rest of the
   * duplicate window.
   */
  private restore(log: MemoryBusLog): void {
    for (const m of log.restore(this.name)) {
      this.lastSeq = Math.max(this.lastSeq, m.seq);
      this.add({ ...m, deliveredBefore: true });
    }
  }

  settled(seq: number): void {
    const entry = this.messages.get(seq);
    if (!entry) return;
    entry.settle();
    this.collect(entry);
  }

  dropped(seq: number, durable: string): void {
    const entry = this.messages.get(seq);
    if (!entry) return;
    if (!entry.done) {
      entry.settle(new BusUnavailableError(`message ${entry.msgId ?? seq} of ${this.name} dropped after maxDeliver`));
      // Nobody processed it: a retry of the same id must be stored again, not swallowed.
      if (entry.msgId !== undefined && this.ids.get(entry.msgId) === entry) this.ids.delete(entry.msgId);
      this.events.dropped(this.name, durable, entry);
    }
    this.collect(entry);
  }

  redelivered(): void {
    this.events.redelivered();
  }

  /** Stops delivering and fails every publish still waiting. */
  close(): void {
    for (const d of this.durables.values()) d.close();
    for (const entry of this.messages.values()) entry.settle(new BusUnavailableError('bus closed'));
    const waiters = this.roomWaiters;
    this.roomWaiters = [];
    for (const wake of waiters) wake();
  }

  private collect(entry: StreamEntry): void {
    const gone = this.spec.retention === 'workqueue' || (this.durables.size > 0 && [...this.durables.values()].every((d) => d.passed(entry.seq, entry.subject)));
    if (!gone) return;
    this.messages.delete(entry.seq);
    this.bytes -= entry.data.byteLength;
    this.log?.remove(this.name, entry.seq);
    this.wakeRoomWaiters();
  }
}
