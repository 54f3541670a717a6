/**
 * /admin/<section>: running the platform, one section at a time (the section is in the path, its
 * selection in the query, so every view can be linked): users and their tokens, workgroups, roles,
 * CI types with their icons, CMDB systems, SLA templates, notification receivers (with their
 * delivery log and replay) and policies, and the triggers. Only for platform admins: without
 * `base-system.admin` the screen says so and asks the API nothing.
 */
import type { FunctionComponent } from 'preact';
import { useRoute } from 'preact-iso';
import { AdminCiTypes } from '../components/admin-ci-types.js';
import { AdminCmdbSystems } from '../components/admin-cmdb-systems.js';
import { AdminPolicies } from '../components/admin-policies.js';
import { AdminReceivers } from '../components/admin-receivers.js';
import { AdminRoles } from '../components/admin-roles.js';
import { AdminSlaTemplates } from '../components/admin-sla-templates.js';
import { AdminTriggers } from '../components/admin-triggers.js';
import { AdminUsers } from '../components/admin-users.js';
import { AdminWorkGroups } from '../components/admin-work-groups.js';
import { NeedsRight } from '../components/load.js';

const SECTIONS: ReadonlyArray<{ id: string; label: string; Section: FunctionComponent }> = [
  { id: 'users', label: 'Users', Section: AdminUsers },
  { id: 'work-groups', label: 'Workgroups', Section: AdminWorkGroups },
  { id: 'roles', label: 'Roles', Section: AdminRoles },
  { id: 'ci-types', label: 'CI types', Section: AdminCiTypes },
  { id: 'cmdb-systems', label: 'CMDB systems', Section: AdminCmdbSystems },
  { id: 'sla-templates', label: 'SLA templates', Section: AdminSlaTemplates },
  { id: 'receivers', label: 'Receivers', Section: AdminReceivers },
  { id: 'policies', label: 'Policies', Section: AdminPolicies },
  { id: 'triggers', label: 'Triggers', Section: AdminTriggers },
];

function AdminScreen() {
  const { params } = useRoute();
  const wanted = params['section'] ?? 'users';
  const current = SECTIONS.find((s) => s.id === wanted);
  return (
    <main class="admin">
      <h1>Admin</h1>
      <nav aria-label="Admin sections" class="admin-sections">
        <ul>
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <a href={`/admin/${s.id}`} aria-current={s === current ? 'page' : undefined}>
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {current ? (
        <section aria-labelledby="admin-section-h" class="admin-section">
          <h2 id="admin-section-h">{current.label}</h2>
          <current.Section />
        </section>
      ) : (
        <p>
          There is no admin section <code>{wanted}</code>. Choose one above.
        </p>
      )}
    </main>
  );
}

export default function Admin() {
  return (
    <NeedsRight title="Admin" right="base-system.admin">
      <AdminScreen />
    </NeedsRight>
  );
}
