/**
 * Foundation: SIGTERM under load stops accepting, finishes the requests in flight (their batches
 * are flushed and acknowledged), closes the engines and exits 0. Every request sent gets an
 * answer (200, or 503 with Retry-After once the stop has begun) or finds the listener closed
 * (ECONNREFUSED, nothing sent): a request accepted and then dropped (a reset, a hang-up with no
 * answer) fails the test. One request is held half-sent across the SIGTERM, so one is surely in
 * flight when the stop begins. Every record answered 200 is stored: the data directory, opened
 * again, holds exactly those events, once each, once what its bus log still held is stored.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, type ClientRequest, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { freePort } from '../../support/free-port.js';
import { call } from '../../support/http.js';
import { ADMIN_TOKEN, startTestPlatform } from '../../support/platform.js';
import { runEntry } from '../../support/process.js';
import { ingestSettled } from '../../support/settled.js';

/** What became of one request, as its client saw it. */
type Outcome =
  | { kind: 'answered'; status: number; retryAfter: string | undefined; text: string }
  /** The connection was refused: the listener was closed and not a byte was sent. */
  | { kind: 'refused' }
  /** Sent (or being sent) and then lost: no answer, or part of one. */
  | { kind: 'lost'; code: string; message: string; sent: boolean };

/** Sends `body` to `path`; `hold` (when given) sends its first part, then waits for the promise before the rest. */
function post(port: number, path: string, body: string, options: { agent: Agent | false; hold?: { bytes: number; until: Promise<void>; sent: () => void } }): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome): void => {
      if (!settled) resolve(outcome);
      settled = true;
    };
    const data = Buffer.from(body);
    const req: ClientRequest = request(
      { host: '127.0.0.1', port, method: 'POST', path, agent: options.agent, headers: { 'content-type': 'application/x-ndjson', 'content-length': data.length } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          if (res.complete) settle({ kind: 'answered', status: res.statusCode!, retryAfter: res.headers['retry-after'], text });
          else settle({ kind: 'lost', code: 'incomplete answer', message: `${res.statusCode} cut short after ${text.length} characters`, sent: true });
        });
        res.on('aborted', () => settle({ kind: 'lost', code: 'incomplete answer', message: `${res.statusCode} aborted after ${text.length} characters`, sent: true }));
        res.on('error', (error: NodeJS.ErrnoException) => settle({ kind: 'lost', code: error.code ?? 'error', message: error.message, sent: true }));
      },
    );
    let connected = false;
    req.on('socket', (socket) => {
      // A kept-alive socket handed over again is connected already.
      if (!socket.connecting) connected = true;
      else socket.once('connect', () => (connected = true));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      // ECONNREFUSED comes from connect(): the request never left the client.
      if (error.code === 'ECONNREFUSED' && !connected) settle({ kind: 'refused' });
      else settle({ kind: 'lost', code: error.code ?? 'error', message: error.message, sent: connected });
    });
    if (!options.hold) {
      req.end(data);
      return;
    }
    const { bytes, until, sent } = options.hold;
    req.write(data.subarray(0, bytes), () => sent());
    void until.then(() => req.end(data.subarray(bytes)));
  });
}

