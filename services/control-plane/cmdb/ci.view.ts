/** The wire forms of a CI (spec 2.3–2.9), built from the model. */
import type { ConfigItemModel } from '../../../schemas/cmdb.schema.js';
import { ciHealth, ciState } from '../problems/ci-state.js';
import type { PlatformModel } from '../model.js';
import { ciTypeWithIcon } from './ci-type-icons.js';
import type { CiRecord } from './cmdb.types.js';

export interface ViewOptions {
  includeState?: boolean;
  includeHealth?: boolean;
  /** Adds the type's icon (spec 2.13 icon object, or null) to `configItemType`. */
  includeIcon?: boolean;
  /** Epoch ms: maintenance coverage is asked at this instant. */
  now?: number;
}

const byId = (a: { configItem: { id: number } }, b: { configItem: { id: number } }): number => a.configItem.id - b.configItem.id;

export function ciView(model: PlatformModel, ci: CiRecord, options: ViewOptions): ConfigItemModel {
  const cmdb = model.slices.cmdb;
  const ref = (id: number) => ({ id, name: cmdb.cis.get(id)?.name ?? '' });
  const type = cmdb.types.get(ci.typeId);
  const configItemType = options.includeIcon ? ciTypeWithIcon(cmdb, ci.typeId) : { id: ci.typeId, name: type?.name ?? '', description: type?.description ?? '' };
  const parent = ci.parentId === null ? null : ref(ci.parentId);
  const view: ConfigItemModel = {
    id: ci.id,
    name: ci.name,
    description: ci.description,
    parent,
    ownerWorkGroup: { id: ci.ownerWorkGroupId, name: model.slices.identity.workGroups.get(ci.ownerWorkGroupId)?.name ?? '' },
    configItemType,
    labels: ci.labels,
    entityInfo: {
      createdAt: ci.createdAt,
      createdBy: ci.createdBy,
      createdByName: ci.createdByName,
      updatedAt: ci.updatedAt,
      updatedBy: ci.updatedBy,
      updatedByName: ci.updatedByName,
    },
    incomingEdges: [
      ...(parent ? [{ type: 'Hierarchy' as const, configItem: parent }] : []),
      ...ci.influentialIds.map((id) => ({ type: 'Influence' as const, configItem: ref(id) })).sort(byId),
    ],
    outgoingEdges: [
      ...[...cmdb.childrenIds(ci.id)].map((id) => ({ type: 'Hierarchy' as const, configItem: ref(id) })).sort(byId),
      ...[...cmdb.dependentIds(ci.id)].map((id) => ({ type: 'Influence' as const, configItem: ref(id) })).sort(byId),
    ],
    cmdbLinks: ci.cmdbLinks,
    sharedToWorkGroups: ci.grants.map((g) => ({ id: g.id, workGroupId: g.workGroupId, shareType: g.shareType, grants: g.grants })),
  };
  if (ci.cmdbSystemId !== -1) view.cmdbSystem = { id: ci.cmdbSystemId, name: cmdb.systems.get(ci.cmdbSystemId)?.name ?? '' };
  // State and health come from the open problems (DESIGN §7); before any change they are dated
  // by the CI's own last update.
  const at = (changedAt: number | null) => (changedAt === null ? ci.updatedAt : new Date(changedAt).toISOString());
  if (options.includeState) {
    const state = ciState(model, ci.id, options.now ?? Date.now());
    view.state = { value: state.value, valueUnderMaintenance: state.valueUnderMaintenance, Timestamp: at(state.changedAt) };
  }
  if (options.includeHealth) {
    const health = ciHealth(model, ci.id);
    view.healthStatus = { value: health.value, timestamp: at(health.changedAt), calculation: { resultBy: 'Direct', direct: health.direct, weight: 100 } };
    view.healthInfluence = { value: 100, maxInfluence: true };
  }
  return view;
}

export const shortView = (ci: CiRecord) => ({ id: ci.id, name: ci.name });
export const filteredView = (ci: CiRecord) => ({ id: ci.id, name: ci.name, labels: ci.labels });
