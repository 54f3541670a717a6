/**
 * Spec 4.3 #1: the SLA templates the caller may read, in the spec 2.11 form. Needs the platform
 * right `base-system.sla.read` (DESIGN §4); admins read every template, a user those owned by
 * them or by one of their workgroups (sla-access.ts).
 */
import Type from 'typebox';
import { publicTemplate, SlaTemplate, slaTemplatesExample } from '../../../schemas/sla-template.schema.js';
import { type SlaReader, templatesReadableBy } from '../../control-plane/sla/sla-access.js';
import { defineRoute, json, type Route } from '../../runtime/http/route.js';
import type { ApiDeps } from '../api-deps.js';
import { principal, type PrincipalRequest } from '../auth.js';
import { problems } from '../../runtime/http/route-kit.js';

export const SLA_PREFIX = '/api/public/sm/v1/sla';
export const SLA_READ = 'base-system.sla.read';

/** The reader of an authenticated request, for sla-access.ts. */
export const slaReaderOf = (req: PrincipalRequest): SlaReader => {
  const p = principal(req);
  return { userId: p.user.id, admin: p.subject.admin };
};

export function slaTemplateRoutes(deps: ApiDeps): Route[] {
  const model = deps.controlPlane.model;
  return [
    defineRoute({
      tags: ['sla'],
      security: 'bearer',
      authenticate: deps.auth.requireRight(SLA_READ),
      method: 'GET',
      path: `${SLA_PREFIX}/templates`,
      name: 'sla.listTemplates',
      summary: '#1 SLA templates the caller may read (owned by them or their workgroups; all for admins), by id',
      schema: { responses: { 200: { description: 'SLA templates (spec 2.11)', schema: Type.Array(SlaTemplate), example: slaTemplatesExample }, ...problems(401, 403) } },
      handler: (req) =>
        json(
          200,
          templatesReadableBy(model, slaReaderOf(req)).map((template) => publicTemplate(model, template)),
        ),
    }),
  ];
}
