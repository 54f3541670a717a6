/** Records of the CMDB slice (spec 2.1–2.8, DESIGN §4a), as stored in the journal. */
export const CI_RIGHTS = ['base-system.rsm.basic-read', 'base-system.rsm.monitoring-read', 'base-system.rsm.read', 'base-system.rsm.write'] as const;
export type CiRight = (typeof CI_RIGHTS)[number];
export type ShareType = 'ConfigItem' | 'Tree' | 'ChildrenTree';
export type Labels = Record<string, string | string[] | null>;

export interface CiTypeRecord {
  id: number;
  name: string;
  description: string;
  /** The type a CI gets when created with `configItemType: null`. Exactly one is default. */
  isDefault: boolean;
  /** A built-in or uploaded icon (ci-type-icons.ts); absent or null: none. */
  iconId?: number | null;
}

/**
 * An uploaded CI type icon (`citypeicon:<id>`): a PNG of at most 64 KiB, kept in the journal as
 * base64 (docs/decisions.md "CI type icons"). Its bytes never change: a new image is a new icon.
 */
export interface CiTypeIconRecord {
  id: number;
  name: string;
  fileName: string | null;
  contentType: 'image/png';
  /** The PNG, base64. */
  data: string;
  bytes: number;
  width: number;
  height: number;
  createdAt: string;
  createdBy: number;
}

export interface CmdbSystemRecord {
  id: number;
  name: string;
}

export interface GrantRecord {
  /** The `{sharedId}` of endpoint #11 (DESIGN §4a). */
  id: number;
  /** 0 = every workgroup, present and future. */
  workGroupId: number;
  shareType: ShareType;
  grants: CiRight[];
}

export interface CmdbLink {
  instanceId: number;
  entityId: string;
  labels: string[];
}

export interface CiRecord {
  id: number;
  name: string;
  description: string;
  parentId: number | null;
  ownerWorkGroupId: number;
  typeId: number;
  labels: Labels | null;
  /** -1 = the default CMDB. */
  cmdbSystemId: number;
  cmdbLinks: CmdbLink[];
  grants: GrantRecord[];
  /** CIs that influence this one (incoming Influence edges). */
  influentialIds: number[];
  createdAt: string;
  createdBy: number;
  createdByName: string;
  updatedAt: string;
  updatedBy: number;
  updatedByName: string;
}
