/**
 * What the live tail of a stream (issue #30) has already looked at, and how many records it may
 * still send this second. Pure: the tail (event-tail.ts) asks these before each poll of the
 * `events` table and tells them what it found.
 *
 * Records are polled by receipt date (`received_at`, then id). A record is stored a moment after
 * it is received, and not always in that order (micro-batches, several event workers), so a
 * poll that only asked for what is newer than the newest record seen would miss a record stored
 * late. Each poll therefore looks back `lateMs` behind the newest record seen and leaves out the
 * ids it has already considered, which it remembers for that long. When more arrive than may be
 * sent, the tail samples, and then stops looking back behind the last record of that poll (the
 * ids it would have to remember are too many): the window's floor moves up to it.
 */

export interface TailKey {
  /** Receipt date, milliseconds since the epoch. */
  ms: number;
  /** The record's id, lower-case. */
  id: string;
}

export interface TailBounds {
  /** Records must sort after this key, by (received_at, id as text). */
  floor: TailKey;
  /** ...and be received at or after this date. */
  lowerMs: number;
  /** ...and not be one of these, already considered. */
  seenIds: string[];
}

/** Ids remembered at most; past it the window's floor moves up as when sampling. */
export const MAX_REMEMBERED = 5000;

export class TailWindow {
  private floor: TailKey;
  private newest: number;
  private readonly seen = new Map<string, number>();

  /** `openMs`: the tail shows records received from then on. */
  constructor(
    openMs: number,
    private readonly lateMs: number,
  ) {
    // The empty id sorts before every id: the floor lets through all that is received at openMs.
    this.floor = { ms: openMs, id: '' };
    this.newest = openMs;
  }

  bounds(): TailBounds {
    return { floor: this.floor, lowerMs: Math.max(this.floor.ms, this.newest - this.lateMs), seenIds: [...this.seen.keys()] };
  }

  /** Every new record of the poll was taken; `last` is the greatest key among them. */
  took(records: readonly TailKey[], last: TailKey): void {
    this.newest = Math.max(this.newest, last.ms);
    for (const record of records) this.seen.set(record.id, record.ms);
    const oldest = this.newest - this.lateMs;
    for (const [id, ms] of this.seen) if (ms < oldest) this.seen.delete(id);
    if (this.seen.size > MAX_REMEMBERED) this.passed(last);
  }

  /** The poll's records up to `last` were sampled: nothing at or behind `last` is looked at again. */
  passed(last: TailKey): void {
    this.newest = Math.max(this.newest, last.ms);
    if (last.ms > this.floor.ms || (last.ms === this.floor.ms && last.id > this.floor.id)) this.floor = last;
    this.seen.clear();
  }
}

/** Records sent over the last second, against a limit per second (a sliding window). */
export class SendBudget {
  private readonly sent: Array<{ at: number; n: number }> = [];

  constructor(private readonly perSecond: number) {}

  /** How many may be sent at `now`. */
  available(now: number): number {
    while (this.sent.length > 0 && this.sent[0]!.at <= now - 1000) this.sent.shift();
    return Math.max(0, this.perSecond - this.sent.reduce((sum, s) => sum + s.n, 0));
  }

  spend(now: number, n: number): void {
    if (n > 0) this.sent.push({ at: now, n });
  }
}
