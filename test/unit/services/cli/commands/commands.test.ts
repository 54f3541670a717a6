/** The request each command line turns into (pure: parse, then prepare). */
import t from 'tap';
import { parseCommandLine } from '../../../../../services/cli/args.js';
import { NOUNS } from '../../../../../services/cli/commands/index.js';
import type { PrepareDeps, Prepared } from '../../../../../services/cli/spec.js';

const files: Record<string, string> = { 'cfg.json': '{"routeLabel":"net"}', 'list.json': '[1]' };
const deps: PrepareDeps = {
  readFile: async (path) => {
    const text = files[path];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    return text;
  },
};

async function prepare(...argv: string[]): Promise<Prepared> {
  const parsed = parseCommandLine(argv, NOUNS);
  if (parsed.kind !== 'command') throw new Error(`${argv.join(' ')} did not parse`);
  return parsed.command.prepare(parsed.input, deps);
}

const request = (method: string, path: string, body?: unknown) => ({ ok: true, request: body === undefined ? { method, path } : { method, path, body } });

t.test('users, tokens and whoami', async (t) => {
  t.same(await prepare('whoami'), request('GET', '/me'));
  t.same(await prepare('users', 'list'), request('GET', '/users'));
  t.same(await prepare('users', 'create', '--name', 'alice'), request('POST', '/users', { name: 'alice' }));
  t.same(
    await prepare('users', 'create', '--name', 'bob', '--role', 'ops', '--role', 'sla', '--work-group', '1', '--work-group', '3'),
    request('POST', '/users', { name: 'bob', roles: ['ops', 'sla'], workGroupIds: [1, 3] }),
  );
  t.same(await prepare('users', 'update', '2', '--disable'), request('PATCH', '/users/2', { disabled: true }));
  t.same(await prepare('users', 'update', '2', '--enable', '--name', 'b'), request('PATCH', '/users/2', { name: 'b', disabled: false }));
  t.same(await prepare('users', 'update', '2', '--clear-roles'), request('PATCH', '/users/2', { roles: [] }));
  t.same(await prepare('users', 'delete', '2'), request('DELETE', '/users/2'));
  t.same(await prepare('tokens', 'issue', '2'), request('POST', '/users/2/tokens', {}));
  t.same(
    await prepare('tokens', 'issue', '2', '--name', 'ci', '--expires', '2030-01-01T00:00:00Z'),
    request('POST', '/users/2/tokens', { name: 'ci', expiresAt: '2030-01-01T00:00:00Z' }),
  );
  t.same(await prepare('tokens', 'revoke', '2', '9'), request('DELETE', '/users/2/tokens/9'));
});

t.test('work-groups and roles', async (t) => {
  t.same(await prepare('work-groups', 'create', '--name', 'Network', '--id', '7', '--member', '2'), request('POST', '/work-groups', { id: 7, name: 'Network', memberIds: [2] }));
  t.same(await prepare('work-groups', 'rename', '7', '--name', 'Net'), request('PATCH', '/work-groups/7', { name: 'Net' }));
  t.same(await prepare('work-groups', 'add-member', '7', '2'), request('PUT', '/work-groups/7/members/2'));
  t.same(await prepare('work-groups', 'remove-member', '7', '2'), request('DELETE', '/work-groups/7/members/2'));
  t.same(
    await prepare('roles', 'put', 'sla-reader', '--right', 'base-system.sla.read', '--description', 'Reads SLAs'),
    request('PUT', '/roles/sla-reader', { description: 'Reads SLAs', rights: ['base-system.sla.read'] }),
  );
  t.same(await prepare('roles', 'delete', 'a/b'), request('DELETE', '/roles/a%2Fb'), 'path segments are encoded');
});

