/** Row encoding shared by both analytics adapters, so they accept and return exactly the same. */

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/** A table name is spliced into `INSERT INTO <table>` (it cannot be bound), so it must be plain. */
export function validTableName(table: string): string {
  if (!TABLE_NAME.test(table)) throw new Error(`invalid table name "${table}"`);
  return table;
}

/** Objects as NDJSON, the body of an `INSERT ... FORMAT JSONEachRow`. */
export function toNdjson(rows: readonly object[]): Buffer {
  if (rows.length === 0) return Buffer.alloc(0);
  return Buffer.from(`${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
}

export function parseJsonEachRow<T>(text: string): T[] {
  const rows: T[] = [];
  for (const line of text.split('\n')) if (line.length > 0) rows.push(JSON.parse(line) as T);
  return rows;
}
