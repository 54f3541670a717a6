/**
 * Issue #33: GET …/sla/templates/{id}/live, where a template stands now: its availability so far
 * in its period, its error budget and burn rates when it has a target, the CIs with the least
 * budget left, a Multi's parts. For those who may read the template (as its reports); answered
 * from the live problems the API process holds (live-sla.ts), 503 until they were first read.
 */
import { TemplateLiveSla, templateLiveSlaExample } from '../../../schemas/live-sla.schema.js';
import { canReadTemplate } from '../../control-plane/sla/sla-access.js';
import { fail } from '../../../schemas/errors.js';
import { defineRoute, json, type Route } from '../../runtime/http/route.js';
import type { ApiDeps } from '../api-deps.js';
import { parseId, problems } from '../../runtime/http/route-kit.js';
import { SLA_PREFIX, SLA_READ, slaReaderOf } from './sla-templates.routes.js';

export function slaTemplateLiveRoutes(deps: ApiDeps): Route[] {
  const model = deps.controlPlane.model;
  return [
    defineRoute({
      tags: ['sla'],
      security: 'bearer',
      authenticate: deps.auth.requireRight(SLA_READ),
      method: 'GET',
      path: `${SLA_PREFIX}/templates/:id/live`,
      name: 'sla.templateLive',
      summary: 'Where a template stands now: availability so far in its period, error budget and burn rates, the CIs with the least budget left, a Multi’s parts (issue #33)',
      schema: {
        responses: { 200: { description: 'The template’s live figures', schema: TemplateLiveSla, example: templateLiveSlaExample }, ...problems(400, 401, 403, 404, 503) },
      },
      handler: (req) => {
        const id = parseId(req.params['id'], 'id', 'SLA template id');
        const template = model.slices.slaTemplates.templates.get(id);
        if (!template) throw fail('sla_template.not_found', { id });
        if (!canReadTemplate(model, slaReaderOf(req), template)) throw fail('sla_template.read_forbidden', { id });
        return json(200, deps.liveSla.ofTemplate(template));
      },
    }),
  ];
}
