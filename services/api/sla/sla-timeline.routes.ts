/**
 * Issue #18: GET …/sla/ordered/{id}/timeline?configItemId= — why a CI's figures are what they
 * are: the report's calculation replayed for the CI (report-timeline.ts).
 */
import { SlaTimeline, SlaTimelineQuery, slaTimelineExample } from '../../../schemas/sla-timeline.schema.js';
import type { SlaReportRecord } from '../../control-plane/sla/sla-reports.slice.js';
import { defineRoute, json, type Route } from '../../runtime/http/route.js';
import type { ApiDeps } from '../api-deps.js';
import type { PrincipalRequest } from '../auth.js';
import { problems as problemResponses } from '../../runtime/http/route-kit.js';
import { replayTimeline, timelineTemplate } from './report-timeline.js';
import { SLA_PREFIX, SLA_READ } from './sla-templates.routes.js';

export function slaTimelineRoutes(deps: ApiDeps, readable: (req: PrincipalRequest) => SlaReportRecord): Route[] {
  const model = deps.controlPlane.model;
  return [
    defineRoute({
      tags: ['sla'],
      security: 'bearer',
      authenticate: deps.auth.requireRight(SLA_READ),
      method: 'GET',
      path: `${SLA_PREFIX}/ordered/:id/timeline`,
      name: 'sla.reportTimeline',
      summary: 'The timeline of one CI of a finished report: segments by bucket with the problems, modes, calendar and influence behind them (issue #18)',
      schema: {
        query: SlaTimelineQuery,
        responses: {
          200: { description: 'The CI’s timeline; its totals equal the report’s figures for the CI', schema: SlaTimeline, example: slaTimelineExample },
          ...problemResponses(400, 401, 403, 404, 409, 410),
        },
      },
      handler: async (req) => {
        const report = readable(req);
        const timeline = await replayTimeline({ analytics: deps.analytics, model }, report, timelineTemplate(model, report), req.queryValues.configItemId);
        return json(200, timeline);
      },
    }),
  ];
}
