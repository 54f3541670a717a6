/**
 * Issue #37: what syslog-ng's loggen writes (/usr/bin/loggen, syslog-ng-core), captured live on a
 * local TCP socket and sent as a text/plain body to a stream with the `syslog` preset: in its
 * default, RFC 3164-like form and with --syslog-proto (RFC 5424, with structured data). Every line
 * becomes one event (physical rows, no FINAL) with its fields, none a dead letter.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import t from 'tap';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { binaryPath, missingServices } from '../../support/services.js';
import { ingestSettled } from '../../support/settled.js';
import { createStream } from '../../support/streams.js';

const skip = missingServices('loggen');
const MESSAGES = 40;

/** The bytes loggen sends to a TCP socket, once it has exited and closed the connection. */
async function loggenOutput(args: string[]): Promise<string> {
  const chunks: Buffer[] = [];
  let closed!: () => void;
  const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
  const server = createServer((socket) => {
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('close', () => closed());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  try {
    const child = spawn(binaryPath('loggen')!, ['--inet', '--stream', '--quiet', ...args, '127.0.0.1', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`loggen exited with ${code}: ${stderr}`);
    await connectionClosed;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return Buffer.concat(chunks).toString('utf8');
}

t.test('loggen, RFC 3164 style and RFC 5424 with structured data: every line one event with its fields', { skip }, async (t) => {
  const p: TestPlatform = await startTestPlatform();
  t.teardown(() => p.stop());
  const stream = await createStream(p, 'syslog-loggen', { parser: { type: 'syslog' } });

  const bsd = await loggenOutput(['--number', String(MESSAGES), '--rate', '1000']);
  const ietf = await loggenOutput([
    '--syslog-proto',
    '--no-framing',
    '--size',
    '400',
    '--sdata',
    '[origin ip="192.0.2.1" software="loggen"]',
    '--number',
    String(MESSAGES),
    '--rate',
    '1000',
  ]);
  t.equal(bsd.split('\n').filter((l) => l !== '').length, MESSAGES, 'loggen wrote one line per message (RFC 3164 style)');
  t.equal(ietf.split('\n').filter((l) => l !== '').length, MESSAGES, 'and with --syslog-proto');
  t.match(ietf, /^<38>1 \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00 /, 'RFC 5424 with an offset');

  for (const body of [bsd, ietf]) {
    const answer = await fetch(`${p.base}/api/public/cl/v1/stream-data?streamKey=${encodeURIComponent(stream.key)}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body,
    });
    t.strictSame(await answer.json(), { accepted: MESSAGES });
  }
  await ingestSettled(p.platform);
  const rows = await p.platform.engines.analytics.query<{ payload: string; ts: string }>('SELECT payload, ts FROM events WHERE stream_id = {s:UInt64}', { s: stream.id });
  const dead = await p.platform.engines.analytics.query<{ reason: string }>('SELECT reason FROM dead_letters WHERE stream_id = {s:UInt64}', { s: stream.id });
  t.strictSame(dead, [], 'no dead letter');
  t.equal(rows.length, 2 * MESSAGES, 'every line one row');
  const records = rows.map((r) => JSON.parse(r.payload) as Record<string, any>);
  for (const version of [undefined, 1]) {
    const these = records.filter((r) => r['version'] === version);
    t.equal(these.length, MESSAGES, version ? 'RFC 5424 records' : 'RFC 3164 records');
    t.strictSame(
      these.map((r) => /^seq: (\d+),/.exec(r['message'])?.[1]).sort(),
      Array.from({ length: MESSAGES }, (_, i) => String(i).padStart(10, '0')),
      'each sequence number once',
    );
    t.ok(
      these.every((r) => r['host'] === 'localhost' && r['app'] === 'prg00000' && r['procid'] === '1234' && r['facility'] === 'auth' && r['severity'] === 'info'),
      'host, app, procid, facility, severity',
    );
    t.ok(
      these.every((r) => typeof r['@timestamp'] === 'string' && Math.abs(Date.parse(r['@timestamp']) - Date.now()) < 600_000),
      'dated by loggen',
    );
  }
  t.strictSame(records.find((r) => r['version'] === 1)?.['structured_data'], { origin: { ip: '192.0.2.1', software: 'loggen' } });
});
