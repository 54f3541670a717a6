/**
 * Issue #16: the OpenAPI document the platform serves at /api/openapi.json passes Redocly's
 * recommended rules (redocly.yaml, offline, no telemetry) with no error and no warning, and
 * what it shows is true: every example matches its own schema, and the bodies, media types and
 * security it documents are what the code accepts and answers. `npm run lint:openapi` runs it.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { Value } from 'typebox/value';
import { parse } from 'yaml';
import { type MediaType, validateBody } from '../../../pipelines/records/validate-body.step.js';
import { type ExportFormat, exportFile } from '../../../pipelines/sla/export/formats.js';
import { parseBulk } from '../../../services/ingress/elastic-bulk.route.js';
import type { Route } from '../../../services/runtime/http/route.js';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const REDOCLY = join(root, 'node_modules/@redocly/cli/bin/cli.js');
const CONFIG = 'redocly.yaml';
const IGNORE_FILE = '.redocly.lint-ignore.yaml';

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer?: string }>;
}
interface LintResult {
  totals: { errors: number; warnings: number; ignored: number };
  problems: LintProblem[];
}

/**
 * Lints `doc` as openapi.json beside copies of the repository's config and ignore file (the
 * ignore file names documents relative to its own directory).
 */
function lint(doc: unknown): LintResult {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc, null, 2));
    for (const file of [CONFIG, IGNORE_FILE]) copyFileSync(join(root, file), join(dir, file));
    const run = spawnSync(process.execPath, [REDOCLY, 'lint', 'openapi.json', '--config', CONFIG, '--format=json', '--max-problems=1000'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' },
    });
    try {
      return JSON.parse(run.stdout) as LintResult;
    } catch {
      throw new Error(`redocly gave no JSON report (exit ${String(run.status)}): ${run.stdout}${run.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const described = (problems: LintProblem[]): string[] =>
  problems.map((problem) => `${problem.severity} ${problem.ruleId} at ${problem.location.map((l) => l.pointer).join(', ')}: ${problem.message}`);

type Doc = {
  paths: Record<string, Record<string, Operation>>;
  [key: string]: unknown;
};
interface MediaObject {
  schema?: Record<string, unknown>;
  example?: unknown;
}
interface Operation {
  operationId: string;
  security: unknown[];
  requestBody?: { content: Record<string, MediaObject> };
  responses: Record<string, { content?: Record<string, MediaObject>; $ref?: string }>;
}

/** Every media type object of the operations; `main`: a request body's, or the first success answer's with a body. */
function* mediaObjects(doc: Doc): Generator<{ path: string; where: string; media: MediaObject; main: boolean }> {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
        yield { path, where: `${method.toUpperCase()} ${path} request ${type}`, media, main: true };
      }
      const success = Object.keys(operation.responses).find((status) => status.startsWith('2') && operation.responses[status]!.content);
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          yield { path, where: `${method.toUpperCase()} ${path} ${status} ${type}`, media, main: status === success };
        }
      }
    }
  }
}

/** The examples that do not match their schema, with the reasons. */
function wrongExamples(doc: Doc): string[] {
  const wrong: string[] = [];
  for (const { where, media } of mediaObjects(doc)) {
    if (media.example === undefined) continue;
    if (!media.schema) {
      wrong.push(`${where}: an example without a schema to check it against`);
      continue;
    }
    if (!Value.Check(media.schema, media.example)) {
      wrong.push(`${where}: ${[...Value.Errors(media.schema, media.example)].map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')}`);
    }
  }
  return wrong;
}

const exampleOf = (doc: Doc, path: string, method: string, type: string): unknown => doc.paths[path]![method]!.requestBody!.content[type]!.example;

let p: TestPlatform;
let doc: Doc;
t.before(async () => {
  p = await startTestPlatform({ logLevel: 'warn' });
  doc = (await (await fetch(`${p.base}/api/openapi.json`)).json()) as Doc;
});
t.teardown(() => p.stop());

t.test("Redocly's recommended rules: no error, no warning, and every listed exception still needed", async (t) => {
  const result = lint(doc);
  t.same(described(result.problems), [], 'no problem reported');
  t.same([result.totals.errors, result.totals.warnings], [0, 0], 'no error and no warning counted');
  const exceptions = Object.values(parse(readFileSync(join(root, IGNORE_FILE), 'utf8')) as Record<string, Record<string, string[]>>).flatMap((rules) =>
    Object.values(rules).flat(),
  );
  t.equal(result.totals.ignored, exceptions.length, `each exception in ${IGNORE_FILE} hides one problem; remove those that hide none`);
});

