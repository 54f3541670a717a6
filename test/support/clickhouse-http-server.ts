/**
 * TEST ONLY. The part of ClickHouse's HTTP interface that @clickhouse/client uses, served from chDB,
 * so the server adapter runs against the real engine where no current ClickHouse server can be
 * installed. Not product code: no auth, no sessions, no streaming, text formats only.
 *
 *   node --import tsx test/support/clickhouse-http-server.ts --port N --data DIR
 */

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Session } from 'chdb';

interface NativeResult {
  bytes: Uint8Array;
  rowsRead?: number;
  bytesRead?: number;
  elapsed?: number;
}
interface Native {
  QueryAsyncConnection(connection: unknown, sql: string, format: string, params?: Record<string, string>): Promise<NativeResult>;
}

/**
 * chDB's public bind API escapes every string it is given, which is right for JS values but wrong
 * for `param_*` values: they arrive already in ClickHouse's text form (`['it\'s']`), and a server
 * hands them to the engine untouched. The addon's own entry point takes them that way.
 */
const require = createRequire(import.meta.url);
const native = (require(join(dirname(require.resolve('chdb')), 'dist', 'loader.js')) as { loadNative(): Native }).loadNative();

const { values: args } = parseArgs({ options: { port: { type: 'string' }, data: { type: 'string' } } });
if (!args.port || !args.data) throw new Error('usage: clickhouse-http-server.ts --port N --data DIR');
const dataDir = args.data;
// A server quotes 64-bit integers in JSON by default; chDB does not.
const engineArgs = { connectionArgs: ['--output_format_json_quote_64bit_integers=1'] };

// Keeps the engine and its data directory loaded between requests.
const anchor = new Session(dataDir, engineArgs);

/** URL parameters that steer the HTTP exchange rather than name a setting. */
const NOT_SETTINGS = new Set([
  ...['query', 'database', 'default_format', 'query_id', 'session_id', 'session_timeout', 'session_check'],
  ...['user', 'password', 'quota_key', 'role', 'wait_end_of_query', 'buffer_size', 'compress', 'decompress', 'stacktrace'],
]);
/** The HTTP status a server gives these exception codes (syntax and parse 400, unknown names 404); else 500. */
const STATUS: Record<number, number> = { 6: 400, 27: 400, 62: 400, 117: 400, 46: 404, 47: 404, 50: 404, 60: 404, 73: 404, 81: 404, 115: 404 };

class ClickHouseException extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface Request {
  sql: string;
  database: string;
  format: string;
  params: Record<string, string>;
  settings: Array<[string, string]>;
}

function parseRequest(url: URL, body: string): Request {
  const request: Request = { sql: '', database: 'default', format: 'TabSeparated', params: {}, settings: [] };
  let query: string | undefined;
  for (const [key, value] of url.searchParams) {
    if (key === 'query') query = value;
    else if (key === 'database') request.database = value;
    else if (key === 'default_format') request.format = value;
    else if (key.startsWith('param_')) request.params[key.slice('param_'.length)] = value;
    else if (!NOT_SETTINGS.has(key)) request.settings.push([key, value]);
  }
  // As on a server, the body continues the URL's query: the rows of an INSERT, or the SQL itself.
  request.sql = query === undefined ? body : body.length > 0 ? `${query}\n${body}` : query;
  if (request.sql.trim() === '') throw new ClickHouseException(62, 'Empty query. (SYNTAX_ERROR)');
  return request;
}

/**
 * Each request gets its own connection to the data directory, so its database and settings end
 * with it as on a server (SET ... = DEFAULT would restore chDB's defaults, not a server's).
 */
async function execute(request: Request): Promise<NativeResult> {
  const session = new Session(dataDir, engineArgs);
  const run = (sql: string, params?: Record<string, string>): Promise<NativeResult> =>
    params && Object.keys(params).length > 0
      ? oneBoundAtATime(() => native.QueryAsyncConnection(session.connection, sql, request.format, params))
      : native.QueryAsyncConnection(session.connection, sql, request.format);
  try {
    await run('USE {db:Identifier}', { db: request.database });
    for (const [name, value] of request.settings) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new ClickHouseException(115, `Unknown setting '${name}'. (UNKNOWN_SETTING)`);
      await run(`SET ${name} = '${value.replace(/[\\']/g, '\\$&')}'`);
    }
    return await run(request.sql, request.params);
  } finally {
    session.close();
  }
}

