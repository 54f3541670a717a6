/**
 * One custom SLA report, start to finish (DESIGN §9): resolve the template's CIs (by the rules of
 * pipelines/sla/template-rules.ts), copy the
 * problems that overlap the range into the report's own table (inside ClickHouse), read them
 * back as numbers, fan the CIs out to the piscina threads, and store the rows the export
 * shows. A Multi template runs each of its Single templates the same way, then combines them.
 */
import type { Piscina } from 'piscina';
import { clickhouseDateTime } from '../../pipelines/records/timestamps.js';
import { PACKED_PROBLEM_FIELDS } from '../../pipelines/sla/ci-figures.js';
import { calculateMulti, type MultiTemplateItem } from '../../pipelines/sla/multi-template.js';
import { type CiFiguresOutcome, templateContext, templateFigures } from '../../pipelines/sla/single-template.js';
import type { Interval, SlaCiMeta, SlaFigures } from '../../pipelines/sla/sla.types.js';
import { templateCis, templateRules } from '../../pipelines/sla/template-rules.js';
import type { SlaCiRowModel } from '../../schemas/sla-export.schema.js';
import { PACKED_PROBLEM_LIST, PROBLEMS } from '../../schemas/tables/problems.table.js';
import { COPY_FROM_PROBLEMS_LIST, DROP_REPORT_PROBLEMS, SLA_REPORT_PROBLEMS } from '../../schemas/tables/sla-report-problems.table.js';
import { DROP_REPORT_ROWS, SLA_REPORT_ROWS, type SlaReportRow } from '../../schemas/tables/sla-report-rows.table.js';
import type { SlaSingleTemplateModel } from '../../schemas/sla-template.schema.js';
import { ciTypeWithIcon } from '../control-plane/cmdb/ci-type-icons.js';
import { maintenanceIntervals } from '../control-plane/maintenance/maintenance-coverage.js';
import type { SlaReportRecord } from '../control-plane/sla/sla-reports.slice.js';
import type { PlatformModel } from '../control-plane/model.js';
import type { AnalyticsStore } from '../runtime/adapters/analytics/analytics.port.js';
import type { PackedChunk } from './calculate.thread.js';

export interface CalculationDeps {
  model: PlatformModel;
  analytics: AnalyticsStore;
  pool: Piscina<PackedChunk, CiFiguresOutcome[]>;
  /** How many chunks the CIs are cut into (the pool's thread count). */
  threads: number;
  now: () => number;
}

/** Milliseconds spent per phase of a calculation (logged, and read by the benchmark). */
export interface CalculationPhases {
  /** Copying the overlapping problems for the report and reading them back. */
  problemsMs: number;
  /** The interval maths: the CIs and their problems prepared and packed, the threads' runs, their answers combined. */
  mathsMs: number;
  /** Of mathsMs, the time from handing the chunks to the threads until the last answer is back. */
  threadsMs: number;
  /** Storing the rows the export shows. */
  storeMs: number;
  /** The `now` of the calculation: open problems last until it. */
  calculatedAt?: number;
}

/** A failure the analyst should read as it is (the report's `error`). */
export class ReportError extends Error {
  override readonly name = 'ReportError';
}

const OVERLAPS = 'ci_id IN {cis:Array(UInt64)} AND date_start < {end:DateTime64(3)} AND (date_end IS NULL OR date_end > {start:DateTime64(3)})';
/** A problem as queryFloat64 reads it (PACKED_PROBLEM_LIST): its CI, then the packed fields (calculate.thread.ts). */
const ROW_FIELDS = 1 + PACKED_PROBLEM_FIELDS;

/**
 * The problems overlapping the range, one row of numbers each (ROW_FIELDS), in no order: copied
 * for the report first when `reportId` is given. Numbers rather than JSON: 1 000 000 problems
 * grouped by CI were about 70 MB of JSON, read and parsed in 0.3–0.6 s.
 */
