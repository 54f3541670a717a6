/**
 * The API part: the public CI, maintenance and SLA APIs and the admin API, the console's session
 * endpoint and its files (DESIGN §11). It also makes sure an empty installation has its bootstrap
 * admin (DESIGN §2).
 */

import { bootstrapCommand } from '../control-plane/identity/bootstrap.command.js';
import { newTokenSecret } from '../control-plane/identity/tokens.js';
import type { Part, PlatformContext } from '../part.js';
import type { Route } from '../runtime/http/route.js';
import { ciTypeIconRoutes } from './admin/ci-type-icons.routes.js';
import { notificationDeliveryRoutes } from './admin/notification-deliveries.routes.js';
import { notificationPolicyRoutes } from './admin/notification-policies.routes.js';
import { notificationReceiverRoutes } from './admin/notification-receivers.routes.js';
import { referenceRoutes } from './admin/reference.routes.js';
import { slaTemplateAdminRoutes } from './admin/sla-templates.routes.js';
import { streamRoutes } from './admin/streams.routes.js';
import { triggerDryRunRoutes } from './admin/trigger-dry-run.routes.js';
import { triggerRoutes } from './admin/triggers.routes.js';
import { userRoutes } from './admin/users.routes.js';
import { workGroupRoutes } from './admin/work-groups.routes.js';
import type { ApiDeps } from './api-deps.js';
import { createAuthenticator } from './auth.js';
import { loadConsole } from './console/console-files.js';
import { consoleRoutes } from './console/console.routes.js';
import { sessionRoutes } from './console/session.routes.js';
import { createSessions } from './sessions.js';
import { configItemRoutes } from './cmdb/config-items.routes.js';
import { publicReferenceRoutes } from './cmdb/reference.routes.js';
import { treeRoutes } from './cmdb/tree.routes.js';
import { calendarRoutes } from './maintenance/calendar.routes.js';
import { maintenanceRoutes } from './maintenance/maintenance.routes.js';
import { maintenanceWindowsRoutes } from './maintenance/maintenance-windows.routes.js';
import { HITS_STREAM } from '../runtime/bus-streams.js';
import { createProblemFeed, type ProblemFeed } from './problems/problem-feed.js';
import { DEFAULT_STREAM_OPTIONS, type ProblemStreamOptions, problemStreamRoutes } from './problems/problem-stream.routes.js';
import { problemRoutes } from './problems/problems.routes.js';
import { type ActionSender, createActionSender } from './problems/send-actions.js';
import { withCatchUp } from './read-after-write.js';
import { createLiveSla, type LiveSla } from '../live-sla/live-sla.js';
import { slaReportRoutes } from './sla/sla-reports.routes.js';
import { slaTemplateLiveRoutes } from './sla/sla-template-live.routes.js';
import { slaTemplateRoutes } from './sla/sla-templates.routes.js';
import type { TailTiming } from './streams/event-tail.js';
import { streamActivityRoutes } from './streams/stream-activity.routes.js';
import { streamReadRoutes } from './streams/streams-read.routes.js';
import { streamEventRoutes } from './streams/stream-events.routes.js';
import { createTokenUsage } from './token-usage.js';
import { DIST_DIR } from '../console/build.js';
import { openSessionStore } from '../runtime/engines.js';
import { createAddressPolicy } from '../runtime/outbound/address-policy.js';
import { checkUrl, type ResolveHost } from '../runtime/outbound/outbound-client.js';

async function bootstrap(ctx: PlatformContext): Promise<void> {
  const outcome = await ctx.controlPlane.execute(bootstrapCommand({ adminToken: ctx.config.adminToken, generatedToken: newTokenSecret(), now: new Date(ctx.now()).toISOString() }));
  if (outcome.createdAdmin) ctx.logger.info({ user: outcome.createdAdmin }, 'bootstrap admin created');
  if (outcome.generatedToken) {
    // Printed once, outside the structured log lines, for the operator to copy.
    process.stdout.write(`\n  Bootstrap admin token (shown once; store it now):\n\n    ${outcome.generatedToken}\n\n  Set OPS_ADMIN_TOKEN to choose the admin token yourself.\n\n`);
  }
}

