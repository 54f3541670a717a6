/**
 * A Single template's report: CI figures ▸ CI and event rows ▸ template figures.
 *
 * The SLA worker fans CIs out to threads: it builds the shared context once (templateContext,
 * which also computes the unattended intervals once per report), runs calculateCiFigures on each
 * chunk and combines the outcomes with templateFigures; calculateCis and combineCis do the same
 * with the event rows. combineCis orders everything itself, so any split of the CIs, in any
 * order, gives the same result as calculateSingle (CI ids are unique).
 *
 * Template figures: each time figure and the availability are means weighted by CI weight
 * (not rounded); counts are summed; maxDowntimeMs is the largest. With no CI (or all weights
 * 0) the times are 0 and the availability 100.
 */
import type { SlaCiRowModel, SlaEventRowModel } from '../../schemas/sla-export.schema.js';
import { unattendedIntervals } from './calendar.js';
import { type CiFiguresContext, ciFigures, overlapsRange, problemEnd } from './ci-figures.js';
import { mergeEvents, type SortedEvents, sortEvents } from './event-order.js';
import { clipIntervals, mergeIntervals, touchesIntervals } from '../time/interval-ops.js';
import { ciInfluence, ciRow, ciTypeModel, eventCi, eventRow } from './report-rows.js';
import type { Interval, SingleTemplateInput, SingleTemplateResult, SlaCiInput, SlaCiMeta, SlaFigures } from './sla.types.js';

/** What every chunk of CIs shares; plain data, so it can cross to a worker thread. */
export interface SingleTemplateContext {
  range: Interval;
  now: number;
  priorities: number[];
  excludeMaintenance: boolean;
  /** unattendedIntervals(calendar, range), computed once per report. */
  unattended: Interval[];
  /** Σ weights of all the template's CIs (not only the chunk's). */
  totalWeight: number;
}

export interface CiChunkInput extends SingleTemplateContext {
  cis: SlaCiInput[];
}

/** One CI's share of the report. */
export interface CiOutcome {
  ciId: number;
  weight: number;
  figures: SlaFigures;
  ciRow: SlaCiRowModel;
  /** Its event rows, sorted by start then id. */
  events: SortedEvents;
}

export interface CiChunkResult {
  cis: CiOutcome[];
}

/** The shared part of a report's calculation. Of the CIs, only their weights count here: a caller may pass them without problems. */
export function templateContext(input: Omit<SingleTemplateInput, 'cis'> & { cis: ReadonlyArray<{ weight: number }> }): SingleTemplateContext {
  let totalWeight = 0;
  for (const ci of input.cis) totalWeight += ci.weight;
  return {
    range: input.range,
    now: input.now,
    priorities: input.priorities,
    excludeMaintenance: input.excludeMaintenance,
    unattended: unattendedIntervals(input.calendar, input.range),
    totalWeight,
  };
}

/** The input cut into at most `chunks` chunks of consecutive CIs of near-equal size. */
export function splitCis(input: SingleTemplateInput, chunks: number): CiChunkInput[] {
  const context = templateContext(input);
  const n = Math.max(1, Math.min(Math.floor(chunks), input.cis.length));
  const size = Math.ceil(input.cis.length / n);
  const out: CiChunkInput[] = [];
  for (let i = 0; i < input.cis.length; i += size) out.push({ ...context, cis: input.cis.slice(i, i + size) });
  return out.length > 0 ? out : [{ ...context, cis: [] }];
}

/** A CI's share of the report without its event rows. */
export type CiFiguresOutcome = Omit<CiOutcome, 'events'>;

/** The figures of the chunk's CI at `index` (whose maintenance is already clipped to the range). */
export type FiguresOf = (context: CiFiguresContext, maintenance: readonly Interval[], index: number) => SlaFigures;

interface CiShare {
  outcome: CiFiguresOutcome;
  maintenance: Interval[];
  type: ReturnType<typeof ciTypeModel>;
  influence: ReturnType<typeof ciInfluence>;
}

/** Each CI's figures and row, handed to `each` with what its event rows need (one walk for both entries below). */
function ciShares<C extends SlaCiMeta>(
  chunk: SingleTemplateContext & { cis: readonly C[] },
  figuresOf: FiguresOf,
  each: (ci: C, share: CiShare, context: CiFiguresContext) => void,
): void {
  const { range, now } = chunk;
  const context: CiFiguresContext = { range, now, included: new Set(chunk.priorities), excludeMaintenance: chunk.excludeMaintenance, unattended: chunk.unattended };
  const totalMs = Math.max(0, range.end - range.start);
  chunk.cis.forEach((ci, index) => {
    const maintenance = clipIntervals(mergeIntervals(ci.maintenance), range);
    const figures = figuresOf(context, maintenance, index);
    const influence = ciInfluence(ci.weight, chunk.totalWeight);
    const type = ciTypeModel(ci.type);
    const ciRowModel = ciRow(ci, type, figures, totalMs, influence, maintenance.length > 0);
    each(ci, { outcome: { ciId: ci.id, weight: ci.weight, figures, ciRow: ciRowModel }, maintenance, type, influence }, context);
  });
}

