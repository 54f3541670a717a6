/** SLA templates in memory (DESIGN §9), with the index of which Multi templates use a Single one. */
import type { SlaTemplateAdminModel } from '../../../schemas/sla-template.schema.js';
import type { Slice } from '../model.js';

/** A stored template, record `sla-template:<id>`; discriminated by `type` (Single | Multi). */
export type SlaTemplateRecord = SlaTemplateAdminModel;

export class SlaTemplatesSlice implements Slice {
  readonly kinds = ['sla-template'];
  readonly templates = new Map<number, SlaTemplateRecord>();
  /** Single template id → ids of the Multi templates that list it. */
  private readonly usedBy = new Map<number, Set<number>>();
  /** Counts the changes applied (see CmdbSlice.changes). */
  changes = 0;

  apply(key: string, kind: string, value: unknown): void {
    this.changes++;
    const id = Number(key.slice(kind.length + 1));
    const before = this.templates.get(id);
    if (before?.type === 'Multi') for (const member of before.templates) this.usedBy.get(member.id)?.delete(id);
    if (value === null) {
      this.templates.delete(id);
      return;
    }
    const stored = value as SlaTemplateRecord;
    // Templates stored before templates had a target have none.
    const template = stored.type === 'Single' && stored.target === undefined ? { ...stored, target: null } : stored;
    this.templates.set(id, template);
    if (template.type === 'Multi') {
      for (const member of template.templates) {
        let users = this.usedBy.get(member.id);
        if (!users) this.usedBy.set(member.id, (users = new Set()));
        users.add(id);
      }
    }
  }

  /** Ids of the Multi templates that list this Single template, ascending. */
  multisUsing(singleId: number): number[] {
    return [...(this.usedBy.get(singleId) ?? [])].sort((a, b) => a - b);
  }

  byName(name: string): SlaTemplateRecord | undefined {
    for (const template of this.templates.values()) if (template.name === name) return template;
    return undefined;
  }
}

declare module '../model.js' {
  interface PlatformSlices {
    slaTemplates: SlaTemplatesSlice;
  }
}
