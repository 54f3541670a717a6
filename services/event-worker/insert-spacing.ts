/**
 * In-process, the least time between the starts of two pulls that were not full, by the records
 * the last pull brought: 50 ms for up to 1 000 records, growing with them to 250 ms. Each chDB
 * insert has a fixed cost (about 1.5 ms of the engine's threads, and a part's files to create and
 * later merge): inserting whatever gathered every few milliseconds took a third of a core at
 * 50 000 single-record requests/s, which the requests needed, and under heavy load even 50 ms
 * apart the parts' files and merges cost the engine more per row than inserts of 10 000 rows.
 * The answers do not wait for the inserts (they come at the bus log's append); a problem shows at
 * most this much later. A full pull goes on at once.
 */
const MIN_SPACING_MS = 50;
const MAX_SPACING_MS = 250;
const RECORDS_PER_SPACING_MS = 20;

/** Milliseconds from the start of a pull that was not full to the start of the next. */
export function insertSpacingMs(oneProcess: boolean, lastRecords: number): number {
  if (!oneProcess) return 0;
  return Math.min(MAX_SPACING_MS, Math.max(MIN_SPACING_MS, lastRecords / RECORDS_PER_SPACING_MS));
}
