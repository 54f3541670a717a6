/**
 * The columns of the CSV and spreadsheet exports of an SLA report (spec 2.15, 2.16; DESIGN §9),
 * in the spec's order. Each column names its header, its cell type and how to read the value
 * from a stored row (schemas/sla-export.schema.ts), so CSV and xlsx show the same figures.
 *
 * Units and rounding: the rows hold milliseconds (except `SlaCiRowModel.maxDowntime`, already
 * seconds, spec 2.14); the columns show whole seconds. The times of a CI or template row (ok,
 * problem, maintenance, unattended, attended) are rounded together (whole-seconds.ts), so that
 * the shown parts add up to the range and ok + problem + maintenance to `AttendedTime`; a time
 * that stands alone (`Duration`, a template's `MaxDownTime`) is `Math.round(ms / 1000)`.
 * Percents and influences are shown unrounded, as the rows hold them.
 *
 * Dates: `dd.MM.yyyy HH:mm` (seconds truncated) in one IANA time zone chosen by the caller,
 * `UTC` by default; a problem that has not ended has an empty `End`.
 */
import type { SlaCiRowModel, SlaEventRowModel, SlaTemplateRowModel } from '../../../schemas/sla-export.schema.js';
import { toWallClockMs, utcToLocal } from '../../time/time-zone.js';
import { type WholeSeconds, wholeSeconds } from '../whole-seconds.js';

interface ColumnBase {
  header: string;
  /** Width in characters in the spreadsheet. */
  width: number;
}
export interface StringColumn<R> extends ColumnBase {
  type: 'string';
  value: (row: R) => string;
  /** A comma-joined list: quoted in CSV when not empty (spec 2.15). */
  multi?: boolean;
}
export interface NumberColumn<R> extends ColumnBase {
  type: 'number';
  value: (row: R) => number;
}
export interface DateColumn<R> extends ColumnBase {
  type: 'date';
  /** Epoch milliseconds, or null for none (an open problem's end). */
  value: (row: R) => number | null;
}
export type ExportColumn<R> = StringColumn<R> | NumberColumn<R> | DateColumn<R>;
export type CellType = ExportColumn<unknown>['type'];

/** Milliseconds to whole seconds, half up: for a time that is not part of a sum the export shows. */
export const toSeconds = (ms: number): number => Math.round(ms / 1000);

/** A CI row's times in whole seconds that add up (spec 2.14 time objects hold milliseconds). */
export const ciRowSeconds = (r: SlaCiRowModel): WholeSeconds =>
  wholeSeconds({ okMs: r.okTime.value, problemMs: r.problemTime.value, maintenanceMs: r.maintenanceTime.value, unattendedMs: r.unattendedTime.value });

/** A template row's times in whole seconds that add up (spec 2.16: milliseconds in the row). */
export const templateRowSeconds = (r: SlaTemplateRowModel): WholeSeconds =>
  wholeSeconds({ okMs: r.okTime, problemMs: r.problemTime, maintenanceMs: r.maintenanceTime, unattendedMs: r.unattendedTime });

/** The separator of multi-valued cells: a bare comma, so a reader can split without trimming. */
export const joinList = (items: readonly string[]): string => items.join(',');

const epochMs = (iso: string | null): number | null => {
  if (iso === null) return null;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : null;
};

const str = <R>(header: string, width: number, value: (row: R) => string, multi = false): StringColumn<R> =>
  multi ? { header, width, type: 'string', value, multi } : { header, width, type: 'string', value };
const num = <R>(header: string, width: number, value: (row: R) => number): NumberColumn<R> => ({ header, width, type: 'number', value });
const date = <R>(header: string, value: (row: R) => number | null): DateColumn<R> => ({ header, width: 17, type: 'date', value });

type Counts = { eventsCount: number; problem1EventsCount: number; problem2EventsCount: number; problem3EventsCount: number; problem4EventsCount: number };
const countColumns = <R extends Counts>(): Array<NumberColumn<R>> => [
  num('EventsCount', 12, (r) => r.eventsCount),
  num('Problem1EventsCount', 20, (r) => r.problem1EventsCount),
  num('Problem2EventsCount', 20, (r) => r.problem2EventsCount),
  num('Problem3EventsCount', 20, (r) => r.problem3EventsCount),
  num('Problem4EventsCount', 20, (r) => r.problem4EventsCount),
];

