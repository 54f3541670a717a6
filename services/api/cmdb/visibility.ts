/**
 * Which CIs a caller may see in a list. The levels of one subject over every CI are computed in
 * one pass and kept until the model changes, so repeated list calls cost a lookup per CI.
 */
import { canBasicRead, type Level, levelsOnAll, type Subject } from '../../control-plane/rights/ci-rights.js';
import type { PlatformModel } from '../../control-plane/slices.js';

const MAX_CACHED_SUBJECTS = 256;

export function createVisibility(model: PlatformModel): (subject: Subject) => (ciId: number) => boolean {
  const cache = new Map<string, { revision: number; levels: Map<number, Level> }>();
  return (subject) => {
    if (subject.admin) return () => true;
    const key = [...subject.workGroupIds].sort((a, b) => a - b).join(',');
    let entry = cache.get(key);
    if (!entry || entry.revision !== model.revision) {
      entry = { revision: model.revision, levels: levelsOnAll(model.slices.cmdb, subject) };
      if (cache.size >= MAX_CACHED_SUBJECTS) cache.delete(cache.keys().next().value!);
      cache.set(key, entry);
    }
    const levels = entry.levels;
    return (ciId) => canBasicRead(levels.get(ciId) ?? 0);
  };
}
