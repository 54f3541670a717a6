/** Records of the identity slice (DESIGN §4), as stored in the journal. */
export const PLATFORM_RIGHTS = [
  'base-system.admin',
  'base-system.notifications.write',
  'base-system.rsm-maintenance.read',
  'base-system.rsm-maintenance.write',
  'base-system.sla.read',
  'base-system.streams.read',
] as const;
export type PlatformRight = (typeof PLATFORM_RIGHTS)[number];

export interface UserRecord {
  id: number;
  name: string;
  /** Role names; a user's platform rights are the union of its roles' rights. */
  roles: string[];
  disabled: boolean;
  createdAt: string;
}

export interface WorkGroupRecord {
  id: number;
  name: string;
  memberIds: number[];
}

export interface RoleRecord {
  name: string;
  description: string;
  rights: PlatformRight[];
}

export interface TokenRecord {
  id: number;
  userId: number;
  name: string;
  /** Hex SHA-256 of the secret; the secret itself is shown once and never stored. */
  sha256: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}
