/**
 * Who may read an SLA template (spec 4.3 #1, #2; DESIGN §4): platform admins read every template;
 * a user reads the templates they own and those owned by a workgroup they are a member of. The
 * platform right `base-system.sla.read` is checked by the route before this.
 */
import type { PlatformModel } from '../model.js';
import type { SlaTemplateRecord } from './sla-templates.slice.js';

export interface SlaReader {
  userId: number;
  /** Holds `base-system.admin` (Principal.subject.admin). */
  admin: boolean;
}

export function canReadTemplate(model: PlatformModel, reader: SlaReader, template: SlaTemplateRecord): boolean {
  if (reader.admin) return true;
  if (template.ownerType === 'User') return template.userId === reader.userId;
  return template.workGroupId !== null && model.slices.identity.workGroupsOf(reader.userId).has(template.workGroupId);
}

/** The templates the reader may read, sorted by id. */
export function templatesReadableBy(model: PlatformModel, reader: SlaReader): SlaTemplateRecord[] {
  const readable: SlaTemplateRecord[] = [];
  for (const template of model.slices.slaTemplates.templates.values()) if (canReadTemplate(model, reader, template)) readable.push(template);
  return readable.sort((a, b) => a.id - b.id);
}
