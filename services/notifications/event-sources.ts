/**
 * The dispatcher's event sources besides the problem feed (issue #31), asked at each routing tick
 * (route-step.ts `sources`) with what they saw last, kept in the routing state:
 * - maintenance windows (maintenance-source.ts ▸ maintenance-transitions.ts): `maintenance.started`
 *   and `maintenance.ended`, which are also what tells routing which CIs are covered;
 * - SLA budgets burning (sla-burn-source.ts ▸ sla-burn.ts): `sla.budget_burning`, read from a live
 *   SLA started only once an enabled policy would send that kind.
 *
 * The first tick ever (nothing seen yet) takes the windows active then as already started: they
 * are routed silently, to cover their CIs, rather than announced as if they had begun now.
 */
import { type MaintenanceSeen, maintenanceTransitions } from '../../pipelines/notifications/maintenance-transitions.js';
import type { PolicyRule } from '../../pipelines/notifications/policy-match.js';
import { type BurningSeen, burnTransitions } from '../../pipelines/notifications/sla-burn.js';
import type { NotificationEvent } from '../../schemas/notification-events.schema.js';
import type { PlatformContext } from '../part.js';
import { activeWindows } from './maintenance-source.js';
import type { SourceOutcome } from './route-step.js';
import { type BurnSource, createBurnSource } from './sla-burn-source.js';

interface SourcesSeen {
  maintenance?: MaintenanceSeen;
  burning?: BurningSeen;
}

export interface EventSources {
  /** What changed since `seen` (null: nothing), for route-step.ts. */
  tell(seen: Record<string, unknown>, now: number): SourceOutcome | null;
  stop(): Promise<void>;
}

const sendsBurn = (policies: readonly PolicyRule[]): boolean => policies.some((p) => p.kinds.length === 0 || p.kinds.includes('sla.budget_burning'));

/** What the sources read: the model, the analytics store (SLA burn), metrics, a logger and a clock. */
export type EventSourcesDeps = Pick<PlatformContext, 'controlPlane' | 'metrics' | 'logger' | 'now'> & { engines: Pick<PlatformContext['engines'], 'analytics'> };

export function createEventSources(ctx: EventSourcesDeps, policies: () => readonly PolicyRule[]): EventSources {
  let burn: BurnSource | undefined;
  return {
    tell(seenRecord, now) {
      const seen = seenRecord as SourcesSeen;
      const model = ctx.controlPlane.model;
      const events: NotificationEvent[] = [];
      const next: SourcesSeen = { ...seen };
      const maintenance = maintenanceTransitions(seen.maintenance ?? {}, activeWindows(model, now), now);
      const first = seen.maintenance === undefined;
      if (maintenance.seen !== seen.maintenance) next.maintenance = maintenance.seen;
      events.push(...maintenance.events);

      if (!burn && sendsBurn(policies())) burn = createBurnSource({ analytics: ctx.engines.analytics, model, metrics: ctx.metrics, logger: ctx.logger, now: ctx.now });
      const readings = burn?.readings(now) ?? null;
      if (readings) {
        const burning = burnTransitions(seen.burning ?? {}, readings, now);
        if (burning.seen !== seen.burning) next.burning = burning.seen;
        events.push(...burning.events);
      }
      if (next.maintenance === seen.maintenance && next.burning === seen.burning) return null;
      return { events, seen: next as Record<string, unknown>, silent: first };
    },
    async stop() {
      await burn?.stop();
    },
  };
}
