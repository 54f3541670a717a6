/** `ops receivers …` and `ops policies …`: the request each command line turns into, its usage errors and its output (pure). */
import t from 'tap';
import { parseCommandLine } from '../../../../../services/cli/args.js';
import { NOUNS } from '../../../../../services/cli/commands/index.js';
import type { PrepareDeps, Prepared } from '../../../../../services/cli/spec.js';

const receiver = { type: 'webhook', name: 'bridge', ownerWorkGroup: { id: 1 }, url: 'https://hooks.example.com/in', secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'] };
const policy = { name: 'Core', ownerWorkGroup: { id: 1 }, configItems: 'all', receiverIds: [2] };
const files: Record<string, string> = { 'hook.json': JSON.stringify(receiver), 'policy.json': JSON.stringify(policy) };
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
const R = '/notifications/receivers';
const P = '/notifications/policies';

t.test('receivers: list, get, create, update, delete', async (t) => {
  t.same(await prepare('receivers', 'list'), request('GET', R));
  t.same(await prepare('receivers', 'get', '4'), request('GET', `${R}/4`));
  t.same(await prepare('receivers', 'create', '--file', 'hook.json'), request('POST', R, receiver));
  t.same(await prepare('receivers', 'create', '--body', JSON.stringify(receiver)), request('POST', R, receiver));
  t.same(await prepare('receivers', 'update', '4', '--body', '{"enabled":true}'), request('PATCH', `${R}/4`, { enabled: true }));
  t.same(await prepare('receivers', 'delete', '4'), request('DELETE', `${R}/4`));
});

t.test('receivers: deliveries with --limit and --cursor, replay of one delivery', async (t) => {
  t.same(await prepare('receivers', 'deliveries', '4'), request('GET', `${R}/4/deliveries`));
  t.same(await prepare('receivers', 'deliveries', '4', '--limit', '20', '--cursor', 'eyJ0cyI6'), request('GET', `${R}/4/deliveries?limit=20&cursor=eyJ0cyI6`));
  t.same(await prepare('receivers', 'replay', '4', 'msg_a/b'), request('POST', `${R}/4/deliveries/msg_a%2Fb/replay`), 'the delivery id is one path segment');
});

t.test('policies: list, get, create, update, delete', async (t) => {
  t.same(await prepare('policies', 'list'), request('GET', P));
  t.same(await prepare('policies', 'get', '3'), request('GET', `${P}/3`));
  t.same(await prepare('policies', 'create', '--file', 'policy.json'), request('POST', P, policy));
  t.same(await prepare('policies', 'update', '3', '--body', '{"kinds":["problem.opened"]}'), request('PATCH', `${P}/3`, { kinds: ['problem.opened'] }));
  t.same(await prepare('policies', 'delete', '3'), request('DELETE', `${P}/3`));
});

t.test('usage: one of --body and --file; ids and --limit are positive integers; replay needs the delivery id', async (t) => {
  t.equal(usageOf('receivers', 'create'), 'give at least one of --body, --file');
  t.equal(usageOf('policies', 'update', '3'), 'give at least one of --body, --file');
  t.equal(usageOf('receivers', 'create', '--body', '{}', '--file', 'hook.json'), 'options --body and --file cannot be used together');
  t.equal(usageOf('receivers', 'get', 'x'), '<id> must be a positive integer, got "x"');
  t.match(usageOf('receivers', 'deliveries', '4', '--limit', '0'), /--limit/);
  t.equal(usageOf('receivers', 'replay', '4'), 'missing argument <deliveryId>');
  t.same(await prepare('receivers', 'create', '--file', 'missing.json'), { ok: false, usage: 'cannot read --file missing.json (ENOENT)' });
});

t.test('help names both nouns and the body options', async (t) => {
  const top = parseCommandLine(['--help'], NOUNS);
  t.match(top.kind === 'help' ? top.text : '', /receivers[\s\S]*policies/);
  const create = parseCommandLine(['receivers', 'create', '--help'], NOUNS);
  t.match(create.kind === 'help' ? create.text : '', /--body <json>[\s\S]*--file <path>[\s\S]*shell history/);
});

t.test('receivers list: a table with the owner workgroup and the redacted URL', async (t) => {
  const { command, input } = parsed('receivers', 'list');
  const rows = [
    { id: 4, type: 'webhook', name: 'bridge', ownerWorkGroup: { id: 1 }, enabled: true, disabledReason: null, url: 'https://hooks.example.com/in?token=***', secretsCount: 1 },
    { id: 5, type: 'slack', name: '#net', ownerWorkGroup: { id: 2 }, enabled: false, disabledReason: 'gone (410)', url: 'https://hooks.slack.com/services/***' },
  ];
  t.equal(
    command.render(rows, input),
    [
      'ID  TYPE     NAME    WORK GROUP  ENABLED  DISABLED BECAUSE  URL',
      '4   webhook  bridge  1           true     -                 https://hooks.example.com/in?token=***',
      '5   slack    #net    2           false    gone (410)        https://hooks.slack.com/services/***',
      '',
    ].join('\n'),
  );
  const deleted = parsed('receivers', 'delete', '4');
  t.equal(deleted.command.render(undefined, deleted.input), 'Deleted receiver 4.\n');
  const replay = parsed('receivers', 'replay', '4', 'msg_a');
  t.equal(replay.command.render({ id: 9 }, replay.input), 'Replay 9 of delivery msg_a to receiver 4 requested.\n');
});

t.test('receivers deliveries: a table, "No deliveries." when empty, and how to get the next page', async (t) => {
  const { command, input } = parsed('receivers', 'deliveries', '4');
  t.equal(command.render({ items: [], nextCursor: null }, input), 'No deliveries.\n');
  const page = {
    items: [
      {
        id: 'x',
        at: '2026-11-21T10:00:31.000Z',
        attempt: 2,
        status: 'delivered',
        statusCode: 204,
        latencyMs: 87,
        deliveryId: 'msg_a',
        eventKinds: ['problem.opened'],
        error: null,
      },
    ],
    nextCursor: 'abc',
  };
  t.equal(
    command.render(page, input),
    [
      'AT                        ATTEMPT  STATUS     CODE  LATENCY MS  DELIVERY  KINDS           ERROR',
      '2026-11-21T10:00:31.000Z  2        delivered  204   87          msg_a     problem.opened  -',
      'More: add --cursor abc for the next page.',
      '',
    ].join('\n'),
  );
});
