/**
 * Reference data the CMDB screens share, read once per page load: the CI types (with their
 * icons) and the workgroups the caller may name.
 */
import { computed, signal } from '@preact/signals';
import { api } from '../app/api.js';
import type { CiTypeRef, WorkGroup } from './cmdb-model.js';

export const ciTypes = signal<readonly CiTypeRef[] | undefined>(undefined);
export const workGroups = signal<readonly WorkGroup[] | undefined>(undefined);

/** Type id → the icon's image URL (null: the type has none). */
export const typeIcons = computed(() => new Map((ciTypes.value ?? []).map((t) => [t.id, t.icon?.iconUrl ?? null])));

let types: Promise<void> | undefined;
let groups: Promise<void> | undefined;

export function loadCiTypes(): Promise<void> {
  types ??= api.GET('/api/public/sm/v2/rsm/config-item-types', { params: { query: { includeIcon: true } } }).then(({ data }) => {
    if (data) ciTypes.value = data;
    else types = undefined;
  });
  return types;
}

export function loadWorkGroups(): Promise<void> {
  groups ??= api.GET('/api/public/sm/v2/rsm/work-groups').then(({ data }) => {
    if (data) workGroups.value = data;
    else groups = undefined;
  });
  return groups;
}
