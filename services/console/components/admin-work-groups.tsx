/**
 * Workgroups: the list with their members, a new workgroup, and the selected one (`?group=<id>`):
 * rename, add and remove members, delete (refused while it owns a CI, holds a grant, or owns
 * notification receivers or policies: the API says which).
 */
import { useState } from 'preact/hooks';
import { type ApiProblem, api } from '../app/api.js';
import { NameForm, send, textOf, type User, type WorkGroup } from './admin-kit.js';
import { AdminSplit } from './admin-split.js';
import { ApiAlert, useLoad } from './load.js';

export { NameForm } from './admin-kit.js';

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
  const [groups, reload] = useLoad((signal) => api.GET('/api/admin/v1/work-groups', { signal }), [], { keepOnReload: true });
  const [users] = useLoad((signal) => api.GET('/api/admin/v1/users', { signal }), []);
  const userList = users.state === 'ok' ? users.data : [];
  const names = new Map(userList.map((u) => [u.id, u.name]));
  return (
    <AdminSplit
      loaded={groups}
      section={{ path: 'work-groups', param: 'group', noun: 'workgroup', plural: 'Workgroups' }}
      before={[{ label: 'Id', cell: (g) => g.id }]}
      columns={[{ label: 'Members', cell: (g) => g.memberIds.map((id) => names.get(id) ?? `#${id}`).join(', ') || <span class="muted">none</span> }]}
      empty="No workgroup yet."
      create={(open) => (
        <NameForm noun="workgroup" save={(name) => send(api.POST('/api/admin/v1/work-groups', { body: { name } }))} onSaved={(saved) => (saved ? open(saved.id) : reload())} />
      )}
      remove={(g) => send(api.DELETE('/api/admin/v1/work-groups/{id}', { params: { path: { id: String(g.id) } } }))}
      detail={(selected) => (
        <>
          <NameForm
            noun="workgroup"
            named={selected}
            save={(name) => send(api.PATCH('/api/admin/v1/work-groups/{id}', { params: { path: { id: String(selected.id) } }, body: { name } }))}
            onSaved={reload}
          />
          <Members group={selected} users={userList} onChanged={reload} />
        </>
      )}
      reload={reload}
      hint="Choose a workgroup to rename it or change its members."
    />
  );
}
