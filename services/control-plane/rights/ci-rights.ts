/**
 * The one place CI rights are decided (DESIGN §4). Levels follow the implication order
 * write ▸ read ▸ monitoring-read ▸ basic-read. A user's level on a CI is the strongest of:
 * membership of the owner workgroup of the CI or of any ancestor (write: a workgroup owns the
 * subtree below its CI, which is why a delete with `applyGrants` hands the owner's rights to the
 * children, DESIGN §4a); `ConfigItem` and `Tree` grants on the CI; `Tree` and `ChildrenTree`
 * grants on any ancestor — each grant counting when its workgroup is one of the user's, or is 0
 * (every workgroup, present and future, so any user in at least one workgroup). Platform admins hold write on every CI.
 */
import type { CmdbSlice } from '../cmdb/cmdb.slice.js';
import type { CiRecord, CiRight, GrantRecord } from '../cmdb/cmdb.types.js';

export enum Level {
  None = 0,
  BasicRead = 1,
  MonitoringRead = 2,
  Read = 3,
  Write = 4,
}

const levelOf: Record<CiRight, Level> = {
  'base-system.rsm.basic-read': Level.BasicRead,
  'base-system.rsm.monitoring-read': Level.MonitoringRead,
  'base-system.rsm.read': Level.Read,
  'base-system.rsm.write': Level.Write,
};

/** Who is asking: the workgroups the user belongs to, and whether it is a platform admin. */
export interface Subject {
  workGroupIds: ReadonlySet<number>;
  admin: boolean;
}

export const grantLevel = (grant: GrantRecord): Level => grant.grants.reduce<Level>((max, right) => Math.max(max, levelOf[right] ?? Level.None), Level.None);

/** `workGroupId 0` is every workgroup (spec 2.8): it reaches members of any workgroup, not users in none. */
const applies = (grant: GrantRecord, subject: Subject): boolean => (grant.workGroupId === 0 ? subject.workGroupIds.size > 0 : subject.workGroupIds.has(grant.workGroupId));

/** Level the CI itself gives (owner, ConfigItem and Tree grants). */
function ownLevel(ci: CiRecord, subject: Subject): Level {
  if (subject.workGroupIds.has(ci.ownerWorkGroupId)) return Level.Write;
  let level = Level.None;
  for (const grant of ci.grants) if (grant.shareType !== 'ChildrenTree' && applies(grant, subject)) level = Math.max(level, grantLevel(grant));
  return level;
}

/** Level a CI passes down to its descendants (ownership, Tree and ChildrenTree grants). */
function inheritedFrom(ci: CiRecord, subject: Subject): Level {
  if (subject.workGroupIds.has(ci.ownerWorkGroupId)) return Level.Write;
  let level = Level.None;
  for (const grant of ci.grants) if (grant.shareType !== 'ConfigItem' && applies(grant, subject)) level = Math.max(level, grantLevel(grant));
  return level;
}

/** The subject's level on one CI: walks the ancestors (depth is small). */
export function levelOn(cmdb: CmdbSlice, subject: Subject, ciId: number): Level {
  const ci = cmdb.cis.get(ciId);
  return ci ? levelOnCi(cmdb, subject, ci) : Level.None;
}

/** As levelOn, for a CI already looked up (a read looks it up once). */
export function levelOnCi(cmdb: CmdbSlice, subject: Subject, ci: CiRecord): Level {
  if (subject.admin) return Level.Write;
  let level = ownLevel(ci, subject);
  // A plain loop rather than cmdb.ancestors(): this runs on every CI read.
  for (let parentId = ci.parentId; parentId !== null && level !== Level.Write;) {
    const ancestor = cmdb.cis.get(parentId);
    if (!ancestor) break;
    level = Math.max(level, inheritedFrom(ancestor, subject));
    parentId = ancestor.parentId;
  }
  return level;
}

/**
 * The subject's level on every CI. Each CI's level comes from itself and from what its parent
 * passes down; what a CI passes down is memoised, so every ancestor is looked at once however
 * many CIs sit below it (a list of 10^5 CIs is filtered in tens of milliseconds).
 */
export function levelsOnAll(cmdb: CmdbSlice, subject: Subject): Map<number, Level> {
  const levels = new Map<number, Level>();
  if (subject.admin) {
    for (const id of cmdb.cis.keys()) levels.set(id, Level.Write);
    return levels;
  }
  const passed = new Map<number, Level>();
  const passedBy = (id: number): Level => {
    const known = passed.get(id);
    if (known !== undefined) return known;
    const ci = cmdb.cis.get(id);
    let level: Level = Level.None;
    if (ci) {
      level = inheritedFrom(ci, subject);
      if (level < Level.Write && ci.parentId !== null) level = Math.max(level, passedBy(ci.parentId));
    }
    passed.set(id, level);
    return level;
  };
  for (const ci of cmdb.cis.values()) {
    const own = ownLevel(ci, subject);
    levels.set(ci.id, own === Level.Write || ci.parentId === null ? own : Math.max(own, passedBy(ci.parentId)));
  }
  return levels;
}

export const canBasicRead = (level: Level): boolean => level >= Level.BasicRead;
export const canRead = (level: Level): boolean => level >= Level.Read;
export const canWrite = (level: Level): boolean => level >= Level.Write;
