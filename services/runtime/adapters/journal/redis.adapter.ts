/**
 * The distributed journal (DESIGN §2, §3) on Redis. Keys, all under one prefix:
 *   <prefix>rev      the current revision (absent = 0)
 *   <prefix>records  a hash, record key → JSON value
 *   <prefix>log      a stream, one entry per revision with the id `<revision>-0` and a field
 *                    `changes` (JSON), trimmed approximately to the last `keepEntries`
 * Using the revision as the stream id lets a reader resume from its revision alone.
 * Under Redis Cluster the three keys must share a slot: give the prefix a hash tag (`{ops}:`).
 */
import type { Redis, RedisOptions } from 'ioredis';
import type { Logger } from '../../logger.js';
import { closeRedis, connectRedis, redactRedisUrl } from '../redis-connection.js';
import type { CommitResult, Journal, JournalChange, JournalEntry, JournalSnapshot } from './journal.port.js';
import { DEFAULT_KEEP_ENTRIES, JournalTrimmedError, normaliseChanges } from './journal-common.js';

export interface RedisJournalConfig {
  url: string;
  /** Default `ops:`. */
  keyPrefix?: string;
  /** Log entries kept, approximately (default 100 000). */
  keepEntries?: number;
}

/**
 * The commit as one Lua script rather than `WATCH rev` + `MULTI`: equally atomic, but one round
 * trip instead of four, no retry loop, the conflict answer carries the current revision, and it
 * runs on the shared connection (WATCH is connection state, so concurrent commits would each need
 * a connection of their own). XADD goes first because it is the only call that can fail (an id
 * not above the stream's last one, if `rev` was tampered with), so a failure writes nothing.
 */
const COMMIT_LUA = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if ARGV[1] ~= 'any' and current ~= tonumber(ARGV[1]) then return {0, current} end
local revision = current + 1
redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[2], string.format('%d-0', revision), 'changes', ARGV[3])
for i = 4, #ARGV, 2 do
  if ARGV[i + 1] == 'null' then redis.call('HDEL', KEYS[2], ARGV[i])
  else redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
