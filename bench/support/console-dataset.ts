/**
 * The CMDB of the console benchmark (issue #32), deterministic and without I/O: 100 000 CIs, one
 * of which has 5 000 children, the rest in sites as the problems API benchmark has them.
 *
 * - id 1, `pool-000001` (a top-level CI; its name sorts before every site's, so it is the tree's
 *   first row), with the 5 000 children `vm-000002` … `vm-005001`;
 * - ids 5 002 … 100 000: 95 sites of up to 1 000 CIs (a root `site-…`, 9 clusters, hosts under
 *   the clusters; the last site has 999), owned by `ops` or `net` as in problems-api-dataset.ts.
 *
 * The problems are problems-api-dataset.ts's `problemLines` with one problem per CI, open ones
 * only: the CIs whose id ends in 9 keep theirs open, 10 000 open problems spread over the CIs.
 */
import type { CiRecord } from '../../services/control-plane/cmdb/cmdb.types.js';
import type { JournalChange } from '../../services/runtime/adapters/journal/journal.port.js';
import type { CmdbContext } from './problems-api-dataset.js';

export const CONSOLE_CI_COUNT = 100_000;
/** The CI with 5 000 children, and its name. */
export const WIDE_ID = 1;
export const WIDE_NAME = 'pool-000001';
export const WIDE_CHILDREN = 5_000;
const FIRST_SITE_ID = WIDE_ID + WIDE_CHILDREN + 1;
const SITE_SIZE = 1000;
const CLUSTERS = 9;
const HOSTS_PER_CLUSTER = (SITE_SIZE - 1 - CLUSTERS) / CLUSTERS;

const pad = (id: number): string => String(id).padStart(6, '0');

function shapeOf(id: number, ctx: CmdbContext): Pick<CiRecord, 'name' | 'description' | 'parentId' | 'ownerWorkGroupId' | 'labels'> {
  if (id === WIDE_ID)
    return { name: WIDE_NAME, description: `a pool of ${WIDE_CHILDREN} virtual machines`, parentId: null, ownerWorkGroupId: ctx.opsWorkGroupId, labels: { kind: 'pool' } };
  if (id < FIRST_SITE_ID)
    return {
      name: `vm-${pad(id)}`,
      description: `virtual machine ${id - WIDE_ID} of ${WIDE_NAME}`,
      parentId: WIDE_ID,
      ownerWorkGroupId: ctx.opsWorkGroupId,
      labels: { kind: 'vm' },
    };
  const site = Math.floor((id - FIRST_SITE_ID) / SITE_SIZE);
  const root = FIRST_SITE_ID + site * SITE_SIZE;
  const offset = id - root;
  const owner = site % 2 === 0 ? ctx.opsWorkGroupId : ctx.netWorkGroupId;
  if (offset === 0) return { name: `site-${pad(id)}`, description: `site ${site}`, parentId: null, ownerWorkGroupId: owner, labels: { site: `site-${site}`, kind: 'site' } };
  if (offset <= CLUSTERS)
    return { name: `cluster-${pad(id)}`, description: `cluster of site ${site}`, parentId: root, ownerWorkGroupId: owner, labels: { site: `site-${site}`, kind: 'cluster' } };
  const cluster = root + 1 + Math.floor((offset - 1 - CLUSTERS) / HOSTS_PER_CLUSTER);
  return { name: `host-${pad(id)}`, description: `host of site ${site}`, parentId: cluster, ownerWorkGroupId: owner, labels: { site: `site-${site}`, kind: 'host' } };
}

/** The journal changes for CIs `from..to` (inclusive); the last chunk also sets the CI sequence. */
export function consoleCmdbChanges(from: number, to: number, ctx: CmdbContext): JournalChange[] {
  const changes: JournalChange[] = [];
  for (let id = from; id <= to; id++) {
    const record: CiRecord = {
      id,
      ...shapeOf(id, ctx),
      typeId: ctx.typeId,
      cmdbSystemId: -1,
      cmdbLinks: [],
      grants: [],
      influentialIds: [],
      createdAt: ctx.now,
      createdBy: ctx.author.id,
      createdByName: ctx.author.name,
      updatedAt: ctx.now,
      updatedBy: ctx.author.id,
      updatedByName: ctx.author.name,
    };
    changes.push({ key: `ci:${id}`, value: record });
  }
  if (to === CONSOLE_CI_COUNT) changes.push({ key: 'seq:ci', value: CONSOLE_CI_COUNT });
  return changes;
}
