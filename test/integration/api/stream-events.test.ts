/**
 * Issue #30 acceptance, on the embedded platform: a stream's events and dead letters read by page
 * (`GET …/streams/{id}/events`, `…/dead-letters`) and tailed live (`…/events/stream`, Server-Sent
 * Events). One test per rule and per error code. Records go in through stream-data and are read
 * once the pipeline has stored them (ingestSettled); the tail polls every 50 ms here, and its
 * tests wait for what they expect to arrive, never for a fixed time.
 */
import type { Test } from 'tap';
import t from 'tap';
import { createApiPart } from '../../../services/api/api.part.js';
import { eventually } from '../../support/bus-recorder.js';
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { ingestSettled } from '../../support/settled.js';
import { createStream, type StreamInfo } from '../../support/streams.js';

const STREAMS = '/api/public/cl/v1/streams';
const FROM = '2026-11-01T00:00:00.000Z';
const TO = '2026-12-01T00:00:00.000Z';
const BASE = Date.parse('2026-11-21T10:00:00.000Z');
const KEEP_ALIVE_MS = 300;

let p: TestPlatform;
t.before(async () => {
  p = await startTestPlatform({ replace: [createApiPart({ eventTail: { pollMs: 50, keepAliveMs: KEEP_ALIVE_MS } })] });
});
t.teardown(() => p.stop());

let streamNo = 0;
const stream = (config?: unknown): Promise<StreamInfo> => createStream(p, `events-${++streamNo}`, config);

/** Posts records as NDJSON (one request: one receipt date) and waits until they are stored. */
async function post(s: StreamInfo, records: unknown[]): Promise<void> {
  const answer = await p.api('POST', `/api/public/cl/v1/stream-data?streamKey=${encodeURIComponent(s.key)}`, {
    body: records.map((r) => JSON.stringify(r)).join('\n'),
    headers: { 'content-type': 'application/x-ndjson' },
    token: null,
  });
  if (answer.status !== 200) throw new Error(`post: ${answer.status} ${answer.text}`);
  await ingestSettled(p.platform);
}

const at = (minutes: number): string => new Date(BASE + minutes * 60_000).toISOString();

function query(params: Record<string, string | number | string[] | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, String(one));
  }
  return search.toString();
}

const events = (s: { id: number }, params: Record<string, string | number | string[] | undefined> = {}, token?: string) =>
  p.api('GET', `${STREAMS}/${s.id}/events?${query({ from: FROM, to: TO, ...params })}`, token ? { token } : {});
/** An hour either side of now: records without @timestamp are dated at receipt, and dead letters by it. */
const aroundNow = (): { from: string; to: string } => ({ from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 3_600_000).toISOString() });
const deadLetters = (s: { id: number }, params: Record<string, string | number | undefined> = {}, token?: string) =>
  p.api('GET', `${STREAMS}/${s.id}/dead-letters?${query({ ...aroundNow(), ...params })}`, token ? { token } : {});

/** The records of a page, as sent. */
const records = (answer: { body: any }): any[] => answer.body.items.map((item: any) => item.record);
/** Every item of every page, following nextCursor. */
async function walk(s: { id: number }, limit: number, between?: (page: number) => Promise<void>): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const answer = await events(s, { limit, cursor });
    if (answer.status !== 200) throw new Error(`page ${page}: ${answer.status} ${answer.text}`);
    items.push(...answer.body.items);
    if (answer.body.nextCursor === null) return items;
    cursor = answer.body.nextCursor;
    await between?.(page);
  }
  throw new Error('more than 100 pages');
}

/** A user with these roles and a token. */
async function user(roles: string[]): Promise<string> {
  const created = await p.api('POST', '/api/admin/v1/users', { json: { name: `reader-${++streamNo}`, roles } });
  if (created.status !== 201) throw new Error(created.text);
  return (await p.api('POST', `/api/admin/v1/users/${created.body.id}/tokens`, { json: {} })).body.token;
}

