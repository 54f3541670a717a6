/**
 * Issue 6 acceptance: POST /api/public/cl/v1/stream-data on the embedded platform — every status
 * code of spec 7.4 (plus 413/415 of DESIGN §6), the order of the checks, and the stored event
 * rows behind each 200. A 200 means the records are on the bus (in-process: in its log on disk);
 * the event worker stores them behind the answer, so the rows are read once the pipeline has
 * settled (a refused record stored all the same would show by then).
 */
import t from 'tap';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { ingestSettled } from '../../support/settled.js';

const PATH = '/api/public/cl/v1/stream-data';
const MAX_BODY = 2048;
const START = Date.parse('2026-11-21T10:00:00.000Z');
let clock = START;

let p: TestPlatform;
t.before(async () => {
  p = await startTestPlatform({ env: { OPS_MAX_BODY_BYTES: String(MAX_BODY) }, now: () => clock });
});
t.teardown(() => p.stop());

interface StreamInfo {
  id: number;
  key: string;
}
let streamNo = 0;
async function createStream(config?: unknown): Promise<StreamInfo> {
  streamNo += 1;
  const created = await p.api('POST', '/api/admin/v1/streams', { json: { name: `ingest-${streamNo}`, ...(config === undefined ? {} : { config }) } });
  if (created.status !== 201) throw new Error(`stream not created: ${created.status} ${created.text}`);
  return { id: created.body.id, key: created.body.key };
}

interface Posted {
  status: number;
  body: any;
  text: string;
}
/** Posts raw data; the key goes in the query (default) or the header; `type` null sends no Content-Type. */
async function post(
  key: string | undefined,
  type: string | null,
  body: string | Uint8Array,
  via: 'query' | 'header' = 'query',
  extra: Record<string, string> = {},
): Promise<Posted> {
  const headers: Record<string, string> = { ...extra };
  if (type !== null) headers['content-type'] = type;
  if (key !== undefined && via === 'header') headers['x-smon-stream-key'] = key;
  const query = key !== undefined && via === 'query' ? `?streamKey=${encodeURIComponent(key)}` : '';
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const response = await fetch(p.base + PATH + query, { method: 'POST', headers, body: bytes });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed, text };
}

interface EventRow {
  id: string;
  stream_id: string;
  ts: string;
  received_at: string;
  route: string;
  labels: Record<string, string>;
  payload: string;
}
// Each read first waits until every record acknowledged so far is stored.
async function events(streamId: number): Promise<EventRow[]> {
  await ingestSettled(p.platform);
  return p.platform.engines.analytics.query<EventRow>(
    'SELECT id, stream_id, ts, received_at, route, labels, payload FROM events WHERE stream_id = {s:UInt64} ORDER BY received_at, id',
    { s: streamId },
  );
}
async function deadLetters(streamId: number): Promise<Array<{ id: string; stream_id: string; reason: string; payload: string }>> {
  await ingestSettled(p.platform);
  return p.platform.engines.analytics.query<{ id: string; stream_id: string; reason: string; payload: string }>(
    'SELECT id, stream_id, reason, payload FROM dead_letters WHERE stream_id = {s:UInt64} ORDER BY received_at, id',
    { s: streamId },
  );
}
async function countAll(): Promise<number> {
  await ingestSettled(p.platform);
  return Number((await p.platform.engines.analytics.query<{ n: string }>('SELECT count() AS n FROM events'))[0]!.n);
}

/** ClickHouse's DateTime64(3) text of an epoch-ms value. */
const chTime = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
const tick = (): number => (clock += 1000);
/** Rows of one receipt time come in no particular order: compare payloads as sorted JSON texts. */
const sorted = (values: unknown[]): string[] => values.map((v) => JSON.stringify(v)).sort();
const payloads = (rows: EventRow[]): string[] => sorted(rows.map((r) => JSON.parse(r.payload)));

// ---------------------------------------------------------------------------------------------
// 200 for each content type, and the rows behind it
// ---------------------------------------------------------------------------------------------