t.test('SIGTERM during ingestion: exit 0, every request answered or refused, every acknowledged record stored once', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-graceful-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const service = runEntry('services/main.ts', {
    OPS_PORT: String(port),
    OPS_DATA_DIR: dataDir,
    OPS_ADMIN_TOKEN: ADMIN_TOKEN,
    LOG_LEVEL: 'info',
    // Generous: the held request is finished only once the stop has begun.
    OPS_SHUTDOWN_TIMEOUT_MS: '60000',
  });
  t.teardown(() => {
    if (service.child.exitCode === null) service.child.kill('SIGKILL');
  });
  await service.waitFor(/listening on port/);
  const stream = await call(base, 'POST', '/api/admin/v1/streams', { json: { name: 'graceful' }, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  t.equal(stream.status, 201, 'stream created');
  const path = `/api/public/cl/v1/stream-data?streamKey=${stream.body.key}`;
  /** A body of `n` records, each naming its request, so what is stored can be traced to its answer. */
  const bodyOf = (requestId: string, n: number): string => Array.from({ length: n }, (_, i) => JSON.stringify({ r: requestId, i })).join('\n');

  const outcomes = new Map<string, { records: number; outcome: Outcome }>();
  const agent = new Agent({ keepAlive: true });
  t.teardown(() => agent.destroy());
  let firstAnswer!: () => void;
  const answered = new Promise<void>((resolve) => (firstAnswer = resolve));
  const load = Promise.all(
    Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; i < 40; i++) {
        const id = `w${w}-${i}`;
        outcomes.set(id, { records: 100, outcome: await post(port, path, bodyOf(id, 100), { agent }) });
        firstAnswer();
      }
    }),
  );
  await answered;

  // One request surely in flight at the stop: its headers and half its body are sent, and the
  // server has taken them in (it has answered another request since), before the SIGTERM.
  const heldBody = bodyOf('held', 50);
  let release!: () => void;
  const until = new Promise<void>((resolve) => (release = resolve));
  let halfSent!: () => void;
  const sentHalf = new Promise<void>((resolve) => (halfSent = resolve));
  const held = post(port, path, heldBody, { agent: false, hold: { bytes: Math.floor(heldBody.length / 2), until, sent: halfSent } });
  await sentHalf;
  t.equal((await call(base, 'GET', '/healthz')).status, 200, 'the server is serving once the held request is half sent');
  service.child.kill('SIGTERM');
  // The stop has begun (the listener closes as it is logged): only now is the rest of it sent,
  // and not before a stop that did not wait for it would have gone on to close the engines (it
  // logs that) or exited; a stop that waits gets there only after the request is answered, so
  // the wait is bounded (it decides nothing by itself: a stop that waits passes either way).
  await service.waitFor(/"msg":"stopping"/);
  await service.waitFor(/analytics store closed/, 2_000).catch(() => undefined);
  release();
  outcomes.set('held', { records: 50, outcome: await held });
  const exit = await service.exited;
  await load;
  t.equal(exit.code, 0, 'exit code 0');
  t.match(service.output(), /"msg":"stopped"/);

  let acknowledged = 0;
  const acknowledgedIds = new Set<string>();
  const tally = { acknowledged: 0, politelyRefused: 0, connectionRefused: 0 };
  for (const [id, { records, outcome }] of outcomes) {
    if (outcome.kind === 'refused') {
      tally.connectionRefused++;
      continue;
    }
    if (outcome.kind === 'lost') {
      t.fail(`request ${id} was ${outcome.sent ? 'sent' : 'being sent'} and lost without an answer: ${outcome.code} ${outcome.message}`);
      continue;
    }
    if (outcome.status === 200) {
      const accepted = (JSON.parse(outcome.text) as { accepted: number }).accepted;
      if (accepted !== records) t.fail(`request ${id}: ${accepted} of its ${records} records acknowledged`);
      acknowledged += accepted;
      acknowledgedIds.add(id);
      tally.acknowledged++;
    } else if (outcome.status === 503 && outcome.retryAfter !== undefined) {
      tally.politelyRefused++;
    } else {
      t.fail(`request ${id} was answered ${outcome.status} (retry-after ${outcome.retryAfter}): ${outcome.text.slice(0, 300)}`);
    }
  }
  t.equal(outcomes.size, 8 * 40 + 1, 'every request has an outcome');
  t.ok(acknowledgedIds.has('held'), 'the request in flight at the stop was answered 200');
  t.ok(tally.acknowledged > 1, `requests acknowledged: ${JSON.stringify(tally)}`);
  t.ok(tally.politelyRefused + tally.connectionRefused > 0, 'requests after the stop are refused, politely or by the closed listener');

  const reopened = await startTestPlatform({ dataDir });
  t.teardown(() => reopened.stop(false));
  // A record acknowledged as the stop began may still have been in the bus log when the event
  // worker stopped: the reopened platform stores it from there.
  await ingestSettled(reopened.platform);
  // Counted on disk (no FINAL): a copy of a record would count.
  const [row] = await reopened.platform.engines.analytics.query<{ rows: string; ids: string }>('SELECT count() AS rows, uniqExact(id) AS ids FROM events');
  t.equal(Number(row?.rows), acknowledged, 'event rows (no FINAL) = acknowledged records');
  t.equal(Number(row?.ids), acknowledged, 'distinct event ids = acknowledged records');
  // And they are the acknowledged ones: each acknowledged request's records, each once.
  const perRequest = await reopened.platform.engines.analytics.query<{ r: string; rows: string; records: string }>(
    "SELECT JSONExtractString(payload, 'r') AS r, count() AS rows, uniqExact(JSONExtractInt(payload, 'i')) AS records FROM events GROUP BY r ORDER BY r",
  );
  t.strictSame(
    perRequest.map((p) => [p.r, Number(p.rows), Number(p.records)]),
    [...acknowledgedIds].sort().map((id) => [id, outcomes.get(id)!.records, outcomes.get(id)!.records]),
    'the stored records are those of the acknowledged requests, each once',
  );
});
