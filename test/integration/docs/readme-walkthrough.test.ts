/**
 * Issue #37: the README's walk-through, run as a reader runs it. The blocks fenced
 * ```` ```sh walkthrough=<name> ```` are read from README.md (not retyped here) and run in order in
 * one bash, as in one terminal, against a platform started as `npm start` starts it, on an empty
 * data directory and without OPS_ADMIN_TOKEN: the admin token is the one the first start prints,
 * pasted where the first block asks for it.
 *
 * Every command must succeed: the shell stops at the first one that fails (`set -e`, pipefail),
 * and curl counts an HTTP error as a failure (`--fail-with-body`, added by a function for this
 * run only). Then each block's output is checked against what the README says it shows: the
 * problem opening and closing after 15 minutes, the maintenance mode hiding the next one, alice
 * keeping `maintenance-writer` when she gets `sla-reader`, and the report counting both problems
 * with core-router's availability below 100 % and port-1's problem time as maintenance.
 *
 * Beside it, a check that the README and the docs link only to files a clone has.
 */

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import t from 'tap';
import { freePort } from '../../support/free-port.js';
import { runEntry } from '../../support/process.js';

const root = new URL('../../../', import.meta.url).pathname;
/** The blocks the README's walk-through consists of, in its order. */
const BLOCKS = ['admin-token', 'admin-setup', 'alice-cmdb', 'problem-opens', 'problem-closes', 'maintenance', 'sla-report', 'calendar'];
const MARK = '@@walkthrough-block';

interface Block {
  name: string;
  code: string;
}

