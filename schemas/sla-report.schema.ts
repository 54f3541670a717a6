/**
 * Custom SLA reports (spec 2.12, 4.3 #2–#4): the order body, the report as the API shows it,
 * and the export query.
 */
import Type, { type Static } from 'typebox';
import { Nullable } from './common.schema.js';
import { SlaOwnerType, SlaPeriod, SlaTemplateType, SlaWorkGroup } from './sla-template.schema.js';

/** Dates are checked by the domain (offset required, end after start), each with its own message. */
export const SlaOrderBody = Type.Object(
  {
    template: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
    range: Type.Optional(
      Nullable(
        Type.Object(
          { start: Type.String({ description: 'ISO 8601 date-time with offset' }), end: Type.String({ description: 'ISO 8601 date-time with offset' }) },
          { description: 'Omitted: the template’s period, computed in the template’s time zone' },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);

export const SlaReportStatus = Type.Union([Type.Literal('Pending'), Type.Literal('Ok'), Type.Literal('Error')]);

export const SlaReportTemplate = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: SlaTemplateType,
  period: SlaPeriod,
  ownerType: SlaOwnerType,
  userId: Nullable(Type.Integer()),
  workGroup: Nullable(SlaWorkGroup),
});

/** Spec 2.12. */
export const SlaCustomReport = Type.Object({
  id: Type.String({ description: 'GUID' }),
  reportId: Nullable(Type.String({ description: 'Id of the produced report; null while pending' })),
  start: Type.String(),
  end: Type.String(),
  template: SlaReportTemplate,
  status: SlaReportStatus,
  error: Nullable(Type.String()),
  ownerType: SlaOwnerType,
  userId: Nullable(Type.Integer()),
  workGroup: Nullable(SlaWorkGroup),
});

export const SlaExportQuery = Type.Object({
  format: Type.Optional(Type.Union([Type.Literal('xls'), Type.Literal('csv'), Type.Literal('json')], { default: 'xls' })),
  exportType: Type.Optional(Type.Union([Type.Literal('events'), Type.Literal('configItems')], { default: 'events' })),
});

export type SlaOrderBodyModel = Static<typeof SlaOrderBody>;
export type SlaCustomReportModel = Static<typeof SlaCustomReport>;
export type SlaReportStatusName = Static<typeof SlaReportStatus>;

// Examples for the OpenAPI document, as a session answered them (checked against these schemas
// by openapi-lint.test.ts): template 1 over the first of March.
export const slaOrderExample = { template: { id: 1 }, range: { start: '2026-03-01T00:00:00Z', end: '2026-03-02T00:00:00Z' } } satisfies SlaOrderBodyModel;

/** The answer to slaOrderExample. */
export const slaPendingReportExample = {
  id: '2a0597b3-2619-44fd-bea9-10427c2dda44',
  reportId: null,
  start: '2026-03-01T00:00:00.000Z',
  end: '2026-03-02T00:00:00.000Z',
  template: { id: 1, name: 'Billing availability', type: 'Single', period: 'ThisMonth', ownerType: 'User', userId: 1, workGroup: null },
  status: 'Pending',
  error: null,
  ownerType: 'User',
  userId: 1,
  workGroup: null,
} satisfies SlaCustomReportModel;

/** The same report once calculated: it can be exported for a day. */
export const slaFinishedReportExample = { ...slaPendingReportExample, reportId: 'ac00f2f7-b746-486b-8bb9-45eda0e1c60a', status: 'Ok' } satisfies SlaCustomReportModel;
