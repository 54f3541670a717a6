/**
 * An Elasticsearch `_bulk` receiver, so Fluent Bit (es), Vector (elasticsearch), Filebeat and
 * Logstash (elasticsearch output) and syslog-ng (elasticsearch-http) ship to a stream with no
 * proxy. The stream is the one the key opens (stream-key.ts); index names are ignored.
 *
 * The body is NDJSON pairs: an action line, `{"index"|"create": {...}}` followed by the document,
 * `{"update": {...}}` followed by `{"doc": {...}}` (the doc is the record), or `{"delete": {...}}`
 * alone (stores nothing: events are append-only). The answer has Elasticsearch's shape, one item
 * per action in order, because shippers read it to decide what to retry: a document that is not
 * an object, or whose `@timestamp` stream-data would refuse (not an ISO 8601 date-time, no such
 * day, outside 1900–2299: it would set a wrong event date; the same rule and message,
 * timestamps.ts dateTimeFault), is not stored and gets a 400 item, as Elasticsearch answers a
 * mapping failure; the others are stored. A body that is not bulk NDJSON at all (a line that
 * does not parse, an action without its document) is refused whole with 400 naming the line.
 * Like stream-data, the answer waits until the bus holds the records; 503 with Retry-After when
 * it cannot take them.
 *
 * Bounded work (DESIGN §11, issue #34): at most MAX_BULK_ACTIONS actions a body (413 past it);
 * the body is read a slice of lines at a time, yielding in between; the answer is made of one
 * text per item from templates, joined once, with no object per item; a document nested deeper
 * than 64 levels gets a 400 item like any document that cannot be stored.
 *
 * Shippers probe `GET /elastic` for a version and check the `X-Elastic-Product` header (Vector,
 * Filebeat, Logstash), so every answer of these routes carries it. (A gzip body, Filebeat's
 * default, is decoded by the HTTP layer before the route sees it.)
 */
import { randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import Type, { type Static } from 'typebox';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../../pipelines/records/json-depth.js';
import { dateTimeFault } from '../../pipelines/records/timestamps.js';
import { problems } from '../runtime/http/route-kit.js';
import type { StreamRecord } from '../control-plane/streams/streams.slice.js';
import { AppError, fail } from '../../schemas/errors.js';
import { defineRoute, json, type Reply, type Request, type Route } from '../runtime/http/route.js';
import { handOver, type ReceiverDeps } from './hand-over.js';
import { authenticateStreamKey } from './stream-key.js';

export const ELASTIC_PATH = '/api/public/cl/v1/elastic';

const PRODUCT_HEADER: Readonly<Record<string, string>> = { 'X-Elastic-Product': 'Elasticsearch' };
/** What the shippers send (Filebeat and Logstash say JSON), plus the clients' compatibility types. */
const BULK_TYPES = ['application/x-ndjson', 'application/json', 'application/vnd.elasticsearch+x-ndjson', 'application/vnd.elasticsearch+json'];
const DEFAULT_INDEX = 'default';

/** Enough of Elasticsearch's root document for the shippers' version probes. */
export const ROOT_DOCUMENT = {
  name: 'ops-platform',
  cluster_name: 'ops-platform',
  version: { number: '8.11.0', build_flavor: 'default', minimum_wire_compatibility_version: '7.17.0', minimum_index_compatibility_version: '7.0.0' },
  tagline: 'You Know, for Search',
};

type Action = 'index' | 'create' | 'update' | 'delete';
const ACTIONS: ReadonlySet<string> = new Set<Action>(['index', 'create', 'update', 'delete']);

/**
 * Actions one body may hold: more is refused whole (413 ingest.bulk_too_many_actions) before
 * anything is stored. Filebeat sends 1 600 at most by default, Logstash 125, Fluent Bit and
 * Vector what fits in a few MB; the answer to the cap is about 90 bytes an action, 4.5 MB.
 */
export const MAX_BULK_ACTIONS = 50_000;
/** Work on the body between two yields to the other requests waiting on the event loop. */
const SLICE_MS = 5;
/** Lines read between two looks at the clock. */
const LINES_PER_LOOK = 256;
/** Items written in one chunk of the answer. */
const ITEMS_PER_CHUNK = 2_000;

export interface BulkItem {
  _index: string;
  _id: string;
  status: number;
  result?: 'created' | 'updated' | 'noop';
  error?: { type: 'mapper_parsing_exception'; reason: string };
}

const ACTION_CODES: readonly Action[] = ['index', 'create', 'update', 'delete'];

/**
 * The items of a body, one row per action, without an object per action: its action as a byte,
 * and only what is not the common case kept aside by position — an `_id` or `_index` the action
 * gives, a document that cannot be stored. The answer's text is written from templates
 * (bulkAnswerChunks); a body of many small actions costs a byte each until then.
 */
export interface BulkItems {
  count: number;
  actions: Uint8Array;
  ids: Map<number, string>;
  indexes: Map<number, string>;
  errors: Map<number, string>;
}

export type BulkParse =
  | { ok: true; records: string[]; items: BulkItems; errors: boolean }
  | { ok: false; reason: string; tooManyActions?: undefined }
  | { ok: false; reason: string; tooManyActions: number };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The record a document line holds for its action, or why it cannot be stored. */
function storable(action: Action, document: unknown): { record: Record<string, unknown> } | { reason: string } {
  const record = action === 'update' && isObject(document) ? document['doc'] : document;
  if (!isObject(record))
    return { reason: action === 'update' ? 'the update has no doc object (scripts and upserts alone are not supported)' : 'the document is not a JSON object' };
  const ts = record['@timestamp'];
  const fault = ts === undefined ? undefined : dateTimeFault(ts);
  return fault === undefined ? { record } : { reason: fault };
}

/**
 * Reads a bulk body: the records to store (JSON texts, one line each) and the items answering
 * the actions, in order. A generator that yields after about SLICE_MS of work, so the route
 * serves other requests in between (DESIGN §11); parseBulk runs it to the end. A document nested
 * deeper than MAX_JSON_DEPTH is not stored (nor parsed) and gets a 400 item, as the other
 * receivers refuse it.
 */
export function* bulkSteps(body: string): Generator<void, BulkParse> {
  const records: string[] = [];
  const items: BulkItems = { count: 0, actions: new Uint8Array(1024), ids: new Map(), indexes: new Map(), errors: new Map() };
  let lineNo = 0; // of the line at `at`, from 0
  let at = 0;
  let sinceLook = 0;
  let sliceStart = performance.now();
  /** The next line that is not blank, with its number; undefined at the end. */
  const nextLine = (): { text: string; n: number } | undefined => {
    while (at <= body.length) {
      let end = body.indexOf('\n', at);
      if (end < 0) end = body.length;
      const text = body.slice(at, end);
      const n = lineNo;
      at = end + 1;
      lineNo += 1;
      sinceLook += 1;
      if (text.trim() !== '') return { text, n };
    }
    return undefined;
  };
  const parse = (line: { text: string; n: number }): { value: unknown } | { reason: string } => {
    try {
      return { value: JSON.parse(line.text) };
    } catch (error) {
      return { reason: `Line ${line.n + 1} is not valid JSON (${(error as Error).message})` };
    }
  };
  const add = (action: Action): number => {
    if (items.count === items.actions.length) {
      const grown = new Uint8Array(items.actions.length * 2);
      grown.set(items.actions);
      items.actions = grown;
    }
    items.actions[items.count] = ACTION_CODES.indexOf(action);
    return items.count++;
  };

  for (let line = nextLine(); line !== undefined; line = nextLine()) {
    if (sinceLook >= LINES_PER_LOOK) {
      sinceLook = 0;
      if (performance.now() - sliceStart > SLICE_MS) {
        yield;
        sliceStart = performance.now();
      }
    }
    if (items.count >= MAX_BULK_ACTIONS) return { ok: false, reason: `more than ${MAX_BULK_ACTIONS} actions`, tooManyActions: MAX_BULK_ACTIONS };
    if (jsonNestsDeeperThan(line.text)) return { ok: false, reason: `Line ${line.n + 1} is not a bulk action: it nests deeper than ${MAX_JSON_DEPTH} levels` };
    const parsed = parse(line);
    if ('reason' in parsed) return { ok: false, reason: parsed.reason };
    const keys = isObject(parsed.value) ? Object.keys(parsed.value) : [];
    const action = keys[0] as Action;
    const meta = keys.length === 1 && ACTIONS.has(action) ? (parsed.value as Record<string, unknown>)[action] : undefined;
    if (!isObject(meta)) return { ok: false, reason: `Line ${line.n + 1} is not a bulk action: expected {"index"|"create"|"update"|"delete": {...}}` };
    const i = add(action);
    if (typeof meta['_index'] === 'string') items.indexes.set(i, meta['_index']);
    if (typeof meta['_id'] === 'string' || typeof meta['_id'] === 'number') items.ids.set(i, String(meta['_id']));
    if (action === 'delete') continue;
    const actionLine = line.n + 1;
    const docLine = nextLine();
    if (docLine === undefined) return { ok: false, reason: `Line ${actionLine}: the ${action} action has no document line` };
    if (jsonNestsDeeperThan(docLine.text)) {
      items.errors.set(i, `the document nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`);
      continue;
    }
    const document = parse(docLine);
    if ('reason' in document) return { ok: false, reason: document.reason };
    const checked = storable(action, document.value);
    if ('reason' in checked) items.errors.set(i, checked.reason);
    else records.push(JSON.stringify(checked.record));
  }
  if (items.count === 0) return { ok: false, reason: 'The body holds no bulk action' };
  return { ok: true, records, items, errors: items.errors.size > 0 };
}

/** bulkSteps, run to the end at once (for tests and small bodies). */
export function parseBulk(body: string): BulkParse {
  const steps = bulkSteps(body);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

const STATUS_TAIL: Readonly<Record<Action, string>> = {
  index: '"status":201,"result":"created"}}',
  create: '"status":201,"result":"created"}}',
  update: '"status":200,"result":"updated"}}',
  delete: '"status":200,"result":"noop"}}',
};

/**
 * The answer's text in chunks of ITEMS_PER_CHUNK items, each item from its outcome's template
 * (`{"index":{"_index":…,"_id":…,"status":201,"result":"created"}}`); `newId(n)` names the n-th
 * action when it gives no `_id`.
 */
export function* bulkAnswerChunks(took: number, items: BulkItems, defaultIndex: string, newId: (n: number) => string): Generator<string> {
  const defaultIndexJson = JSON.stringify(defaultIndex);
  yield `{"took":${took},"errors":${items.errors.size > 0},"items":[`;
  for (let from = 0; from < items.count; from += ITEMS_PER_CHUNK) {
    let chunk = '';
    for (let i = from; i < Math.min(items.count, from + ITEMS_PER_CHUNK); i++) {
      const action = ACTION_CODES[items.actions[i]!]!;
      const index = items.indexes.get(i);
      const error = items.errors.get(i);
      chunk += `${i === 0 ? '' : ','}{"${action}":{"_index":${index === undefined ? defaultIndexJson : JSON.stringify(index)},"_id":${JSON.stringify(items.ids.get(i) ?? newId(i))},`;
      chunk += error === undefined ? STATUS_TAIL[action] : `"status":400,"error":{"type":"mapper_parsing_exception","reason":${JSON.stringify(error)}}}}`;
    }
    yield chunk;
  }
  yield ']}';
}

/** The whole answer as one text (tests and small answers). */
export const bulkAnswerText = (took: number, items: BulkItems, defaultIndex: string, newId: (n: number) => string): string =>
  [...bulkAnswerChunks(took, items, defaultIndex, newId)].join('');

/** The same error, with the product header the shippers look for. */
function withProductHeader(error: unknown): unknown {
  return error instanceof AppError ? error.withHeaders(PRODUCT_HEADER) : error;
}

const ItemSchema = Type.Object({
  _index: Type.String({ description: 'The index named by the action or the path (not used for storage)' }),
  _id: Type.String({ description: "The action's _id, or a generated one" }),
  status: Type.Integer({ description: '201 index and create; 200 update (its doc is stored as a new record) and delete (nothing stored or removed); 400 not stored' }),
  result: Type.Optional(Type.String()),
  error: Type.Optional(Type.Object({ type: Type.String(), reason: Type.String() })),
});
const BulkAnswer = Type.Object({
  took: Type.Integer({ description: 'Milliseconds spent on the request' }),
  errors: Type.Boolean({ description: 'True when an item has status 400' }),
  items: Type.Array(Type.Object({ index: Type.Optional(ItemSchema), create: Type.Optional(ItemSchema), update: Type.Optional(ItemSchema), delete: Type.Optional(ItemSchema) }), {
    description: 'One per action, in order, under the action name',
  }),
});
/** A Filebeat-style body: two documents for the `logs-billing` index, one with its own _id. */
const BULK_BODY_EXAMPLE =
  '{"index":{"_index":"logs-billing"}}\n' +
  '{"@timestamp":"2026-03-01T01:00:00.000Z","host":{"name":"billing-db"},"message":"connection refused"}\n' +
  '{"create":{"_index":"logs-billing","_id":"evt-17"}}\n' +
  '{"@timestamp":"2026-03-01T01:00:05.000Z","host":{"name":"billing-db"},"message":"retrying in 5 s"}\n';

/** The answer to BULK_BODY_EXAMPLE. */
const BULK_ANSWER_EXAMPLE = {
  took: 3,
  errors: false,
  items: [
    { index: { _index: 'logs-billing', _id: '5f0c2a9d81e4b7360a1c', status: 201, result: 'created' } },
    { create: { _index: 'logs-billing', _id: 'evt-17', status: 201, result: 'created' } },
  ],
} satisfies Static<typeof BulkAnswer>;

const RootAnswer = Type.Object({
  name: Type.String(),
  cluster_name: Type.String(),
  version: Type.Object({
    number: Type.String(),
    build_flavor: Type.String(),
    minimum_wire_compatibility_version: Type.String(),
    minimum_index_compatibility_version: Type.String(),
  }),
  tagline: Type.String(),
});

/** A request whose caller is the stream its key opened (stream-key.ts). */
type StreamRequest = Request<unknown, Readonly<Record<string, unknown>>, Record<string, string>, StreamRecord>;

export function elasticRoutes(deps: ReceiverDeps): Route[] {
  const authenticate = authenticateStreamKey(deps.streams);

  async function bulk(request: StreamRequest): Promise<Reply> {
    const started = performance.now();
    const receivedAt = deps.now();
    const steps = bulkSteps(request.rawBody.toString('utf8'));
    let step = steps.next();
    while (!step.done) {
      await nextTurn();
      step = steps.next();
    }
    const parsed = step.value;
    if (!parsed.ok && parsed.tooManyActions !== undefined) throw fail('ingest.bulk_too_many_actions', { limit: parsed.tooManyActions });
    if (!parsed.ok) throw fail('ingest.body_unreadable', { reason: parsed.reason });
    if (parsed.records.length > 0) await handOver(deps, request.auth.id, receivedAt, 'json', parsed.records, 'document');
    // Generated ids: 20 hex digits, one random prefix a body and the action's position.
    const prefix = randomBytes(6).toString('hex');
    const newId = (n: number): string => prefix + n.toString(16).padStart(8, '0');
    const chunks = bulkAnswerChunks(Math.round(performance.now() - started), parsed.items, request.params['index'] ?? DEFAULT_INDEX, newId);
    const headers = { ...PRODUCT_HEADER, 'content-type': 'application/json' };
    if (parsed.items.count <= ITEMS_PER_CHUNK) return { status: 200, headers, body: [...chunks].join('') };
    // A long answer is written a chunk at a time, each made when the socket takes the one before.
    return {
      status: 200,
      headers,
      stream: (async function* () {
        yield* chunks;
      })(),
    };
  }

  const bulkRoute = (path: string, name: string, summary: string): Route =>
    defineRoute({
      method: 'POST',
      path,
      name,
      summary,
      tags: ['stream-data'],
      security: 'streamKeyOrBasic',
      rawBody: true,
      accepts: BULK_TYPES,
      maxBodyBytes: deps.maxBodyBytes,
      schema: {
        query: Type.Object({ streamKey: Type.Optional(Type.String({ description: 'Key of the target stream, unless sent in x-smon-stream-key or as the Basic password' })) }),
        rawBodyExamples: Object.fromEntries(BULK_TYPES.map((type) => [type, BULK_BODY_EXAMPLE])),
        responses: {
          200: { description: 'Every action answered; the documents of items without an error are stored', schema: BulkAnswer, example: BULK_ANSWER_EXAMPLE },
          ...problems(400, 413, 415, 422, 503),
        },
      },
      authenticate(request) {
        try {
          return authenticate(request);
        } catch (error) {
          throw withProductHeader(error);
        }
      },
      handler: (request) => bulk(request).catch((error: unknown) => Promise.reject(withProductHeader(error))),
    });

  const rootRoute = (path: string, name: string): Route =>
    defineRoute({
      method: 'GET',
      path,
      name,
      summary: 'Elasticsearch root document, for the version probes of Elasticsearch shippers',
      tags: ['stream-data'],
      schema: { responses: { 200: { description: 'A minimal Elasticsearch 8 root document', schema: RootAnswer, example: ROOT_DOCUMENT } } },
      handler: () => json(200, ROOT_DOCUMENT, PRODUCT_HEADER),
    });

  return [
    bulkRoute(`${ELASTIC_PATH}/_bulk`, 'ingress.elasticBulk', 'Send records to a stream in the Elasticsearch _bulk shape (no index name is used)'),
    bulkRoute(`${ELASTIC_PATH}/:index/_bulk`, 'ingress.elasticIndexBulk', 'Send records to a stream in the Elasticsearch _bulk shape (the index name is ignored)'),
    rootRoute(ELASTIC_PATH, 'ingress.elasticRoot'),
    rootRoute(`${ELASTIC_PATH}/`, 'ingress.elasticRootSlash'),
  ];
}
