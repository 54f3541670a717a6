/**
 * Issue #37: the README's walk-through, run as a reader runs it. The blocks fenced
 * ```` ```sh walkthrough=<name> ```` are read from README.md (not retyped here) and run in order in
 * one bash, as in one terminal, against a platform started as `npm start` starts it, on an empty
 * data directory and without OPS_ADMIN_TOKEN: the admin token is the one the first start prints,
 * pasted where the first block asks for it. The quick start's `curl` block runs too, with only its
 * `localhost:8080` pointed at the test's port.
 *
 * Every command must succeed: the shell stops at the first one that fails (`set -e`, pipefail),
 * and curl counts an HTTP error as a failure (`--fail-with-body`, added by a function for this
 * run only). That function, and one around `npx`, also record each call: the README line it was
 * made from, its status and its answer. Then:
 * - every request answers the status of its kind (201 for a create, 204 for a delete, …: the
 *   table STATUSES below), and a request the table does not know fails the test;
 * - every answer the README writes in a command's comment is the answer given: JSON exactly, JSON
 *   with `…` as at least those fields (a string with `…` as a pattern), `id N` as the id created;
 * - each block's output is what the README says it shows: the problem opening and closing after
 *   15 minutes, the maintenance mode hiding the next one, alice keeping `maintenance-writer` when
 *   she gets `sla-reader`, and the report counting both problems with core-router's availability
 *   below 100 % and port-1's problem time as maintenance.
 *
 * Beside it, a check that the README and the docs link only to files a clone has.
 */

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import t, { type Test } from 'tap';
import { freePort } from '../../support/free-port.js';
import { runEntry } from '../../support/process.js';

const root = new URL('../../../', import.meta.url).pathname;
/** The blocks the README's walk-through consists of, in its order. */
const BLOCKS = ['admin-token', 'admin-setup', 'alice-cmdb', 'problem-opens', 'problem-closes', 'maintenance', 'sla-report', 'calendar'];
const MARK = '@@walkthrough-block';

interface Block {
  name: string;
  code: string;
  /** The README's line number of the block's first line of code. */
  line: number;
}

const lineOf = (markdown: string, index: number): number => markdown.slice(0, index).split('\n').length;

