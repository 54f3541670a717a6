/** Users, workgroups, roles and tokens in memory, with the indexes authentication needs. */
import type { Slice } from '../model.js';
import type { RoleRecord, TokenRecord, UserRecord, WorkGroupRecord } from './identity.types.js';

export class IdentitySlice implements Slice {
  readonly kinds = ['user', 'workgroup', 'role', 'token'];
  readonly users = new Map<number, UserRecord>();
  readonly workGroups = new Map<number, WorkGroupRecord>();
  readonly roles = new Map<string, RoleRecord>();
  readonly tokens = new Map<number, TokenRecord>();
  private readonly tokensByHash = new Map<string, TokenRecord>();
  private readonly groupsOfUser = new Map<number, Set<number>>();
  /** Counts the workgroup changes: views naming workgroups know when to be made again. */
  workGroupChanges = 0;
  /** Rights per user, computed on first use after any user or role change. */
  private readonly rightsCache = new Map<number, ReadonlySet<string>>();

  apply(key: string, kind: string, value: unknown): void {
    const id = key.slice(kind.length + 1);
    if (kind === 'user' || kind === 'role') this.rightsCache.clear();
    switch (kind) {
      case 'user':
        setOrDelete(this.users, Number(id), value as UserRecord | null);
        break;
      case 'role':
        setOrDelete(this.roles, id, value as RoleRecord | null);
        break;
      case 'workgroup': {
        this.workGroupChanges++;
        const before = this.workGroups.get(Number(id));
        for (const member of before?.memberIds ?? []) this.groupsOfUser.get(member)?.delete(Number(id));
        setOrDelete(this.workGroups, Number(id), value as WorkGroupRecord | null);
        for (const member of (value as WorkGroupRecord | null)?.memberIds ?? []) {
          let groups = this.groupsOfUser.get(member);
          if (!groups) this.groupsOfUser.set(member, (groups = new Set()));
          groups.add(Number(id));
        }
        break;
      }
      case 'token': {
        const before = this.tokens.get(Number(id));
        if (before) this.tokensByHash.delete(before.sha256);
        setOrDelete(this.tokens, Number(id), value as TokenRecord | null);
        if (value) this.tokensByHash.set((value as TokenRecord).sha256, value as TokenRecord);
        break;
      }
    }
  }

  tokenByHash(sha256: string): TokenRecord | undefined {
    return this.tokensByHash.get(sha256);
  }

  /** Workgroup ids the user is a member of. */
  workGroupsOf(userId: number): ReadonlySet<number> {
    return this.groupsOfUser.get(userId) ?? emptySet;
  }

  rightsOf(user: UserRecord): ReadonlySet<string> {
    let rights = this.rightsCache.get(user.id);
    if (!rights) {
      const set = new Set<string>();
      for (const name of user.roles) for (const right of this.roles.get(name)?.rights ?? []) set.add(right);
      this.rightsCache.set(user.id, (rights = set));
    }
    return rights;
  }

  /**
   * The roles that grant any of `rights`, narrowest first (fewest rights, then by name): what a
   * 403 for a missing right suggests asking for, the least-privileged role before `admin`.
   */
  rolesGranting(rights: readonly string[]): string[] {
    return [...this.roles.values()]
      .filter((role) => role.rights.some((right) => rights.includes(right)))
      .sort((a, b) => a.rights.length - b.rights.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((role) => role.name);
  }
}

const emptySet: ReadonlySet<number> = new Set();

function setOrDelete<K, V>(map: Map<K, V>, key: K, value: V | null): void {
  if (value === null) map.delete(key);
  else map.set(key, value);
}

declare module '../model.js' {
  interface PlatformSlices {
    identity: IdentitySlice;
  }
}
