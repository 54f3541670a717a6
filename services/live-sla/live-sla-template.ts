/**
 * Part of the live SLA projection (live-sla.ts): where a whole SLA template stands now (issue #33),
 * from the live problems the process holds: a Single template's CIs combined by
 * pipelines/sla/live-template.ts with the template's rules and period (pipelines/sla/template-rules.ts);
 * a Multi template's parts each so, weighted as its reports are.
 */
import type { LiveCi } from '../../pipelines/sla/live-figures.js';
import { type LiveTemplateBudget, type LiveTemplateCi, liveTemplate } from '../../pipelines/sla/live-template.js';
import { budgetReach, templateCis, templatePeriod, templateRules } from '../../pipelines/sla/template-rules.js';
import type { TemplateLiveSlaModel } from '../../schemas/live-sla.schema.js';
import type { SlaSingleTemplateModel, SlaTemplateAdminModel } from '../../schemas/sla-template.schema.js';
import { maintenanceIntervals } from '../control-plane/maintenance/maintenance-coverage.js';
import type { PlatformModel } from '../control-plane/model.js';

/** How many of a template's CIs the answer names, those with the least budget left. */
export const WORST_CIS = 10;

const iso = (ms: number): string => new Date(ms).toISOString();

const budgetView = (b: LiveTemplateBudget | null): TemplateLiveSlaModel['budget'] =>
  b && {
    target: b.target,
    allowedMs: Math.round(b.allowedMs),
    usedMs: Math.round(b.usedMs),
    remainingMs: Math.round(b.remainingMs),
    remaining: b.remaining,
    burnRate: b.burnRates,
  };

function single(model: PlatformModel, template: SlaSingleTemplateModel, problemsOf: (ciId: number) => LiveCi['problems'], now: number) {
  const period = templatePeriod(template, now);
  const reach = budgetReach(period, now);
  function* cis(): Generator<LiveTemplateCi> {
    for (const [ciId, weight] of templateCis(model.slices.cmdb, template)) {
      yield { ciId, weight, ci: { problems: problemsOf(ciId), maintenance: maintenanceIntervals(model, ciId, reach.start, reach.end) } };
    }
  }
  return liveTemplate(cis(), templateRules(template), template.target, period, now, WORST_CIS);
}

export function templateLiveView(
  model: PlatformModel,
  template: SlaTemplateAdminModel,
  problemsOf: (ciId: number) => LiveCi['problems'],
  asOf: number,
  now: number,
): TemplateLiveSlaModel {
  const head = { asOf: iso(asOf), template: { id: template.id, name: template.name, type: template.type } };
  if (template.type === 'Single') {
    const f = single(model, template, problemsOf, now);
    const cmdb = model.slices.cmdb.cis;
    return {
      ...head,
      period: { start: iso(f.period.start), end: iso(f.period.end) },
      configItems: f.configItems,
      availability: f.availability,
      budget: budgetView(f.budget),
      worst: f.worst.map((w) => ({
        id: w.ciId,
        name: cmdb.get(w.ciId)?.name ?? `CI ${w.ciId}`,
        availability: w.availability,
        allowedMs: Math.round(w.allowedMs),
        usedMs: Math.round(w.usedMs),
        remaining: w.remaining,
        burnRate: w.burnRates,
      })),
      parts: [],
    };
  }
  const members = template.templates.flatMap((m) => {
    const part = model.slices.slaTemplates.templates.get(m.id);
    return part?.type === 'Single' ? [{ part, weight: m.weight }] : [];
  });
  const totalWeight = members.reduce((sum, m) => sum + m.weight, 0);
  const parts = members.map(({ part, weight }) => {
    const f = single(model, part, problemsOf, now);
    return {
      template: { id: part.id, name: part.name },
      weight,
      influence: totalWeight > 0 ? weight / totalWeight : 0,
      period: { start: iso(f.period.start), end: iso(f.period.end) },
      configItems: f.configItems,
      availability: f.availability,
      budget: budgetView(f.budget),
    };
  });
  const weighted = parts.reduce((sum, p) => sum + p.weight * p.availability, 0);
  return {
    ...head,
    period: null,
    configItems: parts.reduce((sum, p) => sum + p.configItems, 0),
    availability: totalWeight > 0 ? weighted / totalWeight : 100,
    budget: null,
    worst: [],
    parts,
  };
}
