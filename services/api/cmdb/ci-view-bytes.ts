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

/**
 * Generated CI ids are a dense sequence: their bytes are kept in arrays of this many ids, found
 * without hashing. A client may choose any id (up to 2^53): those past ARRAY_IDS go to a map, so a
 * large id neither wraps in 32-bit arithmetic nor makes the arrays long.
 */
const CHUNK_BITS = 10;
const CHUNK_SIZE = 1 << CHUNK_BITS;
const ARRAY_IDS = 1 << 22;

export function createCiViewBytes(model: PlatformModel, budgetBytes = DEFAULT_BUDGET_BYTES): (ci: CiRecord) => Buffer {
  let kept: Array<Array<Buffer | undefined> | undefined> = [];
  let keptFar = new Map<number, Buffer>();
  let keptBytes = 0;
  let cmdbAt = -1;
  let workGroupsAt = -1;
  const make = (ci: CiRecord): Buffer => {
    const bytes = Buffer.from(JSON.stringify(ciView(model, ci, {})));
    keptBytes += bytes.length;
    return bytes;
  };
  return (ci) => {
    const { cmdb, identity } = model.slices;
    if (cmdb.changes !== cmdbAt || identity.workGroupChanges !== workGroupsAt || keptBytes > budgetBytes) {
      kept = [];
      keptFar = new Map();
      keptBytes = 0;
      cmdbAt = cmdb.changes;
      workGroupsAt = identity.workGroupChanges;
    }
    const { id } = ci;
    if (id >= ARRAY_IDS) {
      let bytes = keptFar.get(id);
      if (!bytes) keptFar.set(id, (bytes = make(ci)));
      return bytes;
    }
    const chunkAt = id >> CHUNK_BITS;
    const at = id & (CHUNK_SIZE - 1);
    while (kept.length <= chunkAt) kept.push(undefined);
    const chunk = (kept[chunkAt] ??= []);
    let bytes = chunk[at];
    if (!bytes) {
      while (chunk.length < at) chunk.push(undefined);
      chunk[at] = bytes = make(ci);
    }
    return bytes;
  };
}