t.test('ci-types and cmdb-systems', async (t) => {
  t.same(await prepare('ci-types', 'create', '--name', 'Server'), request('POST', '/config-item-types', { name: 'Server' }));
  t.same(
    await prepare('ci-types', 'create', '--name', 'Server', '--description', 'A host', '--id', '4', '--default'),
    request('POST', '/config-item-types', { id: 4, name: 'Server', description: 'A host', isDefault: true }),
  );
  t.same(await prepare('ci-types', 'update', '4', '--default'), request('PATCH', '/config-item-types/4', { isDefault: true }));
  t.same(await prepare('ci-types', 'create', '--name', 'DB', '--icon', '3'), request('POST', '/config-item-types', { name: 'DB', iconId: 3 }));
  t.same(await prepare('ci-types', 'update', '4', '--icon', '1000'), request('PATCH', '/config-item-types/4', { iconId: 1000 }));
  t.same(await prepare('ci-types', 'update', '4', '--clear-icon'), request('PATCH', '/config-item-types/4', { iconId: null }));
  t.same(await prepare('ci-types', 'delete', '4'), request('DELETE', '/config-item-types/4'));
  t.same(await prepare('cmdb-systems', 'create', '--name', 'SAP'), request('POST', '/cmdb-systems', { name: 'SAP' }));
  t.same(await prepare('cmdb-systems', 'rename', '1', '--name', 'SAP2'), request('PATCH', '/cmdb-systems/1', { name: 'SAP2' }));
});

t.test('ci-type-icons: list, upload a PNG file as it is, delete', async (t) => {
  t.same(await prepare('ci-type-icons', 'list'), request('GET', '/config-item-type-icons'));
  const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
  const withBytes: PrepareDeps = {
    ...deps,
    readBytes: async (path) => (path === 'icons/rack.png' ? bytes : Promise.reject(Object.assign(new Error('ENOENT'), { code: 'ENOENT' }))),
  };
  const upload = async (...argv: string[]) => {
    const parsed = parseCommandLine(['ci-type-icons', 'upload', ...argv], NOUNS);
    if (parsed.kind !== 'command') throw new Error('did not parse');
    return parsed.command.prepare(parsed.input, withBytes);
  };
  t.same(await upload('--file', 'icons/rack.png'), {
    ok: true,
    request: { method: 'POST', path: '/config-item-type-icons?name=rack&fileName=rack.png', raw: { contentType: 'image/png', bytes } },
  });
  t.match(await upload('--file', 'icons/rack.png', '--name', 'Server rack'), { ok: true, request: { path: '/config-item-type-icons?name=Server+rack&fileName=rack.png' } });
  t.same(await upload('--file', 'missing.png'), { ok: false, usage: 'cannot read --file missing.png (ENOENT)' });
  t.same(await prepare('ci-type-icons', 'delete', '1000'), request('DELETE', '/config-item-type-icons/1000'));
});

t.test('streams, with the configuration inline or from a file', async (t) => {
  t.same(await prepare('streams', 'create', '--name', 'syslog'), request('POST', '/streams', { name: 'syslog' }));
  t.same(
    await prepare('streams', 'create', '--name', 'syslog', '--inactive', '--config', '{"parser":{"type":"xml"}}'),
    request('POST', '/streams', { name: 'syslog', status: 'inactive', config: { parser: { type: 'xml' } } }),
  );
  t.same(await prepare('streams', 'update', '3', '--config-file', 'cfg.json'), request('PATCH', '/streams/3', { config: { routeLabel: 'net' } }));
  for (const verb of ['rotate-key', 'activate', 'deactivate', 'mark-for-deletion']) t.same(await prepare('streams', verb, '3'), request('POST', `/streams/3/${verb}`));
  t.same(await prepare('streams', 'delete', '3'), request('DELETE', '/streams/3'));
});

t.test('a configuration that is not a JSON object is a usage error', async (t) => {
  t.match(await prepare('streams', 'create', '--name', 's', '--config', '{bad'), { ok: false, usage: /^--config is not valid JSON: / });
  t.same(await prepare('streams', 'create', '--name', 's', '--config', 'null'), { ok: false, usage: '--config must be a JSON object' });
  t.same(await prepare('streams', 'update', '3', '--config-file', 'list.json'), { ok: false, usage: '--config-file list.json must be a JSON object' });
  t.same(await prepare('streams', 'update', '3', '--config-file', 'missing.json'), { ok: false, usage: 'cannot read --config-file missing.json (ENOENT)' });
});
