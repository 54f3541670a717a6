/**
 * The API part: the public CI, maintenance and SLA APIs and the admin API. It also makes sure
 * an empty installation has its bootstrap admin (DESIGN §2).
 */

import { bootstrapCommand } from '../control-plane/identity/bootstrap.command.js';
import { newTokenSecret } from '../control-plane/identity/tokens.js';
import type { Part, PlatformContext } from '../platform.js';
import type { Route } from '../runtime/http/route.js';
import { referenceRoutes } from './admin/reference.routes.js';
import { slaTemplateAdminRoutes } from './admin/sla-templates.routes.js';
import { streamRoutes } from './admin/streams.routes.js';
import { triggerRoutes } from './admin/triggers.routes.js';
import { userRoutes } from './admin/users.routes.js';
import { workGroupRoutes } from './admin/work-groups.routes.js';
import type { ApiDeps } from './api-deps.js';
import { createAuthenticator } from './auth.js';
import { configItemRoutes } from './cmdb/config-items.routes.js';
import { publicReferenceRoutes } from './cmdb/reference.routes.js';
import { calendarRoutes } from './maintenance/calendar.routes.js';
import { maintenanceRoutes } from './maintenance/maintenance.routes.js';
import { withCatchUp } from './read-after-write.js';
import { createLiveSla, type LiveSla } from './sla/live-sla.js';
import { slaReportRoutes } from './sla/sla-reports.routes.js';
import { slaTemplateRoutes } from './sla/sla-templates.routes.js';
import { createTokenUsage } from './token-usage.js';

async function bootstrap(ctx: PlatformContext): Promise<void> {
  const outcome = await ctx.controlPlane.execute(bootstrapCommand({ adminToken: ctx.config.adminToken, generatedToken: newTokenSecret(), now: new Date(ctx.now()).toISOString() }));
  if (outcome.createdAdmin) ctx.logger.info({ user: outcome.createdAdmin }, 'bootstrap admin created');
  if (outcome.generatedToken) {
    // Printed once, outside the structured log lines, for the operator to copy.
    process.stdout.write(`\n  Bootstrap admin token (shown once; store it now):\n\n    ${outcome.generatedToken}\n\n  Set OPS_ADMIN_TOKEN to choose the admin token yourself.\n\n`);
  }
}

export function apiRoutes(deps: ApiDeps): Route[] {
  return [
    ...userRoutes(deps),
    ...workGroupRoutes(deps),
    ...referenceRoutes(deps),
    ...streamRoutes(deps),
    ...triggerRoutes(deps),
    ...publicReferenceRoutes(deps),
    ...configItemRoutes(deps),
    ...maintenanceRoutes(deps),
    ...calendarRoutes(deps),
    ...slaTemplateAdminRoutes(deps),
    ...slaTemplateRoutes(deps),
    ...slaReportRoutes(deps),
  ];
}

export interface ApiHooks {
  /** Hands over the live SLA index once it is loaded (tests read changes when they choose). */
  liveSla?: (live: LiveSla) => void;
}

export function createApiPart(hooks: ApiHooks = {}): Part {
  return {
    name: 'api',
    async start(ctx) {
      await bootstrap(ctx);
      const now = ctx.now;
      const usage = createTokenUsage({ controlPlane: ctx.controlPlane, logger: ctx.logger, now });
      ctx.lifecycle.onStop('token usage', () => usage.stop());
      const auth = createAuthenticator({ model: ctx.controlPlane.model, now, noteUse: (id) => usage.note(id) });
      const liveSla = createLiveSla({ analytics: ctx.engines.analytics, model: ctx.controlPlane.model, metrics: ctx.metrics, logger: ctx.logger, now });
      liveSla.start();
      ctx.lifecycle.onStop('live SLA', () => liveSla.stop());
      hooks.liveSla?.(liveSla);
      return apiRoutes({ controlPlane: ctx.controlPlane, auth, now, analytics: ctx.engines.analytics, bus: ctx.engines.bus, logger: ctx.logger, liveSla }).map((route) =>
        withCatchUp(route, ctx.controlPlane.catchUp),
      );
    },
  };
}

export const apiPart: Part = createApiPart();
