/**
 * The enabled triggers of each stream, compiled once per trigger version (a changed trigger is
 * a new record object), and the CI lookups they need, read from the control model.
 */
import { type CiLookup, type CompiledTrigger, compileTrigger } from '../../../pipelines/problems/trigger-match.js';
import type { TriggerModel } from '../../../schemas/trigger.schema.js';
import type { PlatformModel } from '../model.js';

export interface TriggerIndex {
  forStream(streamId: number): CompiledTrigger[];
  readonly cis: CiLookup;
}

export function createTriggerIndex(model: PlatformModel): TriggerIndex {
  const compiled = new WeakMap<TriggerModel, CompiledTrigger>();
  const cmdb = model.slices.cmdb;
  const compile = (trigger: TriggerModel): CompiledTrigger => {
    let c = compiled.get(trigger);
    if (!c) compiled.set(trigger, (c = compileTrigger(trigger)));
    return c;
  };
  return {
    forStream: (streamId) =>
      model.slices.triggers
        .forStream(streamId)
        .filter((t) => t.enabled)
        .map(compile),
    cis: {
      exists: (id) => cmdb.cis.has(id),
      byName(name, typeId) {
        if (typeId !== undefined) return cmdb.idByNameAndType(name, typeId);
        const ids = cmdb.idsByName(name);
        return ids.size === 1 ? ids.values().next().value : undefined;
      },
    },
  };
}
