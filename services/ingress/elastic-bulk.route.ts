/**
 * An Elasticsearch `_bulk` receiver, so Fluent Bit (es), Vector (elasticsearch), Filebeat and
 * Logstash (elasticsearch output) and syslog-ng (elasticsearch-http) ship to a stream with no
 * proxy. The stream is the one the key opens (stream-key.ts); index names are ignored.
 *
 * The body is NDJSON pairs: an action line, `{"index"|"create": {...}}` followed by the document,
 * `{"update": {...}}` followed by `{"doc": {...}}` (the doc is the record), or `{"delete": {...}}`
 * alone (stores nothing: events are append-only). The answer has Elasticsearch's shape, one item
 * per action in order, because shippers read it to decide what to retry: a document that is not
 * an object, or whose `@timestamp` is not an ISO 8601 date-time (it would set a wrong event date),
 * is not stored and gets a 400 item, as Elasticsearch answers a mapping failure; the others are
 * stored. A body that is not bulk NDJSON at all (a line that does not parse, an action without its
 * document) is refused whole with 400 naming the line. Like stream-data, the answer waits until
 * the bus holds the records; 503 with Retry-After when it cannot take them.
 *
 * Shippers probe `GET /elastic` for a version and check the `X-Elastic-Product` header (Vector,
 * Filebeat, Logstash), so every answer of these routes carries it. (A gzip body, Filebeat's
 * default, is decoded by the HTTP layer before the route sees it.)
 */
import { randomBytes } from 'node:crypto';
import Type, { type Static } from 'typebox';
import { isIsoDateTime } from '../../pipelines/records/timestamps.js';
import { problems } from '../api/route-kit.js';
import type { StreamRecord } from '../control-plane/streams/streams.slice.js';
import { AppError, fail } from '../runtime/errors.js';
import { json, type Reply, type Request, type Route } from '../runtime/http/route.js';
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

export interface BulkItem {
  _index: string;
  _id: string;
  status: number;
  result?: 'created' | 'updated' | 'noop';
  error?: { type: 'mapper_parsing_exception'; reason: string };
}

export type BulkParse = { ok: true; records: string[]; items: Array<Partial<Record<Action, BulkItem>>>; errors: boolean } | { ok: false; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The record a document line holds for its action, or why it cannot be stored. */
function storable(action: Action, document: unknown): { record: Record<string, unknown> } | { reason: string } {
  const record = action === 'update' && isObject(document) ? document['doc'] : document;
  if (!isObject(record))
    return { reason: action === 'update' ? 'the update has no doc object (scripts and upserts alone are not supported)' : 'the document is not a JSON object' };
  const ts = record['@timestamp'];
  if (ts !== undefined && !isIsoDateTime(ts)) return { reason: `failed to parse field [@timestamp]: ${JSON.stringify(ts).slice(0, 80)} is not an ISO 8601 date-time` };
  return { record };
}

/**
 * Reads a bulk body: the records to store (JSON texts, one line each) and the item answering each
 * action, in order. Pure; `newId` names documents whose action gives no `_id`.
 */
export function parseBulk(body: string, defaultIndex: string, newId: () => string): BulkParse {
  const lines = body.split('\n');
  const records: string[] = [];
  const items: Array<Partial<Record<Action, BulkItem>>> = [];
  let anyError = false;
  const parse = (n: number): { value: unknown } | { reason: string } => {
    try {
      return { value: JSON.parse(lines[n]!) };
    } catch (error) {
      return { reason: `Line ${n + 1} is not valid JSON (${(error as Error).message})` };
    }
  };
  const nextLine = (from: number): number => {
    let n = from;
    while (n < lines.length && lines[n]!.trim() === '') n += 1;
    return n;
  };

  for (let n = nextLine(0); n < lines.length; n = nextLine(n + 1)) {
    const parsed = parse(n);
    if ('reason' in parsed) return { ok: false, reason: parsed.reason };
    const keys = isObject(parsed.value) ? Object.keys(parsed.value) : [];
    const action = keys[0] as Action;
    const meta = keys.length === 1 && ACTIONS.has(action) ? (parsed.value as Record<string, unknown>)[action] : undefined;
    if (!isObject(meta)) return { ok: false, reason: `Line ${n + 1} is not a bulk action: expected {"index"|"create"|"update"|"delete": {...}}` };
    const item: BulkItem = {
      _index: typeof meta['_index'] === 'string' ? meta['_index'] : defaultIndex,
      _id: typeof meta['_id'] === 'string' || typeof meta['_id'] === 'number' ? String(meta['_id']) : newId(),
      status: 200,
    };
    items.push({ [action]: item });
    if (action === 'delete') {
      item.result = 'noop';
      continue;
    }
    const actionLine = n + 1;
    n = nextLine(n + 1);
    if (n >= lines.length) return { ok: false, reason: `Line ${actionLine}: the ${action} action has no document line` };
    const document = parse(n);
    if ('reason' in document) return { ok: false, reason: document.reason };
    const checked = storable(action, document.value);
    if ('reason' in checked) {
      anyError = true;
      item.status = 400;
      item.error = { type: 'mapper_parsing_exception', reason: checked.reason };
      continue;
    }
    records.push(JSON.stringify(checked.record));
    if (action === 'update') item.result = 'updated';
    else {
      item.status = 201;
      item.result = 'created';
    }
  }
  if (items.length === 0) return { ok: false, reason: 'The body holds no bulk action' };
  return { ok: true, records, items, errors: anyError };
}

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

export function elasticRoutes(deps: ReceiverDeps): Route[] {
  const authenticate = authenticateStreamKey(deps.streams);
  const newId = (): string => randomBytes(10).toString('hex');

  async function bulk(request: Request): Promise<Reply> {
    const started = performance.now();
    const receivedAt = deps.now();
    const parsed = parseBulk(request.rawBody.toString('utf8'), request.params['index'] ?? DEFAULT_INDEX, newId);
    if (!parsed.ok) throw fail('ingest.body_unreadable', { reason: parsed.reason });
    if (parsed.records.length > 0) await handOver(deps, (request.auth as StreamRecord).id, receivedAt, 'json', parsed.records, 'document');
    return json(200, { took: Math.round(performance.now() - started), errors: parsed.errors, items: parsed.items }, PRODUCT_HEADER);
  }

  const bulkRoute = (path: string, name: string, summary: string): Route => ({
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
        authenticate(request);
      } catch (error) {
        throw withProductHeader(error);
      }
    },
    handler: (request) => bulk(request).catch((error: unknown) => Promise.reject(withProductHeader(error))),
  });

  const rootRoute = (path: string, name: string): Route => ({
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
