/** Admin API: SLA templates (DESIGN §9) — the full model with CIs, priorities and calendar. */
import Type from 'typebox';
import {
  SlaTemplateAdmin,
  slaTemplateAdminExample,
  SlaTemplateCreate,
  slaTemplateCreateExample,
  SlaTemplatePatch,
  slaTemplatePatchExample,
} from '../../../schemas/sla-template.schema.js';
import { createSlaTemplate, deleteSlaTemplate, findSlaTemplate, patchSlaTemplate } from '../../control-plane/sla/sla-templates.commands.js';
import { defineRoute, json, noContent, type Route } from '../../runtime/http/route.js';
import { ADMIN, ADMIN_PREFIX, type ApiDeps, isoNow } from '../api-deps.js';
import { parseId, problems } from '../../runtime/http/route-kit.js';

export const SLA_TEMPLATES_ADMIN_PATH = `${ADMIN_PREFIX}/sla/templates`;

export function slaTemplateAdminRoutes(deps: ApiDeps): Route[] {
  const cp = deps.controlPlane;
  const base = { tags: ['admin'], security: 'bearer' as const, authenticate: deps.auth.requireRight(ADMIN) };
  const id = (params: Record<string, string>) => parseId(params['id'], 'id', 'SLA template id');
  const Template = { description: 'The SLA template', schema: SlaTemplateAdmin, example: slaTemplateAdminExample };
  return [
    defineRoute({
      ...base,
      method: 'GET',
      path: SLA_TEMPLATES_ADMIN_PATH,
      name: 'admin.listSlaTemplates',
      summary: 'List SLA templates with their CIs, priorities and calendars',
      schema: { responses: { 200: { description: 'SLA templates, by id', schema: Type.Array(SlaTemplateAdmin), example: [slaTemplateAdminExample] }, ...problems(401, 403) } },
      handler: () =>
        json(
          200,
          [...cp.model.slices.slaTemplates.templates.values()].sort((a, b) => a.id - b.id),
        ),
    }),
    defineRoute({
      ...base,
      method: 'POST',
      path: SLA_TEMPLATES_ADMIN_PATH,
      name: 'admin.createSlaTemplate',
      summary: 'Create an SLA template (Single: configItems; Multi: templates)',
      schema: { body: SlaTemplateCreate, bodyExample: slaTemplateCreateExample, responses: { 201: Template, ...problems(400, 401, 403, 409, 415) } },
      handler: async (req) => json(201, await cp.execute(createSlaTemplate(req.body, isoNow(deps)))),
    }),
    defineRoute({
      ...base,
      method: 'GET',
      path: `${SLA_TEMPLATES_ADMIN_PATH}/:id`,
      name: 'admin.getSlaTemplate',
      summary: 'One SLA template',
      schema: { responses: { 200: Template, ...problems(400, 401, 403, 404) } },
      handler: (req) => json(200, findSlaTemplate(cp.model, id(req.params))),
    }),
    defineRoute({
      ...base,
      method: 'PATCH',
      path: `${SLA_TEMPLATES_ADMIN_PATH}/:id`,
      name: 'admin.patchSlaTemplate',
      summary: 'Change fields of an SLA template; lists, the calendar and the owner are replaced whole',
      schema: { body: SlaTemplatePatch, bodyExample: slaTemplatePatchExample, responses: { 200: Template, ...problems(400, 401, 403, 404, 409, 415) } },
      handler: async (req) => json(200, await cp.execute(patchSlaTemplate(id(req.params), req.body, isoNow(deps)))),
    }),
    defineRoute({
      ...base,
      method: 'DELETE',
      path: `${SLA_TEMPLATES_ADMIN_PATH}/:id`,
      name: 'admin.deleteSlaTemplate',
      summary: 'Delete an SLA template (409 while a Multi template lists it)',
      schema: { responses: { 204: { description: 'Deleted' }, ...problems(400, 401, 403, 404, 409) } },
      handler: async (req) => {
        await cp.execute(deleteSlaTemplate(id(req.params)));
        return noContent();
      },
    }),
  ];
}
