/**
 * The live SLA projection (issue #18; its own module since issue #36): the problems of every CI
 * held in memory (live-problems.ts) by each process that serves or alerts on live figures (the
 * API's includeSla and template routes, the dispatcher's burn alerts), so that a GET with
 * includeSla reads no store. Once started it reads the problems of the last 31 days (FINAL, in
 * pages of CIs; some 20 s for 10 000 000 problems, so the API does not wait for it: until then,
 * and again after a failed first read, includeSla answers 503); then, every second, only the rows written to `problems` since the last read,
 * from `problem_changes` (0005_problem_changes.sql), keeping per problem id its highest version.
 * The reads overlap by a few seconds, so a row whose insert committed after a later one's is
 * still seen; every 15 minutes the whole state is read again, which also drops what has aged out.
 * Maintenance comes from the control plane at each request, like every CI read.
 *
 * The figures are those of pipelines/sla/live-figures.ts under the template rules of
 * pipelines/sla/template-rules.ts; they reflect the problems as of the last read (`asOf`), at
 * most about a second behind.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { clickhouseDateTime } from '../../pipelines/records/timestamps.js';
import { LIVE_WINDOWS, type LiveBudget, type LiveCi, type LiveWindowFigures, liveBudget, liveWindows } from '../../pipelines/sla/live-figures.js';
import type { Interval } from '../../pipelines/sla/sla.types.js';
import { budgetReach, templateCis, templatePeriod, templateRules } from '../../pipelines/sla/template-rules.js';
import type { CiLiveSlaModel, TemplateLiveSlaModel } from '../../schemas/live-sla.schema.js';
import type { SlaSingleTemplateModel, SlaTemplateAdminModel } from '../../schemas/sla-template.schema.js';
import { maintenanceIntervals } from '../control-plane/maintenance/maintenance-coverage.js';
import type { PlatformModel } from '../control-plane/model.js';
import type { AnalyticsStore } from '../runtime/adapters/analytics/analytics.port.js';
import type { Metrics } from '../runtime/http/metrics.js';
import type { Logger } from '../runtime/logger.js';
import { failLater } from '../../schemas/errors.js';
import { PROBLEM_CHANGES } from '../../schemas/tables/problem-changes.table.js';
import { LIVE_PROBLEM_LIST, type LiveProblemRow, PROBLEMS } from '../../schemas/tables/problems.table.js';
import { LiveProblems, type ProblemFacts } from './live-problems.js';
import { templateLiveView } from './live-sla-template.js';

const DAY_MS = 86_400_000;
/** Problems kept: those that ended within this time (the longest window, and a day to spare). */
const HORIZON_MS = 31 * DAY_MS;
const POLL_MS = 1000;
/** Each read goes back this far before the last row seen: inserts commit out of their written_at order. */
const OVERLAP_MS = 10_000;
const RELOAD_MS = 15 * 60_000;
const PAGE_ROWS = 100_000;
const LOAD_CIS_PER_PAGE = 5000;
const METRICS_EVERY_MS = 15_000;
const METRICS_MAX_CIS = 1000;
/** The gauges' computation leaves the event loop to the requests after this much work. */
const METRICS_SLICE_MS = 2;

/** One template with a target that covers the CI, and where the CI stands against it. */
export interface CiBudget extends LiveBudget {
  template: { id: number; name: string };
}

export interface CiLiveFigures {
  /** The problems as of this instant (the last read of the store). */
  asOf: number;
  windows: LiveWindowFigures[];
  budgets: CiBudget[];
}

export interface LiveSla {
  /** Starts reading the problems of the horizon, then their changes every second. */
  start(): void;
  /** Reads the changes written since the last read (the whole horizon first, until it was read once). */
  refresh(): Promise<void>;
  ofCi(ciId: number): CiLiveFigures;
  /** Where a whole template stands now (live-sla-template.ts). */
  ofTemplate(template: SlaTemplateAdminModel): TemplateLiveSlaModel;
  /** Computes the gauges now (the background does it every METRICS_EVERY_MS). */
  refreshMetrics(): Promise<void>;
  /** Stops reading; resolves once the read in flight, if any, is done. */
  stop(): Promise<void>;
}

type Row = LiveProblemRow;
interface ChangeRow extends Row {
  w: number;
  d: number;
}

const factsOf = (row: Row, deleted: boolean): ProblemFacts => ({
  id: row.id,
  ciId: Number(row.ci_id),
  start: row.s,
  end: row.e < 0 ? null : row.e,
  priority: row.p,
  influence: { value: row.iv, maxInfluence: row.im === 1 },
  version: Number(row.v),
  deleted,
});

