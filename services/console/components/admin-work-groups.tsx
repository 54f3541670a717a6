/**
 * Workgroups: the list with their members, a new workgroup, and the selected one (`?group=<id>`):
 * rename, add and remove members, delete (refused while it owns a CI, holds a grant, or owns
 * notification receivers or policies: the API says which).
 */
import { useState } from 'preact/hooks';
import { type ApiProblem, api } from '../app/api.js';
import { DeleteButton, Notice, send, textOf, type User, useKeptLoad, useSectionQuery, type WorkGroup } from './admin-kit.js';
import { Field, FormError } from './cmdb-field.js';
import { errorAt, formError } from './cmdb-model.js';
import { ApiAlert, Load, TableScroll, useLoad } from './load.js';

function NameForm({
  label,
  initial,
  submitLabel,
  save,
  onSaved,
}: {
  label: string;
  initial: string;
  submitLabel: string;
  save: (name: string) => Promise<{ problem?: ApiProblem }>;
  onSaved: () => void;
}) {
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const name = textOf(new FormData(event.currentTarget as HTMLFormElement), 'name');
    setBusy(true);
    setNotice(undefined);
    const { problem: refused } = await save(name);
    setBusy(false);
    setProblem(refused);
    if (!refused) {
      setNotice('Saved.');
      onSaved();
    }
  };
  const errors = { name: errorAt(problem, 'name', ['work_group.name_taken', 'cmdb_system.name_taken']) };
  const id = `${label.toLowerCase().replace(/\W+/g, '-')}-name`;
  return (
    <form class="admin-form" aria-label={label} onSubmit={submit} noValidate>
      <Field id={id} label="Name" error={errors.name}>
        {(a11y) => <input {...a11y} name="name" required autoComplete="off" defaultValue={initial} maxLength={255} />}
      </Field>
      <FormError message={formError(problem, Object.values(errors))} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
      </div>
      <Notice text={notice} />
    </form>
  );
}

export { NameForm };

function Members({ group, users, onChanged }: { group: WorkGroup; users: User[]; onChanged: () => void }) {
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const names = new Map(users.map((u) => [u.id, u.name]));
  const others = users.filter((u) => !group.memberIds.includes(u.id));
  const change = async (method: 'PUT' | 'DELETE', userId: number) => {
    setBusy(true);
    const params = { params: { path: { id: String(group.id), userId: String(userId) } } };
    const { problem: refused } = await send(
      method === 'PUT' ? api.PUT('/api/admin/v1/work-groups/{id}/members/{userId}', params) : api.DELETE('/api/admin/v1/work-groups/{id}/members/{userId}', params),
    );
    setBusy(false);
    setProblem(refused);
    if (!refused) onChanged();
  };
  return (
    <section aria-labelledby="members-h">
      <h4 id="members-h">Members</h4>
      {group.memberIds.length === 0 ? (
        <p class="muted">No member yet.</p>
      ) : (
        <ul class="plain admin-members">
          {group.memberIds.map((id) => (
            <li key={id}>
              <a href={`/admin/users?user=${id}`}>{names.get(id) ?? `User ${id}`}</a>{' '}
              <button type="button" class="small" disabled={busy} aria-label={`Remove ${names.get(id) ?? id} from ${group.name}`} onClick={() => change('DELETE', id)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        class="inline-form"
        aria-label={`Add a member to ${group.name}`}
        onSubmit={(event) => {
          event.preventDefault();
          const userId = Number(textOf(new FormData(event.currentTarget), 'user'));
          if (userId > 0) void change('PUT', userId);
        }}
      >
        <label for="add-member">Add member</label>
        <select id="add-member" name="user" disabled={others.length === 0}>
          {others.length === 0 && <option value="">Every user is a member</option>}
          {others.map((u) => (
            <option key={u.id} value={u.id}>
              {u.name}
            </option>
          ))}
        </select>
        <button type="submit" disabled={busy || others.length === 0}>
          Add
        </button>
      </form>
      <ApiAlert problem={problem} />
    </section>
  );
}

export function AdminWorkGroups() {
  const [query, setQuery] = useSectionQuery();
  const [groups, reload] = useKeptLoad((signal) => api.GET('/api/admin/v1/work-groups', { signal }), []);
  const [users] = useLoad((signal) => api.GET('/api/admin/v1/users', { signal }), []);
  const userList = users.state === 'ok' ? users.data : [];
  const names = new Map(userList.map((u) => [u.id, u.name]));
  const selectedId = Number(query['group']);
  return (
    <Load loaded={groups} label="workgroups">
      {(list) => {
        const selected = list.find((g) => g.id === selectedId);
        return (
          <div class="admin-split">
            <div>
              <div class="buttons">
                <button type="button" class="primary" onClick={() => setQuery({ new: '1', group: null })}>
                  New workgroup
                </button>
              </div>
              {list.length === 0 ? (
                <p class="muted">No workgroup yet.</p>
              ) : (
                <TableScroll label="Workgroups">
                  <table>
                    <caption class="visually-hidden">Workgroups</caption>
                    <thead>
                      <tr>
                        <th scope="col">Id</th>
                        <th scope="col">Name</th>
                        <th scope="col">Members</th>
                      </tr>
                    </thead>
                    <tbody>
                      {list.map((g) => (
                        <tr key={g.id} class={g.id === selectedId ? 'selected' : undefined}>
                          <td>{g.id}</td>
                          <td>
                            <a href={`/admin/work-groups?group=${g.id}`} aria-current={g.id === selectedId ? 'true' : undefined}>
                              {g.name}
                            </a>
                          </td>
                          <td>{g.memberIds.map((id) => names.get(id) ?? `#${id}`).join(', ') || <span class="muted">none</span>}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              )}
            </div>
            <div>
              {query['new'] === '1' ? (
                <section aria-labelledby="new-group-h" class="admin-panel">
                  <h3 id="new-group-h">New workgroup</h3>
                  <NameForm
                    label="New workgroup"
                    initial=""
                    submitLabel="Create workgroup"
                    save={async (name) => {
                      const { data, problem } = await send(api.POST('/api/admin/v1/work-groups', { body: { name } }));
                      if (data) setQuery({ new: null, group: String(data.id) });
                      return { ...(problem ? { problem } : {}) };
                    }}
                    onSaved={reload}
                  />
                </section>
              ) : selected ? (
                <section aria-labelledby="group-h" class="admin-panel" key={selected.id}>
                  <div class="section-head">
                    <h3 id="group-h">Workgroup {selected.name}</h3>
                    <DeleteButton
                      what={`the workgroup ${selected.name}`}
                      remove={() => send(api.DELETE('/api/admin/v1/work-groups/{id}', { params: { path: { id: String(selected.id) } } }))}
                      onDone={() => {
                        reload();
                        setQuery({ group: null });
                      }}
                    />
                  </div>
                  <NameForm
                    label={`Rename ${selected.name}`}
                    initial={selected.name}
                    submitLabel="Rename"
                    save={(name) => send(api.PATCH('/api/admin/v1/work-groups/{id}', { params: { path: { id: String(selected.id) } }, body: { name } }))}
                    onSaved={reload}
                  />
                  <Members group={selected} users={userList} onChanged={reload} />
                </section>
              ) : (
                <p class="muted">{query['group'] ? 'No such workgroup.' : 'Choose a workgroup to rename it or change its members.'}</p>
              )}
            </div>
          </div>
        );
      }}
    </Load>
  );
}
