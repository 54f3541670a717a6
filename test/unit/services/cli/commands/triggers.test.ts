/**
 * `ops triggers`: the request each command line turns into, the usage errors found before any
 * request, the list table, and one run end to end against a tiny HTTP server.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { parseCommandLine } from '../../../../../services/cli/args.js';
import { NOUNS } from '../../../../../services/cli/commands/index.js';
import { ciRuleText, priorityText, triggers } from '../../../../../services/cli/commands/triggers.js';
import { run } from '../../../../../services/cli/main.js';
import type { PrepareDeps, Prepared } from '../../../../../services/cli/spec.js';

const TRIGGER = {
  name: 'router down',
  streamIds: [1],
  match: [{ field: 'status', op: 'equals', value: 'down' }],
  ci: { by: 'nameField', field: 'host' },
  priority: { value: 2 },
  resolve: { field: 'status', values: ['ok'] },
  influence: { value: 50, maxInfluence: false },
};

const files: Record<string, string> = { 'trigger.json': JSON.stringify(TRIGGER), 'list.json': '[1]', 'bad.json': '{"name":' };
const deps: PrepareDeps = {
  readFile: async (path) => {
    const text = files[path];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    return text;
  },
};

async function prepare(...argv: string[]): Promise<Prepared> {
  const parsed = parseCommandLine(argv, NOUNS);
  if (parsed.kind !== 'command') throw new Error(`${argv.join(' ')} did not parse: ${parsed.kind === 'usage' ? parsed.message : 'help'}`);
  return parsed.command.prepare(parsed.input, deps);
}

const usageOf = (argv: string[]): string | undefined => {
  const parsed = parseCommandLine(argv, NOUNS);
  return parsed.kind === 'usage' ? parsed.message : undefined;
};

const request = (method: string, path: string, body?: unknown) => ({ ok: true, request: body === undefined ? { method, path } : { method, path, body } });

t.test('list, get and delete map to the admin paths; --stream filters by stream', async (t) => {
  t.same(await prepare('triggers', 'list'), request('GET', '/triggers'));
  t.same(await prepare('triggers', 'list', '--stream', '3'), request('GET', '/triggers?streamId=3'));
  t.same(await prepare('triggers', 'get', '4'), request('GET', '/triggers/4'));
  t.same(await prepare('triggers', 'delete', '4'), request('DELETE', '/triggers/4'));
});

t.test('create and update send the trigger body, inline with --body or from --file', async (t) => {
  t.same(await prepare('triggers', 'create', '--body', JSON.stringify(TRIGGER)), request('POST', '/triggers', TRIGGER));
  t.same(await prepare('triggers', 'create', '--file', 'trigger.json'), request('POST', '/triggers', TRIGGER));
  t.same(await prepare('triggers', 'update', '4', '--body', '{"enabled":false}'), request('PATCH', '/triggers/4', { enabled: false }));
  t.same(await prepare('triggers', 'update', '4', '--file', 'trigger.json'), request('PATCH', '/triggers/4', TRIGGER));
});

t.test('a body that is missing, doubled, not JSON or not an object is a usage error', async (t) => {
  t.equal(usageOf(['triggers', 'create']), 'give at least one of --body, --file');
  t.equal(usageOf(['triggers', 'update', '4']), 'give at least one of --body, --file');
  t.equal(usageOf(['triggers', 'create', '--body', '{}', '--file', 'trigger.json']), 'options --body and --file cannot be used together');
  t.equal(usageOf(['triggers', 'get', 'x']), '<id> must be a positive integer, got "x"');
  t.equal(usageOf(['triggers', 'list', '--stream', '0']), 'option --stream must be a positive integer, got "0"');
  t.match(await prepare('triggers', 'create', '--body', '{bad'), { ok: false, usage: /^--body is not valid JSON: / });
  t.same(await prepare('triggers', 'create', '--body', 'null'), { ok: false, usage: '--body must be a JSON object' });
  t.same(await prepare('triggers', 'update', '4', '--file', 'list.json'), { ok: false, usage: '--file list.json must be a JSON object' });
  t.match(await prepare('triggers', 'update', '4', '--file', 'bad.json'), { ok: false, usage: /^--file bad\.json is not valid JSON: / });
  t.same(await prepare('triggers', 'create', '--file', 'missing.json'), { ok: false, usage: 'cannot read --file missing.json (ENOENT)' });
});

t.test('--json stays the global output flag, not the body', async (t) => {
  t.equal(usageOf(['triggers', 'create', '--json', '{"name":"x"}']), 'unexpected argument "{\\"name\\":\\"x\\"}"');
  const parsed = parseCommandLine(['triggers', 'list', '--json'], NOUNS);
  t.equal(parsed.kind === 'command' && parsed.globals.json, true);
});

t.test('the CI rule and the priority in a few words', async (t) => {
  t.equal(ciRuleText({ by: 'fixed', id: 12 }), 'CI 12');
  t.equal(ciRuleText({ by: 'idField', field: 'ci.id' }), 'id from ci.id');
  t.equal(ciRuleText({ by: 'nameField', field: 'host' }), 'name from host');
  t.equal(ciRuleText({ by: 'nameField', field: 'host', ciTypeId: 3 }), 'name from host (type 3)');
  t.equal(ciRuleText(null), '-');
  t.equal(priorityText({ value: 2 }), '2');
  t.equal(priorityText({ field: 'severity', map: { critical: 1 }, default: 3 }), 'from severity (default 3)');
  t.equal(priorityText('odd'), '-');
});

t.test('list renders a table: id, name, enabled, streams, CI rule, priority', async (t) => {
  const render = triggers.commands.find((c) => c.verb === 'list')!.render;
  const rows = [
    { id: 1, ...TRIGGER, enabled: true },
    { id: 12, ...TRIGGER, name: 'link flap', enabled: false, streamIds: [1, 2], ci: { by: 'fixed', id: 7 }, priority: { field: 'sev', map: {}, default: 4 } },
  ];
  t.equal(
    render(rows, { args: {}, options: {} }),
    [
      'ID  NAME         ENABLED  STREAMS  CI RULE         PRIORITY',
      '1   router down  true     1        name from host  2',
      '12  link flap    false    1, 2     CI 7            from sev (default 4)',
      '',
    ].join('\n'),
  );
  t.equal(render([], { args: {}, options: {} }), 'ID  NAME  ENABLED  STREAMS  CI RULE  PRIORITY\n');
});

t.test('end to end: the body is posted as JSON and a refusal prints the field paths', async (t) => {
  const seen: { method: string; url: string; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body });
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify([{ id: 1, ...TRIGGER, enabled: true }]));
        return;
      }
      res.writeHead(400, { 'content-type': 'application/problem+json' });
      res.end(
        JSON.stringify({
          type: 'urn:ops:problem:validation',
          title: 'Invalid data model',
          status: 400,
          detail: 'The trigger refers to what does not exist or cannot be used',
          errors: [{ path: '/streamIds/0', message: 'stream 9 does not exist' }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const env = { OPS_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, OPS_TOKEN: 'test-token-0123456789abcdef' };
  const ops = async (argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await run(argv, env, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
    return { code, stdout, stderr };
  };

  const listed = await ops(['triggers', 'list', '--stream', '1']);
  t.same([listed.code, listed.stderr], [0, '']);
  t.match(listed.stdout, /^ID {2}NAME +ENABLED {2}STREAMS {2}CI RULE +PRIORITY\n1 {3}router down {2}true +1 +name from host {2}2\n$/);
  t.equal(seen.at(-1)!.url, '/api/admin/v1/triggers?streamId=1');

  const refused = await ops(['triggers', 'create', '--body', JSON.stringify({ ...TRIGGER, streamIds: [9] })]);
  t.equal(refused.code, 1);
  t.same(JSON.parse(seen.at(-1)!.body), { ...TRIGGER, streamIds: [9] });
  t.match(refused.stderr, /\/streamIds\/0: stream 9 does not exist/);
});
