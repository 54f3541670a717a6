/**
 * /admin: who may do what — the users (their roles, workgroups and state), the workgroups with
 * their members, the roles with the platform rights they bundle, and the triggers (each with a
 * link to its open problems).
 */
import { api } from '../app/api.js';
import type { operations } from '../app/api-schema.js';
import { Load, NeedsRight, TableScroll, useLoad } from '../components/load.js';
import { Time } from '../components/time.js';

type User = operations['admin.listUsers']['responses'][200]['content']['application/json'][number];
type WorkGroup = operations['admin.listWorkGroups']['responses'][200]['content']['application/json'][number];
type Role = operations['admin.listRoles']['responses'][200]['content']['application/json'][number];
type Trigger = operations['admin.listTriggers']['responses'][200]['content']['application/json'][number];

function Users({ users, groups }: { users: User[]; groups: Map<number, string> }) {
  return (
    <TableScroll label="Users table">
      <table>
        <thead>
          <tr>
            <th scope="col">Id</th>
            <th scope="col">Name</th>
            <th scope="col">Roles</th>
            <th scope="col">Workgroups</th>
            <th scope="col">State</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id}>
              <td>{u.id}</td>
              <td>{u.name}</td>
              <td>{u.roles.join(', ') || <span class="muted">none</span>}</td>
              <td>{u.workGroupIds.map((id) => groups.get(id) ?? `#${id}`).join(', ') || <span class="muted">none</span>}</td>
              <td>{u.disabled ? <span class="badge disabled">Disabled</span> : 'Active'}</td>
              <td>
                <Time iso={u.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function WorkGroups({ groups, users }: { groups: WorkGroup[]; users: Map<number, string> }) {
  return (
    <TableScroll label="Workgroups table">
      <table>
        <thead>
          <tr>
            <th scope="col">Id</th>
            <th scope="col">Name</th>
            <th scope="col">Members</th>
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <tr key={g.id}>
              <td>{g.id}</td>
              <td>{g.name}</td>
              <td>{g.memberIds.map((id) => users.get(id) ?? `#${id}`).join(', ') || <span class="muted">none</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function Roles({ roles }: { roles: Role[] }) {
  return (
    <TableScroll label="Roles table">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Description</th>
            <th scope="col">Rights</th>
          </tr>
        </thead>
        <tbody>
          {roles.map((r) => (
            <tr key={r.name}>
              <td>{r.name}</td>
              <td>{r.description}</td>
              <td>
                {r.rights.map((right) => (
                  <code key={right} class="right">
                    {right}
                  </code>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function Triggers({ triggers }: { triggers: Trigger[] }) {
  if (triggers.length === 0) return <p class="muted">No trigger yet.</p>;
  return (
    <TableScroll label="Triggers table">
      <table>
        <thead>
          <tr>
            <th scope="col">Id</th>
            <th scope="col">Name</th>
            <th scope="col">Enabled</th>
            <th scope="col">Streams</th>
            <th scope="col">Description</th>
            <th scope="col">Problems</th>
          </tr>
        </thead>
        <tbody>
          {triggers.map((t) => (
            <tr key={t.id}>
              <td>{t.id}</td>
              <td>{t.name}</td>
              <td>{t.enabled ? 'Yes' : 'No'}</td>
              <td>
                {t.streamIds.map((id) => (
                  <a key={id} class="sep" href={`/streams?stream=${id}`}>
                    {id}
                  </a>
                ))}
              </td>
              <td>{t.description}</td>
              <td>
                <a href={`/problems?triggerIds=${t.id}`} aria-label={`Open problems of ${t.name}`}>
                  Open problems
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function AdminScreen() {
  const [users] = useLoad((signal) => api.GET('/api/admin/v1/users', { signal }), []);
  const [groups] = useLoad((signal) => api.GET('/api/admin/v1/work-groups', { signal }), []);
  const [roles] = useLoad((signal) => api.GET('/api/admin/v1/roles', { signal }), []);
  const [triggers] = useLoad((signal) => api.GET('/api/admin/v1/triggers', { signal }), []);
  const userNames = new Map(users.state === 'ok' ? users.data.map((u) => [u.id, u.name]) : []);
  const groupNames = new Map(groups.state === 'ok' ? groups.data.map((g) => [g.id, g.name]) : []);
  return (
    <main>
      <h1>Admin</h1>
      <nav aria-label="Sections" class="sections">
        <a href="#users-h">Users</a> <a href="#groups-h">Workgroups</a> <a href="#roles-h">Roles</a> <a href="#triggers-h">Triggers</a>
      </nav>
      <section aria-labelledby="users-h">
        <h2 id="users-h">Users</h2>
        <Load loaded={users} label="users">
          {(list) => <Users users={list} groups={groupNames} />}
        </Load>
      </section>
      <section aria-labelledby="groups-h">
        <h2 id="groups-h">Workgroups</h2>
        <Load loaded={groups} label="workgroups">
          {(list) => (list.length === 0 ? <p class="muted">No workgroup yet.</p> : <WorkGroups groups={list} users={userNames} />)}
        </Load>
      </section>
      <section aria-labelledby="roles-h">
        <h2 id="roles-h">Roles</h2>
        <Load loaded={roles} label="roles">
          {(list) => <Roles roles={list} />}
        </Load>
      </section>
      <section aria-labelledby="triggers-h">
        <h2 id="triggers-h">Triggers</h2>
        <Load loaded={triggers} label="triggers">
          {(list) => <Triggers triggers={list} />}
        </Load>
      </section>
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