/** The walk-through's blocks, in the README's order; every fence naming `walkthrough` must be one. */
function walkthroughBlocks(markdown: string): Block[] {
  const fences = markdown.split('\n').filter((line) => /^```.*walkthrough/.test(line));
  const blocks = [...markdown.matchAll(/^```sh walkthrough=([a-z-]+)\n([\s\S]*?)^```$/gm)].map((m) => ({ name: m[1]!, code: m[2]! }));
  if (fences.length !== blocks.length) throw new Error(`README.md: ${fences.length} walkthrough fences, ${blocks.length} of them read as blocks`);
  return blocks;
}

/** The blocks as one script that stops at the first failing command and marks where each begins. */
function script(blocks: readonly Block[]): string {
  const lines = [
    'set -eE -o pipefail',
    `trap 'echo "walkthrough: exit status $? at: $BASH_COMMAND" >&2' ERR`,
    '# an HTTP error is a failure in this run (a reader sees the problem+json it answers)',
    'curl() { command curl --fail-with-body "$@"; }',
  ];
  for (const block of blocks) lines.push(`printf '\\n${MARK} %s\\n' '${block.name}'`, block.code);
  lines.push(`printf '\\n${MARK} end\\n'`);
  return `${lines.join('\n')}\n`;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function bash(file: string, env: Record<string, string>, stdin: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [file], { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
  });
}

/** Each block's output by name. */
function outputs(stdout: string): Map<string, string> {
  const byName = new Map<string, string>();
  const parts = stdout.split(`\n${MARK} `).slice(1);
  for (const part of parts) {
    const newline = part.indexOf('\n');
    byName.set(newline < 0 ? part : part.slice(0, newline), newline < 0 ? '' : part.slice(newline + 1));
  }
  return byName;
}

const jsonLines = (text: string): any[] =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{') || line.startsWith('['))
    .map((line) => JSON.parse(line));

/** The data rows of an `ops … list` table (the header dropped), each split on runs of spaces. */
const tableRows = (text: string): string[][] =>
  text
    .split('\n')
    .filter((line) => line.length > 0)
    .slice(1)
    .map((line) => line.split(/ {2,}/));

/** A CSV export without quoted commas, as records keyed by its header. */
function csv(text: string): Record<string, string>[] {
  const [header, ...rows] = text
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line.length > 0);
  const names = header!.split(',');
  return rows.map((row) => Object.fromEntries(row.split(',').map((value, i) => [names[i]!, value.replace(/^"|"$/g, '')])));
}

t.setTimeout(600_000);

t.test('the README and the docs link only to files of the repository (a clone has nothing beside it)', async (t) => {
  const docs = [
    'README.md',
    'bench/README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  for (const doc of docs) {
    const text = readFileSync(join(root, doc), 'utf8');
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((link) => !/^[a-z][a-z+.-]*:/.test(link) && !link.startsWith('#'));
    for (const link of links) {
      const target = join(root, dirname(doc), link.split('#')[0]!);
      const inside = !relative(root, target).startsWith('..');
      t.ok(inside && existsSync(target), `${doc}: ${link} is a file of the repository`);
    }
    t.notMatch(text, /\.\.\/shared\//, `${doc} sends no one to ../shared`);
  }
});

t.test('the README walk-through, block by block, from the first start of an empty installation', async (t) => {
  const blocks = walkthroughBlocks(readFileSync(join(root, 'README.md'), 'utf8'));
  t.same(
    blocks.map((b) => b.name),
    BLOCKS,
    'the walk-through blocks, in order',
  );

  const dataDir = mkdtempSync(join(tmpdir(), 'ops-readme-'));
  const work = mkdtempSync(join(tmpdir(), 'ops-readme-shell-'));
  const port = await freePort();
  // As `npm start` runs it; the free-space watermark off, since the machine's disk is not what is tested.
  const platform = runEntry('services/main.ts', { OPS_PORT: String(port), OPS_DATA_DIR: dataDir, OPS_MIN_FREE_DISK: '0', LOG_LEVEL: 'info' });
  t.teardown(async () => {
    platform.child.kill('SIGTERM');
    await platform.exited;
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });
  await platform.waitFor(/listening on port/, 120_000);
  const printed = /Bootstrap admin token[^\n]*\n\n\s+(\S+)\n/.exec(platform.output())?.[1];
  if (!printed) throw new Error(`the first start printed no admin token:\n${platform.output().slice(-2000)}`);

  const file = join(work, 'walkthrough.sh');
  writeFileSync(file, script(blocks));
  // A reader's shell: no token set, the platform's address in OPS_URL (the first block keeps it).
  const env = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? work, OPS_URL: `http://127.0.0.1:${port}`, npm_config_update_notifier: 'false' };
  const run = await bash(file, env, `${printed}\n`);
  const out = outputs(run.stdout);
  const reached = [...out.keys()].filter((name) => name !== 'end').at(-1);
  t.equal(run.code, 0, `every command succeeds (the last block begun: ${reached})`, { stderr: run.stderr.slice(-4000), stdout: run.stdout.slice(-4000) });
  t.ok(out.has('end'), 'the walk-through ran to its end');

  t.test('1. the pasted token is the admin', async (t) => {
    const text = out.get('admin-token') ?? '';
    t.match(text, /^name +admin$/m);
    t.match(text, /^token\.name +bootstrap$/m);
  });

  t.test('2. the admin sets up a workgroup, alice with a role, a CI type, a stream and a trigger', async (t) => {
    const text = out.get('admin-setup') ?? '';
    t.match(text, /^name +Network$/m);
    t.match(text, /^name +alice\nroles +maintenance-writer$/m);
    t.match(text, /^name +Server$/m);
    t.match(text, /^name +router down$/m);
  });

  t.test('3. alice reads the workgroups and creates core-router (1) and its child port-1 (2)', async (t) => {
    const [groups, types, router, port1, filtered] = jsonLines(out.get('alice-cmdb') ?? '');
    t.same(groups, [{ id: 1, name: 'Network' }]);
    t.same(
      types?.map((x: { name: string }) => x.name),
      ['Default', 'Server'],
    );
    t.match(router, { id: 1, name: 'core-router', configItemType: { id: 2 }, ownerWorkGroup: { id: 1 } });
    t.match(port1, { id: 2, name: 'port-1', parent: { id: 1 }, ownerWorkGroup: { id: 1 } });
    t.same(filtered, [{ id: 1, name: 'core-router', labels: { env: 'prod' } }]);
  });

  t.test('4. the down record opens a problem on core-router: state Problem, health 0', async (t) => {
    const text = out.get('problem-opens') ?? '';
    t.same(jsonLines(text)[0], { accepted: 1 });
    const rows = tableRows(
      text
        .split('\n')
        .filter((l) => !l.startsWith('{'))
        .join('\n'),
    );
    t.equal(rows.length, 1, 'one open problem');
    t.match(rows[0], [/^[0-9a-f-]{36}$/, 'Problem2', 'router down', 'core-router']);
    const ci = jsonLines(text)[1];
    t.equal(ci?.state?.value, 'Problem');
    t.equal(ci?.healthStatus?.value, 0);
  });

  t.test('5. the ok record closes it 15 minutes after it opened', async (t) => {
    const text = out.get('problem-closes') ?? '';
    t.same(jsonLines(text)[0], { accepted: 1 });
    const rows = tableRows(
      text
        .split('\n')
        .filter((l) => !l.startsWith('{'))
        .join('\n'),
    );
    t.equal(rows.length, 1);
    const [, minutes, seconds] = /^(\d+)m (\d+)s$/.exec(rows[0]?.[5] ?? '') ?? [];
    const duration = Number(minutes) * 60 + Number(seconds);
    t.ok(duration >= 899 && duration <= 901, `DURATION ${rows[0]?.[5]} is 15 minutes (the two dates were taken a moment apart)`);
  });

  t.test('6. an active maintenance mode hides the problem that opens on port-1', async (t) => {
    const text = out.get('maintenance') ?? '';
    const [mode, accepted, ci] = jsonLines(text);
    t.match(mode, { id: 1, title: 'Router upgrade', state: 'Active' });
    t.same(accepted, { accepted: 1 });
    const tables = text
      .split('\n')
      .filter((l) => !l.startsWith('{'))
      .join('\n')
      .split(/\n(?=ID +PRIORITY)/);
    t.equal(tables.length, 2, 'two problem lists');
    t.same(tableRows(tables[0]!), [], '--in-maintenance false: nothing needs attention');
    const hidden = tableRows(tables[1]!);
    t.equal(hidden.length, 1, '--in-maintenance true: the one problem');
    t.equal(hidden[0]?.[3], 'port-1');
    t.match(ci, { id: 2, state: { value: 'Problem', valueUnderMaintenance: 'Problem' } });
  });

  t.test('7. the report counts both problems: core-router below 100 %, port-1 in maintenance', async (t) => {
    const text = out.get('sla-report') ?? '';
    t.match(text, /^roles +maintenance-writer, sla-reader$/m, '--add-role kept maintenance-writer');
    const [templates, report] = jsonLines(text);
    t.match(templates, [{ id: 1, type: 'Single', name: 'Core' }]);
    t.match(report, { status: 'Ok', template: { id: 1 } });
    const [ciCsv, eventCsv] = text.slice(text.indexOf('\nId,') + 1).split(/\n(?=Id,)/);
    const cis = csv(ciCsv ?? '');
    const router = cis.find((r) => r['Name'] === 'core-router');
    const port1 = cis.find((r) => r['Name'] === 'port-1');
    const availability = Number(router?.['ServiceAvailability']);
    // 900 s of problem in an hour whose last seconds are maintenance: (2700 − m) / (3600 − m) ≤ 75 %.
    t.ok(availability > 70 && availability <= 75, `core-router's availability ${availability} is about 75 %`);
    t.ok(Math.abs(Number(router?.['ProblemTime']) - 900) <= 1, `core-router's problem time ${router?.['ProblemTime']} s is 15 minutes`);
    t.equal(router?.['EventsCount'], '1');
    t.equal(port1?.['ServiceAvailability'], '100', "port-1's problem time fell in maintenance");
    t.equal(port1?.['ProblemTime'], '0');
    t.ok(Number(port1?.['MaintenanceTime']) > 0, `port-1's maintenance time ${port1?.['MaintenanceTime']} s`);
    t.equal(port1?.['EventsCount'], '1', 'its problem is still counted');
    t.equal(port1?.['Problem2EventsCount'], '1');
    const events = csv(eventCsv ?? '');
    t.same(events.map((e) => e['InfluencedCI']).sort(), ['core-router', 'port-1'], 'the event export lists both problems');
  });

  t.test('8. a recurring mode, and a calendar feed that shows both modes', async (t) => {
    const text = out.get('calendar') ?? '';
    const [preview, mode] = jsonLines(text);
    t.equal(preview?.occurrences?.length, 5);
    t.match(mode, { id: 2, title: 'Sunday patch window', state: 'Scheduled', recurrence: { rule: 'FREQ=WEEKLY;BYDAY=SU' } });
    t.match(text, /^SUMMARY:Router upgrade\r?$/m);
    t.match(text, /^SUMMARY:Sunday patch window\r?$/m);
    t.match(text, /^RRULE:FREQ=WEEKLY;BYDAY=SU/m);
    t.match(jsonLines(text).at(-1), [{ id: 1, name: 'Network maintenance', revokedAt: null }], 'the feed listed before its revocation');
  });

  t.test('the token step takes OPS_ADMIN_TOKEN when it is set, and asks nothing', async (t) => {
    const first = join(work, 'admin-token.sh');
    writeFileSync(first, script(blocks.slice(0, 1)));
    const again = await bash(first, { ...env, OPS_ADMIN_TOKEN: printed }, '');
    t.equal(again.code, 0, 'the block succeeds with no input', { stderr: again.stderr });
    t.match(again.stdout, /^name +admin$/m);
  });
});
