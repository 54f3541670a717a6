/**
 * The folder tells the architecture (STYLE, issue #36). From the ground up:
 * - `schemas/`: wire models, table shapes, the error catalogue; imports nothing of the project above it;
 * - `pipelines/`: pure steps over those; imports only schemas/;
 * - `services/runtime/` (adapters, HTTP, process plumbing) and `services/control-plane/` (the model
 *   and its commands): the floor every process stands on; they import no part;
 * - `services/part.ts`: what a part is and is given;
 * - the parts (`api/`, `ingress/`, `event-worker/`, `sla-worker/`, `notifications/`) and the
 *   modules they share (`live-sla/`); a part imports no other part;
 * - the composition root (`platform.ts`, `parts.ts`, `run-service.ts`, the `main.ts` files).
 * Pipelines, schemas and the domain model do no I/O. No file imports itself back through others
 * (type imports count: a reader follows them too), and routes read typed inputs, never casts.
 */

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import t from 'tap';

const root = new URL('../../', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'dist' || name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(path) && !path.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The modules a source names: import and export statements, however many lines they span, and
 * dynamic imports. `typeOnly`: `import type` / `export type` statements.
 */
export function importsOf(text: string): Array<{ spec: string; typeOnly: boolean; statement: string }> {
  const found: Array<{ spec: string; typeOnly: boolean; statement: string }> = [];
  for (const m of text.matchAll(/(?:^|[;\n])\s*((?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"])/g)) {
    found.push({ spec: m[3]!, typeOnly: m[2] !== undefined, statement: m[1]!.replace(/\s+/g, ' ') });
  }
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ spec: m[1]!, typeOnly: false, statement: m[0] });
  return found;
}

/** The repository path a relative specifier names (`./x.js` is `./x.ts` or `./x.tsx`), or undefined. */
function resolveSpec(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) if (existsSync(candidate)) return relative(root, candidate);
  return undefined;
}

const sources = [...files(join(root, 'schemas')), ...files(join(root, 'pipelines')), ...files(join(root, 'services'))];
const graph = new Map<string, Array<{ target: string; typeOnly: boolean; statement: string; spec: string }>>();
for (const file of sources) {
  const edges = importsOf(readFileSync(file, 'utf8')).map((i) => ({ ...i, target: resolveSpec(file, i.spec) ?? i.spec }));
  graph.set(relative(root, file), edges);
}

const under = (path: string, ...prefixes: string[]): boolean => prefixes.some((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`));
const PARTS = ['services/api', 'services/ingress', 'services/event-worker', 'services/sla-worker', 'services/notifications'];
const ROOT_FILES = ['services/platform.ts', 'services/parts.ts', 'services/run-service.ts'];
const isEntry = (path: string): boolean => path.endsWith('/main.ts') || path === 'services/main.ts';

/** Each import of a file under `from` that names a file under one of `banned`. */
function crossings(from: (path: string) => boolean, banned: (target: string) => boolean): string[] {
  const found: string[] = [];
  for (const [file, edges] of graph) {
    if (!from(file)) continue;
    for (const e of edges) if (banned(e.target)) found.push(`${file}: ${e.statement}`);
  }
  return found;
}

t.test('the parser reads imports spread over several lines, type imports and dynamic imports', async (t) => {
  const text = "import {\n  a,\n  b,\n} from './one.js';\nimport type {\n  C } from '../two.js';\nexport { d } from './three.js';\nconst m = await import('./four.js');\n";
  t.same(
    importsOf(text).map((i) => [i.spec, i.typeOnly]),
    [
      ['./one.js', false],
      ['../two.js', true],
      ['./three.js', false],
      ['./four.js', false],
    ],
  );
});

t.test('pure layers import no adapter, HTTP code or I/O library', async (t) => {
  const io = /^(nats|ioredis|lmdb|chdb|@clickhouse\/client|uWebSockets\.js|node:fs|node:fs\/promises|node:net|node:http|node:child_process)$/;
  const pure = (f: string): boolean => under(f, 'pipelines', 'schemas', 'services/control-plane') && f !== 'services/control-plane/control-plane.ts'; // the journal wiring is the control plane's one adapter-facing file
  const found: string[] = [];
  for (const [file, edges] of graph) {
    if (!pure(file)) continue;
    for (const e of edges) {
      if (e.typeOnly) continue;
      if (io.test(e.spec) || under(e.target, 'services/runtime/adapters', 'services/runtime/http')) found.push(`${file}: ${e.statement}`);
    }
  }
  t.same(found, []);
});

t.test('schemas/ imports nothing above it; pipelines/ only schemas/', async (t) => {
  t.same(
    crossings(
      (f) => under(f, 'schemas'),
      (target) => under(target, 'pipelines', 'services'),
    ),
    [],
  );
  t.same(
    crossings(
      (f) => under(f, 'pipelines'),
      (target) => under(target, 'services'),
    ),
    [],
  );
});

t.test('the runtime and the control plane import no part and not the composition root', async (t) => {
  t.same(
    crossings(
      (f) => under(f, 'services/runtime', 'services/control-plane'),
      (target) => under(target, ...PARTS, 'services/live-sla', 'services/part.ts', ...ROOT_FILES),
    ),
    [],
  );
});

t.test('inside the control plane nothing imports slices.ts, which builds the model from every slice (commands name it through model.ts)', async (t) => {
  t.same(
    crossings(
      (f) => under(f, 'services/control-plane'),
      (target) => target === 'services/control-plane/slices.ts',
    ),
    [],
  );
});

t.test('a part imports no other part (a process entry, main.ts, names the parts it runs)', async (t) => {
  const found: string[] = [];
  for (const part of PARTS)
    found.push(
      ...crossings(
        (f) => under(f, part) && !isEntry(f),
        (target) => under(target, ...PARTS) && !under(target, part),
      ),
    );
  t.same(found, []);
});

t.test('only the composition root and the process entries import platform.ts, parts.ts and run-service.ts', async (t) => {
  t.same(
    crossings(
      (f) => !ROOT_FILES.includes(f) && !isEntry(f),
      (target) => ROOT_FILES.includes(target),
    ),
    [],
  );
});

t.test('no import circle: no file imports itself back through others', async (t) => {
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const { target } of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (state.get(target) === 'open') circles.push([...stack.slice(stack.indexOf(target)), target].join(' -> '));
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  t.same(circles, []);
});

t.test('routes read their inputs typed by their schemas: no cast of body, query, params or auth', async (t) => {
  const found: string[] = [];
  for (const file of sources) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (/(body|query|params|auth) as /.test(line)) found.push(`${relative(root, file)}:${i + 1}: ${line.trim()}`);
      });
  }
  t.same(found, []);
});