t.test('200 application/json: scalar JSON texts are records too, stored as their text', async (t) => {
  const s = await createStream();
  for (const body of ['42', '"just a string"', 'true', 'null']) {
    const answer = await post(s.key, 'application/json', body);
    t.equal(answer.status, 200, body);
  }
  t.strictSame((await events(s.id)).map((r) => r.payload).sort(), ['"just a string"', '42', 'null', 'true']);
});

t.test('200 application/json: one record per body (an array included), stored with its fields', async (t) => {
  const s = await createStream({ preprocessor: { labels: { env: 'prod' } }, routeLabel: 'json-route' });
  const at = tick();
  const object = await post(s.key, 'application/json', '{"host":"db-1","value":42}');
  t.equal(object.status, 200);
  t.strictSame(object.body, { accepted: 1 });
  const array = await post(s.key, 'application/json; charset=utf-8', '[{"n":1},{"n":2}]', 'header');
  t.equal(array.status, 200, 'parameters of the media type are ignored; key in the header');
  t.strictSame(array.body, { accepted: 1 }, 'an array is one record');
  const pretty = await post(s.key, 'application/json', JSON.stringify({ pretty: { deep: [1, 2] } }, null, 2));
  t.equal(pretty.status, 200);

  const rows = await events(s.id);
  t.equal(rows.length, 3);
  t.strictSame(payloads(rows), sorted([{ host: 'db-1', value: 42 }, [{ n: 1 }, { n: 2 }], { pretty: { deep: [1, 2] } }]));
  for (const row of rows) {
    t.equal(row.stream_id, String(s.id));
    t.equal(row.ts, chTime(at), 'no @timestamp: the event date is the time of receipt');
    t.equal(row.received_at, chTime(at));
    t.equal(row.route, 'json-route');
    t.strictSame(row.labels, { env: 'prod' });
    t.match(row.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  }
  t.equal(new Set(rows.map((r) => r.id)).size, 3, 'distinct ids');
  t.ok(
    rows.every((r) => !/[\r\n]/.test(r.payload)),
    'pretty-printed JSON stored on one line',
  );
  t.ok(
    rows.some((r) => r.payload === '{"host":"db-1","value":42}'),
    'a compact JSON record is stored as the very text sent',
  );
  t.ok(
    rows.some((r) => r.payload === '[{"n":1},{"n":2}]'),
    'an array record too',
  );
});

t.test('200 application/x-ndjson: one record per non-empty line', async (t) => {
  const s = await createStream();
  const at = tick();
  const answer = await post(s.key, 'application/x-ndjson', '{"n":1}\r\n\r\n{"n":2}\n\n{"n":3}\n', 'header');
  t.equal(answer.status, 200);
  t.strictSame(answer.body, { accepted: 3 });
  const rows = await events(s.id);
  t.strictSame(rows.map((r) => r.payload).sort(), ['{"n":1}', '{"n":2}', '{"n":3}'], 'each line stored as sent, without its CR');
  for (const row of rows) {
    t.equal(row.stream_id, String(s.id));
    t.equal(row.ts, chTime(at));
    t.equal(row.route, '');
    t.strictSame(row.labels, {});
  }
});

t.test('200 text/xml on a stream with an xml parser: the document stored as an object', async (t) => {
  const s = await createStream({ parser: { type: 'xml' }, preprocessor: { labels: { source: 'xml' } }, routeLabel: 'xml-route' });
  const at = tick();
  const answer = await post(s.key, 'text/xml', '<?xml version="1.0"?>\n<event severity="2">\n  <host>db-1</host>\n  <code>7</code>\n</event>\n');
  t.equal(answer.status, 200);
  t.strictSame(answer.body, { accepted: 1 });
  const rows = await events(s.id);
  t.equal(rows.length, 1);
  t.strictSame(JSON.parse(rows[0]!.payload), { '?xml': { '@_version': '1.0' }, event: { '@_severity': '2', host: 'db-1', code: 7 } });
  t.equal(rows[0]!.stream_id, String(s.id));
  t.equal(rows[0]!.ts, chTime(at));
  t.equal(rows[0]!.route, 'xml-route');
  t.strictSame(rows[0]!.labels, { source: 'xml' });
  t.equal((await deadLetters(s.id)).length, 0);
});

t.test('200 text/plain on a stream with a text parser: {message} and the route label (spec 4.4)', async (t) => {
  const s = await createStream({ parser: { type: 'text' }, routeLabel: 'stream-ready-event' });
  const at = tick();
  const text = 'ERROR db-1 disk full\nsecond line';
  const answer = await post(s.key, 'text/plain', text, 'header');
  t.equal(answer.status, 200);
  t.strictSame(answer.body, { accepted: 1 });
  const rows = await events(s.id);
  t.equal(rows.length, 1);
  t.strictSame(JSON.parse(rows[0]!.payload), { message: text });
  t.equal(rows[0]!.route, 'stream-ready-event');
  t.strictSame(rows[0]!.labels, {});
  t.equal(rows[0]!.ts, chTime(at));
});

t.test('200 text/plain on a stream with a regex parser: named groups stored; no match is a dead letter', async (t) => {
  const s = await createStream({ parser: { type: 'text', pattern: '^(?<level>[A-Z]+) (?<host>\\S+) (?<msg>.*)$' } });
  tick();
  t.equal((await post(s.key, 'text/plain', 'WARN web-2 slow answers')).status, 200);
  t.equal((await post(s.key, 'text/plain', 'lowercase does not match')).status, 200, 'accepted: the parser runs downstream');
  const rows = await events(s.id);
  t.equal(rows.length, 1);
  t.strictSame(JSON.parse(rows[0]!.payload), { level: 'WARN', host: 'web-2', msg: 'slow answers' });
  const dead = await deadLetters(s.id);
  t.equal(dead.length, 1);
  t.equal(dead[0]!.payload, 'lowercase does not match');
  t.match(dead[0]!.reason, /does not match the stream's pattern/);
});

// ---------------------------------------------------------------------------------------------
// 400
// ---------------------------------------------------------------------------------------------

t.test('400 for data that fails validation for each declared type, and nothing is stored', async (t) => {
  const s = await createStream({ parser: { type: 'xml' } });
  const cases: Array<[string, string, RegExp]> = [
    ['application/json', '{"a":', /not valid JSON/],
    ['application/json', '{"a":1}\n{"b":2}', /not valid JSON/],
    ['application/json', '{"@timestamp":"21.11.2026 10:00"}', /@timestamp is not an ISO 8601 date-time/],
    ['application/json', '', /empty/],
    ['application/x-ndjson', '{"a":1}\nnope\n', /Line 2 is not valid JSON/],
    ['application/x-ndjson', '{"@timestamp":1763719200000}', /Line 1: @timestamp is not an ISO 8601/],
    ['application/x-ndjson', '\n\r\n\n', /empty/],
    ['text/xml', '<a><b></a>', /not well-formed XML/],
    ['text/xml', 'not xml at all', /not well-formed XML/],
    ['text/plain', '   ', /empty/],
  ];
  for (const [type, body, reason] of cases) {
    const answer = await post(s.key, type, body);
    t.equal(answer.status, 400, `${type}: ${JSON.stringify(body)}`);
    t.match(answer.body?.detail, reason);
  }
  t.equal((await events(s.id)).length, 0);
  t.equal((await deadLetters(s.id)).length, 0);
});

t.test('@timestamp out of 1900–2299 or malformed: 400 saying which, JSON and NDJSON, the same message as _bulk (issue #37)', async (t) => {
  const s = await createStream();
  const outside = '@timestamp is outside the years 1900 to 2299 (UTC) that event dates can take: "2400-01-01T00:00:00Z"';
  const malformed = '@timestamp is not an ISO 8601 date-time with a time zone (e.g. 2026-11-21T10:00:00Z): "21.11.2026 10:00"';
  const cases: Array<[string, string, string]> = [
    ['application/json', '{"host":"db-1","@timestamp":"2400-01-01T00:00:00Z"}', outside],
    ['application/json', '{"host":"db-1","@timestamp":"21.11.2026 10:00"}', malformed],
    ['application/x-ndjson', '{"host":"db-1"}\n{"host":"db-2","@timestamp":"2400-01-01T00:00:00Z"}\n', `Line 2: ${outside}`],
    ['application/x-ndjson', '{"host":"db-1"}\n{"host":"db-2","@timestamp":"21.11.2026 10:00"}\n', `Line 2: ${malformed}`],
  ];
  for (const [type, body, detail] of cases) {
    const answer = await post(s.key, type, body);
    t.equal(answer.status, 400, `${type}: ${body}`);
    t.equal(answer.body?.detail, detail);
  }
  t.equal((await events(s.id)).length, 0, 'nothing stored');
});

t.test('a mixed NDJSON body with one bad line is refused whole and stores nothing', async (t) => {
  const s = await createStream();
  const before = await countAll();
  const lines = Array.from({ length: 20 }, (_, i) => JSON.stringify({ n: i }));
  lines.splice(13, 0, '{"n": broken');
  const answer = await post(s.key, 'application/x-ndjson', lines.join('\n'));
  t.equal(answer.status, 400);
  t.match(answer.body.detail, /^Line 14 is not valid JSON/, 'the bad line is named');
  // A later good body is stored once the pipeline has settled after its 200: had any of the
  // refused lines been queued, they would be stored by then as well.
  t.equal((await post(s.key, 'application/x-ndjson', '{"after":true}')).status, 200);
  t.equal(await countAll(), before + 1, 'only the later record was stored');
  t.strictSame(
    (await events(s.id)).map((r) => r.payload),
    ['{"after":true}'],
  );
});

// ---------------------------------------------------------------------------------------------
// 422: key missing, unknown, inactive, pending deletion — query and header alike
// ---------------------------------------------------------------------------------------------

t.test('422 when no stream key is sent', async (t) => {
  const answer = await post(undefined, 'application/json', '{"a":1}');
  t.equal(answer.status, 422);
  t.match(answer.body.detail, /stream key is missing/);
  const empty = await fetch(`${p.base}${PATH}?streamKey=`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-smon-stream-key': '' }, body: '{"a":1}' });
  t.equal(empty.status, 422, 'empty query and header count as missing');
  await empty.text();
});

t.test('422 for an unknown key, in the query and in the header', async (t) => {
  for (const via of ['query', 'header'] as const) {
    const answer = await post(`no-such-key-${via}`, 'application/json', '{"a":1}', via);
    t.equal(answer.status, 422, via);
    t.match(answer.body.detail, /not declared/);
    t.equal(answer.body.status, 422);
  }
});

t.test('422 for an inactive stream, in the query and in the header; 200 again once activated', async (t) => {
  const s = await createStream();
  t.equal((await p.api('POST', `/api/admin/v1/streams/${s.id}/deactivate`)).status, 200);
  for (const via of ['query', 'header'] as const) {
    const answer = await post(s.key, 'application/json', '{"a":1}', via);
    t.equal(answer.status, 422, via);
    t.match(answer.body.detail, /not active/);
  }
  t.equal((await p.api('POST', `/api/admin/v1/streams/${s.id}/activate`)).status, 200);
  t.equal((await post(s.key, 'application/json', '{"a":1}')).status, 200);
  t.equal((await events(s.id)).length, 1, 'only the record sent while active');
});

t.test('422 for a stream pending deletion, in the query and in the header', async (t) => {
  const s = await createStream();
  t.equal((await post(s.key, 'application/json', '{"before":true}')).status, 200);
  t.equal((await p.api('POST', `/api/admin/v1/streams/${s.id}/mark-for-deletion`)).status, 200);
  for (const via of ['query', 'header'] as const) {
    const answer = await post(s.key, 'application/json', '{"a":1}', via);
    t.equal(answer.status, 422, via);
    t.match(answer.body.detail, /pending deletion/);
  }
  t.equal((await events(s.id)).length, 1);
});

t.test('422 for a stream created inactive', async (t) => {
  streamNo += 1;
  const created = await p.api('POST', '/api/admin/v1/streams', { json: { name: `ingest-${streamNo}`, status: 'inactive' } });
  t.equal(created.status, 201);
  t.equal((await post(created.body.key, 'application/json', '{"a":1}')).status, 422);
});

t.test('a deleted stream: its key is unknown (422)', async (t) => {
  const s = await createStream();
  t.equal((await p.api('DELETE', `/api/admin/v1/streams/${s.id}`)).status, 204);
  const answer = await post(s.key, 'application/json', '{"a":1}');
  t.equal(answer.status, 422);
  t.match(answer.body.detail, /not declared/);
});

t.test('a deactivated stream answers 422 from the next request on (the ingress reads the model the deactivation changed)', async (t) => {
  const s = await createStream();
  t.equal((await post(s.key, 'application/json', '{"a":1}')).status, 200);
  t.equal((await p.api('POST', `/api/admin/v1/streams/${s.id}/deactivate`)).status, 200);
  t.equal((await post(s.key, 'application/json', '{"a":2}')).status, 422, 'refused at once, no clock involved');
});

t.test('a rotated key: the old key answers 422, the new one 200', async (t) => {
  const s = await createStream();
  t.equal((await post(s.key, 'application/json', '{"old":true}')).status, 200);
  const rotated = await p.api('POST', `/api/admin/v1/streams/${s.id}/rotate-key`);
  t.equal(rotated.status, 200);
  t.not(rotated.body.key, s.key);
  for (const via of ['query', 'header'] as const) {
    const old = await post(s.key, 'application/json', '{"stale":true}', via);
    t.equal(old.status, 422, `old key in the ${via}`);
    t.match(old.body.detail, /not declared/);
    t.equal((await post(rotated.body.key, 'application/json', '{"new":true}', via)).status, 200, `new key in the ${via}`);
  }
  t.strictSame(payloads(await events(s.id)), sorted([{ old: true }, { new: true }, { new: true }]));
});

// ---------------------------------------------------------------------------------------------
// 415, 413
// ---------------------------------------------------------------------------------------------

t.test('415 for any other content type, or none', async (t) => {
  const s = await createStream({ parser: { type: 'xml' } });
  for (const type of ['application/xml', 'text/csv', 'application/octet-stream', 'application/jsonx', 'multipart/form-data; boundary=x', null]) {
    const answer = await post(s.key, type, '<a/>');
    t.equal(answer.status, 415, String(type));
    t.match(answer.body?.detail, /Content-Type must be/);
  }
  t.equal((await events(s.id)).length, 0);
});

t.test('413 for a body over the limit (with and without Content-Length); at the limit is fine', async (t) => {
  const s = await createStream({ parser: { type: 'text' } });
  const over = JSON.stringify({ pad: 'x'.repeat(MAX_BODY) });
  const answer = await post(s.key, 'application/json', over);
  t.equal(answer.status, 413);
  t.match(answer.body?.detail, new RegExp(`limit is ${MAX_BODY}|limit of ${MAX_BODY}`));

  const chunks = [new TextEncoder().encode('x'.repeat(MAX_BODY)), new TextEncoder().encode('y'.repeat(100))];
  const streamed = await fetch(`${p.base}${PATH}?streamKey=${encodeURIComponent(s.key)}`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: new ReadableStream({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    }),
    duplex: 'half',
  } as RequestInit);
  t.equal(streamed.status, 413, 'a chunked body is cut at the limit');
  await streamed.text();

  const exact = JSON.stringify({ pad: 'x'.repeat(MAX_BODY - 10) });
  t.equal(Buffer.byteLength(exact), MAX_BODY);
  t.equal((await post(s.key, 'application/json', exact)).status, 200, 'a body of exactly the limit');
  t.equal((await events(s.id)).length, 1);
});

// ---------------------------------------------------------------------------------------------
// the order of the checks (DESIGN §6): key ▸ active ▸ not pending deletion ▸ type ▸ size ▸ body
// ---------------------------------------------------------------------------------------------

t.test('the checks run in the order of DESIGN §6', async (t) => {
  const active = await createStream();
  const inactive = await createStream();
  const pending = await createStream();
  await p.api('POST', `/api/admin/v1/streams/${inactive.id}/deactivate`);
  await p.api('POST', `/api/admin/v1/streams/${pending.id}/mark-for-deletion`);
  const big = JSON.stringify({ pad: 'x'.repeat(MAX_BODY * 2) });
  const bigInvalid = `{${'x'.repeat(MAX_BODY * 2)}`;
  const cases: Array<[string, string | undefined, string | null, string, number]> = [
    ['no key + wrong type + oversize', undefined, 'text/csv', big, 422],
    ['unknown key + wrong content type', 'unknown-key', 'text/csv', '{"a":1}', 422],
    ['unknown key + oversize', 'unknown-key', 'application/json', big, 422],
    ['unknown key + invalid body', 'unknown-key', 'application/json', '{', 422],
    ['inactive + wrong content type', inactive.key, 'text/csv', '{"a":1}', 422],
    ['inactive + oversize', inactive.key, 'application/json', big, 422],
    ['inactive + invalid body', inactive.key, 'application/json', '{', 422],
    ['pending deletion + wrong content type', pending.key, 'text/csv', '{"a":1}', 422],
    ['pending deletion + oversize', pending.key, 'application/json', big, 422],
    ['pending deletion + invalid body', pending.key, 'application/x-ndjson', 'nope', 422],
    ['active + wrong content type + oversize', active.key, 'text/csv', big, 415],
    ['active + no content type + invalid', active.key, null, '{', 415],
    ['active + oversize + invalid body', active.key, 'application/json', bigInvalid, 413],
    ['active + invalid body', active.key, 'application/json', '{', 400],
  ];
  for (const [name, key, type, body, expected] of cases) {
    for (const via of ['query', 'header'] as const) {
      const answer = await post(key, type, body, via);
      t.equal(answer.status, expected, `${name} (${via}) → ${expected}`);
    }
  }
  t.equal((await post(active.key, 'application/json', '{"ok":1}')).status, 200, 'the connection pool is still fine');
  t.equal((await events(active.id)).length, 1);
  t.equal((await events(inactive.id)).length, 0);
  t.equal((await events(pending.id)).length, 0);
});

// ---------------------------------------------------------------------------------------------
// event dates
// ---------------------------------------------------------------------------------------------

t.test('@timestamp sets the event date (JSON and NDJSON); without it, the time of receipt', async (t) => {
  const s = await createStream();
  const at = tick();
  t.equal((await post(s.key, 'application/json', '{"k":"json","@timestamp":"2026-11-20T10:30:00.250+02:00"}')).status, 200);
  t.equal((await post(s.key, 'application/x-ndjson', '{"k":"nd1","@timestamp":"2026-11-19T01:02:03Z"}\n{"k":"nd2"}\n')).status, 200);
  const rows = await events(s.id);
  const byKind = Object.fromEntries(rows.map((r) => [JSON.parse(r.payload).k, r]));
  t.equal(byKind['json']?.ts, '2026-11-20 08:30:00.250');
  t.equal(byKind['nd1']?.ts, '2026-11-19 01:02:03.000');
  t.equal(byKind['nd2']?.ts, chTime(at), 'a line without @timestamp: receipt time');
  for (const r of rows) t.equal(r.received_at, chTime(at));
  t.equal(JSON.parse(byKind['json']!.payload)['@timestamp'], '2026-11-20T10:30:00.250+02:00', 'the payload keeps the field');
});

t.test("a preprocessor's timestamp rule wins over @timestamp", async (t) => {
  const s = await createStream({ preprocessor: { timestampField: 'epoch', timestampFormat: 'epoch-s' } });
  const at = tick();
  const body = [{ k: 'both', epoch: 1763460000, '@timestamp': '2026-01-01T00:00:00Z' }, { k: 'only-at', '@timestamp': '2026-01-01T00:00:00Z' }, { k: 'neither' }]
    .map((r) => JSON.stringify(r))
    .join('\n');
  t.equal((await post(s.key, 'application/x-ndjson', body)).status, 200);
  const rows = await events(s.id);
  const byKind = Object.fromEntries(rows.map((r) => [JSON.parse(r.payload).k, r.ts]));
  t.equal(byKind['both'], chTime(1763460000 * 1000), 'the rule wins');
  t.equal(byKind['only-at'], '2026-01-01 00:00:00.000', 'the field missing: @timestamp');
  t.equal(byKind['neither'], chTime(at), 'neither: receipt');
});

t.test('renames and drops shape the stored payload', async (t) => {
  const s = await createStream({ preprocessor: { renames: { h: 'host' }, drops: ['secret'], labels: { team: 'db' } }, routeLabel: 'r' });
  t.equal((await post(s.key, 'application/json', '{"h":"db-1","secret":"pw","v":1}')).status, 200);
  const rows = await events(s.id);
  t.strictSame(JSON.parse(rows[0]!.payload), { host: 'db-1', v: 1 });
  t.strictSame(rows[0]!.labels, { team: 'db' });
  t.equal(rows[0]!.route, 'r');
});

// ---------------------------------------------------------------------------------------------
// dead letters
// ---------------------------------------------------------------------------------------------

t.test('XML and text records on a stream without parser land in dead_letters with the reason', async (t) => {
  const s = await createStream();
  const before = await countAll();
  const xml = '<event><host>db-1</host></event>';
  const text = 'plain text record';
  t.equal((await post(s.key, 'text/xml', xml)).status, 200, 'accepted: the body is valid for its type');
  t.equal((await post(s.key, 'text/plain', text)).status, 200);
  t.equal((await events(s.id)).length, 0, 'no event row');
  t.equal(await countAll(), before);
  const dead = await deadLetters(s.id);
  t.equal(dead.length, 2);
  const byPayload = Object.fromEntries(dead.map((d) => [d.payload, d.reason]));
  t.match(byPayload[xml], /no xml parser/);
  t.match(byPayload[text], /no text parser/);
  for (const d of dead) t.equal(d.stream_id, String(s.id));
});

t.test('a text record on an xml stream and an xml record on a text stream are dead letters too', async (t) => {
  const xmlStream = await createStream({ parser: { type: 'xml' } });
  const textStream = await createStream({ parser: { type: 'text' } });
  t.equal((await post(xmlStream.key, 'text/plain', 'hello')).status, 200);
  t.equal((await post(textStream.key, 'text/xml', '<a/>')).status, 200);
  t.match((await deadLetters(xmlStream.id))[0]?.reason, /no text parser/);
  t.match((await deadLetters(textStream.id))[0]?.reason, /no xml parser/);
  t.equal((await events(xmlStream.id)).length + (await events(textStream.id)).length, 0);
});

// ---------------------------------------------------------------------------------------------
// concurrency: many requests share micro-batches, each record stored once
// ---------------------------------------------------------------------------------------------

t.test('concurrent requests on two streams: every 200 record stored once, on its own stream', async (t) => {
  const a = await createStream();
  const b = await createStream({ preprocessor: { labels: { side: 'b' } } });
  const answers = await Promise.all(
    Array.from({ length: 60 }, (_, i) => post(i % 2 === 0 ? a.key : b.key, 'application/x-ndjson', `{"i":${i},"j":0}\n{"i":${i},"j":1}\n`, i % 3 === 0 ? 'header' : 'query')),
  );
  t.strictSame(
    answers.map((x) => x.status),
    Array(60).fill(200),
  );
  const rowsA = await events(a.id);
  const rowsB = await events(b.id);
  t.equal(rowsA.length, 60);
  t.equal(rowsB.length, 60);
  t.ok(rowsA.every((r) => JSON.parse(r.payload).i % 2 === 0));
  t.ok(rowsB.every((r) => JSON.parse(r.payload).i % 2 === 1 && r.labels['side'] === 'b'));
  t.equal(new Set([...rowsA, ...rowsB].map((r) => r.id)).size, 120, 'ids unique across batches');
});
