/**
 * External CMDB systems (the systems CIs can be created on, spec 2.6): the list, a new one, and
 * the selected one (`?system=<id>`): rename, delete (refused while a CI was created on it).
 */
import { api } from '../app/api.js';
import { DeleteButton, send, useKeptLoad, useSectionQuery } from './admin-kit.js';
import { NameForm } from './admin-work-groups.js';
import { Load, TableScroll } from './load.js';

export function AdminCmdbSystems() {
  const [query, setQuery] = useSectionQuery();
  const [systems, reload] = useKeptLoad((signal) => api.GET('/api/admin/v1/cmdb-systems', { signal }), []);
  const selectedId = Number(query['system']);
  return (
    <Load loaded={systems} label="CMDB systems">
      {(list) => {
        const selected = list.find((s) => s.id === selectedId);
        return (
          <div class="admin-split">
            <div>
              <div class="buttons">
                <button type="button" class="primary" onClick={() => setQuery({ new: '1', system: null })}>
                  New CMDB system
                </button>
              </div>
              {list.length === 0 ? (
                <p class="muted">No CMDB system yet.</p>
              ) : (
                <TableScroll label="CMDB systems">
                  <table>
                    <caption class="visually-hidden">CMDB systems</caption>
                    <thead>
                      <tr>
                        <th scope="col">Id</th>
                        <th scope="col">Name</th>
                      </tr>
                    </thead>
                    <tbody>
                      {list.map((s) => (
                        <tr key={s.id} class={s.id === selectedId ? 'selected' : undefined}>
                          <td>{s.id}</td>
                          <td>
                            <a href={`/admin/cmdb-systems?system=${s.id}`} aria-current={s.id === selectedId ? 'true' : undefined}>
                              {s.name}
                            </a>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              )}
            </div>
            <div>
              {query['new'] === '1' ? (
                <section aria-labelledby="new-system-h" class="admin-panel">
                  <h3 id="new-system-h">New CMDB system</h3>
                  <NameForm
                    label="New CMDB system"
                    initial=""
                    submitLabel="Create CMDB system"
                    save={async (name) => {
                      const { data, problem } = await send(api.POST('/api/admin/v1/cmdb-systems', { body: { name } }));
                      if (data) setQuery({ new: null, system: String(data.id) });
                      return { ...(problem ? { problem } : {}) };
                    }}
                    onSaved={reload}
                  />
                </section>
              ) : selected ? (
                <section aria-labelledby="system-h" class="admin-panel" key={selected.id}>
                  <div class="section-head">
                    <h3 id="system-h">CMDB system {selected.name}</h3>
                    <DeleteButton
                      what={`the CMDB system ${selected.name}`}
                      remove={() => send(api.DELETE('/api/admin/v1/cmdb-systems/{id}', { params: { path: { id: String(selected.id) } } }))}
                      onDone={() => {
                        reload();
                        setQuery({ system: null });
                      }}
                    />
                  </div>
                  <NameForm
                    label={`Rename ${selected.name}`}
                    initial={selected.name}
                    submitLabel="Rename"
                    save={(name) => send(api.PATCH('/api/admin/v1/cmdb-systems/{id}', { params: { path: { id: String(selected.id) } }, body: { name } }))}
                    onSaved={reload}
                  />
                </section>
              ) : (
                <p class="muted">{query['system'] ? 'No such CMDB system.' : 'Choose a CMDB system to rename or delete it.'}</p>
              )}
            </div>
          </div>
        );
      }}
    </Load>
  );
}