export function apiRoutes(deps: ApiDeps, hooks: ApiHooks = {}): Route[] {
  return [
    ...userRoutes(deps),
    ...workGroupRoutes(deps),
    ...referenceRoutes(deps),
    ...ciTypeIconRoutes(deps),
    ...streamRoutes(deps),
    ...streamEventRoutes(deps, hooks.eventTail),
    ...streamActivityRoutes(deps),
    ...streamReadRoutes(deps),
    ...triggerDryRunRoutes(deps),
    ...triggerRoutes(deps),
    ...publicReferenceRoutes(deps),
    ...configItemRoutes(deps),
    ...treeRoutes(deps),
    ...maintenanceRoutes(deps),
    ...maintenanceWindowsRoutes(deps),
    ...calendarRoutes(deps),
    ...slaTemplateAdminRoutes(deps),
    ...slaTemplateRoutes(deps),
    ...slaTemplateLiveRoutes(deps),
    ...slaReportRoutes(deps),
    ...notificationReceiverRoutes(deps),
    ...notificationDeliveryRoutes(deps),
    ...notificationPolicyRoutes(deps),
    // The live stream before the problem by id: `/problems/stream` is not an id.
    ...problemStreamRoutes(deps, { ...DEFAULT_STREAM_OPTIONS, ...hooks.problemStream }),
    ...problemRoutes(deps, hooks.problemActions?.bulkLimit),
    ...sessionRoutes(deps),
  ];
}

export interface ApiHooks {
  /** Hands over the live SLA index once it is loaded (tests read changes when they choose). */
  liveSla?: (live: LiveSla) => void;
  /** The live event tail's polling and keep-alive (tests tail faster than once a second). */
  eventTail?: Partial<TailTiming>;
  /** Hands over the problem feed once it is started, and the sender of actions. */
  problems?: (problems: { feed: ProblemFeed; actions: ActionSender }) => void;
  /** The problem stream's keep-alive and slow-client bound (tests use small ones). */
  problemStream?: Partial<ProblemStreamOptions>;
  /** How long an action waits for the problem stage, and the bulk acknowledgement's bound (tests use small ones). */
  problemActions?: { waitMs?: number; bulkLimit?: number };
  /** Serves the console from this directory as it is, never building it (tests serve a build of their own). */
  consoleDir?: string;
  /** Resolves the hosts of notification receivers' URLs when they are saved (tests answer without DNS). */
  resolveHost?: ResolveHost;
}

export function createApiPart(hooks: ApiHooks = {}): Part {
  return {
    name: 'api',
    async start(ctx) {
      await bootstrap(ctx);
      const now = ctx.now;
      const usage = createTokenUsage({ controlPlane: ctx.controlPlane, logger: ctx.logger, now });
      ctx.lifecycle.onStop('token usage', () => usage.stop());
      const store = await openSessionStore(ctx.config, { logger: ctx.logger, now });
      ctx.lifecycle.onStop('session store', () => store.close());
      const sessions = createSessions(ctx.config.sessions, { store, now, logger: ctx.logger });
      ctx.lifecycle.onStop('console sessions', () => sessions.stop());
      const auth = createAuthenticator({ model: ctx.controlPlane.model, now, noteUse: (id) => usage.note(id), sessions });
      const liveSla = createLiveSla({ analytics: ctx.engines.analytics, model: ctx.controlPlane.model, metrics: ctx.metrics, logger: ctx.logger, now });
      liveSla.start();
      ctx.lifecycle.onStop('live SLA', () => liveSla.stop());
      hooks.liveSla?.(liveSla);
      const { bus, analytics } = ctx.engines;
      // Actions travel on the hits' subjects, to the keys' owners.
      await bus.ensureStream(HITS_STREAM);
      const feed = createProblemFeed({ bus, analytics, logger: ctx.logger, now });
      await feed.start();
      ctx.lifecycle.onStop('problem feed', () => feed.stop());
      const waitMs = hooks.problemActions?.waitMs;
      const actions = createActionSender({ bus, feed, partitions: ctx.config.problemPartitions, now, ...(waitMs === undefined ? {} : { waitMs }) });
      const problems = { feed, actions };
      hooks.problems?.(problems);
      const outbound = createAddressPolicy(ctx.config.notifyAllowNetworks);
      const checkReceiverUrl = (url: string) => checkUrl(url, outbound, hooks.resolveHost ? { resolveHost: hooks.resolveHost } : {});
      const consoleFiles = await loadConsole({ dir: hooks.consoleDir ?? DIST_DIR, build: hooks.consoleDir === undefined, logger: ctx.logger });
      return [
        ...apiRoutes({ controlPlane: ctx.controlPlane, auth, now, analytics, bus, logger: ctx.logger, liveSla, problems, sessions, checkReceiverUrl }, hooks).map((route) =>
          withCatchUp(route, ctx.controlPlane.catchUp),
        ),
        ...consoleRoutes(consoleFiles),
      ];
    },
  };
}

export const apiPart: Part = createApiPart();