/** The walk-through's blocks, in the README's order; every fence naming `walkthrough` must be one. */
function walkthroughBlocks(markdown: string): Block[] {
  const fences = markdown.split('\n').filter((line) => /^```.*walkthrough/.test(line));
  const blocks = [...markdown.matchAll(/^```sh walkthrough=([a-z-]+)\n([\s\S]*?)^```$/gm)].map((m) => ({
    name: m[1]!,
    code: m[2]!,
    line: lineOf(markdown, m.index) + 1,
  }));
  if (fences.length !== blocks.length) throw new Error(`README.md: ${fences.length} walkthrough fences, ${blocks.length} of them read as blocks`);
  return blocks;
}

/** The `sh` blocks of the README's section `## <title>` (up to the next `## `). */
function sectionShBlocks(markdown: string, title: string): Block[] {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`README.md has no "## ${title}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(0, end < 0 ? undefined : end);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].filter((m) => m.index > start).map((m) => ({ name: title, code: m[1]!, line: lineOf(markdown, m.index) + 1 }));
}

/**
 * For this run only: curl fails on an HTTP error, and curl and npx record each call in
 * $WALKTHROUGH_RECORDS: the script line it was made from (the outermost caller's, so a call
 * through `alice` is the README line that called `alice`), its arguments, curl's status line and
 * headers, and what it wrote to stdout. `tee -p` passes the output on unchanged and never stops
 * early, so a `| head` or `| grep -q` after it changes nothing for curl.
 */
const RECORDING = [
  'record() { local kind=$1 rec=$2; shift 2; printf \'%s\\n%s\\n\' "$kind" "${BASH_LINENO[${#BASH_LINENO[@]}-2]}" >"$rec.meta"; printf \'%s\\0\' "$@" >"$rec.args"; }',
  'curl() { local rec; rec="$WALKTHROUGH_RECORDS/$(date +%s%N)"; record curl "$rec" "$@"; command curl --fail-with-body -D "$rec.headers" "$@" | tee -p "$rec.out"; }',
  'npx() { local rec; rec="$WALKTHROUGH_RECORDS/$(date +%s%N)"; record npx "$rec" "$@"; command npx "$@" | tee -p "$rec.out"; }',
];

interface Script {
  text: string;
  /** Script line number → the block and README line it is. */
  origin: Map<number, { block: string; readmeLine: number }>;
}

/** The blocks as one script that stops at the first failing command and marks where each begins. */
function script(blocks: readonly Block[], options: { pipefail?: boolean } = {}): Script {
  const lines = [options.pipefail === false ? 'set -eE' : 'set -eE -o pipefail', `trap 'echo "walkthrough: exit status $? at: $BASH_COMMAND" >&2' ERR`, ...RECORDING];
  const origin = new Map<number, { block: string; readmeLine: number }>();
  for (const block of blocks) {
    lines.push(`printf '\\n${MARK} %s\\n' '${block.name}'`);
    block.code
      .replace(/\n$/, '')
      .split('\n')
      .forEach((line, i) => {
        lines.push(line);
        origin.set(lines.length, { block: block.name, readmeLine: block.line + i });
      });
  }
  lines.push(`printf '\\n${MARK} end\\n'`);
  return { text: `${lines.join('\n')}\n`, origin };
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

/** One curl or npx call of a run, as RECORDING wrote it. */
interface Call {
  kind: 'curl' | 'npx';
  /** The block and README line it was made from. */
  block: string;
  readmeLine: number;
  args: string[];
  /** curl: the request's method and path, and the final status. */
  method?: string;
  path?: string;
  status?: number;
  out: string;
}

function calls(dir: string, origin: Script['origin']): Call[] {
  const read = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.meta'))
    .map((f) => f.slice(0, -'.meta'.length))
    .sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))
    .map((id) => {
      const base = join(dir, id);
      const [kind, line] = read(`${base}.meta`).split('\n');
      const from = origin.get(Number(line));
      if (!from) throw new Error(`a ${kind} call from script line ${line}, which is no README line`);
      const args = read(`${base}.args`).split('\0').slice(0, -1);
      const call: Call = { kind: kind as Call['kind'], block: from.block, readmeLine: from.readmeLine, args, out: read(`${base}.out`) };
      if (call.kind === 'curl') {
        const url = args.find((a) => /^(https?:\/\/)?[\w.-]+:\d+\//.test(a));
        const explicit = args.findIndex((a) => a === '-X' || a === '--request');
        call.method = explicit >= 0 ? args[explicit + 1] : args.some((a) => /^(-d|--data.*)$/.test(a)) ? 'POST' : 'GET';
        call.path = url === undefined ? undefined : new URL(/^https?:/.test(url) ? url : `http://${url}`).pathname;
        const statuses = [...read(`${base}.headers`).matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((m) => Number(m[1]));
        call.status = statuses.at(-1);
      }
      return call;
    });
}

/**
 * The README's commands, each with the lines it spans and its trailing comment. A command goes on
 * over a line ending in `\` or inside an open quote; `#` starts a comment at a word's start,
 * outside quotes.
 */
function commands(markdown: string, blocks: readonly Block[]): Array<{ lines: number[]; comment: string | undefined }> {
  const readme = markdown.split('\n');
  const found: Array<{ lines: number[]; comment: string | undefined }> = [];
  for (const block of blocks) {
    const count = block.code.replace(/\n$/, '').split('\n').length;
    let current: number[] = [];
    let quote: string | undefined;
    for (let n = block.line; n < block.line + count; n++) {
      const text = readme[n - 1]!;
      let comment: string | undefined;
      for (let i = 0; i < text.length && comment === undefined; i++) {
        const c = text[i]!;
        if (quote) {
          if (c === quote) quote = undefined;
          else if (c === '\\' && quote === '"') i++;
        } else if (c === "'" || c === '"') quote = c;
        else if (c === '\\') i++;
        else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) comment = text.slice(i + 1).trim();
      }
      current.push(n);
      if (quote === undefined && (comment !== undefined || !text.endsWith('\\'))) {
        found.push({ lines: current, comment });
        current = [];
      }
    }
  }
  return found;
}

/**
 * What a comment says a command answers: JSON (`exact`), JSON with `…` for what is left out
 * (`partial`: `…` between members is dropped, a string with `…` becomes a pattern, a fragment
 * `"key":…` is one object's members), or `id N`. Undefined for prose.
 */
