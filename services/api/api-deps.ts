import type { ControlPlane } from '../control-plane/control-plane.js';
import type { PlatformModel } from '../control-plane/model.js';
import type { AnalyticsStore } from '../runtime/adapters/analytics/analytics.port.js';
import type { Bus } from '../runtime/adapters/bus/bus.port.js';
import type { AppError } from '../../schemas/errors.js';
import type { Logger } from '../runtime/logger.js';
import type { Authenticator } from './auth.js';
import type { Sessions } from './sessions.js';
import type { ProblemFeed } from './problems/problem-feed.js';
import type { ActionSender } from './problems/send-actions.js';
import type { LiveSla } from '../live-sla/live-sla.js';

/** What route builders of the API need. */
export interface ApiDeps {
  controlPlane: ControlPlane<PlatformModel>;
  auth: Authenticator;
  /** Milliseconds since the epoch; injected so tests control time. */
  now: () => number;
  /** SLA results (exports) live here. */
  analytics: AnalyticsStore;
  /** SLA jobs are queued here. */
  bus: Bus;
  logger: Logger;
  /** The live SLA figures of every CI (includeSla). */
  liveSla: LiveSla;
  /** The problem change feed as this process reads it, and the way to act on problems. */
  problems: { feed: ProblemFeed; actions: ActionSender };
  /** The console's sessions (the session endpoint; auth.ts reads them for the cookie). */
  sessions: Sessions;
  /**
   * The outbound address rules (SSRF guard, OPS_NOTIFY_ALLOW_NETWORKS) on a URL a notification
   * receiver is saved with: undefined when it may be used, else the error naming the rule.
   */
  checkReceiverUrl: (url: string) => Promise<AppError | undefined>;
}

export const isoNow = (deps: ApiDeps): string => new Date(deps.now()).toISOString();
export const ADMIN = 'base-system.admin';
export const ADMIN_PREFIX = '/api/admin/v1';
