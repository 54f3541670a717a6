/**
 * Readings of the live SLA (issue #31) for pipelines/notifications/sla-burn.ts: for each Single
 * template with a `target` and a `burnRateAlert`, and each CI it covers that had a problem within
 * the last hour, the 1 h burn rate (services/live-sla/live-sla.ts, pipelines/sla/live-figures.ts
 * `burnRates['1h']`) against the threshold, and the budget left in the period (`remaining`).
 *
 * - The live SLA is started when readings are first asked for (the dispatcher asks only while an
 *   enabled policy lists `sla.budget_burning`): it reads 31 days of problems first, and until it
 *   has, `readings` is null. A LiveSla already running in the process may be given instead; it is
 *   then neither started nor stopped here.
 * - Only CIs with a problem open now or closed within the last hour (and 5 minutes to spare),
 *   by the control plane's problem summaries, are read: any other CI's 1 h rate is 0, so it is
 *   not burning (burnTransitions counts a pair without a reading as not burning). Of those, the
 *   `maxCis` (1000) with the latest problems; a CI's figures take a millisecond or two, so more
 *   would hold the event loop for seconds at each computation.
 * - `readings(now)` answers at once with the last computed readings, and starts computing them
 *   again in the background, in 2 ms slices between other work, when they are older than
 *   `everyMs` (10 s): a rate reaching its threshold is told within about that, plus the live
 *   SLA's second. `refresh()` reads the problems' changes and computes them now (tests).
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { BurnReading } from '../../pipelines/notifications/sla-burn.js';
import { templateCis } from '../../pipelines/sla/template-rules.js';
import type { SlaSingleTemplateModel } from '../../schemas/sla-template.schema.js';
import type { SlaTemplateRecord } from '../control-plane/sla/sla-templates.slice.js';
import type { PlatformModel } from '../control-plane/model.js';
import { createLiveSla, type LiveSla } from '../live-sla/live-sla.js';
import type { AnalyticsStore } from '../runtime/adapters/analytics/analytics.port.js';
import { AppError } from '../../schemas/errors.js';
import type { Metrics } from '../runtime/http/metrics.js';
import type { Logger } from '../runtime/logger.js';

const RECENT_MS = 65 * 60_000;
const SLICE_MS = 2;

export interface BurnSourceDeps {
  analytics: AnalyticsStore;
  model: PlatformModel;
  metrics: Metrics;
  logger: Logger;
  now: () => number;
  /** A live SLA already running in this process, read instead of starting one. */
  liveSla?: LiveSla;
  /** The age at which readings are computed again (default 10 s). */
  everyMs?: number;
  /** The most CIs read per computation (default 1000). */
  maxCis?: number;
}

export interface BurnSource {
  /** The last readings (at most `everyMs` old, computing the next when older); null while the live SLA is still loading. */
  readings(now: number): BurnReading[] | null;
  /** Reads the problems' changes and computes the readings now. */
  refresh(): Promise<void>;
  /** Stops the live SLA it started; resolves once the computation in flight is done. */
  stop(): Promise<void>;
}

type AlertingTemplate = SlaSingleTemplateModel & { target: number; burnRateAlert: number };

const alertingTemplate = (template: SlaTemplateRecord): template is AlertingTemplate =>
  template.type === 'Single' && template.target !== null && template.burnRateAlert !== undefined && template.burnRateAlert !== null;

export function createBurnSource(deps: BurnSourceDeps): BurnSource {
  const { model } = deps;
  const log = deps.logger.child({ component: 'sla-burn' });
  const everyMs = deps.everyMs ?? 10_000;
  const maxCis = deps.maxCis ?? 1000;
  let live = deps.liveSla;
  let owned: LiveSla | undefined;
  let last: { at: number; readings: BurnReading[] } | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  function liveSla(): LiveSla {
    if (!live) {
      live = owned = createLiveSla({ analytics: deps.analytics, model, metrics: deps.metrics, logger: deps.logger, now: deps.now });
      owned.start();
    }
    return live;
  }

  /** The alerting templates by the CIs they cover; derived again when templates or CIs change. */
  let coverage = { at: '', byCi: new Map<number, AlertingTemplate[]>() };
  function alerting(): Map<number, AlertingTemplate[]> {
    const at = `${model.slices.slaTemplates.changes}:${model.slices.cmdb.changes}`;
    if (coverage.at !== at) {
      const byCi = new Map<number, AlertingTemplate[]>();
      for (const template of model.slices.slaTemplates.templates.values()) {
        if (!alertingTemplate(template)) continue;
        for (const id of templateCis(model.slices.cmdb, template).keys()) {
          let list = byCi.get(id);
          if (!list) byCi.set(id, (list = []));
          list.push(template);
        }
      }
      coverage = { at, byCi };
    }
    return coverage.byCi;
  }

  /** CIs of alerting templates with a problem open or closed within RECENT_MS, the latest first, at most maxCis. */
  function candidates(byCi: Map<number, AlertingTemplate[]>, now: number): number[] {
    const recent: Array<{ ciId: number; at: number }> = [];
    for (const ciId of byCi.keys()) {
      let at = -Infinity;
      for (const key of model.slices.problems.ofCi(ciId)) at = Math.max(at, key.open ? now : key.changedAt);
      if (at >= now - RECENT_MS) recent.push({ ciId, at });
    }
    recent.sort((a, b) => b.at - a.at || a.ciId - b.ciId);
    return recent.slice(0, maxCis).map((r) => r.ciId);
  }

  async function compute(now: number): Promise<void> {
    const sla = liveSla();
    const byCi = alerting();
    const readings: BurnReading[] = [];
    let slice = performance.now();
    for (const ciId of candidates(byCi, now)) {
      let budgets;
      try {
        budgets = sla.ofCi(ciId).budgets;
      } catch (err) {
        if (err instanceof AppError && err.code === 'sla_live.loading') return;
        throw err;
      }
      const name = model.slices.cmdb.cis.get(ciId)?.name ?? `CI ${ciId}`;
      const templates = byCi.get(ciId) ?? [];
      for (const budget of budgets) {
        const template = templates.find((t) => t.id === budget.template.id);
        if (!template) continue;
        readings.push({
          template: budget.template,
          configItem: { id: ciId, name },
          burnRate: budget.burnRates['1h'],
          threshold: template.burnRateAlert,
          budgetLeft: budget.remaining,
        });
      }
      if (performance.now() - slice >= SLICE_MS) {
        await yieldToLoop();
        slice = performance.now();
      }
    }
    last = { at: now, readings };
  }

  return {
    readings(now) {
      if (stopped) return null;
      liveSla();
      if (!running && (!last || now - last.at >= everyMs)) {
        running = compute(now)
          .catch((err: unknown) => log.warn({ err }, 'computing the SLA burn readings failed; the last ones stay'))
          .finally(() => (running = undefined));
      }
      return last?.readings ?? null;
    },
    async refresh() {
      while (running) await running;
      await liveSla().refresh();
      await compute(deps.now());
    },
    async stop() {
      stopped = true;
      while (running) await running;
      await owned?.stop();
    },
  };
}
