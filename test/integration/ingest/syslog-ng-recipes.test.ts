/**
 * Issue #37 acceptance, "the README recipes tried as written": a real syslog-ng (3.38, Debian's
 * /usr/sbin/syslog-ng with syslog-ng-mod-http and syslog-ng-scl) ships to the embedded platform
 * with each of README.md's syslog-ng recipes, read from README.md itself — the `http()` rows of the
 * shippers' table (NDJSON by `format-json`; syslog lines as text) and the `elasticsearch-http()`
 * paragraph — with `…` (or the example host) and KEY replaced by the platform's address and the
 * stream's key, so a wrong recipe fails here. loggen feeds MESSAGES lines to a TCP `network()`
 * source; the stream must then hold every one exactly once (physical rows, no FINAL), each sequence
 * number once, with the fields the recipe implies, and no dead letter.
 *
 * Each recipe runs its own syslog-ng in the foreground, with its configuration, persist file,
 * pid file and control socket in a temporary directory.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { eventually } from '../../support/bus-recorder.js';
import { freePort } from '../../support/free-port.js';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { binaryPath, missingServices } from '../../support/services.js';
import { ingestSettled } from '../../support/settled.js';
import { createStream, type StreamInfo } from '../../support/streams.js';

const MESSAGES = 200;
const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

/** syslog-ng's module and include directories, from `syslog-ng --version`. */
function syslogNgPaths(): { modules: string; include: string } {
  const version = spawnSync(binaryPath('syslog-ng')!, ['--version'], { encoding: 'utf8' }).stdout;
  return {
    modules: /Module-Path:\s*(\S+)/.exec(version)?.[1] ?? '/usr/lib/syslog-ng/3.38',
    include: /Include-Path:\s*(\S+)/.exec(version)?.[1] ?? '/usr/share/syslog-ng/include',
  };
}

/** Why syslog-ng with the http() module (and, with `scl`, the SCL) cannot run here, or false; throws under REQUIRE_SERVICES=1. */
function syslogNgMissing(scl: boolean): string | false {
  const missing = missingServices('syslog-ng', 'loggen');
  if (missing) return missing;
  const { modules, include } = syslogNgPaths();
  const absent = [
    ...(existsSync(join(modules, 'libhttp.so')) ? [] : ['syslog-ng-mod-http']),
    ...(scl && !existsSync(join(include, 'scl', 'elasticsearch', 'elastic-http.conf')) ? ['syslog-ng-scl'] : []),
  ];
  if (absent.length === 0) return false;
  const reason = `syslog-ng lacks ${absent.join(', ')} (apt-get install -y ${absent.join(' ')})`;
  if (process.env['REQUIRE_SERVICES'] === '1') throw new Error(`REQUIRE_SERVICES=1 but ${reason}`);
  return reason;
}

const skipHttp = syslogNgMissing(false);
const skipElastic = skipHttp || syslogNgMissing(true);

/** The backticked fragments of a piece of README text. */
const ticked = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** The syslog-ng options among fragments: `name(…)`. */
const options = (fragments: string[]): string[] => fragments.filter((f) => /^[a-z][a-z_-]*\(.*\)$/s.test(f));

/** The shippers' table row whose first cell is `shipper`: the syslog-ng options it names, and the stream's config. */
function tableRecipe(shipper: string): { options: string[]; config: unknown } {
  const cells = (line: string): string[] => line.split(/(?<!\\)\|/).map((c) => c.trim());
  const row = README.split('\n').find((line) => line.startsWith('|') && cells(line)[1] === shipper);
  if (!row) throw new Error(`README.md has no shippers' table row "${shipper}"`);
  const [, , settings = '', config = ''] = cells(row);
  return { options: options(ticked(settings)), config: JSON.parse(ticked(config)[0] ?? 'null') };
}

/**
 * The `elasticsearch-http()` options of README's paragraph on it ("syslog-ng's
 * `elasticsearch-http()` destination works the same way: …", up to Logstash's). The paragraph
 * says "any `index()`", "any `user()`" and "the key as `password()`": so an empty index() or user()
 * gets a name, an empty password() the key; any other option left empty is a recipe the test
 * cannot follow.
 */
function elasticRecipe(): string[] {
  const start = README.indexOf("syslog-ng's `elasticsearch-http()` destination");
  if (start < 0) throw new Error("README.md has no paragraph on syslog-ng's elasticsearch-http()");
  const paragraph = README.slice(start, README.indexOf('Logstash', start));
  return options(ticked(paragraph))
    .filter((o) => !o.startsWith('elasticsearch-http('))
    .map((o) => {
      if (o === 'index()') return 'index("syslog-ng")';
      if (o === 'password()') return 'password("KEY")';
      if (o === 'user()') return 'user("syslog-ng")';
      if (/^[a-z_-]+\(\)$/.test(o)) throw new Error(`README.md leaves ${o} empty without saying what it takes`);
      return o;
    });
}

