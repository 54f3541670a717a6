/** `ops work-groups …`: workgroups and their members (admin API /work-groups). */
import { done, list, one } from '../render.js';
import { defined, type NounSpec, num, nums, seg, send, str } from '../spec.js';

const GROUP_ID = { name: 'id', description: 'The workgroup id', kind: 'id' as const };
const MEMBER_ID = { name: 'userId', description: 'The user id', kind: 'id' as const };
const NAME = { type: 'string' as const, value: 'name', required: true };

export const workGroups: NounSpec = {
  name: 'work-groups',
  summary: 'Workgroups and their members',
  commands: [
    { verb: 'list', summary: 'List workgroups with their members', prepare: () => send('GET', '/work-groups'), render: list({ ID: 'id', NAME: 'name', MEMBERS: 'memberIds' }) },
    { verb: 'get', summary: 'Show one workgroup', args: [GROUP_ID], prepare: (i) => send('GET', `/work-groups/${seg(i.args['id']!)}`), render: one() },
    {
      verb: 'create',
      summary: 'Create a workgroup',
      options: {
        name: { ...NAME, description: "The workgroup's name" },
        id: { type: 'string', value: 'id', kind: 'id', description: 'The id to give it (default: the next free one)' },
        member: { type: 'string', value: 'userId', kind: 'id', multiple: true, description: 'A user who becomes a member' },
      },
      prepare: (i) => send('POST', '/work-groups', defined({ id: num(i, 'id'), name: str(i, 'name'), memberIds: nums(i, 'member') })),
      render: one(),
    },
    {
      verb: 'rename',
      summary: 'Rename a workgroup',
      args: [GROUP_ID],
      options: { name: { ...NAME, description: 'The new name' } },
      prepare: (i) => send('PATCH', `/work-groups/${seg(i.args['id']!)}`, { name: str(i, 'name') }),
      render: one(),
    },
    {
      verb: 'delete',
      summary: 'Delete a workgroup that owns no CI and holds no grant',
      args: [GROUP_ID],
      prepare: (i) => send('DELETE', `/work-groups/${seg(i.args['id']!)}`),
      render: done((i) => `Deleted workgroup ${i.args['id']}.`),
    },
    {
      verb: 'add-member',
      summary: 'Make a user a member of a workgroup',
      args: [GROUP_ID, MEMBER_ID],
      prepare: (i) => send('PUT', `/work-groups/${seg(i.args['id']!)}/members/${seg(i.args['userId']!)}`),
      render: one(),
    },
    {
      verb: 'remove-member',
      summary: 'Remove a user from a workgroup',
      args: [GROUP_ID, MEMBER_ID],
      prepare: (i) => send('DELETE', `/work-groups/${seg(i.args['id']!)}/members/${seg(i.args['userId']!)}`),
      render: one(),
    },
  ],
};
