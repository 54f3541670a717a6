/**
 * The analytics store port (DESIGN §2): ClickHouse SQL, run either in-process by chDB or on a
 * ClickHouse server. Both adapters run the same SQL text; values are always bound as
 * `{name:Type}` parameters, never spliced into the statement.
 *
 * Statements name tables without a database: each adapter runs them in its own database
 * (chDB: `ops`; server: CLICKHOUSE_DATABASE).
 */
export type QueryParams = Readonly<Record<string, unknown>>;

export interface InsertOptions {
  /**
   * Makes a retried insert of the same rows harmless: ClickHouse drops a block whose token it
   * has seen within the table's deduplication window.
   */
  deduplicationToken?: string;
  /** ClickHouse settings for this insert (format options such as reading objects as strings). */
  settings?: Readonly<Record<string, string | number>>;
}

export interface AnalyticsStore {
  readonly kind: 'chdb' | 'clickhouse';
  /** DDL or a statement without a result. */
  command(sql: string, params?: QueryParams): Promise<void>;
  /** A SELECT; rows come back as plain objects (JSONEachRow, 64-bit integers as strings). */
  query<T = Record<string, unknown>>(sql: string, params?: QueryParams): Promise<T[]>;
  /**
   * A SELECT whose every column is a Float64: the values of its rows, row after row, in one array
   * (RowBinary, read in place). For reads of millions of numbers, where parsing JSON would cost
   * more than the query.
   */
  queryFloat64(sql: string, params?: QueryParams): Promise<Float64Array>;
  /** Inserts rows (objects, or an NDJSON buffer of them) into `table`. */
  insert(table: string, rows: readonly object[] | Buffer, options?: InsertOptions): Promise<void>;
  /** Resolves when the engine answers; rejects otherwise (used by /readyz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