async function readProblems(deps: CalculationDeps, ciIds: number[], range: Interval, priorities: number[], reportId: string | undefined): Promise<Float64Array> {
  const params = { cis: ciIds, start: clickhouseDateTime(range.start), end: clickhouseDateTime(range.end) };
  // The figures count only the included priorities (ciFigures): the other problems are copied for
  // the event export, not read.
  const included = { priorities };
  const counted = 'priority IN {priorities:Array(UInt8)}';
  if (!reportId) return deps.analytics.queryFloat64(`SELECT ${PACKED_PROBLEM_LIST} FROM ${PROBLEMS.name} FINAL WHERE ${OVERLAPS} AND ${counted}`, { ...params, ...included });
  // A job taken again after a stop mid-copy starts from an empty copy, so it can be read without
  // FINAL: the report's partition is dropped first (a metadata change; none there for a first run).
  await deps.analytics.command(DROP_REPORT_PROBLEMS, { report: reportId });
  // The copy holds each problem once (FINAL), so the insert need not collapse duplicates in its
  // block (optimize_on_insert, on by default for a ReplacingMergeTree): without that step the
  // copy of 1 000 000 problems took 0.22 s instead of 1.0 s (chDB, 2 cores).
  await deps.analytics.command(
    `INSERT INTO ${SLA_REPORT_PROBLEMS.name}
     SELECT ${COPY_FROM_PROBLEMS_LIST}
     FROM ${PROBLEMS.name} FINAL WHERE ${OVERLAPS}
     SETTINGS optimize_on_insert = 0`,
    { ...params, report: reportId, now: clickhouseDateTime(Date.now()) },
  );
  return deps.analytics.queryFloat64(`SELECT ${PACKED_PROBLEM_LIST} FROM ${SLA_REPORT_PROBLEMS.name} WHERE report_id = {report:String} AND ${counted}`, {
    report: reportId,
    ...included,
  });
}

/** Figures and CI rows of a Single template over the range. */
export async function calculateSingleTemplate(
  deps: CalculationDeps,
  template: SlaSingleTemplateModel,
  range: Interval,
  reportId?: string,
  phases: CalculationPhases = { problemsMs: 0, mathsMs: 0, threadsMs: 0, storeMs: 0 },
): Promise<{ figures: SlaFigures; ciRows: SlaCiRowModel[] }> {
  const { model } = deps;
  const weights = templateCis(model.slices.cmdb, template);
  const ids = [...weights.keys()].sort((a, b) => a - b);
  let mark = performance.now();
  const rows = await readProblems(deps, ids, range, template.priorities, reportId);
  phases.problemsMs += performance.now() - mark;
  mark = performance.now();
  const now = deps.now();
  const cis: SlaCiMeta[] = ids.map((id) => {
    const ci = model.slices.cmdb.cis.get(id)!;
    return {
      id,
      name: ci.name,
      type: ciTypeWithIcon(model.slices.cmdb, ci.typeId),
      weight: weights.get(id)!,
      maintenance: maintenanceIntervals(model, id, range.start, range.end),
    };
  });
  const context = templateContext({
    range,
    now,
    ...templateRules(template),
    cis,
  });
  const chunkCount = Math.max(1, Math.min(deps.threads, cis.length));
  const chunks = packChunks(context, cis, rows, chunkCount);
  const handed = performance.now();
  const answers = await Promise.all(chunks.map((chunk) => deps.pool.run(chunk, { transferList: [chunk.problems.buffer as ArrayBuffer, chunk.offsets.buffer as ArrayBuffer] })));
  phases.threadsMs += performance.now() - handed;
  const outcomes = answers.flat().sort((a, b) => a.ciId - b.ciId);
  phases.mathsMs += performance.now() - mark;
  return { figures: templateFigures(outcomes), ciRows: outcomes.map((o) => o.ciRow) };
}

/**
 * The CIs cut into `chunkCount` runs of consecutive CIs, each with its problems packed for a
 * thread: a counting sort of the rows by CI, straight into each chunk's own array (transferred).
 */