/**
 * Figures and CI rows of a chunk of CIs, without event rows: what the SLA worker's threads
 * compute (it builds the event export from the stored problems instead), with the figures from
 * `figuresOf` (they hold the problems packed as numbers: packedCiFigures).
 */
export function calculateCiFigures(chunk: SingleTemplateContext & { cis: readonly SlaCiMeta[] }, figuresOf: FiguresOf): CiFiguresOutcome[] {
  const out: CiFiguresOutcome[] = [];
  ciShares(chunk, figuresOf, (_ci, share) => out.push(share.outcome));
  return out;
}

/** Figures and rows of a chunk of CIs, event rows included. */
export function calculateCis(chunk: CiChunkInput): CiChunkResult {
  const { range, now } = chunk;
  const cis: CiOutcome[] = [];
  const figuresOf: FiguresOf = (context, maintenance, index) => ciFigures(context, maintenance, chunk.cis[index]!.problems);
  ciShares(chunk, figuresOf, (ci, { outcome, maintenance, type, influence }, context) => {
    const entries = [[eventCi(ci, type, influence, false)], [eventCi(ci, type, influence, true)]];
    const rows: SlaEventRowModel[] = [];
    const starts: number[] = [];
    for (const p of ci.problems) {
      if (!overlapsRange(p, range, now)) continue;
      const withMaintenance = touchesIntervals(maintenance, p.start, problemEnd(p, now));
      rows.push(eventRow(p, context.included.has(p.priority), entries[withMaintenance ? 1 : 0]!, now));
      starts.push(p.start);
    }
    cis.push({ ...outcome, events: sortEvents(ci.id, rows, starts) });
  });
  return { cis };
}

/** Template figures from CI figures (see the file comment). */
export function templateFigures(items: ReadonlyArray<{ weight: number; figures: SlaFigures }>): SlaFigures {
  let weights = 0;
  const sum = { okMs: 0, problemMs: 0, unattendedMs: 0, maintenanceMs: 0, attendedMs: 0, serviceAvailability: 0 };
  const counts: [number, number, number, number] = [0, 0, 0, 0];
  let maxDowntimeMs = 0;
  for (const { weight, figures: f } of items) {
    weights += weight;
    sum.okMs += weight * f.okMs;
    sum.problemMs += weight * f.problemMs;
    sum.unattendedMs += weight * f.unattendedMs;
    sum.maintenanceMs += weight * f.maintenanceMs;
    sum.attendedMs += weight * f.attendedMs;
    sum.serviceAvailability += weight * f.serviceAvailability;
    for (let i = 0; i < 4; i++) counts[i] = counts[i]! + f.counts[i]!;
    if (f.maxDowntimeMs > maxDowntimeMs) maxDowntimeMs = f.maxDowntimeMs;
  }
  const mean = (x: number): number => (weights > 0 ? x / weights : 0);
  return {
    okMs: mean(sum.okMs),
    problemMs: mean(sum.problemMs),
    unattendedMs: mean(sum.unattendedMs),
    maintenanceMs: mean(sum.maintenanceMs),
    attendedMs: mean(sum.attendedMs),
    serviceAvailability: weights > 0 ? sum.serviceAvailability / weights : 100,
    maxDowntimeMs,
    counts,
    eventsCount: counts[0] + counts[1] + counts[2] + counts[3],
  };
}

/** The chunks' results as one report: CI rows by CI id, event rows by start, then id, then CI id. */
export function combineCis(chunks: readonly CiChunkResult[]): SingleTemplateResult {
  const outcomes = chunks.flatMap((c) => c.cis).sort((a, b) => a.ciId - b.ciId);
  return { figures: templateFigures(outcomes), ciRows: outcomes.map((o) => o.ciRow), eventRows: mergeEvents(outcomes.map((o) => o.events)) };
}

/** The whole report in one call. */
export function calculateSingle(input: SingleTemplateInput): SingleTemplateResult {
  return combineCis([calculateCis({ ...templateContext(input), cis: input.cis })]);
}
