/**
 * Roles: the built-in and custom roles with the platform rights they bundle, a new custom role,
 * and the selected one (`?role=<name>`): its description and rights replaced whole (PUT), delete
 * while no user holds it. Built-in roles cannot change: the API refuses, and the form says so.
 */
import { useLoad } from './load.js';
import { useState } from 'preact/hooks';
import { type ApiProblem, api } from '../app/api.js';
import { Checks, Notice, type PlatformRight, PLATFORM_RIGHTS, type Role, send, textOf } from './admin-kit.js';
import { AdminSplit } from './admin-split.js';
import { Field, FormError } from './cmdb-field.js';
import { errorAt, formError } from './cmdb-model.js';

/** The roles the platform ships (services/control-plane/identity/bootstrap.command.ts); the API refuses to change them. */
const BUILT_IN = new Set(['admin', 'maintenance-writer', 'maintenance-reader', 'sla-reader', 'notifications-writer', 'stream-reader']);

function RoleForm({ role, onSaved }: { role?: Role; onSaved: (name: string) => void }) {
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const name = role?.name ?? textOf(form, 'name');
    setBusy(true);
    setNotice(undefined);
    const { problem: refused } = await send(
      api.PUT('/api/admin/v1/roles/{name}', {
        params: { path: { name } },
        body: { description: textOf(form, 'description'), rights: form.getAll('rights').map(String) as PlatformRight[] },
      }),
    );
    setBusy(false);
    setProblem(refused);
    if (!refused) {
      setNotice(`Saved ${name}.`);
      onSaved(name);
    }
  };
  const errors = {
    name: errorAt(problem, 'name', ['role.name_invalid', 'role.built_in_change']),
    description: errorAt(problem, 'description'),
    rights: errorAt(problem, 'rights'),
  };
  const prefix = role ? 'role' : 'new-role';
  return (
    <form class="admin-form" aria-label={role ? `Edit ${role.name}` : 'New role'} onSubmit={submit} noValidate>
      {!role && (
        <Field id={`${prefix}-name`} label="Name" error={errors.name} hint="Lower case, digits and dashes, e.g. shift-lead">
          {(a11y) => <input {...a11y} name="name" required autoComplete="off" maxLength={64} />}
        </Field>
      )}
      <Field id={`${prefix}-description`} label="Description" error={errors.description}>
        {(a11y) => <input {...a11y} name="description" autoComplete="off" defaultValue={role?.description ?? ''} maxLength={500} />}
      </Field>
      <Checks
        legend="Platform rights"
        name="rights"
        options={PLATFORM_RIGHTS.map((r) => ({ value: r.value, label: `${r.label} (${r.value})` }))}
        checked={role?.rights ?? []}
        error={errors.rights}
      />
      <FormError message={formError(problem, Object.values(errors))} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : role ? 'Save role' : 'Create role'}
        </button>
      </div>
      <Notice text={notice} />
    </form>
  );
}

export function AdminRoles() {
  const [roles, reload] = useLoad((signal) => api.GET('/api/admin/v1/roles', { signal }), [], { keepOnReload: true });
  return (
    <AdminSplit
      loaded={roles}
      section={{ path: 'roles', param: 'role', noun: 'role', plural: 'Roles' }}
      badge={(r) => BUILT_IN.has(r.name) && <span class="badge">built-in</span>}
      columns={[
        { label: 'Description', cell: (r) => r.description },
        {
          label: 'Rights',
          cell: (r) =>
            r.rights.length === 0 ? (
              <span class="muted">none</span>
            ) : (
              r.rights.map((right) => (
                <code key={right} class="right">
                  {right}
                </code>
              ))
            ),
        },
      ]}
      create={(open) => <RoleForm onSaved={open} />}
      remove={(r) => send(api.DELETE('/api/admin/v1/roles/{name}', { params: { path: { name: r.name } } }))}
      removable={(r) => !BUILT_IN.has(r.name)}
      detail={(selected) =>
        BUILT_IN.has(selected.name) ? (
          <p>A built-in role: it cannot be changed or deleted. Make a custom role for another set of rights.</p>
        ) : (
          <RoleForm role={selected} onSaved={reload} />
        )
      }
      reload={reload}
      hint="Choose a role to see or change its rights."
    />
  );
}
