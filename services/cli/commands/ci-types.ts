/** `ops ci-types …`: configuration item types, one of them the default (admin API /config-item-types). */
import { done, list, one } from '../render.js';
import { defined, flag, type NounSpec, num, seg, send, str } from '../spec.js';

const ID = (what: string) => ({ name: 'id', description: `The ${what} id`, kind: 'id' as const });
const NEW_ID = { type: 'string' as const, value: 'id', kind: 'id' as const, description: 'The id to give it (default: the next free one)' };

export const ciTypes: NounSpec = {
  name: 'ci-types',
  summary: 'Configuration item types, one of them the default',
  commands: [
    {
      verb: 'list',
      summary: 'List CI types, with which is the default',
      prepare: () => send('GET', '/config-item-types'),
      render: list({ ID: 'id', NAME: 'name', DEFAULT: 'isDefault', DESCRIPTION: 'description' }),
    },
    {
      verb: 'create',
      summary: 'Create a CI type',
      options: {
        name: { type: 'string', value: 'name', required: true, description: "The type's name" },
        description: { type: 'string', value: 'text', description: 'What CIs of this type are' },
        id: NEW_ID,
        default: { type: 'boolean', description: 'Make it the default type' },
      },
      prepare: (i) =>
        send('POST', '/config-item-types', defined({ id: num(i, 'id'), name: str(i, 'name'), description: str(i, 'description'), isDefault: flag(i, 'default') || undefined })),
      render: one(),
    },
    {
      verb: 'update',
      summary: 'Rename or describe a CI type, or make it the default',
      args: [ID('CI type')],
      options: {
        name: { type: 'string', value: 'name', description: 'The new name' },
        description: { type: 'string', value: 'text', description: 'The new description' },
        default: { type: 'boolean', description: 'Make it the default type' },
      },
      atLeastOne: ['name', 'description', 'default'],
      prepare: (i) =>
        send(
          'PATCH',
          `/config-item-types/${seg(i.args['id']!)}`,
          defined({ name: str(i, 'name'), description: str(i, 'description'), isDefault: flag(i, 'default') || undefined }),
        ),
      render: one(),
    },
    {
      verb: 'delete',
      summary: 'Delete a CI type no CI has (not the default)',
      args: [ID('CI type')],
      prepare: (i) => send('DELETE', `/config-item-types/${seg(i.args['id']!)}`),
      render: done((i) => `Deleted CI type ${i.args['id']}.`),
    },
  ],
};
