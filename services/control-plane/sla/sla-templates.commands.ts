/**
 * Admin commands on SLA templates (DESIGN §9). Checks (400 with the field's path) are in
 * sla-template-input.ts; here: 404 for an unknown template, 409 for a duplicate name and for
 * deleting a Single template a Multi template still lists.
 */
import type { SlaTemplateCreateBody, SlaTemplatePatchBody } from '../../../schemas/sla-template.schema.js';
import { fail } from '../../../schemas/errors.js';
import type { PlatformCommand, PlatformModel } from '../model.js';
import { ALL_REFS, checkTemplate, patchedDraft } from './sla-template-input.js';
import type { SlaTemplateRecord } from './sla-templates.slice.js';

const key = (id: number): string => `sla-template:${id}`;

export function findSlaTemplate(model: PlatformModel, id: number): SlaTemplateRecord {
  const template = model.slices.slaTemplates.templates.get(id);
  if (!template) throw fail('sla_template.not_found', { id });
  return template;
}

function checkName(model: PlatformModel, name: string, except?: number): void {
  const other = model.slices.slaTemplates.byName(name);
  if (other && other.id !== except) throw fail('sla_template.name_taken', { name, id: other.id });
}

export function createSlaTemplate(body: SlaTemplateCreateBody, now: string): PlatformCommand<SlaTemplateRecord> {
  return (model) => {
    const fields = checkTemplate(model, body, ALL_REFS);
    checkName(model, fields.name);
    const { id, change } = model.sequences.next('sla-template');
    const template: SlaTemplateRecord = { id, ...fields, createdAt: now, updatedAt: now };
    return { changes: [change, { key: key(id), value: template }], result: (m) => m.slices.slaTemplates.templates.get(id)! };
  };
}

export function patchSlaTemplate(id: number, body: SlaTemplatePatchBody, now: string): PlatformCommand<SlaTemplateRecord> {
  return (model) => {
    const current = findSlaTemplate(model, id);
    const { draft, refs } = patchedDraft(current, body);
    const fields = checkTemplate(model, draft, refs);
    checkName(model, fields.name, id);
    const template: SlaTemplateRecord = { id, ...fields, createdAt: current.createdAt, updatedAt: now };
    return { changes: [{ key: key(id), value: template }], result: (m) => m.slices.slaTemplates.templates.get(id)! };
  };
}

export function deleteSlaTemplate(id: number): PlatformCommand<void> {
  return (model) => {
    findSlaTemplate(model, id);
    const multis = model.slices.slaTemplates.multisUsing(id);
    if (multis.length > 0) throw fail('sla_template.in_multi', { id, templates: `template${multis.length > 1 ? 's' : ''} ${multis.join(', ')}` });
    return { changes: [{ key: key(id), value: null }], result: () => undefined };
  };
}

/**
 * For the identity commands: 409 when a user or workgroup about to be deleted owns an SLA
 * template (the template would lose its owner and every reader).
 */
export function refuseIfOwnsSlaTemplate(model: PlatformModel, ownerType: 'User' | 'WorkGroup', ownerId: number): void {
  for (const template of model.slices.slaTemplates.templates.values()) {
    const owner = ownerType === 'User' ? template.userId : template.workGroupId;
    if (template.ownerType === ownerType && owner === ownerId) {
      throw fail('sla_template.owner_in_use', { ownerType: ownerType === 'User' ? 'User' : 'Workgroup', ownerId, id: template.id });
    }
  }
}
