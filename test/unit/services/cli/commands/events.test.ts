/**
 * `ops events tail` against a tiny HTTP server that serves a real text/event-stream with the
 * live tail's own frames (services/api/streams/event-tail.ts): the lines printed, the notes, a
 * clean end on interrupt (in-process, and by SIGINT to a real `ops` process), and the errors.
 */

import { spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { SSE_KEEP_ALIVE, sseRecord, sseSampled } from '../../../../../services/api/streams/event-tail.js';
import { createSseParser } from '../../../../../services/cli/commands/events.js';
import { run } from '../../../../../services/cli/main.js';
import { streamEventExample } from '../../../../../schemas/stream-events.schema.js';

const TOKEN = 'test-token-0123456789abcdef';
const PREFIX = '/api/public/cl/v1/streams';
const FIRST = streamEventExample;
const SECOND = { ...FIRST, id: '3f0c7a52-9d1e-4b8a-a2c4-5e6f00000003', route: '', labels: {}, record: { code: 500, msg: 'bad\u009b' } };
const FIRST_LINE = '2026-11-21T10:00:00.000Z  syslog  {"host":"core-router","status":"down","@timestamp":"2026-11-21T10:00:00Z"}';
const SECOND_LINE = '2026-11-21T10:00:00.000Z  -  {"code":500,"msg":"bad\\x9b"}';
const SAMPLED_NOTE = 'note: sampled: 100 of 400 new records of that second were sent (rate 0.25)\n';

const problem = (res: ServerResponse, status: number, title: string, code: string, detail: string): void => {
  res.writeHead(status, { 'content-type': 'application/problem+json' });
  res.end(JSON.stringify({ type: 'urn:ops:problem:x', title, status, detail, code }));
};

/** Each tail request: its query, and a promise settled when its connection closes. */
const tails: { query: URLSearchParams; closed: Promise<void> }[] = [];
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '', 'http://x');
  const id = url.pathname.startsWith(PREFIX) && url.pathname.endsWith('/events/stream') ? url.pathname.slice(PREFIX.length + 1).split('/')[0] : undefined;
  tails.push({ query: url.searchParams, closed: new Promise((resolve) => res.on('close', () => resolve())) });
  if (id === '9') return problem(res, 404, 'Not found', 'stream.not_found', 'Stream 9 not found');
  if (id === '3') return problem(res, 403, 'Insufficient rights', 'auth.right_missing', 'This needs the platform right base-system.streams.read');
  if (id === '4') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end('[]');
  }
  if (id !== '1' && id !== '2') return problem(res, 404, 'No such route', 'http.route_not_found', `GET ${req.url}`);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const first = sseRecord(FIRST);
  // A frame cut in two writes, a keep-alive comment, a sample note between the records.
  res.write(`retry: 3000\n\n${first.slice(0, 30)}`);
  res.write(`${first.slice(30)}${SSE_KEEP_ALIVE}${sseSampled({ rate: 0.25, seen: 400, sent: 100 })}${sseRecord(SECOND)}`);
  if (id === '2') res.end(); // the platform ends the tail (its stream was deleted)
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
t.teardown(() => {
  server.closeAllConnections();
  server.close();
});

/** Runs `ops`, interrupting it once `lines` lines are on stdout (never, when undefined). */
async function ops(argv: string[], lines?: number) {
  let stdout = '';
  let stderr = '';
  const interrupt = new AbortController();
  const before = tails.length;
  const write = (s: string) => {
    stdout += s;
    if (lines !== undefined && stdout.split('\n').length > lines) interrupt.abort();
  };
  const code = await run(argv, { OPS_URL: url, OPS_TOKEN: TOKEN }, { stdout: { write }, stderr: { write: (s: string) => (stderr += s) }, interrupt: interrupt.signal });
  return { code, stdout, stderr, tail: tails[before] };
}

t.test('tail prints a line per record and a note per sample, and ends cleanly when interrupted', async (t) => {
  const r = await ops(['events', 'tail', '1'], 2);
  t.same([r.code, r.stdout, r.stderr], [0, `${FIRST_LINE}\n${SECOND_LINE}\n`, SAMPLED_NOTE]);
  t.equal(r.tail!.query.size, 0);
  await r.tail!.closed; // the CLI hung up: this settles, or the test times out
});

