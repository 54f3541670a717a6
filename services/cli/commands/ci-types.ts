/** `ops ci-types …`: configuration item types, one of them the default, each with an icon or none (admin API /config-item-types). */
import { done, list, one } from '../render.js';
import { type CommandInput, defined, flag, type NounSpec, num, type Render, seg, send, str } from '../spec.js';
import { isRecord } from '../table.js';

const ID = (what: string) => ({ name: 'id', description: `The ${what} id`, kind: 'id' as const });
const NEW_ID = { type: 'string' as const, value: 'id', kind: 'id' as const, description: 'The id to give it (default: the next free one)' };
const ICON = { type: 'string' as const, value: 'id', kind: 'id' as const, description: 'Its icon: a built-in or uploaded icon id (ops ci-type-icons list)' };

/** The icon as `<id> <name>` in the list, instead of its whole object. */
const withIconLabel: Render = (data, input) =>
  list({ ID: 'id', NAME: 'name', DEFAULT: 'isDefault', ICON: 'icon', DESCRIPTION: 'description' })(
    Array.isArray(data)
      ? data.map((type: unknown) => (isRecord(type) && isRecord(type['icon']) ? { ...type, icon: `${String(type['icon']['id'])} ${String(type['icon']['name'])}` } : type))
      : data,
    input,
  );

/** `iconId` of a body: the id given, null for --clear-icon, absent otherwise. */
const iconId = (i: CommandInput): number | null | undefined => (flag(i, 'clear-icon') ? null : num(i, 'icon'));

export const ciTypes: NounSpec = {
  name: 'ci-types',
  summary: 'Configuration item types, one of them the default',
  commands: [
    {
      verb: 'list',
      summary: 'List CI types, with which is the default and their icons',
      prepare: () => send('GET', '/config-item-types'),
      render: withIconLabel,
    },
    {
      verb: 'create',
      summary: 'Create a CI type',
      options: {
        name: { type: 'string', value: 'name', required: true, description: "The type's name" },
        description: { type: 'string', value: 'text', description: 'What CIs of this type are' },
        id: NEW_ID,
        default: { type: 'boolean', description: 'Make it the default type' },
        icon: ICON,
      },
      prepare: (i) =>
        send(
          'POST',
          '/config-item-types',
          defined({ id: num(i, 'id'), name: str(i, 'name'), description: str(i, 'description'), isDefault: flag(i, 'default') || undefined, iconId: num(i, 'icon') }),
        ),
      render: one(),
    },
    {
      verb: 'update',
      summary: 'Rename or describe a CI type, make it the default, or set its icon',
      args: [ID('CI type')],
      options: {
        name: { type: 'string', value: 'name', description: 'The new name' },
        description: { type: 'string', value: 'text', description: 'The new description' },
        default: { type: 'boolean', description: 'Make it the default type' },
        icon: ICON,
        'clear-icon': { type: 'boolean', description: 'Take its icon away' },
      },
      exclusive: [['icon', 'clear-icon']],
      atLeastOne: ['name', 'description', 'default', 'icon', 'clear-icon'],
      prepare: (i) =>
        send(
          'PATCH',
          `/config-item-types/${seg(i.args['id']!)}`,
          defined({ name: str(i, 'name'), description: str(i, 'description'), isDefault: flag(i, 'default') || undefined, iconId: iconId(i) }),
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
