/**
 * The keyed-state port (DESIGN §7a): telemetry-rate state keyed by a string (a problem key is
 * `<triggerId>:<ciId>`), owned by one actor at a time, so it stays out of the control-plane
 * journal. LMDB in embedded mode, Redis in distributed mode.
 *
 * Every record carries a version, 0 meaning "never written". A write names the version it was
 * computed from; a batch of writes lands whole or not at all, and not at all when any key's
 * stored version differs from the one named (per-key compare-and-set). Ownership makes a
 * conflict rare: only two owners of one partition at once (a takeover racing a slow owner) meet
 * one, and the loser recomputes on what the winner wrote.
 */
export interface KeyedRecord<V = unknown> {
  version: number;
  value: V;
}

export interface KeyedWrite<V = unknown> {
  key: string;
  /** The version the new value was computed from (0: the key had no record). */
  expected: number;
  /** Stored with version `expected + 1`. */
  value: V;
}

export type KeyedPutResult = { ok: true } | { ok: false; conflicts: string[] };

export interface KeyedStore {
  readonly kind: 'lmdb' | 'redis';
  /**
   * The records of `keys` that exist, by key. `known`: records the caller already holds (an
   * owner's cache); where the stored version is still the known one, the known record is
   * returned as it is and the stored value is neither read nor decoded.
   */
  get<V = unknown>(keys: readonly string[], known?: ReadonlyMap<string, KeyedRecord<V>>): Promise<Map<string, KeyedRecord<V>>>;
  /** All writes, atomically, when every key still has its expected version; else none. */
  put<V = unknown>(writes: readonly KeyedWrite<V>[]): Promise<KeyedPutResult>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Refuses what no store could honour the same way: a key named twice in one batch (which write
 * would win?), an expected version that is not a whole number ≥ 0, or a value JSON cannot hold.
 * Both adapters call it before writing anything.
 */
export function checkKeyedWrites(writes: readonly KeyedWrite[]): void {
  const seen = new Set<string>();
  for (const { key, expected, value } of writes) {
    if (seen.has(key)) throw new TypeError(`keyed store: the key ${JSON.stringify(key)} is written twice in one batch`);
    seen.add(key);
    if (!Number.isSafeInteger(expected) || expected < 0) throw new TypeError(`keyed store: expected version ${expected} of ${JSON.stringify(key)} is not a whole number ≥ 0`);
    if (value === undefined) throw new TypeError(`keyed store: the value of ${JSON.stringify(key)} is undefined`);
  }
}