t.test('tail --json prints each record as one line of JSON; --filter and --route go into the query', async (t) => {
  const r = await ops(['events', 'tail', '1', '--json', '--filter', 'host=core-router', '--filter', 'labels.env=prod', '--route', 'syslog'], 2);
  t.same([r.code, r.stderr], [0, SAMPLED_NOTE]);
  t.same(
    r.stdout
      .split('\n')
      .slice(0, 2)
      .map((line) => JSON.parse(line)),
    [FIRST, SECOND],
  );
  t.same(
    [...r.tail!.query],
    [
      ['filter', 'host=core-router'],
      ['filter', 'labels.env=prod'],
      ['route', 'syslog'],
    ],
  );
  await r.tail!.closed;
});

t.test('tail: the platform ending the stream is an error (exit 1) after the lines it sent', async (t) => {
  const r = await ops(['events', 'tail', '2']);
  t.same([r.code, r.stdout], [1, `${FIRST_LINE}\n${SECOND_LINE}\n`]);
  t.equal(r.stderr, `${SAMPLED_NOTE}error: the platform ended the live tail\n`);
});

t.test('tail: an unknown stream prints the 404 problem and exits 1', async (t) => {
  const r = await ops(['events', 'tail', '9']);
  t.same([r.code, r.stdout, r.stderr], [1, '', 'error: 404 Not found: Stream 9 not found [stream.not_found]\n']);
});

t.test('tail: a caller without the right prints the 403 problem and exits 1', async (t) => {
  const r = await ops(['events', 'tail', '3']);
  t.same([r.code, r.stdout, r.stderr], [1, '', 'error: 403 Insufficient rights: This needs the platform right base-system.streams.read [auth.right_missing]\n']);
});

t.test('tail: an answer that is not an event stream is an error', async (t) => {
  const r = await ops(['events', 'tail', '4']);
  t.same([r.code, r.stdout, r.stderr], [1, '', "error: the answer (200) is not an event stream; is the URL the platform's?\n"]);
});

t.test('tail: a stream id that is not a positive integer is a usage error, before any request', async (t) => {
  const r = await ops(['events', 'tail', 'syslog']);
  t.same([r.code, r.stdout, r.tail], [2, '', undefined]);
  t.match(r.stderr, /^error: <stream> must be a positive integer, got "syslog"\n\nUsage: ops events tail <stream> \[options\]\n/);
});

t.test('SIGINT ends a real `ops events tail` with exit 0', async (t) => {
  const before = tails.length;
  const ops = fileURLToPath(new URL('../../../../../services/cli/ops.js', import.meta.url));
  const child = spawn(process.execPath, [ops, 'events', 'tail', '1'], { env: { ...process.env, OPS_URL: url, OPS_TOKEN: TOKEN }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const exited = new Promise<[number | null, string | null]>((resolve) => child.on('exit', (code, signal) => resolve([code, signal])));
  await new Promise<void>((resolve) => {
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      stdout += s;
      if (stdout.split('\n').length > 2) resolve();
    });
    void exited.then(() => resolve());
  });
  child.kill('SIGINT');
  t.same(await exited, [0, null]);
  t.same([stdout, stderr], [`${FIRST_LINE}\n${SECOND_LINE}\n`, SAMPLED_NOTE]);
  await tails[before]!.closed;
});

t.test('the SSE parser takes text cut anywhere, any line end, comments and multi-line data', async (t) => {
  const text = 'retry: 3000\r\n\r\n: keep-alive\n\nevent: record\r\nid: 1\r\ndata: {"a":\r\ndata:1}\r\n\r\ndata: plain\rdata\r\revent: sampled\ndata: {}\n\n';
  const whole = createSseParser()(text);
  t.same(whole, [
    { event: 'record', data: '{"a":\n1}', id: '1' },
    { event: 'message', data: 'plain\n', id: '1' },
    { event: 'sampled', data: '{}', id: '1' },
  ]);
  const wrong: number[] = [];
  for (let cut = 1; cut < text.length; cut++) {
    const parse = createSseParser();
    const parts = [...parse(text.slice(0, cut)), ...parse(text.slice(cut))];
    if (JSON.stringify(parts) !== JSON.stringify(whole)) wrong.push(cut);
  }
  t.same(wrong, [], 'every cut into two chunks gives the same messages');
  const parse = createSseParser();
  t.same(
    [...text].flatMap((c) => parse(c)),
    whole,
    'so does one character at a time',
  );
});
