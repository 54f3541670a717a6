/**
 * Identity issue acceptance: from an empty installation, the README's walk-through creates a
 * workgroup, a user with a token, a CI type and a stream with the CLI, then the user's token works
 * on the public API (as with curl).
 */

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { freePort } from '../../support/free-port.js';
import { call } from '../../support/http.js';
import { runEntry } from '../../support/process.js';

const run = promisify(execFile);
const root = new URL('../../../', import.meta.url).pathname;
const ADMIN = 'walkthrough-admin-secret-0123456789';

t.test('README walk-through', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-walkthrough-'));
  const port = await freePort();
  const service = runEntry('services/main.ts', { OPS_PORT: String(port), OPS_DATA_DIR: dataDir, OPS_ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'info' });
  t.teardown(async () => {
    service.child.kill('SIGTERM');
    await service.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
  await service.waitFor(/listening on port/);
  const base = `http://127.0.0.1:${port}`;
  await t.resolves(call(base, 'GET', '/healthz'));

  const ops = async (...args: string[]): Promise<any> => {
    const { stdout } = await run(process.execPath, [join(root, 'services/cli/ops.js'), ...args, '--json'], {
      cwd: root,
      env: { PATH: process.env['PATH'] ?? '', OPS_URL: base, OPS_TOKEN: ADMIN },
    });
    return JSON.parse(stdout);
  };

  const group = await ops('work-groups', 'create', '--name', 'Network');
  t.equal(group.name, 'Network');
  const alice = await ops('users', 'create', '--name', 'alice', '--work-group', String(group.id));
  t.same(alice.workGroupIds, [group.id]);
  const issued = await ops('tokens', 'issue', String(alice.id), '--name', 'laptop');
  t.type(issued.token, 'string');
  const type = await ops('ci-types', 'create', '--name', 'Server', '--description', 'A host');
  t.equal(type.name, 'Server');
  const stream = await ops('streams', 'create', '--name', 'syslog');
  t.equal(stream.status, 'active');

  const asAlice = { headers: { authorization: `Bearer ${issued.token}` } };
  const types = await call(base, 'GET', '/api/public/sm/v2/rsm/config-item-types', asAlice);
  t.equal(types.status, 200);
  t.ok(types.body.some((x: { name: string }) => x.name === 'Server'));
  const groups = await call(base, 'GET', '/api/public/sm/v2/rsm/work-groups', asAlice);
  t.same(groups.body, [{ id: group.id, name: 'Network' }]);
});
