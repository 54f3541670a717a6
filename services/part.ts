/**
 * What a part of the platform is and what it is given (the API, the ingress, the event worker,
 * the SLA worker, the notification dispatcher). The parts import this; the composition root
 * (platform.ts) is handed the list of parts (parts.ts) and builds the context.
 */
import type { ControlPlane } from './control-plane/control-plane.js';
import type { PlatformModel } from './control-plane/model.js';
import type { Config } from './runtime/config.js';
import type { DiskWatch } from './runtime/disk-watch.js';
import type { Engines } from './runtime/engines.js';
import type { Metrics } from './runtime/http/metrics.js';
import type { Route } from './runtime/http/route.js';
import type { Lifecycle } from './runtime/lifecycle.js';
import type { Logger } from './runtime/logger.js';

export type PartName = 'api' | 'ingress' | 'event-worker' | 'sla-worker' | 'notifications';

export interface PlatformContext {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  engines: Engines;
  controlPlane: ControlPlane<PlatformModel>;
  lifecycle: Lifecycle;
  /** Milliseconds since the epoch; injected so tests control time. */
  now: () => number;
  /** The data directory's free space; absent when no embedded engine keeps its data there. */
  disk: DiskWatch | undefined;
}

/** A piece of the platform that can run in any process. */
export interface Part {
  name: PartName;
  /** Starts background work (consumers...), registers how to stop it, and returns its routes. */
  start(ctx: PlatformContext): Promise<Route[]>;
}
