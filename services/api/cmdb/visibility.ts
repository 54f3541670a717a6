/**
 * Which CIs a caller may see in a list. The levels of one subject over every CI are computed in
 * one pass and kept until the model changes, so repeated list calls cost a lookup per CI.
 */
import { canBasicRead, type Level, levelsOnAll, type Subject } from '../../control-plane/rights/ci-rights.js';
import type { PlatformModel } from '../../control-plane/model.js';

const MAX_CACHED_SUBJECTS = 256;

export interface Visibility {
  /** Whether the subject may see a CI (at least basic-read). */
  (subject: Subject): (ciId: number) => boolean;
  /** Every CI the subject may see, computed once per model revision (a SQL filter's list). */
  ids(subject: Subject): ReadonlySet<number>;
}

export function createVisibility(model: PlatformModel): Visibility {
  const cache = new Map<string, { revision: number; levels: Map<number, Level>; ids?: Set<number> }>();
  const entryOf = (subject: Subject) => {
    const key = [...subject.workGroupIds].sort((a, b) => a - b).join(',');
    let entry = cache.get(key);
    if (!entry || entry.revision !== model.revision) {
      entry = { revision: model.revision, levels: levelsOnAll(model.slices.cmdb, subject) };
      if (cache.size >= MAX_CACHED_SUBJECTS) cache.delete(cache.keys().next().value!);
      cache.set(key, entry);
    }
    return entry;
  };
  const visibility = (subject: Subject) => {
    if (subject.admin) return () => true;
    const levels = entryOf(subject).levels;
    return (ciId: number) => canBasicRead(levels.get(ciId) ?? 0);
  };
  visibility.ids = (subject: Subject): ReadonlySet<number> => {
    if (subject.admin) return new Set(model.slices.cmdb.cis.keys());
    const entry = entryOf(subject);
    if (!entry.ids) {
      entry.ids = new Set<number>();
      for (const [id, level] of entry.levels) if (canBasicRead(level)) entry.ids.add(id);
    }
    return entry.ids;
  };
  return visibility;
}
