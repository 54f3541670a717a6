/** `ops roles …`: roles, named bundles of platform rights (admin API /roles). */
import { done, list, one } from '../render.js';
import { defined, type NounSpec, seg, send, str, strs } from '../spec.js';

const ROLE_NAME = { name: 'name', description: 'The role name: lower-case letters, digits and dashes, starting with a letter' };
const RIGHTS =
  'base-system.admin, base-system.notifications.write, base-system.rsm-maintenance.read, base-system.rsm-maintenance.write, base-system.sla.read, base-system.streams.read';

export const roles: NounSpec = {
  name: 'roles',
  summary: 'Roles: named bundles of platform rights',
  commands: [
    {
      verb: 'list',
      summary: 'List roles and the rights they bundle',
      prepare: () => send('GET', '/roles'),
      render: list({ NAME: 'name', RIGHTS: 'rights', DESCRIPTION: 'description' }),
    },
    {
      verb: 'put',
      summary: 'Create or replace a custom role',
      args: [ROLE_NAME],
      options: {
        right: { type: 'string', value: 'right', multiple: true, required: true, description: `A platform right of the role: ${RIGHTS}` },
        description: { type: 'string', value: 'text', description: 'What the role is for' },
      },
      prepare: (i) => send('PUT', `/roles/${seg(i.args['name']!)}`, defined({ description: str(i, 'description'), rights: strs(i, 'right') })),
      render: one(),
    },
    {
      verb: 'delete',
      summary: 'Delete a custom role no user holds',
      args: [ROLE_NAME],
      prepare: (i) => send('DELETE', `/roles/${seg(i.args['name']!)}`),
      render: done((i) => `Deleted role ${i.args['name']}.`),
    },
  ],
};
