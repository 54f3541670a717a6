/**
 * External CMDB systems (the systems CIs can be created on, spec 2.6): the list, a new one, and
 * the selected one (`?system=<id>`): rename, delete (refused while a CI was created on it).
 */
import { useLoad } from './load.js';
import { api } from '../app/api.js';
import { NameForm, send } from './admin-kit.js';
import { AdminSplit } from './admin-split.js';

export function AdminCmdbSystems() {
  const [systems, reload] = useLoad((signal) => api.GET('/api/admin/v1/cmdb-systems', { signal }), [], { keepOnReload: true });
  return (
    <AdminSplit
      loaded={systems}
      section={{ path: 'cmdb-systems', param: 'system', noun: 'CMDB system', plural: 'CMDB systems' }}
      before={[{ label: 'Id', cell: (s) => s.id }]}
      empty="No CMDB system yet."
      create={(open) => (
        <NameForm noun="CMDB system" save={(name) => send(api.POST('/api/admin/v1/cmdb-systems', { body: { name } }))} onSaved={(saved) => (saved ? open(saved.id) : reload())} />
      )}
      remove={(s) => send(api.DELETE('/api/admin/v1/cmdb-systems/{id}', { params: { path: { id: String(s.id) } } }))}
      detail={(selected) => (
        <NameForm
          noun="CMDB system"
          named={selected}
          save={(name) => send(api.PATCH('/api/admin/v1/cmdb-systems/{id}', { params: { path: { id: String(selected.id) } }, body: { name } }))}
          onSaved={reload}
        />
      )}
      reload={reload}
      hint="Choose a CMDB system to rename or delete it."
    />
  );
}
