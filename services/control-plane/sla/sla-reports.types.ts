/** Pieces of a stored SLA report record shared by the slice and the worker. */
export interface SlaPriorityList {
  /** The template's counted priorities when the report was ordered (Single templates). */
  priorities: number[];
}

/** Results can be exported for this long after the report was created (spec 8). */
export const REPORT_RETENTION_MS = 24 * 60 * 60_000;
/** Report records are kept this long, so an old report answers 410 rather than 404. */
export const REPORT_RECORD_KEEP_MS = 30 * 24 * 60 * 60_000;
