/** `ops sla-templates …`: the request each command line turns into, its usage errors and its output (pure). */
import t from 'tap';
import { parseCommandLine } from '../../../../../services/cli/args.js';
import { NOUNS } from '../../../../../services/cli/commands/index.js';
import type { PrepareDeps, Prepared } from '../../../../../services/cli/spec.js';

const template = { type: 'Single', name: 'Core', period: 'ThisMonth', ownerType: 'WorkGroup', workGroupId: 1, configItems: [{ id: 7 }] };
const files: Record<string, string> = { 'core.json': JSON.stringify(template), 'list.json': '[1]', 'bad.json': '{"name":' };
const deps: PrepareDeps = {
  readFile: async (path) => {
    const text = files[path];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    return text;
  },
};

function parsed(...argv: string[]) {
  const result = parseCommandLine(argv, NOUNS);
  if (result.kind !== 'command') throw new Error(`${argv.join(' ')}: ${result.kind === 'usage' ? result.message : 'help'}`);
  return result;
}

async function prepare(...argv: string[]): Promise<Prepared> {
  const { command, input } = parsed(...argv);
  return command.prepare(input, deps);
}

const usageOf = (...argv: string[]): string => {
  const result = parseCommandLine(argv, NOUNS);
  return result.kind === 'usage' ? result.message : `(${result.kind})`;
};

const request = (method: string, path: string, body?: unknown) => ({ ok: true, request: body === undefined ? { method, path } : { method, path, body } });

t.test('list, get and delete', async (t) => {
  t.same(await prepare('sla-templates', 'list'), request('GET', '/sla/templates'));
  t.same(await prepare('sla-templates', 'get', '4'), request('GET', '/sla/templates/4'));
  t.same(await prepare('sla-templates', 'delete', '4'), request('DELETE', '/sla/templates/4'));
});

t.test('create: the body inline with --body or from a file with --file', async (t) => {
  t.same(await prepare('sla-templates', 'create', '--body', JSON.stringify(template)), request('POST', '/sla/templates', template));
  t.same(await prepare('sla-templates', 'create', '--file', 'core.json'), request('POST', '/sla/templates', template));
});

t.test('update: PATCH with the given fields', async (t) => {
  t.same(await prepare('sla-templates', 'update', '4', '--body', '{"priorities":[1]}'), request('PATCH', '/sla/templates/4', { priorities: [1] }));
  t.same(await prepare('sla-templates', 'update', '4', '--file', 'core.json'), request('PATCH', '/sla/templates/4', template));
});

t.test('--json stays the global output flag beside --body', async (t) => {
  const result = parsed('sla-templates', 'create', '--body', '{}', '--json');
  t.equal(result.globals.json, true);
});

t.test('a body that is not a JSON object is a usage error', async (t) => {
  t.match(await prepare('sla-templates', 'create', '--body', '{bad'), { ok: false, usage: /^--body is not valid JSON: / });
  t.same(await prepare('sla-templates', 'create', '--body', 'null'), { ok: false, usage: '--body must be a JSON object' });
  t.same(await prepare('sla-templates', 'update', '4', '--file', 'list.json'), { ok: false, usage: '--file list.json must be a JSON object' });
  t.match(await prepare('sla-templates', 'update', '4', '--file', 'bad.json'), { ok: false, usage: /^--file bad\.json is not valid JSON: / });
  t.same(await prepare('sla-templates', 'create', '--file', 'missing.json'), { ok: false, usage: 'cannot read --file missing.json (ENOENT)' });
});

t.test('usage: one of --body and --file, not both; ids are positive integers', async (t) => {
  t.equal(usageOf('sla-templates', 'create'), 'give at least one of --body, --file');
  t.equal(usageOf('sla-templates', 'update', '4'), 'give at least one of --body, --file');
  t.equal(usageOf('sla-templates', 'create', '--body', '{}', '--file', 'core.json'), 'options --body and --file cannot be used together');
  t.equal(usageOf('sla-templates', 'get', 'x'), '<id> must be a positive integer, got "x"');
  t.equal(usageOf('sla-templates', 'delete'), 'missing argument <id>');
});

t.test('help names the noun and its body options', async (t) => {
  const top = parseCommandLine(['--help'], NOUNS);
  t.match(top.kind === 'help' ? top.text : '', /sla-templates/);
  const create = parseCommandLine(['sla-templates', 'create', '--help'], NOUNS);
  t.match(create.kind === 'help' ? create.text : '', /--body <json>[\s\S]*--file <path>/);
});

t.test('list prints a table of id, type, name, period and owner', async (t) => {
  const { command, input } = parsed('sla-templates', 'list');
  const rows = [
    { id: 1, type: 'Single', name: 'Core', period: 'ThisMonth', ownerType: 'WorkGroup', userId: null, workGroupId: 3 },
    { id: 2, type: 'Multi', name: 'All', period: 'Today', ownerType: 'User', userId: 5, workGroupId: null },
  ];
  t.equal(
    command.render(rows, input),
    ['ID  TYPE    NAME  PERIOD     OWNER      USER  WORK GROUP', '1   Single  Core  ThisMonth  WorkGroup  -     3', '2   Multi   All   Today      User       5     -', ''].join(
      '\n',
    ),
  );
  const deleted = parsed('sla-templates', 'delete', '2');
  t.equal(deleted.command.render(undefined, deleted.input), 'Deleted SLA template 2.\n');
});
