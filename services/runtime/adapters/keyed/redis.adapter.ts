/**
 * The distributed keyed store (DESIGN §7a) on Redis. One hash per record, `<prefix>pk:<key>`,
 * with the fields `v` (the version, a decimal integer) and `d` (the value as JSON), so the
 * compare-and-set compares versions in Lua without decoding any value.
 *
 * A put is one Lua script: it reads every key's `v` (missing = 0), and only when all match the
 * expected versions writes every record with `v = expected + 1`; otherwise it writes nothing and
 * names the conflicting keys. A get is one read-only script too, so the records it returns come
 * from one point in time.
 *
 * Under Redis Cluster every key of one script must share a slot: give the prefix a hash tag, as
 * for the journal (`{ops}:`), which puts all records of one store on one node.
 */
import type { Logger } from '../../logger.js';
import { closeRedis, connectRedis, redactRedisUrl } from '../redis-connection.js';
import { checkKeyedWrites, type KeyedPutResult, type KeyedRecord, type KeyedStore, type KeyedWrite } from './keyed-store.port.js';

export interface RedisKeyedStoreConfig {
  url: string;
  /** Default `ops:`; records live under `<prefix>pk:`. */
  keyPrefix?: string;
}

/**
 * KEYS: the records; ARGV: the version the caller knows of each (0: none). Returns `{v, d}` per
 * key: nil fields for an absent record, `d` left out where `v` is the known version.
 */
const GET_LUA = `
local out = {}
for i = 1, #KEYS do
  local v = redis.call('HGET', KEYS[i], 'v')
  if v and v ~= ARGV[i] then out[i] = { v, redis.call('HGET', KEYS[i], 'd') } else out[i] = { v } end
end
return out
`;

/**
 * KEYS: the n records; ARGV: their n expected versions, then their n values (JSON). Returns the
 * 1-based positions of the keys whose stored version differs (empty: everything was written).
 */
const PUT_LUA = `
local n = #KEYS
local conflicts = {}
for i = 1, n do
  local stored = tonumber(redis.call('HGET', KEYS[i], 'v') or '0')
  if stored ~= tonumber(ARGV[i]) then conflicts[#conflicts + 1] = i end
end
if #conflicts > 0 then return conflicts end
for i = 1, n do
  redis.call('HSET', KEYS[i], 'v', string.format('%d', tonumber(ARGV[i]) + 1), 'd', ARGV[n + i])
end
return conflicts
`;

interface WithScripts {
  opsKeyedGet(numKeys: number, ...args: string[]): Promise<[string | null, (string | null)?][]>;
  opsKeyedPut(numKeys: number, ...args: string[]): Promise<number[]>;
}

export async function openRedisKeyedStore(config: RedisKeyedStoreConfig, deps: { logger: Logger }): Promise<KeyedStore> {
  const prefix = `${config.keyPrefix ?? 'ops:'}pk:`;
  const logger = deps.logger.child({ keyedStore: 'redis', redis: redactRedisUrl(config.url), keyPrefix: config.keyPrefix ?? 'ops:' });

  // A put in flight when the connection drops must not be resent: the server may have run it,
  // and a rerun would answer "conflict" for writes that are in fact stored. The caller gets an
  // error (outcome unknown) instead and reads the keys again.
  const client = await connectRedis(config.url, { connectionName: 'ops-keyed', autoResendUnfulfilledCommands: false }, logger, 'redis keyed store');
  client.defineCommand('opsKeyedGet', { lua: GET_LUA, readOnly: true });
  client.defineCommand('opsKeyedPut', { lua: PUT_LUA });
  const scripts = client as unknown as WithScripts;
  logger.info('redis keyed store connected');

  let closed = false;
  const ensureOpen = (): void => {
    if (closed) throw new Error('the Redis keyed store is closed');
  };

  return {
    kind: 'redis',

    async get<V = unknown>(keys: readonly string[], known?: ReadonlyMap<string, KeyedRecord<V>>): Promise<Map<string, KeyedRecord<V>>> {
      ensureOpen();
      const found = new Map<string, KeyedRecord<V>>();
      if (keys.length === 0) return found;
      const knownVersions = keys.map((key) => String(known?.get(key)?.version ?? 0));
      const replies = await scripts.opsKeyedGet(keys.length, ...keys.map((key) => prefix + key), ...knownVersions);
      keys.forEach((key, i) => {
        const [version, json] = replies[i] ?? [];
        if (version == null) return;
        if (json != null) found.set(key, { version: Number(version), value: JSON.parse(json) as V });
        else found.set(key, known!.get(key)!);
      });
      return found;
    },

    async put<V = unknown>(writes: readonly KeyedWrite<V>[]): Promise<KeyedPutResult> {
      ensureOpen();
      checkKeyedWrites(writes);
      if (writes.length === 0) return { ok: true };
      const args = [...writes.map((w) => prefix + w.key), ...writes.map((w) => String(w.expected)), ...writes.map((w) => JSON.stringify(w.value))];
      const conflicts = await scripts.opsKeyedPut(writes.length, ...args);
      return conflicts.length === 0 ? { ok: true } : { ok: false, conflicts: conflicts.map((i) => writes[i - 1]!.key) };
    },

    async ping(): Promise<void> {
      ensureOpen();
      await client.ping();
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await closeRedis(client);
    },
  };
}
