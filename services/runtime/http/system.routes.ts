/**
 * `/healthz` (the process is alive), `/readyz` (every engine answers and can write), `/metrics`
 * (Prometheus text) and `/api/openapi.json`: served by every process (DESIGN §10). An engine that
 * answers but cannot write, its store full, is named not ready with the reason
 * (runtime/storage-health.ts): the last outcome of its writes and the data directory's free space.
 */
import Type from 'typebox';
import { HealthSchema, ReadinessSchema } from '../../../schemas/system.schema.js';
import type { DiskWatch } from '../disk-watch.js';
import type { Metrics } from './metrics.js';
import { buildOpenApi } from './openapi.js';
import { defineRoute, json, type Route } from './route.js';

export interface Pingable {
  readonly kind: string;
  ping(): Promise<void>;
}

const PING_TIMEOUT_MS = 2000;

async function probe(engine: Pingable): Promise<{ ok: boolean; kind: string; error?: string }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([engine.ping(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS)))]);
    return { ok: true, kind: engine.kind };
  } catch (error) {
    return { ok: false, kind: engine.kind, error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

export interface SystemRoutesDeps {
  engines: Record<string, Pingable>;
  /** Which engines cannot write now (absent: none is ever said to). */
  storage?: { unwritable(): Partial<Record<string, string>> };
  disk?: DiskWatch | undefined;
  metrics: Metrics;
  routes: () => readonly Route[];
  version: string;
}

export function systemRoutes(deps: SystemRoutesDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/healthz',
      name: 'system.health',
      summary: 'Liveness: the process is up',
      tags: ['system'],
      schema: { responses: { 200: { description: 'Alive', schema: HealthSchema } } },
      handler: () => json(200, { status: 'ok' }),
    }),
    defineRoute({
      method: 'GET',
      path: '/readyz',
      name: 'system.ready',
      summary: 'Readiness: every engine this process uses answers and can write',
      tags: ['system'],
      schema: {
        responses: {
          200: { description: 'All engines reachable', schema: ReadinessSchema },
          503: { description: 'An engine is unreachable, or cannot write (its disk is full)', schema: ReadinessSchema },
        },
      },
      handler: async () => {
        const names = Object.keys(deps.engines);
        const unwritable = deps.storage?.unwritable() ?? {};
        const results = await Promise.all(
          names.map(async (n) => {
            const result = await probe(deps.engines[n]!);
            const full = unwritable[n];
            return result.ok && full !== undefined ? { ok: false, kind: result.kind, error: `cannot write: ${full}` } : result;
          }),
        );
        const engines = Object.fromEntries(names.map((n, i) => [n, results[i]!]));
        const ready = results.every((r) => r.ok);
        const space = deps.disk?.space();
        const disk = space && deps.disk ? { freeBytes: space.free, minFreeBytes: deps.disk.minFree(), ingestion: deps.disk.ingestRefusal() ? 'paused' : 'accepting' } : undefined;
        return json(ready ? 200 : 503, { status: ready ? 'ready' : 'not-ready', engines, ...(disk ? { disk } : {}) });
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/metrics',
      name: 'system.metrics',
      summary: 'Prometheus metrics of this process',
      tags: ['system'],
      schema: { responses: { 200: { description: 'Prometheus text exposition', contentType: 'text/plain', schema: Type.String() } } },
      handler: async () => ({
        status: 200,
        headers: { 'content-type': deps.metrics.registry.contentType },
        body: await deps.metrics.text(),
      }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/openapi.json',
      name: 'system.openapi',
      summary: 'This OpenAPI document',
      tags: ['system'],
      schema: { responses: { 200: { description: 'OpenAPI 3.1 document', schema: Type.Object({}, { additionalProperties: true }) } } },
      handler: () => json(200, buildOpenApi(deps.routes(), { title: 'Operations platform API', version: deps.version })),
    }),
  ];
}
