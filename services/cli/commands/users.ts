/** `ops users …`: users of the platform (admin API /users). */
import { done, list, one } from '../render.js';
import { defined, flag, type NounSpec, nums, seg, send, str, strs } from '../spec.js';

const USER_ID = { name: 'id', description: 'The user id', kind: 'id' as const };

const columns = { ID: 'id', NAME: 'name', ROLES: 'roles', 'WORK GROUPS': 'workGroupIds', DISABLED: 'disabled' };

export const users: NounSpec = {
  name: 'users',
  summary: 'Users of the platform and their roles',
  commands: [
    { verb: 'list', summary: 'List users', prepare: () => send('GET', '/users'), render: list(columns) },
    { verb: 'get', summary: 'Show one user', args: [USER_ID], prepare: (i) => send('GET', `/users/${seg(i.args['id']!)}`), render: one() },
    {
      verb: 'create',
      summary: 'Create a user, optionally with roles and workgroup memberships',
      options: {
        name: { type: 'string', value: 'name', required: true, description: "The user's name" },
        role: { type: 'string', value: 'role', multiple: true, description: 'A role to give the user' },
        'work-group': { type: 'string', value: 'id', multiple: true, kind: 'id', description: 'A workgroup the user joins' },
      },
      prepare: (i) => send('POST', '/users', defined({ name: str(i, 'name'), roles: strs(i, 'role'), workGroupIds: nums(i, 'work-group') })),
      render: one(),
    },
    {
      verb: 'update',
      summary: 'Rename a user, replace its roles, or disable or enable it',
      args: [USER_ID],
      options: {
        name: { type: 'string', value: 'name', description: 'The new name' },
        role: { type: 'string', value: 'role', multiple: true, description: "A role of the user's new set of roles (replaces the current set)" },
        'clear-roles': { type: 'boolean', description: 'Take every role away' },
        disable: { type: 'boolean', description: 'Disable the user (its tokens stop working)' },
        enable: { type: 'boolean', description: 'Enable the user again' },
      },
      exclusive: [
        ['disable', 'enable'],
        ['role', 'clear-roles'],
      ],
      atLeastOne: ['name', 'role', 'clear-roles', 'disable', 'enable'],
      prepare: (i) => {
        const roles = flag(i, 'clear-roles') ? [] : strs(i, 'role');
        const disabled = flag(i, 'disable') ? true : flag(i, 'enable') ? false : undefined;
        return send('PATCH', `/users/${seg(i.args['id']!)}`, defined({ name: str(i, 'name'), roles, disabled }));
      },
      render: one(),
    },
    {
      verb: 'delete',
      summary: 'Delete a user with its tokens and memberships',
      args: [USER_ID],
      prepare: (i) => send('DELETE', `/users/${seg(i.args['id']!)}`),
      render: done((i) => `Deleted user ${i.args['id']}.`),
    },
  ],
};
