/**
 * The JSON of a CI's plain view (`GET config-items/{id}` without state, health, icon or SLA),
 * kept as bytes. Reads of a CI outnumber its changes by far, and building and serialising the
 * view was a fifth of such a request's time. The view names other CIs, its type, its CMDB system
 * and workgroups, so any change of the CMDB or of a workgroup drops every kept answer. The bytes
 * kept are bounded: past the budget they are dropped and kept again as they are asked.
 */
import { ciView } from '../../control-plane/cmdb/ci.view.js';
import type { CiRecord } from '../../control-plane/cmdb/cmdb.types.js';
import type { PlatformModel } from '../../control-plane/model.js';

/** About 100 000 CIs of ~900 bytes. */
const DEFAULT_BUDGET_BYTES = 96 * 1024 * 1024;

/** CI ids are a dense sequence: the bytes are kept in arrays of this many ids, found without hashing. */
const CHUNK_BITS = 10;
const CHUNK_MASK = (1 << CHUNK_BITS) - 1;

export function createCiViewBytes(model: PlatformModel, budgetBytes = DEFAULT_BUDGET_BYTES): (ci: CiRecord) => Buffer {
  let kept: Array<Array<Buffer | undefined> | undefined> = [];
  let keptBytes = 0;
  let cmdbAt = -1;
  let workGroupsAt = -1;
  return (ci) => {
    const { cmdb, identity } = model.slices;
    if (cmdb.changes !== cmdbAt || identity.workGroupChanges !== workGroupsAt || keptBytes > budgetBytes) {
      kept = [];
      keptBytes = 0;
      cmdbAt = cmdb.changes;
      workGroupsAt = identity.workGroupChanges;
    }
    const chunkAt = ci.id >>> CHUNK_BITS;
    while (kept.length <= chunkAt) kept.push(undefined);
    const chunk = (kept[chunkAt] ??= []);
    let bytes = chunk[ci.id & CHUNK_MASK];
    if (!bytes) {
      bytes = Buffer.from(JSON.stringify(ciView(model, ci, {})));
      while (chunk.length < (ci.id & CHUNK_MASK)) chunk.push(undefined);
      chunk[ci.id & CHUNK_MASK] = bytes;
      keptBytes += bytes.length;
    }
    return bytes;
  };
}
