/**
 * The folder tells the architecture (STYLE): pipelines, schemas and the domain model do no I/O,
 * so they must not import the runtime's adapters, HTTP layer or I/O libraries.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import t from 'tap';

const root = new URL('../../', import.meta.url).pathname;
const forbidden = [/services\/runtime\/adapters\//, /services\/runtime\/http\//, /from '(nats|ioredis|lmdb|chdb|@clickhouse\/client|uWebSockets\.js|node:fs|node:net|node:http)'/];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const pure = [...files(join(root, 'pipelines')), ...files(join(root, 'schemas')), ...files(join(root, 'services/control-plane'))].filter(
  // The journal wiring is the control plane's one adapter-facing file.
  (f) => !f.endsWith('services/control-plane/control-plane.ts'),
);

t.test('pure layers import no adapter, HTTP code or I/O library', async (t) => {
  for (const file of pure) {
    const imports = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => /^\s*import\s/.test(l) && !/^\s*import type\s/.test(l));
    for (const line of imports) {
      for (const pattern of forbidden) t.notMatch(line, pattern, `${relative(root, file)}: ${line.trim()}`);
    }
  }
  t.ok(pure.length > 0);
});
