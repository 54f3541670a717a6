/**
 * Roles: the built-in and custom roles with the platform rights they bundle, a new custom role,
 * and the selected one (`?role=<name>`): its description and rights replaced whole (PUT), delete
 * while no user holds it. Built-in roles cannot change: the API refuses, and the form says so.
 */
import { useState } from 'preact/hooks';
import { type ApiProblem, api } from '../app/api.js';
import { Checks, DeleteButton, Notice, type PlatformRight, PLATFORM_RIGHTS, type Role, send, textOf, useKeptLoad, useSectionQuery } from './admin-kit.js';
import { Field, FormError } from './cmdb-field.js';
import { errorAt, formError } from './cmdb-model.js';
import { Load, TableScroll } from './load.js';

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
  const [query, setQuery] = useSectionQuery();
  const [roles, reload] = useKeptLoad((signal) => api.GET('/api/admin/v1/roles', { signal }), []);
  const wanted = query['role'];
  return (
    <Load loaded={roles} label="roles">
      {(list) => {
        const selected = list.find((r) => r.name === wanted);
        return (
          <div class="admin-split">
            <div>
              <div class="buttons">
                <button type="button" class="primary" onClick={() => setQuery({ new: '1', role: null })}>
                  New role
                </button>
              </div>
              <TableScroll label="Roles">
                <table>
                  <caption class="visually-hidden">Roles</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Description</th>
                      <th scope="col">Rights</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((r) => (
                      <tr key={r.name} class={r.name === wanted ? 'selected' : undefined}>
                        <td>
                          <a href={`/admin/roles?role=${encodeURIComponent(r.name)}`} aria-current={r.name === wanted ? 'true' : undefined}>
                            {r.name}
                          </a>
                          {BUILT_IN.has(r.name) && <span class="badge">built-in</span>}
                        </td>
                        <td>{r.description}</td>
                        <td>
                          {r.rights.length === 0 ? (
                            <span class="muted">none</span>
                          ) : (
                            r.rights.map((right) => (
                              <code key={right} class="right">
                                {right}
                              </code>
                            ))
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            </div>
            <div>
              {query['new'] === '1' ? (
                <section aria-labelledby="new-role-h" class="admin-panel">
                  <h3 id="new-role-h">New role</h3>
                  <RoleForm
                    onSaved={(name) => {
                      reload();
                      setQuery({ new: null, role: name });
                    }}
                  />
                </section>
              ) : selected ? (
                <section aria-labelledby="role-h" class="admin-panel" key={selected.name}>
                  <div class="section-head">
                    <h3 id="role-h">Role {selected.name}</h3>
                    {!BUILT_IN.has(selected.name) && (
                      <DeleteButton
                        what={`the role ${selected.name}`}
                        remove={() => send(api.DELETE('/api/admin/v1/roles/{name}', { params: { path: { name: selected.name } } }))}
                        onDone={() => {
                          reload();
                          setQuery({ role: null });
                        }}
                      />
                    )}
                  </div>
                  {BUILT_IN.has(selected.name) ? (
                    <p>A built-in role: it cannot be changed or deleted. Make a custom role for another set of rights.</p>
                  ) : (
                    <RoleForm role={selected} onSaved={reload} />
                  )}
                </section>
              ) : (
                <p class="muted">{wanted ? 'No such role.' : 'Choose a role to see or change its rights.'}</p>
              )}
            </div>
          </div>
        );
      }}
    </Load>
  );
}
