/** The distributed analytics store (DESIGN §2): a ClickHouse server through @clickhouse/client. */
import { Readable } from 'node:stream';
import { type ClickHouseClient, ClickHouseLogLevel, type ClickHouseSettings, type Logger as ClientLogger, createClient, drainStream } from '@clickhouse/client';
import type { Logger } from '../../logger.js';
import type { AnalyticsStore, InsertOptions, QueryParams } from './analytics.port.js';
import { FLOAT64_ROWS_FORMAT, float64Rows, toNdjson, validTableName } from './rows.js';

export interface ClickHouseStoreConfig {
  url: string;
  username?: string;
  password?: string;
  database: string;
}

// The port promises 64-bit integers as strings; a server's default may be changed by its profile.
const SETTINGS: ClickHouseSettings = { output_format_json_quote_64bit_integers: 1 };

export async function createClickHouseStore(config: ClickHouseStoreConfig, deps: { logger: Logger }): Promise<AnalyticsStore> {
  const logger = deps.logger.child({ component: 'analytics', kind: 'clickhouse' });
  const where = { url: withoutCredentials(config.url), database: config.database };
  const open = (database: string): ClickHouseClient =>
    createClient({
      url: config.url,
      username: config.username ?? 'default',
      password: config.password ?? '',
      database,
      clickhouse_settings: SETTINGS,
      log: { LoggerClass: bridgeTo(logger), level: ClickHouseLogLevel.WARN },
    });

  // The target database may not exist yet, and a client bound to it would fail every request.
  const bootstrap = open('default');
  try {
    await bootstrap.command({ query: 'CREATE DATABASE IF NOT EXISTS {db:Identifier}', query_params: { db: config.database } });
  } finally {
    await bootstrap.close();
  }
  const client = open(config.database);
  logger.info(where, 'ClickHouse analytics store open');
  let closed = false;

  return {
    kind: 'clickhouse',
    async command(sql, params) {
      await client.command({ query: sql, ...(params ? { query_params: { ...params } } : {}) });
    },
    async query<T = Record<string, unknown>>(sql: string, params?: QueryParams): Promise<T[]> {
      const result = await client.query({ query: sql, format: 'JSONEachRow', ...(params ? { query_params: { ...params } } : {}) });
      return result.json<T>();
    },
    async queryFloat64(sql, params) {
      // exec: the client's query() parses only text formats; this takes the bytes as they come.
      const { stream } = await client.exec({ query: `${sql}\nFORMAT ${FLOAT64_ROWS_FORMAT}`, ...(params ? { query_params: { ...params } } : {}) });
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return float64Rows(Buffer.concat(chunks));
    },
    async insert(table: string, rows: readonly object[] | Buffer, options?: InsertOptions) {
      const values = Buffer.isBuffer(rows) ? rows : toNdjson(rows);
      if (values.length === 0) return;
      const token = options?.deduplicationToken;
      const settings = { ...options?.settings, ...(token === undefined ? {} : { insert_deduplication_token: token }) };
      // exec, not insert: the client accepts a byte stream only for CSV/TSV-like formats, and an
      // NDJSON buffer should reach the server as it is rather than be parsed and re-encoded here.
      const { stream } = await client.exec({
        query: `INSERT INTO ${validTableName(table)} FORMAT JSONEachRow`,
        values: Readable.from([values], { objectMode: false }),
        ...(Object.keys(settings).length === 0 ? {} : { clickhouse_settings: settings }),
      });
      await drainStream(stream);
    },
    async ping() {
      const result = await client.ping();
      if (!result.success) throw new Error(`ClickHouse at ${where.url} does not answer: ${result.error.message}`);
    },
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
      logger.info(where, 'ClickHouse analytics store closed');
    },
  };
}

function withoutCredentials(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//');
}

/** The client's own log lines go to the one pino logger (DESIGN §10), not to the console. */
function bridgeTo(logger: Logger): new () => ClientLogger {
  return class implements ClientLogger {
    trace({ message, args }: Parameters<ClientLogger['trace']>[0]): void {
      logger.trace({ ...args }, message);
    }
    debug({ message, args }: Parameters<ClientLogger['debug']>[0]): void {
      logger.debug({ ...args }, message);
    }
    info({ message, args }: Parameters<ClientLogger['info']>[0]): void {
      logger.info({ ...args }, message);
    }
    warn({ message, args, err }: Parameters<ClientLogger['warn']>[0]): void {
      logger.warn({ ...args, err }, message);
    }
    error({ message, args, err }: Parameters<ClientLogger['error']>[0]): void {
      logger.error({ ...args, err }, message);
    }
  };
}
