/**
 * The rows of an SLA report as the JSON export shows them (spec 2.13, 2.14, 2.16). The SLA
 * worker stores exactly these rows; the CSV and spreadsheet exports are derived from them
 * (spec 2.15, 2.16), so every format shows the same figures. JSON times are milliseconds.
 */
import Type, { type Static } from 'typebox';
import { CiTypeIcon, databaseIconExample } from './cmdb-reference.schema.js';
import { Nullable } from './common.schema.js';

const IdName = Type.Object({ id: Type.Integer(), name: Type.String() });
export const SlaInfluence = Type.Object({ value: Type.Number(), maxInfluence: Type.Boolean() });
/** Spec 2.13: the CI type with its icon (null when the type has none) and userspace. */
export const SlaCiType = Type.Object({ id: Type.Integer(), name: Type.String(), description: Type.String(), icon: Nullable(CiTypeIcon), userspaceId: Type.Integer() });
const TimeShare = Type.Object({ percent: Type.Number(), value: Type.Number({ description: 'Milliseconds' }) });

/** Spec 2.13: one problem ("event") on the template's CIs that overlaps the range. */
export const SlaEventRow = Type.Object({
  id: Type.String({ description: 'Problem id (GUID form)' }),
  isIncluded: Type.Boolean({ description: 'Its priority counts against the template' }),
  trigger: IdName,
  dateStart: Type.String(),
  dateEnd: Nullable(Type.String()),
  duration: Type.Integer({ description: 'Milliseconds (open problems: until the end of the range or now)' }),
  priority: Type.String({ description: 'Problem1..Problem4' }),
  tags: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), colorName: Type.String() })),
  configItems: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      configItemType: SlaCiType,
      withMaintenance: Type.Boolean(),
      influence: SlaInfluence,
      isIncluded: Type.Boolean(),
    }),
  ),
  influence: SlaInfluence,
  incidents: Type.Array(Type.Object({ connector: IdName, incidents: Type.Array(Type.Object({ id: Type.String(), type: Type.String() })) })),
});

/** Spec 2.14: one CI of the template with its figures over the range. */
export const SlaCiRow = Type.Object({
  configItem: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    configItemType: SlaCiType,
    isIncluded: Type.Boolean(),
    withMaintenance: Type.Boolean(),
    influence: SlaInfluence,
    serviceAvailability: Type.Number(),
  }),
  okTime: TimeShare,
  problemTime: TimeShare,
  unattendedTime: TimeShare,
  maintenanceTime: TimeShare,
  serviceAvailability: Type.Number(),
  maxDowntime: Type.Integer({ description: 'Seconds (spec 2.14)' }),
  problem1EventsCount: Type.Integer(),
  problem2EventsCount: Type.Integer(),
  problem3EventsCount: Type.Integer(),
  problem4EventsCount: Type.Integer(),
  eventsCount: Type.Integer(),
});

/** Spec 2.16: one Single template of a Multi template. Times in milliseconds. */
export const SlaTemplateRow = Type.Object({
  name: Type.String(),
  weight: Type.Number(),
  influence: Type.Number(),
  serviceAvailability: Type.Number(),
  okTime: Type.Integer(),
  problemTimePercent: Type.Number(),
  problemTime: Type.Integer(),
  attendedTime: Type.Integer(),
  unattendedTime: Type.Integer(),
  maintenanceTime: Type.Integer(),
  eventsCount: Type.Integer(),
  problem1EventsCount: Type.Integer(),
  problem2EventsCount: Type.Integer(),
  problem3EventsCount: Type.Integer(),
  problem4EventsCount: Type.Integer(),
  maxDownTime: Type.Integer(),
});

/** The JSON export: rows of one kind, as `exportType` and the template's type choose. */
export const SlaExportJson = Type.Union([Type.Array(SlaEventRow), Type.Array(SlaCiRow), Type.Array(SlaTemplateRow)], {
  description: 'Events (spec 2.13, the default), CIs (2.14, exportType=configItems), or the templates of a Multi template (2.16)',
});

/** The CSV export: the same rows, one line each under a header row (spec 2.15, 2.16). */
export const SlaExportCsv = Type.String({
  description: 'UTF-8, comma-separated, a header row first, lines ending in LF; times in seconds, dates as dd.MM.yyyy HH:mm in the template time zone',
});

export type SlaEventRowModel = Static<typeof SlaEventRow>;
export type SlaCiRowModel = Static<typeof SlaCiRow>;
export type SlaTemplateRowModel = Static<typeof SlaTemplateRow>;

// Examples for the OpenAPI document, as a session answered them (checked against these schemas
// by openapi-lint.test.ts): one two-hour outage of billing-db, exported by events.
export const slaEventRowsExample = [
  {
    id: '128ad179-a225-80d1-62ce-beb60ab0c8d9',
    isIncluded: true,
    trigger: { id: 1, name: 'Database unreachable' },
    dateStart: '2026-03-01T01:00:00.000Z',
    dateEnd: '2026-03-01T03:00:00.000Z',
    duration: 7200000,
    priority: 'Problem1',
    tags: [{ id: 1, name: 'cpu', colorName: 'red' }],
    configItems: [
      {
        id: 2,
        name: 'billing-db',
        configItemType: { id: 2, name: 'Database', description: 'A database server or cluster', icon: databaseIconExample, userspaceId: 1 },
        withMaintenance: false,
        influence: { value: 30, maxInfluence: false },
        isIncluded: true,
      },
    ],
    influence: { value: 30, maxInfluence: false },
    incidents: [{ connector: { id: 7, name: 'tracker' }, incidents: [{ id: 'INC-1042', type: 'Incident' }] }],
  },
] satisfies SlaEventRowModel[];

/** slaEventRowsExample as CSV (spec 2.15): seconds, dates in the template's time zone. */
export const slaEventsCsvExample =
  'Id,Problem,Priority,Start,End,Duration,InfluencedCI,Tags,Incidents\n' +
  '128ad179-a225-80d1-62ce-beb60ab0c8d9,Database unreachable,Problem1,01.03.2026 01:00,01.03.2026 03:00,7200,"billing-db","cpu","INC-1042"\n';