/**
 * chDB keeps a statement's bound parameters in state its connections share: two bound statements
 * at once, even on different connections, read each other's values and can abort the engine.
 * chDB's own bind API runs them one at a time, process-wide; this server calls the addon
 * directly (see `native`), so it does the same. Statements without parameters run side by side.
 */
let boundTail: Promise<unknown> = Promise.resolve();
function oneBoundAtATime<T>(work: () => Promise<T>): Promise<T> {
  const result = boundTail.then(work, work);
  boundTail = result.catch(() => undefined);
  return result;
}

/**
 * Requests run side by side, as on a server: an insert does not hold up a query sent beside it.
 * Each has its own connection (execute); bound statements still take their turn (above). At most
 * ENGINE_CALLS requests at a time, the others wait their turn in arrival order.
 */
const ENGINE_CALLS = 4;
/** Requests holding a turn; a turn that ends passes straight to the oldest one waiting. */
let active = 0;
const queued: Array<() => void> = [];
/** Every request's work, for the shutdown to wait on. */
const running = new Set<Promise<unknown>>();
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (active < ENGINE_CALLS) active++;
  else await new Promise<void>((resolve) => queued.push(resolve));
  const call = work();
  running.add(call);
  try {
    return await call;
  } finally {
    running.delete(call);
    const next = queued.shift();
    if (next) next();
    else active--;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
}

function sendError(res: ServerResponse, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ClickHouseException ? error.code : Number(/^Code: (\d+)\./.exec(message)?.[1] ?? 1001);
  const text = message.startsWith('Code: ') ? message : `Code: ${code}. DB::Exception: ${message}`;
  res.writeHead(STATUS[code] ?? 500, { 'Content-Type': 'text/plain; charset=UTF-8', 'X-ClickHouse-Exception-Code': String(code) });
  res.end(`${text}\n`);
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const body = await readBody(req);
  if (url.pathname === '/ping' || (url.pathname === '/' && req.method === 'GET' && !url.searchParams.has('query'))) {
    res.end('Ok.\n');
    return;
  }
  if (url.pathname !== '/') {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=UTF-8' });
    res.end(`There is no handle ${url.pathname}\n`);
    return;
  }
  if ((req.headers['content-type'] ?? '').startsWith('multipart/')) {
    throw new ClickHouseException(48, 'multipart parameters are not served by this test server. (NOT_IMPLEMENTED)');
  }
  const request = parseRequest(url, body);
  const started = process.hrtime.bigint();
  const result = await inTurn(() => execute(request));
  const summary = {
    read_rows: String(result.rowsRead ?? 0),
    read_bytes: String(result.bytesRead ?? 0),
    elapsed_ns: String(process.hrtime.bigint() - started),
  };
  const headers: Record<string, string> = {
    'Content-Type': 'text/plain; charset=UTF-8',
    'X-ClickHouse-Query-Id': url.searchParams.get('query_id') ?? randomUUID(),
    'X-ClickHouse-Summary': JSON.stringify(summary),
  };
  let out = Buffer.from(result.bytes);
  // Like a server: compressed only when the request enables it and accepts gzip.
  const compress = request.settings.some(([k, v]) => k === 'enable_http_compression' && v === '1');
  if (compress && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
    out = gzipSync(out);
    headers['Content-Encoding'] = 'gzip';
  }
  res.writeHead(200, headers);
  res.end(out);
}

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => sendError(res, error));
});
server.listen(Number(args.port), '127.0.0.1');

let stopping = false;
async function shutdown(): Promise<void> {
  if (stopping) return;
  stopping = true;
  server.close();
  server.closeAllConnections();
  while (running.size > 0) await Promise.allSettled(running);
  anchor.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
// Stdin closes when the test process goes away, even killed: never outlive it.
process.stdin.on('close', () => void shutdown());
process.stdin.resume();
