/**
 * Reading the bodies of spec 4.2 #4–#6 into checked values, one spec 7.2 condition per message
 * ("start time missing", "invalid CI id", "invalid graph depth"...). These checks need nothing
 * but the body, so they run before the mode is looked up (400 before 404, as for CIs).
 */
import { checkRecurrence, type RecurrenceInput } from '../../../pipelines/maintenance/recurrence.js';
import type { MaintenanceCreateBody, MaintenanceUpdateBody, RecurrenceInputBody, ScopeInputBody } from '../../../schemas/maintenance.schema.js';
import { failFields } from '../../../schemas/errors.js';
import type { Scope } from './maintenance.types.js';

export interface ScopeItem {
  ciId: number;
  scope: Scope;
  depth: number;
}

/** What a body asks for; `undefined` keeps the stored value (PATCH). */
export interface ModeInput {
  title?: string | null;
  start?: number;
  end?: number;
  scope?: ScopeItem[];
  labels?: Record<string, string>;
  /** null: not recurring (PUT without one); undefined: as stored (PATCH). */
  recurrence?: RecurrenceInput | null;
  cancel: boolean;
}

/** A recurrence as the body gives it, checked (issue #17): every problem at once, by path. */
function readRecurrence(body: RecurrenceInputBody): RecurrenceInput {
  const input: RecurrenceInput = { rule: body.rule, timeZone: body.timeZone, exdates: body.exdates ?? [] };
  const problems = checkRecurrence(input);
  if (problems.length > 0) throw failFields('maintenance.recurrence_invalid', problems, { reason: `${problems[0]!.path} ${problems[0]!.message}` });
  return input;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/;
const EXAMPLE = '2026-11-21T10:00:00Z or 2026-11-21T12:00:00+02:00';

/** Epoch milliseconds of an ISO 8601 date-time that carries its offset; 400 naming the field otherwise. */
export function parseDateTime(value: string, path: string): number {
  const field = path.slice(1).replaceAll('/', '.');
  const m = DATE_TIME.exec(value);
  const bad = (why: string) => failFields('maintenance.field_invalid', [{ path, message: why }], { field, why, value: JSON.stringify(value) });
  if (!m) throw bad(`is not an ISO 8601 date-time (e.g. ${EXAMPLE})`);
  // Without an offset the instant is ambiguous: refuse rather than guess the server's zone.
  if (m[7] === undefined) throw bad(`has no UTC offset; add Z or ±hh:mm (e.g. ${EXAMPLE})`);
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  const offset = m[7] === 'Z' ? [0, 0] : m[7].slice(1).split(':').map(Number);
  // Date.parse rolls 2026-02-30 over to March; a calendar check refuses it instead.
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59 || offset[0]! > 23 || offset[1]! > 59) {
    throw bad('is not a valid date-time');
  }
  return Date.parse(value);
}

const isCiId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

function readScope(items: ScopeInputBody[]): ScopeItem[] {
  if (items.length === 0) throw failFields('maintenance.cis_empty', [{ path: '/configItems', message: 'must not be empty' }]);
  const seen = new Set<number>();
  return items.map((item, i) => {
    const path = `/configItems/${i}`;
    if (item.id === null || item.id === undefined) throw failFields('maintenance.ci_id_missing', [{ path: `${path}/id`, message: 'is required' }], { index: i });
    if (!isCiId(item.id)) throw failFields('maintenance.ci_id_invalid', [{ path: `${path}/id`, message: 'must be a positive integer' }], { index: i, id: String(item.id) });
    if (seen.has(item.id)) throw failFields('maintenance.ci_twice', [{ path: `${path}/id`, message: 'is listed twice' }], { id: item.id });
    seen.add(item.id);
    const depth = item.depth ?? -1;
    if (!Number.isSafeInteger(depth) || depth < -1) {
      throw failFields('maintenance.depth_invalid', [{ path: `${path}/depth`, message: 'must be -1 (all successors) or an integer from 0' }], { index: i, depth });
    }
    return { ciId: item.id, scope: item.scope, depth };
  });
}

/** #4, and #5 (PUT replaces the whole mode): dates and a non-empty CI list are required. */
export function readFullBody(body: MaintenanceCreateBody | MaintenanceUpdateBody): ModeInput {
  if (body.dateStart === null || body.dateStart === undefined) throw failFields('maintenance.start_missing', [{ path: '/dateStart', message: 'is required' }]);
  if (body.dateEnd === null || body.dateEnd === undefined) throw failFields('maintenance.end_missing', [{ path: '/dateEnd', message: 'is required' }]);
  if (body.configItems === null || body.configItems === undefined) throw failFields('maintenance.cis_missing', [{ path: '/configItems', message: 'is required' }]);
  const start = parseDateTime(body.dateStart, '/dateStart');
  const end = parseDateTime(body.dateEnd, '/dateEnd');
  requireEndAfterStart(start, end);
  return {
    title: body.title ?? null,
    start,
    end,
    scope: readScope(body.configItems),
    labels: body.labels ?? {},
    recurrence: body.recurrence ? readRecurrence(body.recurrence) : null,
    cancel: 'cancel' in body && body.cancel === true,
  };
}

/** #6: only the fields that are sent and not null change. */
export function readPatchBody(body: MaintenanceUpdateBody): ModeInput {
  const input: ModeInput = { cancel: body.cancel === true };
  if (body.title !== null && body.title !== undefined) input.title = body.title;
  if (body.dateStart !== null && body.dateStart !== undefined) input.start = parseDateTime(body.dateStart, '/dateStart');
  if (body.dateEnd !== null && body.dateEnd !== undefined) input.end = parseDateTime(body.dateEnd, '/dateEnd');
  if (input.start !== undefined && input.end !== undefined) requireEndAfterStart(input.start, input.end);
  if (body.configItems !== null && body.configItems !== undefined) input.scope = readScope(body.configItems);
  if (body.labels !== null && body.labels !== undefined) input.labels = body.labels;
  if (body.recurrence !== null && body.recurrence !== undefined) input.recurrence = readRecurrence(body.recurrence);
  return input;
}

export function requireEndAfterStart(start: number, end: number): void {
  if (end <= start) throw failFields('maintenance.end_before_start', [{ path: '/dateEnd', message: 'must be after dateStart' }]);
}

export function requireEndInFuture(end: number, now: number): void {
  if (end <= now) {
    throw failFields('maintenance.end_past', [{ path: '/dateEnd', message: 'must be in the future' }], { now: new Date(now).toISOString() });
  }
}
