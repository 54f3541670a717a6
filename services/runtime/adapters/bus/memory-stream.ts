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

/** Subjects whose durables a stream remembers, at most. */
const SUBJECTS_KEPT = 4096;

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
  /**
   * The seqs of each subject, ascending, from `head` on: a durable filtered on one subject reads
   * only its own. With a durable per partition (the dispatcher's 128), each walked the whole
   * stream, and each settled message asked every durable whether it was done with it.
   */
  private readonly bySubject = new Map<string, { seqs: number[]; head: number }>();
  /** The durables whose filter takes each subject, as found already (cleared when durables change). */
  private readonly durablesBySubject = new Map<string, MemoryDurable[]>();

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

  /** The subject's seqs at or after `from` (some may be gone), by binary search. */
  private seqsFrom(subject: string, from: number): { seqs: number[]; at: number } {
    const list = this.bySubject.get(subject);
    if (!list) return { seqs: [], at: 0 };
    const { seqs } = list;
    let lo = list.head;
    let hi = seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (seqs[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return { seqs, at: lo };
  }

  /** The first seq at or after `from` still stored with this subject. */
  nextOf(subject: string, from: number): number | undefined {
    const { seqs, at } = this.seqsFrom(subject, from);
    for (let i = at; i < seqs.length; i++) if (this.messages.has(seqs[i]!)) return seqs[i];
    return undefined;
  }

  /** The messages still stored with this subject at or after `from`. */
  countFrom(subject: string, from: number): number {
    const { seqs, at } = this.seqsFrom(subject, from);
    let count = 0;
    for (let i = at; i < seqs.length; i++) if (this.messages.has(seqs[i]!)) count++;
    return count;
  }

  private durablesFor(subject: string): MemoryDurable[] {
    let found = this.durablesBySubject.get(subject);
    if (!found) {
      if (this.durablesBySubject.size >= SUBJECTS_KEPT) this.durablesBySubject.clear();
      found = [...this.durables.values()].filter((d) => d.matches(subject));
      this.durablesBySubject.set(subject, found);
    }
    return found;
  }

  durable(spec: ConsumerSpec): MemoryDurable {
    this.durablesBySubject.clear();
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
    const subjects = new Set(messages.map((m) => m.subject));
    const durables = subjects.size === 1 ? this.durablesFor(messages[0]!.subject) : new Set([...subjects].flatMap((subject) => this.durablesFor(subject)));
    for (const d of durables) d.dispatch();
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
    let list = this.bySubject.get(entry.subject);
    if (!list) this.bySubject.set(entry.subject, (list = { seqs: [], head: 0 }));
    list.seqs.push(entry.seq);
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
    const gone = this.spec.retention === 'workqueue' || (this.durables.size > 0 && this.durablesFor(entry.subject).every((d) => d.passed(entry.seq, entry.subject)));
    if (!gone) return;
    this.messages.delete(entry.seq);
    this.unindex(entry.subject);
    this.bytes -= entry.data.byteLength;
    this.log?.remove(this.name, entry.seq);
    this.wakeRoomWaiters();
  }

  /** Drops the subject's seqs of messages gone from its front (a subject left with none goes). */
  private unindex(subject: string): void {
    const list = this.bySubject.get(subject);
    if (!list) return;
    while (list.head < list.seqs.length && !this.messages.has(list.seqs[list.head]!)) list.head++;
    if (list.head === list.seqs.length) this.bySubject.delete(subject);
    else if (list.head >= 1024 && list.head * 2 >= list.seqs.length) {
      list.seqs = list.seqs.slice(list.head);
      list.head = 0;
    }
  }
}
