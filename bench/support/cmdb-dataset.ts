/**
 * The CMDB the API benchmark runs against: 100 000 CIs with a deterministic layout, built as
 * journal records so that seeding is a handful of control-plane commits (no I/O here).
 *
 * - CIs come in groups of 10: the first is a root (`cluster-…`), the 9 others its children
 *   (`host-…`); ids run 1..100 000 in a fresh data directory.
 * - Even groups belong to workgroup `ops` (the benchmark user's); odd groups to `net`. The roots
 *   of the groups with g % 4 = 1 share their tree to `ops` with read (a `Tree` grant), so the
 *   user reads those children through an ancestor walk; groups with g % 4 = 3 stay hidden.
 *   The user may read 75 % of the CIs, 50 % as owner and 25 % through a grant.
 * - Labels: every CI has `env` and `site`, children also `os`; `env` is `prod` for id % 10 = 3
 *   (10 %); `tier` exists only on the CIs of every tenth block of 100 ids (10 %). So
 *   `{env: ['prod'], tier: null}` matches exactly 1 % (1 000 CIs) and `{env: ['prod']}` 10 %.
 */
import type { CiFilterBody } from '../../schemas/cmdb.schema.js';
import type { CiRecord, GrantRecord, Labels } from '../../services/control-plane/cmdb/cmdb.types.js';
import type { JournalChange } from '../../services/runtime/adapters/journal/journal.port.js';

export const CI_COUNT: number = 100_000;
const GROUP_SIZE = 10;
const GROUP_COUNT = CI_COUNT / GROUP_SIZE;
/** Shared groups are 1, 5, 9...: their count is the last grant id. */
const SHARED_GROUP_COUNT = Math.floor((GROUP_COUNT + 2) / 4);

export interface DatasetContext {
  /** The benchmark user's workgroup. */
  opsWorkGroupId: number;
  /** A workgroup the benchmark user is not in. */
  netWorkGroupId: number;
  typeId: number;
  author: { id: number; name: string };
  now: string;
}

export const BENCH_FILTERS = {
  /** Scans the 10 000 CIs carrying `tier` (the smallest label index); matches 1 000. */
  onePercent: { labels: { env: ['prod'], tier: null } },
  /** Scans the 100 000 CIs carrying `env`; matches 10 000. */
  tenPercent: { labels: { env: ['prod'] } },
} satisfies Record<string, CiFilterBody>;

const groupOf = (id: number): number => Math.floor((id - 1) / GROUP_SIZE);
const isRoot = (id: number): boolean => (id - 1) % GROUP_SIZE === 0;
const ownedByOps = (group: number): boolean => group % 2 === 0;
const sharedToOps = (group: number): boolean => group % 4 === 1;

/** Whether the benchmark user (member of `ops` only) may read the CI. */
export const readableByOps = (id: number): boolean => ownedByOps(groupOf(id)) || sharedToOps(groupOf(id));

/** The grant id of a shared root: the shared groups numbered 1, 2, 3... */
const grantIdOf = (group: number): number => (group - 1) / 4 + 1;

function labelsOf(id: number): Labels {
  const group = groupOf(id);
  const rest = id % 10;
  const labels: Labels = {
    env: rest === 3 ? 'prod' : rest === 0 || rest === 5 || rest === 7 ? 'staging' : 'dev',
    site: `dc-${group % 5}`,
  };
  if (!isRoot(id)) labels['os'] = id % 7 === 0 ? 'windows' : 'linux';
  if (Math.floor((id - 1) / 100) % 10 === 7) labels['tier'] = id % 2 === 0 ? 'gold' : ['silver', 'bronze'];
  return labels;
}

export function ciRecord(id: number, ctx: DatasetContext): CiRecord {
  const group = groupOf(id);
  const root = isRoot(id);
  const grants: GrantRecord[] = root && sharedToOps(group) ? [{ id: grantIdOf(group), workGroupId: ctx.opsWorkGroupId, shareType: 'Tree', grants: ['base-system.rsm.read'] }] : [];
  return {
    id,
    name: root ? `cluster-${String(group).padStart(5, '0')}` : `host-${String(id).padStart(6, '0')}`,
    description: root ? `Cluster ${group} of the benchmark CMDB` : `Host ${id} in cluster ${group}`,
    parentId: root ? null : group * GROUP_SIZE + 1,
    ownerWorkGroupId: ownedByOps(group) ? ctx.opsWorkGroupId : ctx.netWorkGroupId,
    typeId: ctx.typeId,
    labels: labelsOf(id),
    cmdbSystemId: -1,
    cmdbLinks: [],
    grants,
    influentialIds: [],
    createdAt: ctx.now,
    createdBy: ctx.author.id,
    createdByName: ctx.author.name,
    updatedAt: ctx.now,
    updatedBy: ctx.author.id,
    updatedByName: ctx.author.name,
  };
}

/** The journal changes for CIs `from..to` (inclusive); the last chunk also sets the sequences. */
export function seedChanges(from: number, to: number, ctx: DatasetContext): JournalChange[] {
  const changes: JournalChange[] = [];
  for (let id = from; id <= to; id++) changes.push({ key: `ci:${id}`, value: ciRecord(id, ctx) });
  if (to === CI_COUNT) {
    changes.push({ key: 'seq:ci', value: CI_COUNT });
    changes.push({ key: 'seq:grant', value: SHARED_GROUP_COUNT });
  }
  return changes;
}

/** The admin token of the seeded installation (cmdb-seed.ts), given to the platform started on it. */
export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';

/** What cmdb-seed.ts prints once the CMDB is on disk. */
export interface CmdbSeedInfo {
  /** Token of the non-admin benchmark user. */
  token: string;
  user: { id: number; name: string; workGroupIds: number[] };
  workGroups: { ops: number; net: number };
  ciCount: number;
  /** CIs the benchmark user may read, ascending. */
  readableIds: number[];
  seedMs: number;
}