end
redis.call('SET', KEYS[1], string.format('%d', revision))
return {1, revision}
`;

interface WithCommit {
  opsJournalCommit(rev: string, records: string, log: string, ...args: (string | number)[]): Promise<[number, number]>;
}

const BLOCK_MS = 5_000;
const PAGE = 1_000;

type StreamItem = [id: string, fields: string[]];

function toEntry([id, fields]: StreamItem): JournalEntry {
  const at = fields.indexOf('changes');
  const json = at >= 0 ? fields[at + 1] : undefined;
  return { revision: Number(id.slice(0, id.indexOf('-'))), changes: json ? (JSON.parse(json) as JournalChange[]) : [] };
}

export async function openRedisJournal(config: RedisJournalConfig, deps: { logger: Logger }): Promise<Journal> {
  const prefix = config.keyPrefix ?? 'ops:';
  const keep = Math.max(1, config.keepEntries ?? DEFAULT_KEEP_ENTRIES);
  const keys = { rev: `${prefix}rev`, records: `${prefix}records`, log: `${prefix}log` };
  const logger = deps.logger.child({ journal: 'redis', redis: redactRedisUrl(config.url), keyPrefix: prefix });

  const connect = (options: RedisOptions): Promise<Redis> => connectRedis(config.url, options, logger, 'redis journal');

  // A commit in flight when the connection drops must not be resent: the server may have run it,
  // and a rerun would answer "conflict" for a change that is in fact stored. The caller gets an
  // error (outcome unknown) instead and catches up before anything else.
  const client = await connect({ connectionName: 'ops-journal', autoResendUnfulfilledCommands: false });
  client.defineCommand('opsJournalCommit', { numberOfKeys: 3, lua: COMMIT_LUA });
  const commitScript = client as unknown as WithCommit;
  logger.info('redis journal connected');

  let closed = false;
  const tails = new Set<() => void>();
  const ensureOpen = (): void => {
    if (closed) throw new Error('the Redis journal is closed');
  };

  async function readSince(from: number): Promise<JournalEntry[]> {
    // Revision and first page from one point in time, so "nothing after `from`" is not mistaken
    // for a trimmed log when a commit lands in between.
    const first = await client
      .multi()
      .get(keys.rev)
      .xrange(keys.log, `${from + 1}-0`, '+', 'COUNT', PAGE)
      .exec();
    const [revReply, pageReply] = first ?? [];
    if (!revReply || !pageReply || revReply[0] || pageReply[0]) throw revReply?.[0] ?? pageReply?.[0] ?? new Error('readSince: transaction aborted');
    const current = Number(revReply[1] ?? 0);
    let page = pageReply[1] as StreamItem[];
    const entries: JournalEntry[] = [];
    let expected = from + 1;
    while (expected <= current) {
      if (page.length === 0) throw new JournalTrimmedError(from, undefined);
      for (const item of page) {
        const entry = toEntry(item);
        if (entry.revision > current) return entries;
        if (entry.revision !== expected) throw new JournalTrimmedError(from, entry.revision);
        entries.push(entry);
        expected++;
      }
      if (expected > current) break;
      page = (await client.xrange(keys.log, `${expected}-0`, `${current}-0`, 'COUNT', PAGE)) as StreamItem[];
    }
    return entries;
  }

  function tail(revision: number, onEntry: (entry: JournalEntry) => void): () => void {
    ensureOpen();
    let cursor = revision;
    let stopped = false;
    let conn: Redis | undefined;

    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      tails.delete(stop);
      conn?.disconnect();
    };
    tails.add(stop);

    // A store behind this reader has lost data (e.g. a restart without persistence); entries it
    // numbers again would look like new ones, so say so loudly.
    const checkStore = async (): Promise<void> => {
      const rev = Number((await client.get(keys.rev)) ?? 0);
      if (rev < cursor) logger.error({ storeRevision: rev, readerRevision: cursor }, 'journal store is behind this reader: it lost data; reload the processes');
    };

    const deliver = (items: StreamItem[]): boolean => {
      for (const item of items) {
        const entry = toEntry(item);
        if (entry.revision <= cursor) continue;
        if (entry.revision !== cursor + 1) {
          logger.error({ err: new JournalTrimmedError(cursor, entry.revision) }, 'journal tail cannot continue without skipping entries; stopped');
          return false;
        }
        cursor = entry.revision;
        try {
          onEntry(entry);
        } catch (err) {
          logger.error({ err, revision: entry.revision }, 'journal listener failed');
        }
        if (stopped) return false;
      }
      return true;
    };

    const run = async (): Promise<void> => {
      // Its own connection because XREAD BLOCK holds it; no retry limit, and a command lost with
      // the connection is resent, which is safe since XREAD names the cursor. The socket timeout
      // notices a dead peer that a blocked read would otherwise wait on forever.
      const own = (conn = await connect({ connectionName: 'ops-journal-tail', maxRetriesPerRequest: null, socketTimeout: BLOCK_MS + 10_000 }));
      try {
        if (stopped) return;
        own.on('ready', () => void checkStore().catch(() => undefined));
        await checkStore();
        while (!stopped) {
          try {
            const reply = await own.xread('COUNT', PAGE, 'BLOCK', BLOCK_MS, 'STREAMS', keys.log, `${cursor}-0`);
            if (stopped) return;
            if (reply?.[0] && !deliver(reply[0][1])) return stop();
          } catch (err) {
            if (stopped) return;
            logger.warn({ err: { message: (err as Error).message } }, 'journal tail read failed; retrying');
            await new Promise((resolve) => setTimeout(resolve, 200).unref());
          }
        }
      } finally {
        own.disconnect();
      }
    };
    const start = async (): Promise<void> => {
      for (let attempt = 0; !stopped; attempt++) {
        try {
          return await run();
        } catch (err) {
          if (stopped) return;
          logger.warn({ err: { message: (err as Error).message }, attempt }, 'journal tail cannot connect; retrying');
          await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 100 * 2 ** attempt)).unref());
        }
      }
    };
    void start();
    return stop;
  }

  /** One script run; `expectedRevision` 'any' appends at whatever revision is next. */
  async function commitAt(expectedRevision: number | 'any', changes: JournalChange[]): Promise<CommitResult> {
    ensureOpen();
    const stored = normaliseChanges(changes);
    const args: (string | number)[] = [expectedRevision, keep, JSON.stringify(stored)];
    for (const { key, value } of stored) args.push(key, JSON.stringify(value));
    const [ok, revision] = await commitScript.opsJournalCommit(keys.rev, keys.records, keys.log, ...args);
    return ok === 1 ? { ok: true, revision } : { ok: false, conflict: true, currentRevision: revision };
  }

  return {
    kind: 'redis',

    async load(): Promise<JournalSnapshot> {
      ensureOpen();
      const replies = await client.multi().get(keys.rev).hgetall(keys.records).exec();
      const [revReply, recordsReply] = replies ?? [];
      if (!revReply || !recordsReply || revReply[0] || recordsReply[0]) throw revReply?.[0] ?? recordsReply?.[0] ?? new Error('load: transaction aborted');
      const records = new Map<string, unknown>();
      for (const [key, json] of Object.entries(recordsReply[1] as Record<string, string>)) records.set(key, JSON.parse(json));
      return { revision: Number(revReply[1] ?? 0), records };
    },

    commit: (expectedRevision: number, changes: JournalChange[]) => commitAt(expectedRevision, changes),

    async append(changes: JournalChange[]): Promise<{ revision: number }> {
      const result = await commitAt('any', changes);
      if (!result.ok) throw new Error('an unchecked append cannot conflict');
      return result;
    },

    async readSince(revision: number): Promise<JournalEntry[]> {
      ensureOpen();
      return readSince(revision);
    },

    tail,

    async ping(): Promise<void> {
      ensureOpen();
      await client.ping();
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      for (const stop of [...tails]) stop();
      await closeRedis(client);
    },
  };
}