const isProblem = (t: Test, answer: { status: number; body: any }, status: number, code: string, detail?: RegExp): void => {
  t.equal(answer.status, status, `status ${status}`);
  t.equal(answer.body?.code, code, `code ${code}`);
  if (detail) t.match(answer.body?.detail, detail);
};

// ---------------------------------------------------------------------------------------------
// The page: items, order, filters, route
// ---------------------------------------------------------------------------------------------

const FILTERED = [
  { '@timestamp': at(1), host: 'a', code: 500, labels: { env: 'prod' }, msg: 'disk full on /var' },
  { '@timestamp': at(2), host: 'b', code: 200, labels: { env: 'dev' }, msg: 'all good' },
  { '@timestamp': at(3), host: 'c', code: '500', msg: 'disk ok' },
  { '@timestamp': at(4), other: 1 },
];
let filtered: StreamInfo;
const hostsOf = (answer: { body: any }): unknown[] => records(answer).map((r) => r.host ?? null);

t.test('an item is the event row: id, streamId, ts, receivedAt, route, labels, and the record parsed', async (t) => {
  const s = await stream({ preprocessor: { labels: { team: 'net' } }, routeLabel: 'syslog' });
  const before = Date.now();
  await post(s, [{ '@timestamp': at(0), host: 'core-router', nested: { up: false, n: [1, 2] } }]);
  const answer = await events(s);
  t.equal(answer.status, 200);
  t.equal(answer.body.items.length, 1);
  const [item] = answer.body.items;
  t.match(item.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  t.equal(item.streamId, s.id);
  t.equal(item.ts, at(0));
  t.ok(Date.parse(item.receivedAt) >= before - 1000 && Date.parse(item.receivedAt) <= Date.now(), 'receivedAt: when it was posted');
  t.equal(item.route, 'syslog');
  t.same(item.labels, { team: 'net' });
  t.same(item.record, { '@timestamp': at(0), host: 'core-router', nested: { up: false, n: [1, 2] } });
  t.equal(answer.body.nextCursor, null, 'one page: no cursor');
});

t.test('filter field=value keeps the records whose field has that text (a string as itself, a number as its JSON)', async (t) => {
  filtered = await stream();
  await post(filtered, FILTERED);
  t.same(hostsOf(await events(filtered, { filter: 'host=a' })), ['a']);
  t.same(hostsOf(await events(filtered, { filter: 'code=500' })), ['c', 'a'], 'the number 500 and the string "500"');
  t.same(hostsOf(await events(filtered, { filter: 'host=' })), [null], 'the empty value matches a missing field');
});

t.test('filter field!=value keeps the records whose field differs, missing fields included', async (t) => {
  t.same(hostsOf(await events(filtered, { filter: 'host!=a' })), [null, 'c', 'b']);
});

t.test('filter field~substring keeps the records whose field contains it (case-sensitive)', async (t) => {
  t.same(hostsOf(await events(filtered, { filter: 'msg~disk' })), ['c', 'a']);
  t.same(hostsOf(await events(filtered, { filter: 'msg~DISK' })), []);
});

t.test('a filter field is a dotted path into the record (labels.env)', async (t) => {
  t.same(hostsOf(await events(filtered, { filter: 'labels.env=prod' })), ['a']);
  t.same(hostsOf(await events(filtered, { filter: 'labels.env!=prod' })), [null, 'c', 'b']);
});

t.test('several filters must all hold', async (t) => {
  t.same(hostsOf(await events(filtered, { filter: ['msg~disk', 'labels.env=prod'] })), ['a']);
  t.same(hostsOf(await events(filtered, { filter: ['host=a', 'labels.env=dev'] })), []);
});

t.test('filter values are data: quotes and SQL in a value match literally and fail nothing', async (t) => {
  for (const value of ["a' OR 1=1 --", 'a\\', "')) OR ((1=1", '{x:String}']) {
    const answer = await events(filtered, { filter: `host=${value}` });
    t.equal(answer.status, 200, value);
    t.same(answer.body.items, [], value);
  }
  const odd = await stream();
  await post(odd, [{ "it's": { 'a b': "x'y" } }]);
  t.equal((await events(odd, { filter: "it's.a b=x'y" })).body.items.length, 1, 'quotes and spaces in the path and the value');
});

t.test('route keeps the records of that route label only (exact)', async (t) => {
  const s = await stream({ routeLabel: 'first' });
  await post(s, [{ '@timestamp': at(1), n: 1 }]);
  t.equal((await p.api('PATCH', `/api/admin/v1/streams/${s.id}`, { json: { config: { routeLabel: 'second' } } })).status, 200);
  await post(s, [{ '@timestamp': at(2), n: 2 }]);
  t.same(records(await events(s, { route: 'first' })), [{ '@timestamp': at(1), n: 1 }]);
  t.same(records(await events(s, { route: 'second' })), [{ '@timestamp': at(2), n: 2 }]);
  t.same(records(await events(s, { route: 'sec' })), []);
  t.same(records(await events(s, { route: 'second', filter: 'n=1' })), [], 'route and filters together');
});

t.test('newest first: by event date, then by id', async (t) => {
  const s = await stream();
  await post(
    s,
    [at(5), at(1), at(3)].map((ts, i) => ({ '@timestamp': ts, i })),
  );
  await post(
    s,
    Array.from({ length: 5 }, (_, i) => ({ '@timestamp': at(2), same: i })),
  );
  const items = (await events(s)).body.items;
  t.same(
    items.map((item: any) => item.ts),
    [at(5), at(3), at(2), at(2), at(2), at(2), at(2), at(1)],
  );
  const sameDate = items.filter((item: any) => item.ts === at(2)).map((item: any) => item.id);
  t.same(sameDate, [...sameDate].sort().reverse(), 'one date: ids descending');
});

// ---------------------------------------------------------------------------------------------
// Paging
// ---------------------------------------------------------------------------------------------

t.test('cursor paging: every record once, in order, across pages of `limit` items', async (t) => {
  const s = await stream();
  await post(
    s,
    Array.from({ length: 23 }, (_, i) => ({ '@timestamp': at(i % 9), i })),
  );
  const all = (await events(s, { limit: 1000 })).body.items;
  t.equal(all.length, 23);
  for (const size of [1, 5, 22, 23]) {
    t.same(
      (await walk(s, size)).map((item) => item.id),
      all.map((item: any) => item.id),
      `limit ${size}: the pages together are the one long page`,
    );
  }
});

t.test('cursor paging while records arrive: none of those already there is lost or repeated', async (t) => {
  const s = await stream();
  await post(
    s,
    Array.from({ length: 30 }, (_, i) => ({ '@timestamp': at(10 + (i % 12)), i })),
  );
  const before = new Set((await events(s, { limit: 1000 })).body.items.map((item: any) => item.id));
  const items = await walk(s, 4, async (page) => {
    // Newer than every page (before the cursor) and older than every record (after it).
    await post(s, [
      { '@timestamp': at(30), late: page },
      { '@timestamp': at(0), early: page },
    ]);
  });
  const ids = items.map((item) => item.id);
  t.equal(new Set(ids).size, ids.length, 'no item repeated');
  t.same(
    [...before].filter((id) => !ids.includes(id)),
    [],
    'every record there before the walk is in it',
  );
  t.ok(
    items.some((item) => item.record.early !== undefined),
    'records arriving behind the cursor are in the later pages',
  );
  const keys = items.map((item) => `${item.ts} ${item.id}`);
  t.same(keys, [...keys].sort().reverse(), 'the walk is newest first throughout');
});

t.test('from is inclusive and to exclusive', async (t) => {
  const s = await stream();
  await post(
    s,
    [at(0), at(1), at(2)].map((ts) => ({ '@timestamp': ts })),
  );
  const answer = await events(s, { from: at(0), to: at(2) });
  t.same(
    answer.body.items.map((item: any) => item.ts),
    [at(1), at(0)],
  );
  t.same((await events(s, { from: at(2), to: at(3) })).body.items.length, 1);
});

t.test('400 stream_read.range_reversed when from is not before to', async (t) => {
  isProblem(t, await events(filtered, { from: at(1), to: at(1) }), 400, 'stream_read.range_reversed');
  isProblem(t, await events(filtered, { from: at(2), to: at(1) }), 400, 'stream_read.range_reversed', /must be before/);
});

t.test('400 stream_read.range_too_long when from and to are more than 31 days apart', async (t) => {
  isProblem(t, await events(filtered, { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00.001Z' }), 400, 'stream_read.range_too_long', /31 days/);
  t.equal((await events(filtered, { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' })).status, 200, 'exactly 31 days');
  isProblem(t, await deadLetters(filtered, { from: '2026-01-01T00:00:00Z', to: '2026-03-01T00:00:00Z' }), 400, 'stream_read.range_too_long');
});

t.test('400 http.query_invalid when from or to is missing or not an ISO 8601 date-time', async (t) => {
  for (const bad of [{ from: undefined }, { to: undefined }, { from: '2026-11-01' }, { to: 'yesterday' }, { from: '2026-02-30T00:00:00Z' }, { to: '2026-11-02T00:00:00' }]) {
    const answer = await events(filtered, bad);
    isProblem(t, answer, 400, 'http.query_invalid');
    t.match(answer.body.errors?.[0]?.path, /^\/(from|to)$/, JSON.stringify(bad));
  }
  t.equal((await events(filtered, { from: '2026-11-21T11:00:00+01:00', to: '2026-11-21T12:00:00.5+01:00' })).status, 200, 'offsets are taken');
});

t.test('limit: 100 by default, 1 to 1000, integers only', async (t) => {
  const s = await stream();
  await post(
    s,
    Array.from({ length: 101 }, (_, i) => ({ '@timestamp': at(0), i })),
  );
  const first = await events(s);
  t.equal(first.body.items.length, 100, 'default 100');
  t.type(first.body.nextCursor, 'string');
  t.equal((await events(s, { limit: 1 })).body.items.length, 1);
  t.equal((await events(s, { limit: 1000 })).body.items.length, 101);
  for (const bad of ['0', '1001', '1.5', '-1', 'ten', '1e2', '']) {
    const answer = await events(s, { limit: bad });
    isProblem(t, answer, 400, 'http.query_invalid');
    t.equal(answer.body.errors?.[0]?.path, '/limit', `limit=${bad}`);
  }
});

t.test('400 stream_read.cursor_invalid for a cursor this API did not give', async (t) => {
  const forged = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  for (const cursor of [
    'not a cursor',
    'abc',
    forged({ ts: 'yesterday', id: '00000000-0000-0000-0000-000000000000' }),
    forged({ ts: at(0) }),
    forged([1, 2]),
    forged({ ts: at(0), id: "x' OR 1=1" }),
  ]) {
    isProblem(t, await events(filtered, { cursor }), 400, 'stream_read.cursor_invalid');
  }
  isProblem(t, await deadLetters(filtered, { cursor: 'abc' }), 400, 'stream_read.cursor_invalid');
});

t.test('400 stream_read.filter_invalid for a malformed filter, naming it and why', async (t) => {
  for (const [filter, why] of [
    ['host', /expected field=value/],
    ['=a', /field before the operator is missing/],
    ['a..b=1', /empty part/],
    ['a~', /needs a substring/],
  ] as const) {
    isProblem(t, await events(filtered, { filter }), 400, 'stream_read.filter_invalid', why);
  }
  isProblem(t, await p.api('GET', `${STREAMS}/${filtered.id}/events/stream?filter=nope`), 400, 'stream_read.filter_invalid');
});

t.test('400 stream_read.filters_too_many over 10 filters', async (t) => {
  const ten = Array.from({ length: 10 }, (_, i) => `f${i}!=x`);
  t.equal((await events(filtered, { filter: ten })).status, 200, 'ten are taken');
  isProblem(t, await events(filtered, { filter: [...ten, 'host=a'] }), 400, 'stream_read.filters_too_many', /11 filters given; at most 10/);
});

// ---------------------------------------------------------------------------------------------
// Who, and which stream
// ---------------------------------------------------------------------------------------------

t.test('404 stream.not_found for a stream that does not exist, on every route', async (t) => {
  for (const path of ['events', 'dead-letters', 'events/stream']) {
    isProblem(t, await p.api('GET', `${STREAMS}/99999/${path}?from=${FROM}&to=${TO}`), 404, 'stream.not_found', /Stream 99999 not found/);
  }
  isProblem(t, await p.api('GET', `${STREAMS}/abc/events?from=${FROM}&to=${TO}`), 400, 'http.parameter_invalid');
});

t.test('403 auth.right_missing without base-system.streams.read; the stream-reader role reads', async (t) => {
  const nobody = await user([]);
  isProblem(t, await events(filtered, {}, nobody), 403, 'auth.right_missing', /base-system\.streams\.read/);
  isProblem(t, await deadLetters(filtered, {}, nobody), 403, 'auth.right_missing');
  isProblem(t, await p.api('GET', `${STREAMS}/${filtered.id}/events/stream`, { token: nobody }), 403, 'auth.right_missing');
  isProblem(t, await events(filtered, {}, await user(['sla-reader'])), 403, 'auth.right_missing', /base-system\.streams\.read/);
  const reader = await user(['stream-reader']);
  const answer = await events(filtered, {}, reader);
  t.equal(answer.status, 200);
  t.equal(answer.body.items.length, FILTERED.length);
  t.equal((await deadLetters(filtered, {}, reader)).status, 200);
  const roles = await p.api('GET', '/api/admin/v1/roles');
  t.same(roles.body.find((role: any) => role.name === 'stream-reader')?.rights, ['base-system.streams.read']);
  t.ok(roles.body.find((role: any) => role.name === 'admin')?.rights.includes('base-system.streams.read'), 'admins hold it too');
});

// ---------------------------------------------------------------------------------------------
// Dead letters
// ---------------------------------------------------------------------------------------------

t.test('dead letters: the reason and the payload as received, newest first, paged by cursor', async (t) => {
  const s = await stream({ parser: { type: 'text', pattern: '^(?<level>[A-Z]+) (?<msg>.*)$' } });
  const sent: string[] = [];
  for (let i = 0; i < 3; i++) {
    const text = `lowercase line ${i}`;
    const answer = await p.api('POST', `/api/public/cl/v1/stream-data?streamKey=${s.key}`, { body: text, headers: { 'content-type': 'text/plain' }, token: null });
    t.equal(answer.status, 200);
    sent.push(text);
    await ingestSettled(p.platform);
  }
  await p.api('POST', `/api/public/cl/v1/stream-data?streamKey=${s.key}`, { body: 'WARN parsed fine', headers: { 'content-type': 'text/plain' }, token: null });
  await ingestSettled(p.platform);
  const first = await deadLetters(s, { limit: 2 });
  t.equal(first.status, 200);
  t.equal(first.body.items.length, 2);
  const [item] = first.body.items;
  t.same(Object.keys(item).sort(), ['id', 'payload', 'reason', 'receivedAt', 'streamId']);
  t.equal(item.streamId, s.id);
  t.match(item.reason, /does not match the stream's pattern/);
  const second = await deadLetters(s, { limit: 2, cursor: first.body.nextCursor });
  t.equal(second.body.nextCursor, null);
  const all = [...first.body.items, ...second.body.items];
  t.same(
    all.map((d: any) => d.payload),
    [...sent].reverse(),
    'newest first, each once, the text as received',
  );
  const dates = all.map((d: any) => d.receivedAt);
  t.same(dates, [...dates].sort().reverse());
  t.equal((await events(s, aroundNow())).body.items.length, 1, 'the record that parsed is an event, not a dead letter');
  t.same((await deadLetters(s, { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' })).body.items, [], 'by receipt date');
});

// ---------------------------------------------------------------------------------------------
// The live tail (Server-Sent Events)
// ---------------------------------------------------------------------------------------------

interface SseMessage {
  event?: string;
  id?: string;
  data?: string;
  comment?: string;
  retry?: string;
}

interface Tail {
  response: Response;
  messages: SseMessage[];
  /** Records received so far (parsed data of `record` events). */
  records(): any[];
  until(what: string, check: () => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves once the body has ended (done, or the connection closed). */
  ended: Promise<'done' | 'error'>;
  close(): void;
}

function parseBlock(block: string): SseMessage {
  const message: SseMessage = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) message.comment = line.slice(1).trim();
    else {
      const colon = line.indexOf(':');
      const field = line.slice(0, colon) as keyof SseMessage;
      const value = line.slice(colon + 1).replace(/^ /, '');
      message[field] = message[field] === undefined ? value : `${message[field]}\n${value}`;
    }
  }
  return message;
}

async function openTail(s: { id: number }, params: Record<string, string | string[]> = {}): Promise<Tail> {
  const controller = new AbortController();
  const response = await fetch(`${p.base}${STREAMS}/${s.id}/events/stream?${query(params)}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, signal: controller.signal });
  const messages: SseMessage[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const ended = (async (): Promise<'done' | 'error'> => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 'done';
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          messages.push(parseBlock(buffer.slice(0, end)));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      return 'error';
    }
  })();
  const tail: Tail = {
    response,
    messages,
    records: () => messages.filter((m) => m.event === 'record').map((m) => JSON.parse(m.data!)),
    until: (what, check, timeoutMs = 15_000) => eventually(what, async () => check(), timeoutMs),
    ended,
    close: () => controller.abort(),
  };
  await tail.until('the first message (retry)', () => messages.length > 0);
  return tail;
}

t.test('tail: an event stream, not cached, that opens with its retry delay', async (t) => {
  const s = await stream();
  const tail = await openTail(s);
  t.teardown(() => tail.close());
  t.equal(tail.response.status, 200);
  t.equal(tail.response.headers.get('content-type'), 'text/event-stream');
  t.equal(tail.response.headers.get('cache-control'), 'no-cache');
  t.same(tail.messages[0], { retry: '3000' });
});

t.test('tail: new records arrive as `record` events whose id is the event id and data the item the pages show', async (t) => {
  const s = await stream({ routeLabel: 'live' });
  const tail = await openTail(s);
  t.teardown(() => tail.close());
  await post(s, [{ n: 1 }, { n: 2 }]);
  await tail.until('two records', () => tail.records().length === 2);
  await post(s, [{ n: 3 }]);
  await tail.until('the third record', () => tail.records().length === 3);
  t.same(
    tail
      .records()
      .map((r) => r.record.n)
      .sort(),
    [1, 2, 3],
    'each once',
  );
  t.equal(tail.records()[2].record.n, 3, 'in the order they came');
  const page = (await events(s, aroundNow())).body.items;
  for (const message of tail.messages.filter((m) => m.event === 'record')) {
    const item = JSON.parse(message.data!);
    t.equal(message.id, item.id);
    t.same(
      item,
      page.find((shown: any) => shown.id === item.id),
      `record ${item.record.n} as the page shows it`,
    );
  }
});

t.test('tail: filters and route apply to what it sends', async (t) => {
  const s = await stream({ routeLabel: 'r1' });
  const tail = await openTail(s, { filter: ['host=a', 'labels.env~pro'], route: 'r1' });
  t.teardown(() => tail.close());
  const other = await openTail(s, { route: 'r2' });
  t.teardown(() => other.close());
  await post(s, [
    { host: 'b', labels: { env: 'prod' } },
    { host: 'a', labels: { env: 'dev' } },
  ]);
  await post(s, [{ host: 'a', labels: { env: 'prod' }, last: true }]);
  await tail.until('the matching record', () => tail.records().length > 0);
  // The ones that do not match were stored before it: had they been sent, they would be here first.
  t.same(
    tail.records().map((r) => r.record),
    [{ host: 'a', labels: { env: 'prod' }, last: true }],
  );
  t.same(other.records(), [], 'another route: nothing');
});

t.test('tail: over 100 new records a second, 100 of them are sent, announced by a `sampled` event', async (t) => {
  const s = await stream();
  const tail = await openTail(s);
  t.teardown(() => tail.close());
  const posted = Array.from({ length: 300 }, (_, i) => ({ i }));
  await post(s, posted);
  await tail.until('a sampled event and its records', () => tail.messages.some((m) => m.event === 'sampled') && tail.records().length === 100);
  const sampled = tail.messages.filter((m) => m.event === 'sampled');
  t.equal(sampled.length, 1);
  t.same(JSON.parse(sampled[0]!.data!), { rate: 0.3333, seen: 300, sent: 100 });
  const index = tail.messages.indexOf(sampled[0]!);
  t.equal(tail.messages.slice(index + 1).filter((m) => m.event === 'record').length, 100, 'the sample follows its announcement');
  const sent = tail.records().map((r) => r.record.i);
  t.equal(new Set(sent).size, 100, 'distinct records');
  t.ok(
    sent.every((i) => i >= 0 && i < 300),
    'of those posted',
  );
  // The second's budget is spent: a record arriving now waits for the next second, and is sent then.
  await post(s, [{ after: true }]);
  await tail.until('the record posted after the sample', () => tail.records().some((r) => r.record.after === true));
  t.equal(tail.messages.filter((m) => m.event === 'sampled').length, 1, 'not sampled: one record is within the next second’s budget');
});

t.test('tail: a `: keep-alive` comment after a quiet spell', async (t) => {
  const s = await stream();
  const tail = await openTail(s);
  t.teardown(() => tail.close());
  await tail.until('a keep-alive comment', () => tail.messages.some((m) => m.comment === 'keep-alive'));
  t.same(
    tail.messages.filter((m) => m.comment !== undefined).map((m) => m.comment),
    tail.messages.filter((m) => m.comment !== undefined).map(() => 'keep-alive'),
  );
});

t.test('tail: when the client goes away the tail ends and stops polling', async (t) => {
  const s = await stream();
  const tail = await openTail(s);
  const ended = (): number => p.logs.filter((line) => line.includes('"msg":"live tail ended"') && line.includes(`"streamId":${s.id},`)).length;
  t.equal(ended(), 0);
  tail.close();
  t.equal(await tail.ended, 'error', 'the client aborted');
  await eventually('the tail to end on the server', async () => ended() === 1);
  await eventually('no request left in flight', async () => p.platform.http.inFlight() === 0);
});

// Last: it stops the platform (one chDB data directory per process, so not another platform).
t.test('tail: stopping the platform ends the tail cleanly and does not wait for it', async (t) => {
  const s = await stream();
  const tail = await openTail(s);
  await p.stop();
  t.equal(await tail.ended, 'done', 'the answer ends');
  t.notOk(
    p.logs.some((line) => line.includes('requests still in flight at shutdown')),
    'the stop did not wait out the tail',
  );
  t.ok(
    p.logs.some((line) => line.includes('"msg":"live tail ended"') && line.includes(`"streamId":${s.id},`)),
    'the tail ended',
  );
});