function packChunks(context: PackedChunk['context'], cis: SlaCiMeta[], rows: Float64Array, chunkCount: number): PackedChunk[] {
  const positionOf = new Map<number, number>();
  cis.forEach((ci, i) => positionOf.set(ci.id, i));
  const rowCount = rows.length / ROW_FIELDS;
  const rowPosition = new Int32Array(rowCount);
  const counts = new Int32Array(cis.length);
  for (let r = 0; r < rowCount; r++) {
    // The copy holds only the listed CIs; a CI deleted since is not in `cis` and counts nowhere.
    const position = positionOf.get(rows[r * ROW_FIELDS]!) ?? -1;
    rowPosition[r] = position;
    if (position >= 0) counts[position]!++;
  }
  const size = Math.ceil(cis.length / chunkCount) || 1;
  const chunks: PackedChunk[] = [];
  /** Where the next problem of each CI goes, in its chunk's packed problems. */
  const cursor = new Int32Array(cis.length);
  for (let from = 0; from < cis.length || chunks.length === 0; from += size) {
    const chunkCis = cis.slice(from, from + size);
    const offsets = new Int32Array(chunkCis.length + 1);
    let total = 0;
    for (let i = 0; i < chunkCis.length; i++) {
      offsets[i] = total;
      cursor[from + i] = total;
      total += counts[from + i]!;
    }
    offsets[chunkCis.length] = total;
    chunks.push({ context, cis: chunkCis, offsets, problems: new Float64Array(total * PACKED_PROBLEM_FIELDS) });
  }
  for (let r = 0; r < rowCount; r++) {
    const position = rowPosition[r]!;
    if (position < 0) continue;
    const problems = chunks[Math.floor(position / size)]!.problems;
    let to = cursor[position]!++ * PACKED_PROBLEM_FIELDS;
    for (let from = r * ROW_FIELDS + 1; from < (r + 1) * ROW_FIELDS; from++) problems[to++] = rows[from]!;
  }
  return chunks;
}

/** Runs the report's calculation and stores its rows; the caller records the outcome. */
export async function calculateReport(calculation: CalculationDeps, report: SlaReportRecord): Promise<CalculationPhases> {
  // One `now` for every template of the report, recorded with it so its timeline can replay it.
  const now = calculation.now();
  const deps: CalculationDeps = { ...calculation, now: () => now };
  const phases: CalculationPhases = { problemsMs: 0, mathsMs: 0, threadsMs: 0, storeMs: 0, calculatedAt: now };
  const templates = deps.model.slices.slaTemplates.templates;
  const template = templates.get(report.templateId);
  if (!template) throw new ReportError(`SLA template ${report.templateId} was deleted before the report was calculated`);
  const range = { start: Date.parse(report.start), end: Date.parse(report.end) };
  // The storage TTL runs on the server's clock, so the rows are dated by it too.
  const createdAt = clickhouseDateTime(Date.now());
  // Rows a stopped run of this job stored are dropped, so it stores each row once.
  await deps.analytics.command(DROP_REPORT_ROWS, { report: report.id });
  if (template.type === 'Single') {
    const { ciRows } = await calculateSingleTemplate(deps, template, range, report.id, phases);
    await timed(phases, () => storeRows(deps, report.id, 'configItems', ciRows, createdAt));
    return phases;
  }
  const items: MultiTemplateItem[] = [];
  for (const member of template.templates) {
    const single = templates.get(member.id);
    if (single?.type !== 'Single') throw new ReportError(`SLA template ${member.id} of multi-template ${template.id} no longer exists`);
    const { figures } = await calculateSingleTemplate(deps, single, range, undefined, phases);
    items.push({ name: single.name, weight: member.weight, figures });
  }
  await timed(phases, () => storeRows(deps, report.id, 'templates', calculateMulti(items).templateRows, createdAt));
  return phases;
}

async function timed(phases: CalculationPhases, store: () => Promise<void>): Promise<void> {
  const mark = performance.now();
  await store();
  phases.storeMs += performance.now() - mark;
}

async function storeRows(deps: CalculationDeps, reportId: string, kind: string, rows: readonly object[], createdAt: string): Promise<void> {
  const line = (row: object, seq: number): SlaReportRow => ({ report_id: reportId, kind, seq, row: JSON.stringify(row), created_at: createdAt });
  const lines = rows.map((row, seq) => JSON.stringify(line(row, seq))).join('\n');
  if (lines.length > 0) await deps.analytics.insert(SLA_REPORT_ROWS.name, Buffer.from(`${lines}\n`));
}
