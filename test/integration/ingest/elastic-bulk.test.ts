/**
 * The Elasticsearch `_bulk` receiver on the embedded platform: what shippers send (Fluent Bit,
 * Vector, Filebeat, Logstash), what it answers, and the event rows stored behind each answer. A
 * 200 means the records are on the bus (in-process: in its log on disk); the event worker stores
 * them behind the answer, so rows are read once the pipeline has settled (a refused document
 * stored all the same would show by then). Rows are counted physically (no FINAL): a record
 * stored twice would show.
 */
import { gzipSync } from 'node:zlib';
import t from 'tap';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { storedEvents, storedRowCount } from '../../support/settled.js';
import { createStream, type KeyVia, type StreamInfo, sendKey } from '../../support/streams.js';

const ELASTIC = '/api/public/cl/v1/elastic';
const START = Date.parse('2026-11-21T10:00:00.000Z');
let clock = START;

let p: TestPlatform;
t.before(async () => {
  p = await startTestPlatform({ now: () => clock });
});
t.teardown(() => p.stop());

let streamNo = 0;
const newStream = (config?: unknown): Promise<StreamInfo> => createStream(p, `elastic-${++streamNo}`, config);

type Via = KeyVia;
interface Answer {
  status: number;
  headers: Headers;
  body: any;
}
async function bulk(
  key: string | undefined,
  body: string | Uint8Array,
  options: { via?: Via; path?: string; type?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const { via = 'query', path = `${ELASTIC}/_bulk`, type = 'application/x-ndjson' } = options;
  const sent = sendKey(key, via);
  const headers: Record<string, string> = { 'content-type': type, ...options.headers, ...sent.headers };
  const query = sent.query;
  const response = await fetch(p.base + path + query, { method: 'POST', headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const ndjson = (...values: unknown[]): string => `${values.map((v) => JSON.stringify(v)).join('\n')}\n`;

const events = (streamId: number) => storedEvents(p.platform, streamId);
const rowCount = (streamId: number) => storedRowCount(p.platform, streamId);
const payloads = async (streamId: number): Promise<unknown[]> => (await events(streamId)).map((r) => JSON.parse(r.payload));

/** ClickHouse's DateTime64(3) text of an epoch-ms value. */
const chTime = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
const tick = (): number => (clock += 1000);

t.test('a Fluent Bit bulk body: each index document is stored once, dated by its @timestamp', async (t) => {
  const s = await newStream();
  const at = tick();
  const docs = [
    { '@timestamp': '2026-11-21T09:00:00.000Z', log: 'first line', kubernetes: { pod_name: 'web-1' } },
    { '@timestamp': '2026-11-21T09:00:01.250Z', log: 'second line', kubernetes: { pod_name: 'web-1' } },
    { '@timestamp': '2026-11-21T11:00:02.000+02:00', log: 'third line', kubernetes: { pod_name: 'web-2' } },
  ];
  const body = ndjson(...docs.flatMap((d) => [{ index: { _index: 'fluent-bit', _type: '_doc' } }, d]));
  const answer = await bulk(s.key, body);
  t.equal(answer.status, 200);
  t.equal(answer.body.errors, false);
  t.type(answer.body.took, 'number');
  t.equal(answer.body.items.length, 3, 'one item per action');
  for (const item of answer.body.items) {
    t.strictSame(Object.keys(item), ['index']);
    t.equal(item.index.status, 201);
    t.equal(item.index.result, 'created');
    t.equal(item.index._index, 'fluent-bit');
    t.match(item.index._id, /^[0-9a-f]{20}$/, 'a generated id');
  }
  t.equal(new Set(answer.body.items.map((i: any) => i.index._id)).size, 3, 'distinct generated ids');

  t.equal(await rowCount(s.id), 3, 'three physical rows');
  const rows = await events(s.id);
  t.strictSame(
    rows.map((r) => r.ts),
    ['2026-11-21 09:00:00.000', '2026-11-21 09:00:01.250', '2026-11-21 09:00:02.000'],
    'event dates are the @timestamps (the offset applied)',
  );
  t.strictSame(
    rows.map((r) => JSON.parse(r.payload)),
    docs,
    'each document stored as sent',
  );
  for (const r of rows) t.equal(r.received_at, chTime(at));
});

t.test('create stores its document and update stores its doc, the ids echoed', async (t) => {
  const s = await newStream();
  const body = ndjson(
    { create: { _index: 'logs-app-default', _id: 'c-1' } },
    { '@timestamp': '2026-11-20T08:00:00Z', message: 'created' },
    { update: { _index: 'logs-app-default', _id: 42 } },
    { doc: { '@timestamp': '2026-11-20T08:00:01Z', message: 'updated' }, doc_as_upsert: true },
  );
  const answer = await bulk(s.key, body);
  t.equal(answer.status, 200);
  t.equal(answer.body.errors, false);
  t.strictSame(answer.body.items, [
    { create: { _index: 'logs-app-default', _id: 'c-1', status: 201, result: 'created' } },
    { update: { _index: 'logs-app-default', _id: '42', status: 200, result: 'updated' } },
  ]);
  t.equal(await rowCount(s.id), 2);
  t.strictSame(await payloads(s.id), [
    { '@timestamp': '2026-11-20T08:00:00Z', message: 'created' },
    { '@timestamp': '2026-11-20T08:00:01Z', message: 'updated' },
  ]);
});

t.test('delete stores nothing but gets its item, in order among the others', async (t) => {
  const s = await newStream();
  const body = ndjson({ delete: { _index: 'old', _id: 'gone-1' } }, { index: {} }, { n: 1 }, { delete: { _id: 'gone-2' } });
  const answer = await bulk(s.key, body);
  t.equal(answer.status, 200);
  t.equal(answer.body.errors, false);
  t.same(
    answer.body.items.map((i: any) => Object.keys(i)[0]),
    ['delete', 'index', 'delete'],
  );
  t.strictSame(answer.body.items[0], { delete: { _index: 'old', _id: 'gone-1', status: 200, result: 'noop' } });
  t.equal(answer.body.items[2].delete._id, 'gone-2');
  t.equal(await rowCount(s.id), 1, 'only the indexed document');

  const onlyDeletes = await bulk(s.key, ndjson({ delete: { _id: 'x' } }));
  t.equal(onlyDeletes.status, 200);
  t.equal(onlyDeletes.body.items.length, 1);
  t.equal(await rowCount(s.id), 1, 'a body of deletes stores nothing');
});

t.test('the :index path takes the same body; the index name is only echoed', async (t) => {
  const s = await newStream();
  const body = ndjson({ index: {} }, { n: 1 }, { index: { _index: 'named-in-action' } }, { n: 2 });
  const answer = await bulk(s.key, body, { path: `${ELASTIC}/vector-2026.11.21/_bulk` });
  t.equal(answer.status, 200);
  t.equal(answer.body.items[0].index._index, 'vector-2026.11.21', 'the path names the default index');
  t.equal(answer.body.items[1].index._index, 'named-in-action', "the action's index wins, as in Elasticsearch");
  t.equal(await rowCount(s.id), 2);
  t.strictSame(await payloads(s.id), [{ n: 1 }, { n: 2 }], 'stored on the stream of the key whatever the index');
});

t.test('a bad document among good ones: its item is 400 and it alone is not stored', async (t) => {
  const s = await newStream();
  const body = ndjson(
    { index: { _id: 'good-1' } },
    { n: 1 },
    { index: { _id: 'not-object' } },
    'just a string',
    { create: { _id: 'bad-date' } },
    { '@timestamp': '21.11.2026 10:00', n: 3 },
    { index: { _id: 'array' } },
    [1, 2],
    { update: { _id: 'script' } },
    { script: { source: 'ctx._source.n += 1' } },
    { index: { _id: 'good-2' } },
    { n: 2 },
  );
  const answer = await bulk(s.key, body);
  t.equal(answer.status, 200, 'the request succeeds; items carry the failures');
  t.equal(answer.body.errors, true);
  const byId = Object.fromEntries(answer.body.items.map((i: any) => Object.values(i)[0]).map((i: any) => [i._id, i]));
  t.equal(byId['good-1'].status, 201);
  t.equal(byId['good-2'].status, 201);
  for (const id of ['not-object', 'bad-date', 'array', 'script']) {
    t.equal(byId[id].status, 400, id);
    t.equal(byId[id].error.type, 'mapper_parsing_exception', id);
    t.notOk(byId[id].result, `${id} has no result`);
  }
  t.match(byId['bad-date'].error.reason, /@timestamp/);
  t.match(byId['script'].error.reason, /no doc object/);
  t.equal(await rowCount(s.id), 2, 'only the two good documents');
  t.strictSame(await payloads(s.id), [{ n: 1 }, { n: 2 }]);
});

t.test('@timestamp out of 1900–2299 or malformed: a 400 item saying which, the message stream-data gives (issue #37)', async (t) => {
  const s = await newStream();
  const body = ndjson(
    { create: { _id: 'year-2400' } },
    { '@timestamp': '2400-01-01T00:00:00Z', n: 1 },
    { index: { _id: 'malformed' } },
    { '@timestamp': '21.11.2026 10:00', n: 2 },
    { index: { _id: 'good' } },
    { '@timestamp': '2026-11-21T10:00:00Z', n: 3 },
  );
  const answer = await bulk(s.key, body);
  t.equal(answer.status, 200);
  t.equal(answer.body.errors, true);
  const [year2400, malformed, good] = answer.body.items.map((i: any) => Object.values(i)[0]);
  t.strictSame(year2400.error, {
    type: 'mapper_parsing_exception',
    reason: '@timestamp is outside the years 1900 to 2299 (UTC) that event dates can take: "2400-01-01T00:00:00Z"',
  });
  t.strictSame(malformed.error, {
    type: 'mapper_parsing_exception',
    reason: '@timestamp is not an ISO 8601 date-time with a time zone (e.g. 2026-11-21T10:00:00Z): "21.11.2026 10:00"',
  });
  t.equal(year2400.status, 400);
  t.equal(malformed.status, 400);
  t.equal(good.status, 201);
  t.strictSame(await payloads(s.id), [{ '@timestamp': '2026-11-21T10:00:00Z', n: 3 }], 'only the good document is stored');
});

t.test('a body that is not bulk NDJSON is refused whole (400 naming the line) and stores nothing', async (t) => {
  const s = await newStream();
  const cases: Array<[string, RegExp]> = [
    [`${ndjson({ index: {} }, { n: 1 }, { index: {} })}{"n": broken\n`, /^Line 4 is not valid JSON/],
    ['not json at all\n', /^Line 1 is not valid JSON/],
    [ndjson({ index: {} }, { n: 1 }, { index: {} }), /^Line 3: the index action has no document line/],
    [ndjson({ index: {} }, { n: 1 }, { upsert: {} }, { n: 2 }), /^Line 3 is not a bulk action/],
    [ndjson({ index: {}, create: {} }, { n: 1 }), /^Line 1 is not a bulk action/],
    [ndjson({ n: 1 }), /^Line 1 is not a bulk action/],
    ['\n\n', /no bulk action/],
  ];
  for (const [body, reason] of cases) {
    const answer = await bulk(s.key, body);
    t.equal(answer.status, 400, JSON.stringify(body));
    t.equal(answer.headers.get('content-type'), 'application/problem+json');
    t.match(answer.body.detail, reason);
    t.equal(answer.headers.get('x-elastic-product'), 'Elasticsearch', 'the product header on errors too');
  }
  t.equal(await rowCount(s.id), 0, 'not even the good documents before the bad line');
});

t.test('the key is taken from the query, the x-smon-stream-key header or the Basic password', async (t) => {
  const s = await newStream();
  for (const via of ['query', 'header', 'basic'] as const) {
    const answer = await bulk(s.key, ndjson({ index: {} }, { via }), { via });
    t.equal(answer.status, 200, via);
  }
  t.equal(await rowCount(s.id), 3);
  t.strictSame(await payloads(s.id), [{ via: 'basic' }, { via: 'header' }, { via: 'query' }]);
});

t.test('a missing, unknown, inactive or pending-deletion key is 422 as on stream-data, and stores nothing', async (t) => {
  const inactive = await newStream();
  const pending = await newStream();
  t.equal((await p.api('POST', `/api/admin/v1/streams/${inactive.id}/deactivate`)).status, 200);
  t.equal((await p.api('POST', `/api/admin/v1/streams/${pending.id}/mark-for-deletion`)).status, 200);
  const body = ndjson({ index: {} }, { n: 1 });

  const missing = await bulk(undefined, body);
  t.equal(missing.status, 422);
  t.match(missing.body.detail, /stream key is missing: send the streamKey query parameter, the x-smon-stream-key header or the password of HTTP Basic authentication/);
  t.equal(missing.headers.get('x-elastic-product'), 'Elasticsearch');
  const noPassword = await bulk(undefined, body, { headers: { authorization: `Basic ${Buffer.from('user-only').toString('base64')}` } });
  t.equal(noPassword.status, 422, 'Basic credentials without a password');

  for (const via of ['query', 'header', 'basic'] as const) {
    const unknown = await bulk('no-such-key', body, { via });
    t.equal(unknown.status, 422, `unknown key (${via})`);
    t.match(unknown.body.detail, /not declared/);
    t.match((await bulk(inactive.key, body, { via })).body.detail, /not active/, `inactive (${via})`);
    t.match((await bulk(pending.key, body, { via })).body.detail, /pending deletion/, `pending deletion (${via})`);
  }
  t.equal(await rowCount(inactive.id), 0);
  t.equal(await rowCount(pending.id), 0);
});

t.test('GET /elastic (with or without the slash) answers the root document and X-Elastic-Product', async (t) => {
  for (const path of [ELASTIC, `${ELASTIC}/`]) {
    const response = await fetch(p.base + path);
    t.equal(response.status, 200, path);
    t.equal(response.headers.get('x-elastic-product'), 'Elasticsearch', path);
    t.equal(response.headers.get('content-type'), 'application/json');
    const root = await response.json();
    t.strictSame(root, {
      name: 'ops-platform',
      cluster_name: 'ops-platform',
      version: { number: '8.11.0', build_flavor: 'default', minimum_wire_compatibility_version: '7.17.0', minimum_index_compatibility_version: '7.0.0' },
      tagline: 'You Know, for Search',
    });
  }
});

t.test("HEAD /elastic (Logstash's health check) answers 200 with the product header and no body", async (t) => {
  const response = await fetch(`${p.base}${ELASTIC}/`, { method: 'HEAD' });
  t.equal(response.status, 200);
  t.equal(response.headers.get('x-elastic-product'), 'Elasticsearch');
  t.equal(await response.text(), '');
});

t.test('a 200 bulk answer carries X-Elastic-Product too', async (t) => {
  const s = await newStream();
  const answer = await bulk(s.key, ndjson({ index: {} }, { n: 1 }));
  t.equal(answer.status, 200);
  t.equal(answer.headers.get('x-elastic-product'), 'Elasticsearch');
});

t.test('Filebeat and Logstash bodies (application/json; charset=UTF-8, gzip) are read as bulk NDJSON', async (t) => {
  const s = await newStream();
  const body = ndjson({ create: { _index: 'filebeat-8.11.0' } }, { '@timestamp': '2026-11-21T08:00:00.000Z', message: 'beat' });
  const plain = await bulk(s.key, body, { type: 'application/json; charset=UTF-8', via: 'basic' });
  t.equal(plain.status, 200);
  t.equal(plain.body.items[0].create.status, 201);
  const zipped = await bulk(s.key, gzipSync(body), { type: 'application/json; charset=UTF-8', headers: { 'content-encoding': 'gzip' } });
  t.equal(zipped.status, 200, 'gzip, as Filebeat sends by default');
  t.equal(await rowCount(s.id), 2);
  t.strictSame(await payloads(s.id), [
    { '@timestamp': '2026-11-21T08:00:00.000Z', message: 'beat' },
    { '@timestamp': '2026-11-21T08:00:00.000Z', message: 'beat' },
  ]);
  const other = await bulk(s.key, body, { type: 'text/plain' });
  t.equal(other.status, 415, 'other content types are refused');
  t.equal(await rowCount(s.id), 2);
});

t.test('the OpenAPI document lists the Elasticsearch paths with the Basic stream-key scheme', async (t) => {
  const doc = (await p.api('GET', '/api/openapi.json', { token: null })).body;
  for (const path of [`${ELASTIC}/_bulk`, `${ELASTIC}/{index}/_bulk`]) {
    const operation = doc.paths[path]?.post;
    t.ok(operation, path);
    t.strictSame(operation.security, [{ streamKeyQuery: [] }, { streamKeyHeader: [] }, { streamKeyBasic: [] }], path);
    t.ok(operation.requestBody.content['application/x-ndjson'], `${path} takes NDJSON`);
    t.ok(operation.requestBody.content['application/json'], `${path} takes JSON`);
    t.match(operation.summary, /index name is (ignored|not used)|no index name is used/);
  }
  t.ok(doc.paths[ELASTIC]?.get, 'the root document');
  t.match(doc.components.securitySchemes.streamKeyBasic, {
    type: 'http',
    scheme: 'basic',
    description: /stream key as the password of HTTP Basic authentication; the user name is ignored/,
  });
});