/** The recipe's options for this platform and stream. */
function filled(recipe: string[], p: TestPlatform, stream: StreamInfo): string {
  return recipe
    .map((o) =>
      o
        .replaceAll('…', `${p.base}/api/public/cl/v1`)
        .replaceAll('http://ops.example.com:8080', p.base)
        .replace(/\bKEY\b/g, stream.key),
    )
    .join(' ');
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

interface SyslogNg {
  port: number;
  log(): string;
  /** SIGTERM, and its exit code. */
  stop(): Promise<number | null>;
}

/** A foreground syslog-ng reading TCP on a free port into `destination`, every file of its own in `dir`. */
async function startSyslogNg(t: Test, dir: string, destination: string, scl: boolean): Promise<SyslogNg> {
  const port = await freePort();
  const config = join(dir, 'syslog-ng.conf');
  writeFileSync(
    config,
    `@version: 3.38
${scl ? '@include "scl.conf"\n' : ''}options { keep-hostname(yes); stats-freq(0); };
source s_loggen { network(transport("tcp") ip("127.0.0.1") port(${port})); };
destination d_recipe { ${destination}; };
log { source(s_loggen); destination(d_recipe); };
`,
  );
  const args = [
    '-F',
    '--stderr',
    '--no-caps',
    '--cfgfile',
    config,
    '--persist-file',
    join(dir, 'syslog-ng.persist'),
    '--pidfile',
    join(dir, 'syslog-ng.pid'),
    '--control',
    join(dir, 'syslog-ng.ctl'),
  ];
  const child: ChildProcess = spawn(binaryPath('syslog-ng')!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  // An exit (a configuration syslog-ng refuses) ends the wait too, and fails with syslog-ng's log.
  const timedOut = await eventually(`syslog-ng to listen on ${port}`, async () => child.exitCode !== null || (await listening(port)), 15_000, 50).then(
    () => '',
    (err: unknown) => (err as Error).message,
  );
  if (timedOut || child.exitCode !== null) throw new Error(`${timedOut || `syslog-ng exited with ${child.exitCode}`}; its log:\n${log}`);
  return {
    port,
    log: () => log,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** loggen's default (RFC 3164 style) lines, MESSAGES of them, over one TCP connection. */
async function loggen(port: number): Promise<void> {
  const child = spawn(binaryPath('loggen')!, ['--inet', '--stream', '--quiet', '--number', String(MESSAGES), '--rate', '1000', '127.0.0.1', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`loggen exited with ${code}: ${stderr}`);
}

async function rowCount(p: TestPlatform, table: 'events' | 'dead_letters', streamId: number): Promise<number> {
  const rows = await p.platform.engines.analytics.query<{ n: string }>(`SELECT count() AS n FROM ${table} WHERE stream_id = {s:UInt64}`, { s: streamId });
  return Number(rows[0]!.n);
}

/** The expected sequence numbers, loggen's `seq: 0000000000` … */
const SEQUENCE = Array.from({ length: MESSAGES }, (_, i) => String(i).padStart(10, '0'));
const seqOf = (message: unknown): string | undefined => (typeof message === 'string' ? /^seq: (\d+),/.exec(message)?.[1] : undefined);

/**
 * Runs syslog-ng with `destination` until the stream holds MESSAGES physical rows, stops it, and
 * answers the stream's rows once everything acknowledged is stored; asserts the counts.
 */
async function shipThrough(t: Test, p: TestPlatform, stream: StreamInfo, destination: string, scl = false): Promise<{ ts: string; record: Record<string, any> }[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ops-syslog-ng-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const syslogNg = await startSyslogNg(t, dir, destination, scl);
  await loggen(syslogNg.port);
  // syslog-ng drops a batch the platform refuses (a 4XX): that ends the wait too, and fails with its log.
  const dropped = (): boolean => /Message\(s\) dropped/.test(syslogNg.log());
  const timedOut = await eventually(`${MESSAGES} rows in the stream`, async () => dropped() || (await rowCount(p, 'events', stream.id)) >= MESSAGES, 60_000, 100).then(
    () => '',
    (err: unknown) => (err as Error).message,
  );
  if (timedOut || dropped()) throw new Error(`${timedOut || 'syslog-ng dropped messages'}; its log:\n${syslogNg.log()}`);
  t.equal(await syslogNg.stop(), 0, 'syslog-ng stopped cleanly');
  t.notMatch(syslogNg.log(), /error|warning|Server returned|curl/i, 'syslog-ng logged no error or warning (its log is the value shown on failure)');
  await ingestSettled(p.platform);
  t.equal(await rowCount(p, 'events', stream.id), MESSAGES, `count() of the physical rows: ${MESSAGES}, one per line loggen sent`);
  t.equal(await rowCount(p, 'dead_letters', stream.id), 0, 'no dead letter');
  const rows = await p.platform.engines.analytics.query<{ ts: string; payload: string }>('SELECT ts, payload FROM events WHERE stream_id = {s:UInt64}', { s: stream.id });
  return rows.map((r) => ({ ts: r.ts, record: JSON.parse(r.payload) as Record<string, any> }));
}

/** ClickHouse's DateTime64(3) text, read as UTC. */
const tsMs = (ts: string): number => Date.parse(`${ts.replace(' ', 'T')}Z`);

let p: TestPlatform;
t.before(async () => {
  if (skipHttp) return;
  p = await startTestPlatform();
});
t.teardown(() => p?.stop());

t.test('README: syslog-ng http() with format-json, as written: every line one record with its fields', { skip: skipHttp, timeout: 120_000 }, async (t) => {
  const recipe = tableRecipe('syslog-ng `http()`');
  t.strictSame(
    recipe.options.map((o) => o.replace(/\(.*/s, '')),
    ['url', 'headers', 'body', 'batch-lines'],
    "the row's syslog-ng options",
  );
  const stream = await createStream(p, 'syslog-ng-http-json', recipe.config);
  const records = (await shipThrough(t, p, stream, `http(${filled(recipe.options, p, stream)})`)).map((r) => r.record);
  t.strictSame(records.map((r) => seqOf(r['MESSAGE'])).sort(), SEQUENCE, 'each sequence number once, in MESSAGE');
  t.ok(
    records.every((r) => r['HOST'] === 'localhost' && r['PROGRAM'] === 'prg00000' && r['PID'] === '1234' && r['FACILITY'] === 'auth' && r['PRIORITY'] === 'info'),
    'HOST, PROGRAM, PID, FACILITY, PRIORITY (format-json --scope rfc5424)',
  );
  t.ok(
    records.every((r) => typeof r['ISODATE'] === 'string' && Math.abs(Date.parse(r['ISODATE']) - Date.now()) < 600_000),
    'ISODATE, the date loggen wrote',
  );
});

t.test('README: syslog-ng http(), syslog lines, as written: every line one record by the syslog preset', { skip: skipHttp, timeout: 120_000 }, async (t) => {
  const recipe = tableRecipe('syslog-ng `http()`, syslog lines');
  t.strictSame(
    recipe.options.map((o) => o.replace(/\(.*/s, '')),
    ['url', 'headers', 'body', 'batch-lines'],
    "the row's syslog-ng options",
  );
  t.strictSame(recipe.config, { parser: { type: 'syslog' } }, "the row's stream config");
  const stream = await createStream(p, 'syslog-ng-http-lines', recipe.config);
  const rows = await shipThrough(t, p, stream, `http(${filled(recipe.options, p, stream)})`);
  const records = rows.map((r) => r.record);
  t.strictSame(records.map((r) => seqOf(r['message'])).sort(), SEQUENCE, 'each sequence number once, in message');
  t.ok(
    records.every((r) => r['host'] === 'localhost' && r['app'] === 'prg00000' && r['procid'] === '1234' && r['facility'] === 'auth' && r['severity'] === 'info'),
    'host, app, procid, facility, severity',
  );
  t.ok(
    rows.every((r) => typeof r.record['@timestamp'] === 'string' && tsMs(r.ts) === Date.parse(r.record['@timestamp']) && Math.abs(tsMs(r.ts) - Date.now()) < 600_000),
    "each event dated by syslog-ng's ISODATE",
  );
});

t.test("README: syslog-ng elasticsearch-http(), as written: every line one document in the key's stream", { skip: skipElastic, timeout: 120_000 }, async (t) => {
  const recipe = elasticRecipe();
  const stream = await createStream(p, 'syslog-ng-elasticsearch-http');
  const rows = await shipThrough(t, p, stream, `elasticsearch-http(${filled(recipe, p, stream)})`, true);
  const records = rows.map((r) => r.record);
  t.strictSame(records.map((r) => seqOf(r['MESSAGE'])).sort(), SEQUENCE, 'each sequence number once, in MESSAGE');
  t.ok(
    records.every((r) => r['HOST'] === 'localhost' && r['PROGRAM'] === 'prg00000' && r['PID'] === '1234' && r['FACILITY'] === 'auth' && r['PRIORITY'] === 'info'),
    "HOST, PROGRAM, PID, FACILITY, PRIORITY (the SCL's format-json --scope rfc5424)",
  );
  t.ok(
    rows.every((r) => typeof r.record['@timestamp'] === 'string' && tsMs(r.ts) === Date.parse(r.record['@timestamp']) && Math.abs(tsMs(r.ts) - Date.now()) < 600_000),
    'each event dated by its @timestamp',
  );
  t.ok(
    records.every((r) => !('index' in r)),
    'the action lines are not stored as records',
  );
});