/** The wire form (schemas/live-sla.schema.ts): instants as ISO text, durations in whole milliseconds. */
export function liveSlaView(live: CiLiveFigures): CiLiveSlaModel {
  const iso = (ms: number): string => new Date(ms).toISOString();
  return {
    asOf: iso(live.asOf),
    windows: live.windows,
    budgets: live.budgets.map((b) => ({
      template: b.template,
      target: b.target,
      period: { start: iso(b.period.start), end: iso(b.period.end) },
      allowedMs: Math.round(b.allowedMs),
      usedMs: Math.round(b.usedMs),
      remainingMs: Math.round(b.remainingMs),
      remaining: b.remaining,
      burnRate: b.burnRates,
    })),
  };
}

export function createLiveSla(deps: { analytics: AnalyticsStore; model: PlatformModel; metrics: Metrics; logger: Logger; now: () => number }): LiveSla {
  const { analytics, model } = deps;
  const log = deps.logger.child({ component: 'live-sla' });
  let table = new LiveProblems();
  /** The latest written_at (store clock) of the changes read. */
  let cursor = 0;
  let asOf = 0;
  /** Reads of the problems so far: what is derived from them is current while this stays. */
  let reads = 0;
  let lastLoad = 0;
  let loaded = false;
  let loadError = 'not read yet';
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const storeNow = async (): Promise<number> => (await analytics.query<{ t: number }>('SELECT toFloat64(toUnixTimestamp64Milli(now64(3))) AS t'))[0]!.t;

  async function load(): Promise<void> {
    const started = performance.now();
    const since = await storeNow();
    const fresh = new LiveProblems();
    const from = clickhouseDateTime(deps.now() - HORIZON_MS);
    const ids = [...model.slices.cmdb.cis.keys()].sort((a, b) => a - b);
    for (let i = 0; i < ids.length; i += LOAD_CIS_PER_PAGE) {
      const page = ids.slice(i, i + LOAD_CIS_PER_PAGE);
      const rows = await analytics.query<Row>(
        `SELECT ${LIVE_PROBLEM_LIST} FROM ${PROBLEMS.name} FINAL WHERE ci_id BETWEEN {first:UInt64} AND {last:UInt64} AND (date_end IS NULL OR date_end > {from:DateTime64(3)})`,
        { first: page[0], last: page.at(-1), from },
      );
      for (const row of rows) fresh.add(factsOf(row, false));
    }
    table = fresh;
    cursor = since;
    lastLoad = deps.now();
    await readChanges();
    loaded = true;
    log.info({ problems: table.size, ms: Math.round(performance.now() - started) }, 'live SLA problems loaded');
  }

  async function readChanges(): Promise<void> {
    let after = { w: cursor - OVERLAP_MS, id: '' };
    for (;;) {
      const rows = await analytics.query<ChangeRow>(
        `SELECT toFloat64(toUnixTimestamp64Milli(written_at)) AS w, ${LIVE_PROBLEM_LIST}, is_deleted AS d FROM ${PROBLEM_CHANGES.name}
         WHERE (written_at, toString(id)) > ({w:DateTime64(3)}, {id:String}) ORDER BY written_at, toString(id) LIMIT {limit:UInt32}`,
        { w: clickhouseDateTime(after.w), id: after.id, limit: PAGE_ROWS },
      );
      for (const row of rows) table.put(factsOf(row, row.d === 1));
      if (rows.length > 0) after = { w: rows.at(-1)!.w, id: rows.at(-1)!.id };
      if (rows.length < PAGE_ROWS) break;
    }
    cursor = Math.max(cursor, after.w);
    asOf = deps.now();
    reads++;
  }

  function tick(): void {
    running ??= (!loaded || deps.now() - lastLoad >= RELOAD_MS ? load() : readChanges())
      .catch((err: unknown) => {
        if (!loaded) loadError = `the last read failed: ${(err as Error).message}`;
        log.warn({ err }, 'reading problems failed; the live SLA figures stay as they were');
      })
      .finally(() => (running = undefined));
  }

  /** Templates with a target, by the CIs they cover; derived again when templates or CIs change. */
  let coverage = { at: '', byCi: new Map<number, SlaSingleTemplateModel[]>() };
  function covered(): Map<number, SlaSingleTemplateModel[]> {
    const at = `${model.slices.slaTemplates.changes}:${model.slices.cmdb.changes}`;
    if (coverage.at !== at) {
      const byCi = new Map<number, SlaSingleTemplateModel[]>();
      for (const template of model.slices.slaTemplates.templates.values()) {
        if (template.type !== 'Single' || template.target === null) continue;
        for (const id of templateCis(model.slices.cmdb, template).keys()) {
          let list = byCi.get(id);
          if (!list) byCi.set(id, (list = []));
          list.push(template);
        }
      }
      for (const list of byCi.values()) list.sort((a, b) => a.id - b.id);
      coverage = { at, byCi };
    }
    return coverage.byCi;
  }

  /** The CI's problems and its maintenance over `range`. */
  const liveCi = (ciId: number, problems: LiveCi['problems'], range: Interval): LiveCi => ({ problems, maintenance: maintenanceIntervals(model, ciId, range.start, range.end) });

  function ofCi(ciId: number): CiLiveFigures {
    if (!loaded) throw failLater('sla_live.loading', 5, { reason: loadError });
    const now = deps.now();
    const longest = LIVE_WINDOWS.at(-1)!.ms;
    const problems = table.ofCi(ciId);
    const windows = liveWindows(liveCi(ciId, problems, { start: now - longest, end: now }), now);
    const budgets = (covered().get(ciId) ?? []).map((template): CiBudget => {
      const period = templatePeriod(template, now);
      const ci = liveCi(ciId, problems, budgetReach(period, now));
      return { template: { id: template.id, name: template.name }, ...liveBudget(ci, templateRules(template), template.target!, period, now) };
    });
    return { asOf, windows, budgets };
  }

  /**
   * The gauges, computed in the background (a scrape only reads them), in slices that leave the
   * event loop to the requests, and no more often than every METRICS_EVERY_MS nor busier than a
   * third of the time. Only the CIs with the latest problems get series, METRICS_MAX_CIS of them
   * at most (a CI's figures take a millisecond or two of the event loop: 100 000 of them would
   * hold it for minutes): CIs with a problem open now or that ended last, within the last 31
   * days. An absent series is an untouched CI (100 %, its whole budget, no burn), or one past the
   * bound, which includeSla still answers for.
   */
  let metricsRun: Promise<void> | undefined;
  let metricsTimer: NodeJS.Timeout | undefined;
  async function computeMetrics(): Promise<void> {
    if (!loaded) return;
    const values: Array<{ ci: string; live: CiLiveFigures }> = [];
    const now = deps.now();
    let slice = performance.now();
    const yieldNow = async (): Promise<void> => {
      if (performance.now() - slice < METRICS_SLICE_MS) return;
      await sleep(1);
      slice = performance.now();
    };
    const latest: Array<{ ciId: number; at: number }> = [];
    for (const ciId of [...covered().keys()]) {
      const at = table.lastProblemAt(ciId, now);
      if (at >= now - HORIZON_MS) latest.push({ ciId, at });
      await yieldNow();
    }
    latest.sort((a, b) => b.at - a.at || a.ciId - b.ciId);
    for (const { ciId } of latest.slice(0, METRICS_MAX_CIS)) {
      values.push({ ci: String(ciId), live: ofCi(ciId) });
      await yieldNow();
    }
    const { slaAvailability, slaBudgetRemaining, slaBurnRate } = deps.metrics;
    slaAvailability.reset();
    slaBudgetRemaining.reset();
    slaBurnRate.reset();
    for (const { ci, live } of values) {
      for (const w of live.windows) slaAvailability.set({ ci, window: w.window }, w.availability);
      for (const b of live.budgets) {
        const template = String(b.template.id);
        slaBudgetRemaining.set({ template, ci }, b.remaining);
        for (const [window, rate] of Object.entries(b.burnRates)) slaBurnRate.set({ template, ci, window }, rate);
      }
    }
  }
  function scheduleMetrics(): void {
    const started = performance.now();
    metricsRun = computeMetrics()
      .catch((err: unknown) => log.warn({ err }, 'computing the live SLA gauges failed'))
      .finally(() => {
        metricsRun = undefined;
        if (stopped) return;
        metricsTimer = setTimeout(scheduleMetrics, Math.max(METRICS_EVERY_MS, 2 * (performance.now() - started)));
        metricsTimer.unref();
      });
  }
  let stopped = false;
  const templateFigures = new Map<number, { key: string; view: TemplateLiveSlaModel }>();

  return {
    start() {
      tick();
      timer = setInterval(tick, POLL_MS);
      timer.unref();
      metricsTimer = setTimeout(scheduleMetrics, METRICS_EVERY_MS);
      metricsTimer.unref();
    },
    async refreshMetrics() {
      while (metricsRun) await metricsRun;
      await computeMetrics();
    },
    async refresh() {
      while (running) await running;
      await (loaded ? readChanges() : load());
    },
    ofCi,
    ofTemplate(template) {
      if (!loaded) throw failLater('sla_live.loading', 5, { reason: loadError });
      // A template's figures walk all its CIs on the event loop: computed at most once per read of
      // the problems (about a second) and per change of templates, CIs or modes, however many ask.
      const { slaTemplates, cmdb, maintenance } = model.slices;
      const key = `${reads}:${slaTemplates.changes}:${cmdb.changes}:${maintenance.changes}`;
      const kept = templateFigures.get(template.id);
      if (kept?.key === key) return kept.view;
      const view = templateLiveView(model, template, (ciId) => table.ofCi(ciId), asOf, deps.now());
      templateFigures.set(template.id, { key, view });
      return view;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(metricsTimer);
      // A read in flight must end before the engines close.
      await running;
      await metricsRun;
    },
  };
}
