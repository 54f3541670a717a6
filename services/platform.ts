/**
 * The composition root: one process from the parts it is handed (parts.ts names them), over the
 * engines the configuration names. `npm start` runs every part in one process; each
 * `services/<part>/main.ts` runs one (run-service.ts). Integration tests start it in-process on
 * port 0.
 */
import { readFileSync } from 'node:fs';
import { systemRoutes } from './runtime/http/system.routes.js';
import { startControlPlane } from './control-plane/control-plane.js';
import { createControlModel } from './control-plane/slices.js';
import type { Part, PlatformContext } from './part.js';
import { runMigrations } from './runtime/adapters/analytics/migrations.js';
import { applyRetention } from './runtime/adapters/analytics/retention.js';
import { tableBytesRefresher } from './runtime/adapters/analytics/table-bytes.js';
import type { Config } from './runtime/config.js';
import { startDiskWatch } from './runtime/disk-watch.js';
import { NOTIFICATIONS_ROUTE_DURABLE, NOTIFICATIONS_STREAM } from './runtime/bus-streams.js';
import { guardEngines, localEngines, openEngines } from './runtime/engines.js';
import type { LogOutputStats } from './runtime/log-destination.js';
import { createStorageHealth } from './runtime/storage-health.js';
import { logOutputRefresher } from './runtime/storage-metrics.js';
import { lowerHelperThreads } from './runtime/thread-priority.js';
import { createMetrics } from './runtime/http/metrics.js';
import type { Route } from './runtime/http/route.js';
import { createHttpServer, type HttpServer } from './runtime/http/server.js';
import { createLifecycle } from './runtime/lifecycle.js';
import type { Logger } from './runtime/logger.js';

export interface Platform extends PlatformContext {
  port: number;
  http: HttpServer;
  stop(reason?: string): Promise<void>;
}

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface PlatformDeps {
  logger: Logger;
  now?: () => number;
  /** The logger's output, whose failed writes /metrics counts (log-destination.ts). */
  logOutput?: { stats(): LogOutputStats };
}

/** `parts`: in start order (parts.ts `partsNamed`); they stop in reverse. */
export async function startPlatform(config: Config, parts: readonly Part[], deps: PlatformDeps): Promise<Platform> {
  const { logger } = deps;
  const now = deps.now ?? Date.now;
  const lifecycle = createLifecycle({ logger, stepTimeoutMs: config.shutdownTimeoutMs });
  const metrics = createMetrics();
  try {
    const opened = await openEngines(config, { logger });
    // Started with the engines: their threads are what the event loop must not queue behind.
    const priority = lowerHelperThreads(config.helperThreadNiceness);
    lifecycle.onStop('thread priority', () => priority.stop());
    lifecycle.onStop('engines', async () => {
      await Promise.allSettled([opened.analytics.close(), opened.bus.close(), opened.journal.close(), opened.keyed.close()]);
    });
    // A full disk answers 503 storage.full, and ingestion pauses before it (issue #34).
    const local = localEngines(config);
    const disk = local.size > 0 ? await startDiskWatch({ dir: config.dataDir, minFree: config.minFreeDisk }, { logger, metrics: metrics.storage }) : undefined;
    if (disk) lifecycle.onStop('disk watch', () => disk.stop());
    const storage = createStorageHealth({ local, disk }, { metrics: metrics.storage });
    const engines = guardEngines(opened, config, { health: storage, disk });
    metrics.onScrape(tableBytesRefresher(engines.analytics, metrics.storage));
    if (deps.logOutput) metrics.onScrape(logOutputRefresher(deps.logOutput, metrics.storage));
    metrics.onScrape(async () => {
      const stats = await engines.bus.stats();
      for (const [stream, pending] of Object.entries(stats.pending)) metrics.busPending.set({ stream }, pending);
      for (const c of stats.consumers) metrics.busConsumerPending.set({ stream: c.stream, consumer: c.consumer }, c.pending);
      metrics.notifyBacklog.set({ stage: 'route' }, 0);
      metrics.notifyBacklog.set({ stage: 'deliver' }, 0);
      for (const c of stats.consumers.filter((c) => c.stream === NOTIFICATIONS_STREAM.name))
        metrics.notifyBacklog.inc({ stage: c.consumer === NOTIFICATIONS_ROUTE_DURABLE ? 'route' : 'deliver' }, c.pending);
      metrics.recordRedeliveries(stats.redeliveries);
    });
    const migrated = await runMigrations(engines.analytics, { logger });
    if (migrated.applied.length > 0) logger.info({ applied: migrated.applied }, 'analytics migrations applied');
    await applyRetention(engines.analytics, config.retention, { logger });

    const controlPlane = await startControlPlane(createControlModel(), { journal: engines.journal, logger });
    lifecycle.onStop('control plane', () => controlPlane.stop());

    const ctx: PlatformContext = { config, logger, metrics, engines, controlPlane, lifecycle, now, disk };
    // Consumers start before the listener so that, at stop, the listener closes and drains first
    // while the consumers still ack what the in-flight requests wait for.
    const routes: Route[] = [];
    for (const part of parts) routes.push(...(await part.start(ctx)));

    const http = createHttpServer({ host: config.host, port: config.port, maxBodyBytes: config.maxBodyBytes }, { logger, metrics });
    http.add(
      systemRoutes({
        engines: { analytics: engines.analytics, bus: engines.bus, journal: engines.journal, problemState: engines.keyed },
        storage,
        disk,
        metrics,
        routes: () => http.routes(),
        version,
      }),
    );
    http.add(routes);
    const port = await http.listen();
    lifecycle.onStop('http', async () => {
      http.stopAccepting();
      const drained = await http.drain(config.shutdownTimeoutMs);
      if (!drained) logger.warn({ inFlight: http.inFlight() }, 'requests still in flight at shutdown');
    });
    return { ...ctx, port, http, stop: (reason = 'stop requested') => lifecycle.stop(reason) };
  } catch (error) {
    await lifecycle.stop('start failed');
    throw error;
  }
}
