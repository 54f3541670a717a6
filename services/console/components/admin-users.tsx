/**
 * Users: the list (roles, workgroups, state), a new user with its roles and workgroups, and the
 * selected user (`?user=<id>`): rename, roles, disable or enable, delete, and its tokens.
 * Workgroup memberships change in the Workgroups section (the API changes them there).
 */
import { useState } from 'preact/hooks';
import { type ApiProblem, api } from '../app/api.js';
import { session } from '../app/session.js';
import { Checks, DeleteButton, Notice, useKeptLoad, type Role, send, textOf, type User, useSectionQuery, type WorkGroup } from './admin-kit.js';
import { AdminTokens } from './admin-tokens.js';
import { Field, FormError } from './cmdb-field.js';
import { errorAt, formError } from './cmdb-model.js';
import { Load, TableScroll, useLoad } from './load.js';
import { Time } from './time.js';

function NewUser({ roles, groups, onCreated }: { roles: Role[]; groups: WorkGroup[]; onCreated: (user: User) => void }) {
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    const { data, problem: refused } = await send(
      api.POST('/api/admin/v1/users', {
        body: { name: textOf(form, 'name'), roles: form.getAll('roles').map(String), workGroupIds: form.getAll('workGroupIds').map(Number) },
      }),
    );
    setBusy(false);
    setProblem(refused);
    if (data) onCreated(data);
  };
  const errors = {
    name: errorAt(problem, 'name', ['user.name_taken']),
    roles: errorAt(problem, 'roles', ['role.unknown']),
    groups: errorAt(problem, 'workGroupIds', ['work_group.not_found']),
  };
  return (
    <form class="admin-form" aria-label="New user" onSubmit={submit} noValidate>
      <Field id="new-user-name" label="Name" error={errors.name}>
        {(a11y) => <input {...a11y} name="name" required autoComplete="off" maxLength={100} />}
      </Field>
      <Checks legend="Roles" name="roles" options={roles.map((r) => ({ value: r.name, label: r.name }))} checked={[]} error={errors.roles} />
      <Checks legend="Workgroups" name="workGroupIds" options={groups.map((g) => ({ value: String(g.id), label: g.name }))} checked={[]} error={errors.groups} />
      <FormError message={formError(problem, Object.values(errors))} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create user'}
        </button>
      </div>
    </form>
  );
}

function UserDetail({ user, roles, groups, onChanged, onDeleted }: { user: User; roles: Role[]; groups: Map<number, string>; onChanged: () => void; onDeleted: () => void }) {
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const self = session.value?.user.id === user.id;
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setNotice(undefined);
    const { data, problem: refused } = await send(
      api.PATCH('/api/admin/v1/users/{id}', {
        params: { path: { id: String(user.id) } },
        body: { name: textOf(form, 'name'), roles: form.getAll('roles').map(String), disabled: form.get('disabled') === 'on' },
      }),
    );
    setBusy(false);
    setProblem(refused);
    if (data) {
      setNotice(`Saved ${data.name}.`);
      onChanged();
    }
  };
  const errors = { name: errorAt(problem, 'name', ['user.name_taken']), roles: errorAt(problem, 'roles', ['role.unknown']), disabled: errorAt(problem, 'disabled') };
  return (
    <section aria-labelledby="user-h" class="admin-panel" key={user.id}>
      <div class="section-head">
        <h3 id="user-h">User {user.name}</h3>
        {!self && (
          <DeleteButton
            what={`the user ${user.name}`}
            remove={() => send(api.DELETE('/api/admin/v1/users/{id}', { params: { path: { id: String(user.id) } } }))}
            onDone={onDeleted}
          />
        )}
      </div>
      <p>
        Member of {user.workGroupIds.map((id) => groups.get(id) ?? `#${id}`).join(', ') || 'no workgroup'} (change in <a href="/admin/work-groups">Workgroups</a>). Rights:{' '}
        {user.rights.length === 0 ? (
          <span class="muted">none</span>
        ) : (
          user.rights.map((r) => (
            <code key={r} class="right">
              {r}
            </code>
          ))
        )}
      </p>
      <form class="admin-form" aria-label={`Edit ${user.name}`} onSubmit={submit} noValidate>
        <Field id="user-name" label="Name" error={errors.name}>
          {(a11y) => <input {...a11y} name="name" required autoComplete="off" defaultValue={user.name} maxLength={100} />}
        </Field>
        <Checks legend="Roles" name="roles" options={roles.map((r) => ({ value: r.name, label: r.name }))} checked={user.roles} error={errors.roles} />
        <label class="check">
          <input type="checkbox" name="disabled" defaultChecked={user.disabled} disabled={self} /> Disabled (its tokens and sessions stop working)
        </label>
        <FormError message={formError(problem, Object.values(errors))} />
        <div class="buttons">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save user'}
          </button>
        </div>
        <Notice text={notice} />
      </form>
      <AdminTokens user={user} />
    </section>
  );
}

