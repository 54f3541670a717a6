/**
 * Issue #34, a full disk: the platform (`npm start`, services/main.ts) runs as a child process
 * with its data directory and its standard output on a 64 MiB tmpfs this test mounts itself.
 * Under OPS_MIN_FREE_DISK the receivers answer 503 `ingest.disk_low`; with the disk full, CMDB,
 * maintenance and SLA writes answer 503 `storage.full` with Retry-After and store nothing,
 * /readyz answers 503 naming the journal, and the process lives on although every log line it
 * writes fails (ops_log_write_errors_total counts them). Once space is back everything resumes
 * by itself, and every record acknowledged with 200 is stored exactly once: counted on disk,
 * row by row, not through FINAL.
 *
 * Mounting needs root (CI has it): without it the test is skipped with the reason, except under
 * REQUIRE_SERVICES=1, where that fails.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { freePort } from '../../support/free-port.js';
import { type Answer, call } from '../../support/http.js';
import { ADMIN_TOKEN, startTestPlatform } from '../../support/platform.js';
import { ingestSettled } from '../../support/settled.js';
import { mountTmpfs } from '../../support/tmpfs.js';

const root = new URL('../../../', import.meta.url).pathname;
const MIN_FREE = 24 * 1024 * 1024;
const RECORDS_PER_POST = 200;

const tmpfs = mountTmpfs(t, 64);
const mountDir = tmpfs.dir;
const { free, fill } = tmpfs;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

t.test('a full disk: 503s with codes, the process alive, and every acknowledged record stored once', { skip: tmpfs.refused ?? false }, async (t) => {
  const dataDir = join(mountDir, 'data');
  mkdirSync(dataDir);
  const stdoutPath = join(mountDir, 'stdout.log');
  const stdout = openSync(stdoutPath, 'a');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let stderr = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'services/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      OPS_PORT: String(port),
      OPS_HOST: '127.0.0.1',
      OPS_DATA_DIR: dataDir,
      OPS_ADMIN_TOKEN: ADMIN_TOKEN,
      OPS_MIN_FREE_DISK: String(MIN_FREE),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', stdout, 'pipe'],
  });
  closeSync(stdout);
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve((exitCode = code))));
  t.teardown(async () => {
    if (exitCode === undefined) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  const api = (method: string, path: string, json?: unknown): Promise<Answer> =>
    call(base, method, path, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, ...(json === undefined ? {} : { json }) });

  await until('the platform to answer', async () => (await call(base, 'GET', '/readyz').catch(() => undefined))?.status === 200 || undefined);

  // What the writes below need: a workgroup holding the admin, a CI, an SLA template, a stream.
  const me = await api('GET', '/api/admin/v1/me');
  const wg = await api('POST', '/api/admin/v1/work-groups', { name: 'disk', memberIds: [me.body.user.id] });
  const ci = await api('POST', '/api/public/sm/v2/rsm/config-items', { name: 'disk-host', ownerWorkGroup: { id: wg.body.id } });
  t.equal(ci.status, 201, 'a CI is created while there is space');
  const template = await api('POST', '/api/admin/v1/sla/templates', {
    type: 'Single',
    name: 'disk',
    period: 'ThisMonth',
    ownerType: 'User',
    userId: me.body.user.id,
    configItems: [{ id: ci.body.id }],
  });
  t.equal(template.status, 201, 'an SLA template is created');
  const stream = await api('POST', '/api/admin/v1/streams', { name: 'disk' });
  const ingestPath = `/api/public/cl/v1/stream-data?streamKey=${stream.body.key}`;

  const acknowledged = new Set<number>();
  let next = 0;
  const post = async (): Promise<Answer> => {
    const first = next;
    next += RECORDS_PER_POST;
    const lines = Array.from({ length: RECORDS_PER_POST }, (_, i) =>
      JSON.stringify({ n: first + i, host: `web-${(first + i) % 97}`, check: 'http', status: 'ok', message: 'GET /api/orders 200 in 35 ms' }),
    );
    const answer = await call(base, 'POST', ingestPath, { body: lines.join('\n'), headers: { 'content-type': 'application/x-ndjson' } });
    if (answer.status === 200) for (let i = 0; i < RECORDS_PER_POST; i++) acknowledged.add(first + i);
    return answer;
  };

  await t.test('ingestion pauses at the watermark', async (t) => {
    t.equal((await post()).status, 200, 'records are taken while there is space');
    fill('filler-1', MIN_FREE + 2 * 1024 * 1024);
    const paused = await until('a 503 at the watermark', async () => {
      const answer = await post();
      return answer.status === 503 ? answer : undefined;
    });
    t.equal(paused.body.code, 'ingest.disk_low', '503 ingest.disk_low');
    t.ok(Number(paused.headers.get('retry-after')) > 0, `Retry-After ${paused.headers.get('retry-after')}`);
    t.match(paused.body.detail, /has [\d.]+ [KM]iB free, under the 24\.0 MiB kept free/, `refused under the watermark: ${paused.body.detail}`);
  });

  await t.test('with the disk full, writes answer 503 storage.full and store nothing; the process lives on', async (t) => {
    fill('filler-2');
    t.ok(free() < 1024 * 1024, `${free()} bytes free`);
    const ready = await until('/readyz to name the journal', async () => {
      const answer = await call(base, 'GET', '/readyz');
      return answer.status === 503 && answer.body?.engines?.journal?.ok === false ? answer : undefined;
    });
    t.match(ready.body.engines.journal.error, /cannot write/, `/readyz: ${JSON.stringify(ready.body.engines.journal)}`);
    t.equal(ready.body.status, 'not-ready');

    const writes: Array<[string, () => Promise<Answer>]> = [
      ['CMDB', () => api('POST', '/api/public/sm/v2/rsm/config-items', { name: 'while-full', ownerWorkGroup: { id: wg.body.id } })],
      ['CMDB update', () => api('PUT', `/api/public/sm/v2/rsm/config-items/${ci.body.id}`, { name: 'disk-host', description: 'while full', ownerWorkGroup: { id: wg.body.id } })],
      [
        'maintenance',
        () =>
          api('POST', '/api/public/sm/v1/rsm-maintenance', {
            title: 'while full',
            dateStart: '2030-01-01T22:00:00Z',
            dateEnd: '2030-01-02T02:00:00Z',
            configItems: [{ id: ci.body.id, scope: 'Ci' }],
          }),
      ],
      [
        'SLA order',
        () => api('POST', '/api/public/sm/v1/sla/ordered', { template: { id: template.body.id }, range: { start: '2026-10-01T00:00:00Z', end: '2026-11-01T00:00:00Z' } }),
      ],
    ];
    for (const [what, write] of writes) {
      const answer = await write();
      t.equal(answer.status, 503, `${what}: 503`);
      t.equal(answer.body?.code, 'storage.full', `${what}: storage.full (${answer.body?.detail})`);
      t.ok(Number(answer.headers.get('retry-after')) > 0, `${what}: Retry-After ${answer.headers.get('retry-after')}`);
    }
    const ingest = await post();
    t.equal(ingest.status, 503, 'ingestion: 503');
    t.equal(ingest.body?.code, 'ingest.disk_low', 'ingestion: ingest.disk_low');

    // Every request is a log line (LOG_LEVEL info): a hundred of them overflow whatever room the
    // log file's last page still had.
    let alive = 0;
    for (let i = 0; i < 100; i++) if ((await call(base, 'GET', '/healthz')).status === 200) alive++;
    t.equal(alive, 100, 'alive: /healthz answered 100 times out of 100');
    const metrics = await call(base, 'GET', '/metrics');
    const logErrors = Number(/^ops_log_write_errors_total (\d+)/m.exec(metrics.text)?.[1] ?? 0);
    t.ok(logErrors > 0, `log lines to the full disk failed and were counted (${logErrors}); the process goes on`);
    t.match(metrics.text, /^ops_storage_full_errors_total\{engine="journal"\} [1-9]/m, 'refused writes counted by engine');
    t.match(metrics.text, /^ops_data_dir_free_bytes \d/m, 'free space exported');
    t.equal(exitCode, undefined, 'the process has not exited');
  });

  await t.test('space back: everything resumes by itself, and nothing was written partly', async (t) => {
    tmpfs.remove('filler-2');
    tmpfs.remove('filler-1');
    const taken = await until('ingestion to resume', async () => ((await post()).status === 200 ? true : undefined));
    t.ok(taken, 'records are taken again');
    for (let i = 0; i < 5; i++) t.equal((await post()).status, 200, 'and more');
    const ready = await until('/readyz to be ready', async () => {
      const answer = await call(base, 'GET', '/readyz');
      return answer.status === 200 ? answer : undefined;
    });
    t.equal(ready.body.status, 'ready');
    const list = await api('GET', '/api/public/sm/v2/rsm/config-items');
    t.same(
      list.body.map((c: { name: string }) => c.name),
      ['disk-host'],
      'the CI refused while full does not exist',
    );
    t.equal((await api('GET', `/api/public/sm/v2/rsm/config-items/${ci.body.id}`)).body.description ?? '', '', 'the refused update changed nothing');
    const modes = await api('GET', '/api/public/sm/v1/rsm-maintenance');
    t.equal(modes.status, 200);
    t.same(modes.body, [], 'no maintenance mode was stored');
    const created = await api('POST', '/api/public/sm/v2/rsm/config-items', { name: 'after-full', ownerWorkGroup: { id: wg.body.id } });
    t.equal(created.status, 201, 'a CMDB write succeeds again');
    t.match(readFileSync(stdoutPath, 'utf8'), /ingestion resumed/, 'logging resumed by itself: the log file has the line saying ingestion resumed');
  });

  child.kill('SIGTERM');
  t.equal(await exited, 0, `stopped with exit 0${stderr ? `; stderr: ${stderr.slice(-2000)}` : ''}`);

  await t.test('every acknowledged record is stored exactly once (rows on disk, no FINAL)', async (t) => {
    const reopened = await startTestPlatform({ dataDir, env: { OPS_MIN_FREE_DISK: '1MiB' } });
    t.teardown(() => reopened.stop(false));
    await ingestSettled(reopened.platform);
    const [row] = await reopened.platform.engines.analytics.query<{ rows: string; ids: string; ns: string; outside: string }>(
      "SELECT count() AS rows, uniqExact(id) AS ids, uniqExact(JSONExtractUInt(payload, 'n')) AS ns, countIf(JSONExtractUInt(payload, 'n') NOT IN {acked:Array(UInt64)}) AS outside FROM events",
      { acked: [...acknowledged] },
    );
    t.ok(acknowledged.size > 0, `${acknowledged.size} records acknowledged`);
    t.equal(Number(row?.rows), acknowledged.size, 'event rows on disk = acknowledged records');
    t.equal(Number(row?.ids), acknowledged.size, 'one row per event id');
    t.equal(Number(row?.ns), acknowledged.size, 'one row per record sent');
    t.equal(Number(row?.outside), 0, 'no row of a record that was refused');
  });
});
