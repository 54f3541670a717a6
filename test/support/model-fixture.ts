/** A control model holding a CI hierarchy, maintenance modes and triggers, built from records, for pure tests and the bench. */

import type { CiRecord } from '../../services/control-plane/cmdb/cmdb.types.js';
import type { MaintenanceRecord, ScopeEntryRecord } from '../../services/control-plane/maintenance/maintenance.types.js';
import type { TriggerModel } from '../../schemas/trigger.schema.js';
import { createControlModel } from '../../services/control-plane/slices.js';
import type { PlatformModel } from '../../services/control-plane/model.js';

export const H = 3_600_000;
export const T0 = Date.parse('2026-11-01T00:00:00.000Z');

export function ciRecord(id: number, parentId: number | null): CiRecord {
  return {
    id,
    name: `ci-${id}`,
    description: '',
    parentId,
    ownerWorkGroupId: 1,
    typeId: 1,
    labels: null,
    cmdbSystemId: -1,
    cmdbLinks: [],
    grants: [],
    influentialIds: [],
    createdAt: '',
    createdBy: 1,
    createdByName: '',
    updatedAt: '',
    updatedBy: 1,
    updatedByName: '',
  };
}

/** A trigger record (`trigger:<id>`): CI by the `ci` field, priority 2, resolved by status ok, no influence unless given. */
export function triggerRecord(over: Partial<TriggerModel> = {}): TriggerModel {
  const id = over.id ?? 1;
  return {
    id,
    name: `trigger ${id}`,
    description: '',
    enabled: true,
    streamIds: [1],
    match: [],
    ci: { by: 'idField', field: 'ci' },
    priority: { value: 2 },
    resolve: { field: 'status', values: ['ok'] },
    tags: [],
    incidents: [],
    influence: { value: 0, maxInfluence: false },
    createdAt: '',
    updatedAt: '',
    ...over,
  };
}

export function modeRecord(
  id: number,
  start: number,
  end: number,
  entries: Array<Partial<ScopeEntryRecord> & { ciId: number }>,
  extra: Partial<MaintenanceRecord> = {},
): MaintenanceRecord {
  return {
    id,
    title: `mode ${id}`,
    start,
    end,
    labels: {},
    canceledAt: null,
    completedAt: null,
    createdAt: '',
    createdBy: 1,
    updatedAt: '',
    updatedBy: 1,
    entries: entries.map((e) => ({ scope: 'Ci', depth: -1, start, end, ...e })),
    ...extra,
  };
}

/** `parents` maps a CI id to its parent (null for a root). */
export function buildModel(parents: ReadonlyMap<number, number | null> | Record<number, number | null>, modes: MaintenanceRecord[]): PlatformModel {
  const model = createControlModel();
  const records = new Map<string, unknown>();
  const entries = parents instanceof Map ? [...parents] : Object.entries(parents).map(([id, parent]) => [Number(id), parent] as const);
  for (const [id, parent] of entries) records.set(`ci:${id}`, ciRecord(id, parent));
  for (const mode of modes) records.set(`maint:${mode.id}`, mode);
  model.load(records, 1);
  return model;
}