export function AdminUsers() {
  const [query, setQuery] = useSectionQuery();
  const [users, reloadUsers] = useKeptLoad((signal) => api.GET('/api/admin/v1/users', { signal }), []);
  const [groups] = useLoad((signal) => api.GET('/api/admin/v1/work-groups', { signal }), []);
  const [roles] = useLoad((signal) => api.GET('/api/admin/v1/roles', { signal }), []);
  const groupNames = new Map(groups.state === 'ok' ? groups.data.map((g) => [g.id, g.name]) : []);
  const roleList = roles.state === 'ok' ? roles.data : [];
  const creating = query['new'] === '1';
  const selectedId = Number(query['user']);
  return (
    <Load loaded={users} label="users">
      {(list) => {
        const selected = list.find((u) => u.id === selectedId);
        return (
          <div class="admin-split">
            <div>
              <div class="buttons">
                <button type="button" class="primary" onClick={() => setQuery({ new: '1', user: null })}>
                  New user
                </button>
              </div>
              <TableScroll label="Users">
                <table>
                  <caption class="visually-hidden">Users</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Roles</th>
                      <th scope="col">Workgroups</th>
                      <th scope="col">State</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((u) => (
                      <tr key={u.id} class={u.id === selectedId ? 'selected' : undefined}>
                        <td>
                          <a href={`/admin/users?user=${u.id}`} aria-current={u.id === selectedId ? 'true' : undefined}>
                            {u.name}
                          </a>
                        </td>
                        <td>{u.roles.join(', ') || <span class="muted">none</span>}</td>
                        <td>{u.workGroupIds.map((id) => groupNames.get(id) ?? `#${id}`).join(', ') || <span class="muted">none</span>}</td>
                        <td>{u.disabled ? <span class="badge disabled">Disabled</span> : 'Active'}</td>
                        <td>
                          <Time iso={u.createdAt} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            </div>
            <div>
              {creating && (
                <section aria-labelledby="new-user-h" class="admin-panel">
                  <h3 id="new-user-h">New user</h3>
                  <NewUser
                    roles={roleList}
                    groups={groups.state === 'ok' ? groups.data : []}
                    onCreated={(user) => {
                      reloadUsers();
                      setQuery({ new: null, user: String(user.id) });
                    }}
                  />
                </section>
              )}
              {!creating && selected && (
                <UserDetail
                  key={selected.id}
                  user={selected}
                  roles={roleList}
                  groups={groupNames}
                  onChanged={reloadUsers}
                  onDeleted={() => {
                    reloadUsers();
                    setQuery({ user: null });
                  }}
                />
              )}
              {!creating && !selected && <p class="muted">{query['user'] ? 'No such user.' : 'Choose a user to change it or to issue a token.'}</p>}
            </div>
          </div>
        );
      }}
    </Load>
  );
}
