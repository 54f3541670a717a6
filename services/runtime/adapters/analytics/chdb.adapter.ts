/**
 * The embedded analytics store (DESIGN §2): the ClickHouse engine in-process through chDB, its data
 * on disk under `dataDir` so it survives restarts.
 */
import { mkdirSync } from 'node:fs';
import { type ChdbResult, Session } from 'chdb';
import type { Logger } from '../../logger.js';
import type { AnalyticsStore, InsertOptions, QueryParams } from './analytics.port.js';
import { FLOAT64_ROWS_FORMAT, float64Rows, parseJsonEachRow, toNdjson, validTableName } from './rows.js';

export interface ChdbStoreConfig {
  dataDir: string;
  /** Default `ops`. */
  database?: string;
}

const DATABASE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export async function createChdbStore(config: ChdbStoreConfig, deps: { logger: Logger }): Promise<AnalyticsStore> {
  const database = config.database ?? 'ops';
  if (!DATABASE_NAME.test(database)) throw new Error(`invalid ClickHouse database name "${database}"`);
  mkdirSync(config.dataDir, { recursive: true });
  const logger = deps.logger.child({ component: 'analytics', kind: 'chdb' });

  // chDB leaves 64-bit integers unquoted in JSON while a ClickHouse server quotes them; the port
  // promises strings, so both engines must agree.
  const connect = (): Session => new Session(config.dataDir, { connectionArgs: ['--output_format_json_quote_64bit_integers=1'] });
  // Two connections to the one engine: they run statements in parallel (chDB serialises only
  // bound-parameter queries, process-wide), so two event-worker batches can be inserted at once;
  // statements and queries use the first.
  const lanes = [new Lane(connect()), new Lane(connect())] as const;
  const [main] = lanes;

  const result = (sql: string, params: QueryParams | undefined, format: string): Promise<ChdbResult> =>
    main.run((session) => (params && Object.keys(params).length > 0 ? session.queryBindAsync(sql, toChdbParams(params), { format }) : session.queryAsync(sql, { format })));
  const run = async (sql: string, params: QueryParams | undefined, format: string): Promise<string> => (await result(sql, params, format)).text();

  try {
    await run('CREATE DATABASE IF NOT EXISTS {db:Identifier}', { db: database }, 'TabSeparated');
    // USE holds for the rest of the session (statements, bound queries and raw inserts alike), so the
    // port's unqualified table names resolve in `database`.
    for (const lane of lanes) await lane.run((session) => session.queryBindAsync('USE {db:Identifier}', { db: database }, { format: 'TabSeparated' }));
  } catch (error) {
    for (const lane of lanes) lane.session.close();
    throw error;
  }
  logger.info({ dataDir: config.dataDir, database }, 'chDB analytics store open');

  let closed = false;
  return {
    kind: 'chdb',
    async command(sql, params) {
      await run(sql, params, 'TabSeparated');
    },
    async query<T = Record<string, unknown>>(sql: string, params?: QueryParams): Promise<T[]> {
      return parseJsonEachRow<T>(await run(sql, params, 'JSONEachRow'));
    },
    async queryFloat64(sql, params) {
      return float64Rows((await result(sql, params, FLOAT64_ROWS_FORMAT)).bytes());
    },
    async insert(table: string, rows: readonly object[] | Buffer, options?: InsertOptions) {
      const values = Buffer.isBuffer(rows) ? rows : toNdjson(rows);
      if (values.length === 0) return;
      const token = options?.deduplicationToken;
      // Parallel parsing starts threads per insert that compete with the event loop on a small
      // machine; measured on 2 cores, inserts of 300–5 000 rows took 25–30% less without it.
      // chDB turns async_insert on by default: off, an insert is a part on disk when it returns
      // and its deduplication token is honoured (0001_events.sql). The process's stdin must be
      // empty for that (services/runtime/stdin.ts).
      const settings: Record<string, string | number> = { input_format_parallel_parsing: 0, async_insert: 0, ...options?.settings };
      if (token !== undefined) settings['insert_deduplication_token'] = token;
      const lane = lanes[1].waiting <= lanes[0].waiting ? lanes[1] : lanes[0];
      await lane.run((session) => session.insert({ table: validTableName(table), values, format: 'JSONEachRow', settings }));
    },
    async ping() {
      await run('SELECT 1', undefined, 'TabSeparated');
    },
    async close() {
      if (closed) return;
      closed = true;
      // Closing under a running statement would abort the engine for the whole process.
      for (const lane of lanes) await lane.run(async () => undefined);
      for (const lane of lanes) lane.session.close();
      logger.info('chDB analytics store closed');
    },
  };
}

/**
 * chDB renders a Date parameter without its milliseconds; seconds since the epoch with a fraction
 * (what @clickhouse/client sends) bind exactly to DateTime and DateTime64 in any time zone.
 */
function toChdbParams(params: QueryParams): Record<string, unknown> {
  const convert = (value: unknown): unknown => {
    if (value instanceof Date) return value.getTime() / 1000;
    if (Array.isArray(value)) return value.map(convert);
    if (value instanceof Map) return new Map([...value].map(([k, v]) => [convert(k), convert(v)]));
    if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v)]));
    }
    return value;
  };
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, convert(v)]));
}

/**
 * One connection and its queue. A connection runs one statement at a time anyway (the native side
 * queues them), but each queued call holds one of libuv's few worker threads (four by default)
 * while it waits; queueing here keeps it to one, so file system, DNS and zlib work elsewhere in
 * the process are not starved.
 */
class Lane {
  /** Statements queued or running. */
  waiting = 0;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(readonly session: Session) {}

  run<T>(work: (session: Session) => Promise<T>): Promise<T> {
    this.waiting += 1;
    const go = (): Promise<T> => work(this.session);
    const result = this.tail.then(go, go).finally(() => (this.waiting -= 1));
    this.tail = result.catch(() => undefined);
    return result;
  }
}
