/**
 * First start of an empty installation: the built-in roles, the default CI type and a bootstrap
 * admin holding every platform right. When OPS_ADMIN_TOKEN is set it is (and stays) a token of that admin; otherwise
 * a token is generated and returned so the caller can print it once.
 */
import type { JournalChange } from '../../runtime/adapters/journal/journal.port.js';
import type { PlatformCommand } from '../model.js';
import { PLATFORM_RIGHTS, type RoleRecord, type TokenRecord, type UserRecord } from './identity.types.js';
import { sha256Hex } from './tokens.js';

export const BUILT_IN_ROLES: readonly RoleRecord[] = [
  { name: 'admin', description: 'Every platform right', rights: [...PLATFORM_RIGHTS] },
  { name: 'maintenance-writer', description: 'Read and edit maintenance modes', rights: ['base-system.rsm-maintenance.read', 'base-system.rsm-maintenance.write'] },
  { name: 'maintenance-reader', description: 'Read maintenance modes', rights: ['base-system.rsm-maintenance.read'] },
  { name: 'sla-reader', description: 'Read SLA templates and order reports', rights: ['base-system.sla.read'] },
  {
    name: 'notifications-writer',
    description: "Manage the notification receivers and policies of the user's own workgroups",
    rights: ['base-system.notifications.write'],
  },
  { name: 'stream-reader', description: "Read streams' events and dead letters, and tail them live", rights: ['base-system.streams.read'] },
];

export interface BootstrapResult {
  /** Set when this call created the admin and generated its token. */
  createdAdmin?: { userId: number; name: string };
  /** The secret to print once, when it was generated here. */
  generatedToken?: string;
}

export function bootstrapCommand(input: { adminToken: string | undefined; generatedToken: string; now: string }): PlatformCommand<BootstrapResult> {
  return (model) => {
    const identity = model.slices.identity;
    const changes: JournalChange[] = [];
    for (const role of BUILT_IN_ROLES) if (!identity.roles.has(role.name)) changes.push({ key: `role:${role.name}`, value: role });
    // Spec #6: a CI created with `configItemType: null` gets the default type, so one must exist.
    if (model.slices.cmdb.types.size === 0) {
      const { id, change } = model.sequences.next('citype');
      changes.push(change, { key: `citype:${id}`, value: { id, name: 'Default', description: 'Default CI type', isDefault: true } });
    }

    const secret = input.adminToken ?? input.generatedToken;
    const digest = sha256Hex(secret);
    let admin = [...identity.users.values()].filter((u) => u.roles.includes('admin')).sort((a, b) => a.id - b.id)[0];
    let created: BootstrapResult['createdAdmin'];
    if (identity.users.size === 0) {
      const { id, change } = model.sequences.next('user');
      admin = { id, name: 'admin', roles: ['admin'], disabled: false, createdAt: input.now };
      changes.push(change, { key: `user:${id}`, value: admin satisfies UserRecord });
      created = { userId: id, name: admin.name };
    }
    const needsToken = created !== undefined || (input.adminToken !== undefined && admin !== undefined && !identity.tokenByHash(digest));
    if (needsToken && admin) {
      const { id, change } = model.sequences.next('token');
      const token: TokenRecord = {
        id,
        userId: admin.id,
        name: input.adminToken ? 'OPS_ADMIN_TOKEN' : 'bootstrap',
        sha256: digest,
        createdAt: input.now,
        expiresAt: null,
        revokedAt: null,
        lastUsedAt: null,
      };
      changes.push(change, { key: `token:${id}`, value: token });
    }
    const result: BootstrapResult = {};
    if (created) result.createdAdmin = created;
    if (created && !input.adminToken) result.generatedToken = input.generatedToken;
    return { changes, result: () => result };
  };
}