/** `exportType=events` (spec 2.15). */
export const eventColumns: ReadonlyArray<ExportColumn<SlaEventRowModel>> = [
  str('Id', 38, (r) => r.id),
  str('Problem', 40, (r) => r.trigger.name),
  str('Priority', 10, (r) => r.priority),
  date('Start', (r) => epochMs(r.dateStart)),
  date('End', (r) => epochMs(r.dateEnd)),
  num('Duration', 10, (r) => toSeconds(r.duration)),
  str('InfluencedCI', 40, (r) => joinList(r.configItems.map((ci) => ci.name)), true),
  str('Tags', 30, (r) => joinList(r.tags.map((tag) => tag.name)), true),
  str('Incidents', 30, (r) => joinList(r.incidents.flatMap((group) => group.incidents.map((i) => i.id))), true),
];

/** `exportType=configItems` (spec 2.15). */
export const ciColumns: ReadonlyArray<ExportColumn<SlaCiRowModel>> = [
  num('Id', 10, (r) => r.configItem.id),
  str('Name', 40, (r) => r.configItem.name),
  str('ConfigItemType', 20, (r) => r.configItem.configItemType.name),
  num('Influence', 10, (r) => r.configItem.influence.value),
  num('ServiceAvailability', 19, (r) => r.serviceAvailability),
  num('ServiceAvailabilityTime', 23, (r) => ciRowSeconds(r).ok),
  num('ProblemTimePercent', 19, (r) => r.problemTime.percent),
  num('ProblemTime', 12, (r) => ciRowSeconds(r).problem),
  // Working time = total − unattended = ok + problem + maintenance (DESIGN §9).
  num('AttendedTime', 13, (r) => ciRowSeconds(r).attended),
  num('UnattendedTime', 15, (r) => ciRowSeconds(r).unattended),
  num('MaintenanceTime', 16, (r) => ciRowSeconds(r).maintenance),
  ...countColumns<SlaCiRowModel>(),
  num('MaxDownTime', 12, (r) => r.maxDowntime),
];

/** A Multi template's report, one row per Single template (spec 2.16). */
export const templateColumns: ReadonlyArray<ExportColumn<SlaTemplateRowModel>> = [
  str('Name', 40, (r) => r.name),
  num('Weight', 8, (r) => r.weight),
  num('Influence', 10, (r) => r.influence),
  num('ServiceAvailability', 19, (r) => r.serviceAvailability),
  num('OkTime', 10, (r) => templateRowSeconds(r).ok),
  num('ProblemTimePercent', 19, (r) => r.problemTimePercent),
  num('ProblemTime', 12, (r) => templateRowSeconds(r).problem),
  // attendedTime = ok + problem + maintenance in the row (multi-template.ts): the same sum here.
  num('AttendedTime', 13, (r) => templateRowSeconds(r).attended),
  num('UnattendedTime', 15, (r) => templateRowSeconds(r).unattended),
  num('MaintenanceTime', 16, (r) => templateRowSeconds(r).maintenance),
  ...countColumns<SlaTemplateRowModel>(),
  num('MaxDownTime', 12, (r) => toSeconds(r.maxDownTime)),
];

/** Wall-clock time of instants in one time zone. */
export interface ZonedClock {
  readonly timeZone: string;
  /** `dd.MM.yyyy HH:mm` in the zone. */
  format(ms: number): string;
  /**
   * The instant whose UTC fields are the zone's wall time at `ms`, to the second. A spreadsheet
   * date has no zone: Excel shows its UTC fields, so this is what makes it show the zone's time.
   */
  wallClock(ms: number): number;
}

/** Throws a RangeError for a time zone Intl does not know, before anything is streamed. */
export function zonedClock(timeZone = 'UTC'): ZonedClock {
  new Intl.DateTimeFormat('en-US', { timeZone });
  const two = (n: number): string => String(n).padStart(2, '0');
  return {
    timeZone,
    format(ms) {
      const l = utcToLocal(ms, timeZone);
      return `${two(l.day)}.${two(l.month)}.${String(l.year).padStart(4, '0')} ${two(l.hour)}:${two(l.minute)}`;
    },
    wallClock(ms) {
      const wall = toWallClockMs(ms, timeZone);
      return wall - (((wall % 1000) + 1000) % 1000);
    },
  };
}
