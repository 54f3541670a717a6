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

/** The result format queryFloat64 reads: RowBinary after a header of the columns' names and types. */
export const FLOAT64_ROWS_FORMAT = 'RowBinaryWithNamesAndTypes';

/**
 * A RowBinaryWithNamesAndTypes result whose every column is a Float64, as numbers: little-endian
 * IEEE 754, what typed arrays read on the machines Node runs on. The header's types are checked,
 * since any other 8-byte column would read as numbers without a word.
 */
export function float64Rows(bytes: Uint8Array): Float64Array {
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++];
      if (byte === undefined) throw new Error('a RowBinary result ends inside its header');
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  const text = (): string => {
    const length = varint();
    const value = Buffer.from(bytes.buffer, bytes.byteOffset + at, length).toString('utf8');
    at += length;
    return value;
  };
  const columns = varint();
  const names = Array.from({ length: columns }, text);
  const types = Array.from({ length: columns }, text);
  const other = types.findIndex((type) => type !== 'Float64');
  if (columns === 0 || other >= 0) throw new Error(`queryFloat64 reads Float64 columns only; column ${names[other] ?? '(none)'} is ${types[other] ?? 'missing'}`);
  const size = bytes.byteLength - at;
  if (size % (8 * columns) !== 0) throw new Error(`a RowBinary result of ${columns} Float64 columns has ${size} bytes of rows`);
  const start = bytes.byteOffset + at;
  if (start % 8 === 0) return new Float64Array(bytes.buffer, start, size / 8);
  // A copy on a boundary of its own (a Buffer's slice would share its pool, at the same offset).
  const aligned = new Uint8Array(size);
  aligned.set(bytes.subarray(at));
  return new Float64Array(aligned.buffer);
}
