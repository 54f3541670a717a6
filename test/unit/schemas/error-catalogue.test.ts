/**
 * Issue #15: every error has a stable code in one catalogue, rendered into docs/errors.md. The
 * types already refuse a raise with a code outside it; these check the rest: the page is current,
 * every code is raised somewhere (no dead entries), nothing builds an error past the catalogue,
 * the domain does not import the HTTP layer, and a raised error reads as its template says.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ERROR_CATALOGUE, ERROR_KINDS } from '../../../schemas/error-catalogue.js';
import { fail, failFields, failLater } from '../../../schemas/errors.js';
import { ERROR_DOCS_PATH, renderErrorCatalogue } from '../../../services/runtime/http/error-docs.js';
import { problemReply, STATUS_OF_KIND } from '../../../services/runtime/http/problem.js';
import { silentLogger } from '../../../services/runtime/logger.js';

const root = new URL('../../../', import.meta.url).pathname;
const sources = (dir: string): Array<{ path: string; text: string }> =>
  readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => {
      const path = join(e.parentPath, e.name);
      return { path: path.slice(root.length), text: readFileSync(path, 'utf8') };
    });
const code = [...sources('services'), ...sources('pipelines'), ...sources('schemas')];

t.test('docs/errors.md is the catalogue as rendered (npm run docs:errors)', async (t) => {
  t.equal(readFileSync(ERROR_DOCS_PATH, 'utf8'), renderErrorCatalogue());
});

t.test('every code of the catalogue is raised somewhere', async (t) => {
  const raising = code.filter((f) => !f.path.endsWith('error-catalogue.ts'));
  const unused = Object.keys(ERROR_CATALOGUE).filter((c) => !raising.some((f) => f.text.includes(`'${c}'`)));
  t.same(unused, []);
});

t.test('no error is built past the catalogue: AppError is made only by fail/failFields/failLater', async (t) => {
  const outside = code.filter((f) => !f.path.endsWith('schemas/errors.ts') && /new AppError\(/.test(f.text)).map((f) => f.path);
  t.same(outside, []);
});

t.test('the domain raises domain errors: control plane and pipelines import nothing of the HTTP layer', async (t) => {
  const domain = code.filter((f) => /^(services\/control-plane|pipelines)\//.test(f.path));
  t.ok(domain.length > 20, `${domain.length} domain files`);
  t.same(
    domain.filter((f) => /from '[^']*\/http\//.test(f.text)).map((f) => f.path),
    [],
  );
});

t.test('every kind has a status, and each code a message of its own', async (t) => {
  for (const kind of ERROR_KINDS) t.ok(STATUS_OF_KIND[kind].status >= 400, kind);
  const messages = Object.entries(ERROR_CATALOGUE).map(([, e]) => `${e.kind}:${e.message}`);
  t.equal(new Set(messages).size, messages.length, 'no two codes say the same');
});

t.test('a raised error fills its template, keeps its fields and headers, and answers as problem+json with its code', async (t) => {
  const error = failFields('ci.name_taken', [{ path: '/name', message: 'already used' }], { name: '"a1"', seen: '' });
  t.equal(error.detail, 'A CI named "a1" already exists with the same type');
  const reply = problemReply(error, silentLogger());
  t.equal(reply.status, 400);
  t.same(reply.body, {
    type: 'urn:ops:problem:bad-request',
    title: 'Bad request',
    status: 400,
    detail: error.detail,
    code: 'ci.name_taken',
    errors: [{ path: '/name', message: 'already used' }],
  });
  const later = problemReply(failLater('control_plane.busy', 3), silentLogger());
  t.equal(later.status, 503);
  t.equal(later.headers?.['Retry-After'], '3');
  t.equal(fail('ci.not_found', { what: 'Child CI', id: 7 }).detail, 'Child CI 7 not found');
  const hidden = problemReply(new Error('secret'), silentLogger());
  t.match(hidden.body, { code: 'internal', status: 500 });
  t.notMatch(JSON.stringify(hidden.body), /secret/);
});
