/**
 * `ops users …`: users of the platform (admin API /users).
 *
 * `users update` sets roles three ways: `--role` (repeatable) replaces the whole set,
 * `--clear-roles` empties it, and `--add-role` / `--remove-role` change only the roles they name.
 * The admin API's PATCH takes the whole set, so the last two read the user first and send the set
 * it has with those roles added or removed. Nothing makes that read and write one step: an
 * admin changing the same user's roles in between can have that change overwritten.
 */
import type { Failure } from '../client.js';
import { done, list, one } from '../render.js';
import type { ApiRequest } from '../client.js';
import { type CommandInput, defined, type Execute, flag, type NounSpec, nums, type Prepared, type RunContext, seg, send, str, strs, usage } from '../spec.js';
import { isRecord, printable } from '../table.js';

const USER_ID = { name: 'id', description: 'The user id', kind: 'id' as const };

const columns = { ID: 'id', NAME: 'name', ROLES: 'roles', 'WORK GROUPS': 'workGroupIds', DISABLED: 'disabled' };

/** What `--add-role` and `--remove-role` make of a user's roles: its order kept, the added ones after. */
export function changedRoles(current: readonly string[], add: readonly string[], remove: readonly string[]): string[] {
  const removed = new Set(remove);
  const kept = current.filter((role) => !removed.has(role));
  return [...new Set([...kept, ...add])];
}

const sameRoles = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((role, i) => role === b[i]);

function prepareUpdate(i: CommandInput): Prepared {
  const add = strs(i, 'add-role') ?? [];
  const remove = strs(i, 'remove-role') ?? [];
  const both = add.find((role) => remove.includes(role));
  if (both !== undefined) return usage(`--add-role and --remove-role both name ${JSON.stringify(both)}`);
  const roles = flag(i, 'clear-roles') ? [] : strs(i, 'role');
  const disabled = flag(i, 'disable') ? true : flag(i, 'enable') ? false : undefined;
  return send('PATCH', `/users/${seg(i.args['id']!)}`, defined({ name: str(i, 'name'), roles, disabled }));
}

/**
 * `--add-role` / `--remove-role`: reads the user, then sends its roles with those changes, with
 * whatever else the command line changes. Sends nothing when nothing would change. A role to
 * remove that the user does not hold is said on stderr (a misspelt name would otherwise pass
 * unseen); an unknown role to add is the API's 400.
 */
const updateRoles: Execute = async (request, ctx) => {
  const add = strs(ctx.input, 'add-role') ?? [];
  const remove = strs(ctx.input, 'remove-role') ?? [];
  if (add.length === 0 && remove.length === 0) return sendAndShow(request, ctx);
  const read = await ctx.client.send({ method: 'GET', path: request.path });
  if (!read.ok) return read.failure;
  const current = isRecord(read.data) && Array.isArray(read.data['roles']) ? read.data['roles'].filter((r): r is string => typeof r === 'string') : undefined;
  if (current === undefined) return { kind: 'network', message: `the answer to GET ${request.path} has no roles; is the URL the platform's?` };
  for (const role of remove)
    if (!current.includes(role)) ctx.stderr.write(`note: user ${printable(ctx.input.args['id']!)} does not hold role ${printable(role)}; nothing to remove\n`);
  const roles = changedRoles(current, add, remove);
  const body = { ...(isRecord(request.body) ? request.body : {}), ...(sameRoles(roles, current) ? {} : { roles }) };
  if (Object.keys(body).length === 0) return write(read.data, ctx);
  return sendAndShow({ ...request, body }, ctx);
};

async function sendAndShow(request: ApiRequest, ctx: RunContext): Promise<Failure | undefined> {
  const result = await ctx.client.send(request);
  if (!result.ok) return result.failure;
  return write(result.data, ctx);
}

/** The answer as `run` shows one: JSON with --json, else key/value lines. */
function write(data: unknown, ctx: RunContext): undefined {
  ctx.stdout.write(ctx.json ? `${JSON.stringify(data, null, 2)}\n` : one()(data, ctx.input));
  return undefined;
}

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
      summary: 'Rename a user, add, remove or replace its roles, or disable or enable it',
      args: [USER_ID],
      options: {
        name: { type: 'string', value: 'name', description: 'The new name' },
        'add-role': { type: 'string', value: 'role', multiple: true, description: 'A role to give the user; its other roles stay' },
        'remove-role': { type: 'string', value: 'role', multiple: true, description: 'A role to take from the user; its other roles stay' },
        role: { type: 'string', value: 'role', multiple: true, description: "A role of the user's new set of roles (replaces the whole set)" },
        'clear-roles': { type: 'boolean', description: 'Take every role away' },
        disable: { type: 'boolean', description: 'Disable the user (its tokens stop working)' },
        enable: { type: 'boolean', description: 'Enable the user again' },
      },
      exclusive: [
        ['disable', 'enable'],
        ['role', 'clear-roles', 'add-role'],
        ['role', 'clear-roles', 'remove-role'],
      ],
      atLeastOne: ['name', 'add-role', 'remove-role', 'role', 'clear-roles', 'disable', 'enable'],
      prepare: prepareUpdate,
      render: one(),
      execute: updateRoles,
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
