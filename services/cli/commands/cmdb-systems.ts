/** `ops cmdb-systems …`: external CMDB systems that CIs are created on (admin API /cmdb-systems). */
import { done, list, one } from '../render.js';
import { defined, type NounSpec, num, seg, send, str } from '../spec.js';

const ID = (what: string) => ({ name: 'id', description: `The ${what} id`, kind: 'id' as const });
const NEW_ID = { type: 'string' as const, value: 'id', kind: 'id' as const, description: 'The id to give it (default: the next free one)' };

export const cmdbSystems: NounSpec = {
  name: 'cmdb-systems',
  summary: 'External CMDB systems that CIs are created on',
  commands: [
    { verb: 'list', summary: 'List CMDB systems', prepare: () => send('GET', '/cmdb-systems'), render: list({ ID: 'id', NAME: 'name' }) },
    {
      verb: 'create',
      summary: 'Register a CMDB system',
      options: { name: { type: 'string', value: 'name', required: true, description: "The system's name" }, id: NEW_ID },
      prepare: (i) => send('POST', '/cmdb-systems', defined({ id: num(i, 'id'), name: str(i, 'name') })),
      render: one(),
    },
    {
      verb: 'rename',
      summary: 'Rename a CMDB system',
      args: [ID('CMDB system')],
      options: { name: { type: 'string', value: 'name', required: true, description: 'The new name' } },
      prepare: (i) => send('PATCH', `/cmdb-systems/${seg(i.args['id']!)}`, { name: str(i, 'name') }),
      render: one(),
    },
    {
      verb: 'delete',
      summary: 'Delete a CMDB system no CI was created on',
      args: [ID('CMDB system')],
      prepare: (i) => send('DELETE', `/cmdb-systems/${seg(i.args['id']!)}`),
      render: done((i) => `Deleted CMDB system ${i.args['id']}.`),
    },
  ],
};