t.test('the lint sees what is wrong (a document without servers, with a wrong example)', async (t) => {
  const broken = structuredClone(doc) as Doc;
  delete broken['servers'];
  const getCi = broken.paths['/api/public/sm/v2/rsm/config-items/{id}']!['get']!;
  (getCi.responses['200']!.content!['application/json']!.example as Record<string, unknown>)['id'] = 'two';
  const report = described(lint(broken).problems).join('\n');
  t.match(report, /^error no-empty-servers /m, 'no servers: an error');
  t.match(report, /^warn no-invalid-media-type-examples at .*config-items~1\{id\}\/get\/responses\/200\//m, 'the wrong example: a warning');
  t.match(wrongExamples(broken), [/^GET \/api\/public\/sm\/v2\/rsm\/config-items\/\{id\} 200 application\/json: \/id must be integer/]);
});

t.test('every example matches its own schema', async (t) => {
  const checked = [...mediaObjects(doc)].filter(({ media }) => media.example !== undefined).length;
  t.ok(checked >= 50, `${checked} examples checked`);
  t.same(wrongExamples(doc), []);
});

t.test('the public endpoints show an example of each request body and of the main answer', async (t) => {
  const missing = [...mediaObjects(doc)]
    .filter(({ path, media, main }) => path.startsWith('/api/public/') && main && media.schema !== undefined && media.example === undefined)
    .map(({ where }) => where);
  t.same(missing, []);
});

t.test('the raw bodies shown are ones the receivers accept', async (t) => {
  const streamData = doc.paths['/api/public/cl/v1/stream-data']!['post']!.requestBody!.content;
  for (const type of Object.keys(streamData)) {
    const checked = validateBody(type as MediaType, exampleOf(doc, '/api/public/cl/v1/stream-data', 'post', type) as string);
    t.ok(checked.ok, `stream-data ${type}: ${checked.ok ? 'accepted' : checked.reason}`);
  }
  for (const path of ['/api/public/cl/v1/elastic/_bulk', '/api/public/cl/v1/elastic/{index}/_bulk']) {
    for (const type of Object.keys(doc.paths[path]!['post']!.requestBody!.content)) {
      const parsed = parseBulk(exampleOf(doc, path, 'post', type) as string);
      t.ok(parsed.ok && !parsed.errors, `${path} ${type}: ${parsed.ok ? `${parsed.records.length} records` : parsed.reason}`);
    }
  }
});

t.test('the SLA export documents the media types it serves, one per format', async (t) => {
  const documented = Object.keys(doc.paths['/api/public/sm/v1/sla/ordered/{id}/export']!['get']!.responses['200']!.content!).sort();
  const empty = (async function* () {})();
  const served = (['xls', 'csv', 'json'] as ExportFormat[]).map((format) => exportFile('events', format, empty, { baseName: 'report' }).contentType.split(';')[0]!.trim()).sort();
  t.same(documented, served);
});

t.test('security as the routes check it: `security: []` exactly where no one is authenticated', async (t) => {
  const documented = new Map(
    Object.values(doc.paths)
      .flatMap((item) => Object.values(item))
      .map((operation) => [operation.operationId, operation.security]),
  );
  // The console's page and files are not in the document (Route.hidden).
  const routes: readonly Route[] = p.platform.http.routes().filter((route) => !route.hidden);
  const open = routes.filter((route) => !route.authenticate).map((route) => route.name);
  t.same(open.sort(), [
    'cmdb.getConfigItemTypeIcon',
    'console.createSession',
    'ingress.elasticRoot',
    'ingress.elasticRootSlash',
    'system.health',
    'system.metrics',
    'system.openapi',
    'system.ready',
  ]);
  t.same(
    routes.filter((route) => !route.authenticate && documented.get(route.name)?.length !== 0).map((route) => route.name),
    [],
    'open routes say so',
  );
  t.same(
    routes.filter((route) => route.authenticate && !route.security).map((route) => route.name),
    [],
    'routes that authenticate say how',
  );
  t.same(doc['security'], [{ bearer: [] }], 'the bearer token is the default');
});
