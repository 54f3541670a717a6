/**
 * Users: the list (roles, workgroups, state), a new user with its roles and workgroups, and the
 * selected user (`?user=<id>`): rename, roles, disable or enable, delete, and its tokens.
 * Workgroup memberships change in the Workgroups section (the API changes them there).
 */
import { useState } from 'preact/hooks';
import { type ApiProblem, api } from '../app/api.js';
import { session } from '../app/session.js';
import { Checks, Notice, type Role, send, textOf, type User, type WorkGroup } from './admin-kit.js';
import { AdminSplit } from './admin-split.js';
import { AdminTokens } from './admin-tokens.js';
import { Field, FormError } from './cmdb-field.js';
import { errorAt, formError } from './cmdb-model.js';
import { useLoad } from './load.js';
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

/** The selected user's panel below its heading: its workgroups and rights, its form, its tokens. */
function UserDetail({ user, roles, groups, onChanged }: { user: User; roles: Role[]; groups: Map<number, string>; onChanged: () => void }) {
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
    <>
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
    </>
  );
}

export function AdminUsers() {
  const [users, reloadUsers] = useLoad((signal) => api.GET('/api/admin/v1/users', { signal }), [], { keepOnReload: true });
  const [groups] = useLoad((signal) => api.GET('/api/admin/v1/work-groups', { signal }), []);
  const [roles] = useLoad((signal) => api.GET('/api/admin/v1/roles', { signal }), []);
  const groupNames = new Map(groups.state === 'ok' ? groups.data.map((g) => [g.id, g.name]) : []);
  const roleList = roles.state === 'ok' ? roles.data : [];
  return (
    <AdminSplit
      loaded={users}
      section={{ path: 'users', param: 'user', noun: 'user', plural: 'Users' }}
      columns={[
        { label: 'Roles', cell: (u) => u.roles.join(', ') || <span class="muted">none</span> },
        { label: 'Workgroups', cell: (u) => u.workGroupIds.map((id) => groupNames.get(id) ?? `#${id}`).join(', ') || <span class="muted">none</span> },
        { label: 'State', cell: (u) => (u.disabled ? <span class="badge disabled">Disabled</span> : 'Active') },
        { label: 'Created', cell: (u) => <Time iso={u.createdAt} /> },
      ]}
      create={(open) => <NewUser roles={roleList} groups={groups.state === 'ok' ? groups.data : []} onCreated={(user) => open(user.id)} />}
      remove={(u) => send(api.DELETE('/api/admin/v1/users/{id}', { params: { path: { id: String(u.id) } } }))}
      removable={(u) => session.value?.user.id !== u.id}
      detail={(selected) => <UserDetail user={selected} roles={roleList} groups={groupNames} onChanged={reloadUsers} />}
      reload={reloadUsers}
      hint="Choose a user to change it or to issue a token."
    />
  );
}