function documentedAnswer(comment: string): { exact: unknown } | { partial: unknown } | { id: number } | undefined {
  const id = /^id (\d+)\b/.exec(comment);
  if (id) return { id: Number(id[1]) };
  if (!/^[[{"…]/.test(comment)) return undefined;
  if (!comment.includes('…')) return { exact: JSON.parse(comment) };
  let text = '';
  let inString = false;
  for (let i = 0; i < comment.length; i++) {
    const c = comment[i]!;
    if (inString) {
      text += c;
      if (c === '\\') text += comment[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      text += c;
    } else if (c === '…') {
      if (comment[i + 1] === ',') i++;
      else text = text.replace(/,\s*$/, '');
    } else text += c;
  }
  text = text.trim();
  const pattern = JSON.parse(/^"/.test(text) ? `{${text}}` : text);
  const patterns = (value: unknown): unknown => {
    if (typeof value === 'string' && value.includes('…'))
      return new RegExp(
        `^${value
          .split('…')
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      );
    if (Array.isArray(value)) return value.map(patterns);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, patterns(v)]));
    return value;
  };
  return { partial: patterns(pattern) };
}

/**
 * The status each request of the walk-through and the quick start answers, by method and path: a
 * create 201, a delete 204, the rest 200 (an SLA report is ordered with 200, docs/api-guide.md). A
 * request no row names fails the test: a new command in the README gets its row here.
 */
const STATUSES: Array<[method: string, path: RegExp, status: number]> = [
  ['GET', /^\/(healthz|readyz|api\/openapi\.json)$/, 200],
  ['POST', /^\/api\/public\/cl\/v1\/stream-data$/, 200],
  ['GET', /^\/api\/public\/sm\/v2\/rsm\/(work-groups|config-item-types|config-items\/\d+)$/, 200],
  ['POST', /^\/api\/public\/sm\/v2\/rsm\/config-items$/, 201],
  ['POST', /^\/api\/public\/sm\/v2\/rsm\/config-items\/filter$/, 200],
  ['GET', /^\/api\/public\/sm\/v1\/problems$/, 200],
  ['POST', /^\/api\/public\/sm\/v1\/rsm-maintenance$/, 201],
  ['POST', /^\/api\/public\/sm\/v1\/rsm-maintenance\/preview$/, 200],
  ['POST', /^\/api\/public\/sm\/v1\/rsm-maintenance\/calendar-feeds$/, 201],
  ['GET', /^\/api\/public\/sm\/v1\/rsm-maintenance\/calendar-feeds$/, 200],
  ['DELETE', /^\/api\/public\/sm\/v1\/rsm-maintenance\/calendar-feeds\/\d+$/, 204],
  ['GET', /^\/api\/public\/sm\/v1\/rsm-maintenance\/calendar\.ics$/, 200],
  ['GET', /^\/api\/public\/sm\/v1\/sla\/templates$/, 200],
  ['POST', /^\/api\/public\/sm\/v1\/sla\/ordered$/, 200],
  ['GET', /^\/api\/public\/sm\/v1\/sla\/ordered\/[^/]+(\/export)?$/, 200],
];

/** Checks each call's status against STATUSES and each documented answer against the call it describes. */
function checkCalls(t: Test, markdown: string, blocks: readonly Block[], made: readonly Call[], atLeast: number): void {
  for (const call of made.filter((c) => c.kind === 'curl')) {
    const where = `README.md:${call.readmeLine} ${call.method} ${call.path}`;
    const row = STATUSES.find(([method, path]) => method === call.method && path.test(call.path ?? ''));
    t.ok(row, `${where}: a request the table of statuses knows (it answered ${call.status})`);
    if (row) t.equal(call.status, row[2], `${where} answers ${row[2]}`);
  }
  let checked = 0;
  for (const command of commands(markdown, blocks)) {
    if (command.comment === undefined) continue;
    const where = `README.md:${command.lines.at(-1)}, documented as ${command.comment}`;
    let answer: ReturnType<typeof documentedAnswer>;
    try {
      answer = documentedAnswer(command.comment);
    } catch (error) {
      t.fail(`${where}: a documented answer the test cannot read: ${(error as Error).message}`);
      continue;
    }
    if (answer === undefined) continue;
    const call = made.filter((c) => command.lines.includes(c.readmeLine)).at(-1);
    t.ok(call, `${where}: the command made a call`);
    if (!call) continue;
    checked++;
    if ('id' in answer && call.kind === 'npx') {
      t.match(call.out, new RegExp(`^id +${answer.id}$`, 'm'), `${where}: the CLI shows id ${answer.id}`);
      continue;
    }
    let body: any;
    try {
      body = JSON.parse(call.out);
    } catch {
      t.fail(`${where}: the answer is JSON`, { answer: call.out.slice(0, 500) });
      continue;
    }
    if ('id' in answer) t.equal(body?.id, answer.id, `${where}: the answer's id is ${answer.id}`);
    else if ('exact' in answer) t.same(body, answer.exact, `${where}: exactly this answer`);
    else t.match(body, answer.partial, `${where}: an answer with these fields`);
  }
  t.ok(checked >= atLeast, `${checked} documented answers checked (at least ${atLeast})`);
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
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const blocks = walkthroughBlocks(readme);
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

  t.test('the quick start: npm start is what runs here, and its curl block answers as it says', async (t) => {
    const [install, check, ...others] = sectionShBlocks(readme, 'Quick start');
    t.equal(others.length, 0, 'two sh blocks: the start, and the check from another terminal');
    t.same(install?.code.trim().split('\n'), ['npm ci', 'npm start']);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    t.match(pkg.scripts.start, /^exec node .*--import tsx services\/main\.ts$/, 'npm start runs services/main.ts, as this test does');
    // The README's port is 8080; the platform here listens on a free port: only that is changed.
    t.match(check?.code ?? '', /localhost:8080\//, 'the block calls localhost:8080');
    const block = { ...check!, code: (check?.code ?? '').replaceAll('localhost:8080/', `localhost:${port}/`) };
    const records = join(work, 'quick-start');
    mkdirSync(records);
    const quick = script([block], { pipefail: false });
    writeFileSync(join(work, 'quick-start.sh'), quick.text);
    const ran = await bash(join(work, 'quick-start.sh'), { PATH: process.env['PATH'] ?? '', HOME: work, WALKTHROUGH_RECORDS: records }, '');
    t.equal(ran.code, 0, 'every command succeeds', { stderr: ran.stderr });
    const made = calls(records, quick.origin);
    t.same(
      made.map((c) => c.path),
      ['/healthz', '/readyz', '/api/openapi.json'],
    );
    checkCalls(t, readme, [block], made, 1);
    t.match(made[2]?.out ?? '', /^\{"openapi":"3\./, 'the OpenAPI document');
  });

  const file = join(work, 'walkthrough.sh');
  const walkthrough = script(blocks);
  writeFileSync(file, walkthrough.text);
  const records = join(work, 'records');
  mkdirSync(records);
  // A reader's shell: no token set, the platform's address in OPS_URL (the first block keeps it).
  const env = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? work, OPS_URL: `http://127.0.0.1:${port}`, npm_config_update_notifier: 'false' };
  const run = await bash(file, { ...env, WALKTHROUGH_RECORDS: records }, `${printed}\n`);
  const out = outputs(run.stdout);
  const reached = [...out.keys()].filter((name) => name !== 'end').at(-1);
  t.equal(run.code, 0, `every command succeeds (the last block begun: ${reached})`, { stderr: run.stderr.slice(-4000), stdout: run.stdout.slice(-4000) });
  t.ok(out.has('end'), 'the walk-through ran to its end');
  const made = calls(records, walkthrough.origin);

  t.test('every request answers its status, and every answer a comment documents is the one given', async (t) => {
    t.ok(made.filter((c) => c.kind === 'curl').length >= 20, `${made.filter((c) => c.kind === 'curl').length} requests made`);
    checkCalls(t, readme, blocks, made, 15);
  });

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
    writeFileSync(first, script(blocks.slice(0, 1)).text);
    mkdirSync(join(work, 'admin-token'));
    const again = await bash(first, { ...env, OPS_ADMIN_TOKEN: printed, WALKTHROUGH_RECORDS: join(work, 'admin-token') }, '');
    t.equal(again.code, 0, 'the block succeeds with no input', { stderr: again.stderr });
    t.match(again.stdout, /^name +admin$/m);
  });
});
