/**
 * How a ClickHouse table's shape is stated (issue #36): one module per table in this folder
 * (`<table>.table.ts`) holds its name, its columns in the order the migrations create them
 * (schemas/migrations/*.sql; test/unit/schemas/tables/table-columns.test.ts holds the two together) with
 * their ClickHouse types, the row type a writer inserts (derived from those types), and the
 * SELECT lists its readers use. Pure data and string building: no I/O.
 */

/** The TypeScript value a JSONEachRow row gives a column of this ClickHouse type, as written. */
export type ValueOf<T extends string> = T extends `Nullable(${infer I})`
  ? ValueOf<I> | null
  : T extends `LowCardinality(${infer I})`
    ? ValueOf<I>
    : T extends `Array(${infer I})`
      ? Array<ValueOf<I>>
      : T extends `Map(${string})`
        ? Record<string, string>
        : T extends `${'UInt' | 'Int' | 'Float'}${number}`
          ? number
          : string;

/** A table: its name and its columns (name ▸ ClickHouse type, in the table's order). */
export interface Table<C extends Record<string, string>> {
  readonly name: string;
  readonly types: C;
  /** The column names in the table's order. */
  readonly columns: ReadonlyArray<keyof C & string>;
}

export function table<const C extends Record<string, string>>(name: string, types: C): Table<C> {
  return { name, types, columns: Object.keys(types) as Array<keyof C & string> };
}

/** A row of the table as a writer inserts it (JSONEachRow). */
export type RowOf<T extends { types: Record<string, string> }> = { -readonly [K in keyof T['types']]: ValueOf<T['types'][K]> };

/** A column of the table. */
export type ColumnOf<T extends { types: Record<string, string> }> = keyof T['types'] & string;

/**
 * A SELECT list of `columns` of a table, in the order given: each column as `read` gives it (an
 * expression with its alias), else as `plain` does (by default the column as it is).
 */
export function selectList<C extends string>(columns: readonly C[], read: Partial<Record<C, string>> = {}, plain = (column: C): string => column): string {
  return columns.map((column) => read[column] ?? plain(column)).join(', ');
}

/** `a.column AS column`: a column named through the table's alias. */
export const through =
  (alias: string) =>
  (column: string): string =>
    `${alias}.${column} AS ${column}`;

/** `toString(column) AS column`: a column read as text under its own name. */
export const asText = (column: string): string => `toString(${column}) AS ${column}`;

/** Epoch milliseconds of a DateTime64 column (null stays null). */
export const epochMs = (column: string): string => `toUnixTimestamp64Milli(${column})`;
