/**
 * /sla/reports/{id}: one custom SLA report. While it is calculated the page follows it until Ok
 * or Error; then, for a Single template, its totals, the availability of each CI as a chart
 * (worst first, the target drawn), the figures in a sortable table, the timeline of one CI (the
 * worst, or the URL's `ci`) and the live availability and error budget of the worst CIs; for a
 * Multi template, its weighted parts. The URL holds the CI, the sort (`sort`, `dir`) and the
 * chart's page (`bars`). The figures come from the JSON export of the CI rows, read once.
 */
import { useLocation, useRoute } from 'preact-iso';
import { useMemo, useState } from 'preact/hooks';
import { type ApiProblem, api, problemOf } from '../app/api.js';
import { showDuration } from '../app/time.js';
import { ApiAlert, Load, NeedsRight, useLoad } from '../components/load.js';
import { SlaAvailabilityChart } from '../components/sla-availability-chart.js';
import { SlaCiTable } from '../components/sla-ci-table.js';
import { LIVE_CIS, SlaLiveBudget, useLiveBudgets } from '../components/sla-live-budget.js';
import { TemplateLiveSection } from '../components/sla-template-live.js';
import {
  type CiRow,
  type CiSortKey,
  isCiSortKey,
  REPORT_PATH,
  type Report,
  reportTotals,
  rememberReport,
  showPercent,
  sortedRows,
  type TemplateRow,
} from '../components/sla-model.js';
import { SlaMultiTable } from '../components/sla-multi-table.js';
import { ReportDownloads, ReportFacts, ReportProgress, useReport } from '../components/sla-report-head.js';
import { SlaTimeline } from '../components/sla-timeline.js';

/** Orders the same template and range again (a failed or expired report). */
function OrderAgain({ report }: { report: Report }) {
  const { route } = useLocation();
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const again = async () => {
    setBusy(true);
    const { data, error, response } = await api.POST('/api/public/sm/v1/sla/ordered', {
      body: { template: { id: report.template.id }, range: { start: report.start, end: report.end } },
    });
    setBusy(false);
    if (!data) return setProblem(problemOf(error, response.status));
    rememberReport({ id: data.id, template: data.template.name, orderedAt: Date.now() });
    route(REPORT_PATH(data.id));
  };
  return (
    <>
      <button type="button" onClick={() => void again()} disabled={busy}>
        {busy ? 'Ordering…' : 'Order it again'}
      </button>
      <ApiAlert problem={problem} />
    </>
  );
}

function Totals({ rows, target }: { rows: CiRow[]; target: number | undefined }) {
  const t = useMemo(() => reportTotals(rows, target), [rows, target]);
  return (
    <dl class="facts sla-totals">
      <dt>CIs</dt>
      <dd>{t.cis}</dd>
      <dt>Availability</dt>
      <dd>
        {showPercent(t.pooledAvailability)} <span class="muted">over all CIs’ time together; mean of the CIs {showPercent(t.meanAvailability)}</span>
      </dd>
      <dt>Worst CI</dt>
      <dd>{t.worst ? `${t.worst.configItem.name}, ${showPercent(t.worst.serviceAvailability)}` : '—'}</dd>
      {t.belowTarget !== undefined && (
        <>
          <dt>Below target</dt>
          <dd class={t.belowTarget > 0 ? 'error' : ''}>{t.belowTarget === 1 ? '1 CI' : `${t.belowTarget} CIs`}</dd>
        </>
      )}
      <dt>Time</dt>
      <dd>
        OK {showDuration(t.okMs)} · problem {showDuration(t.problemMs)} · maintenance {showDuration(t.maintenanceMs)} · unattended {showDuration(t.unattendedMs)}
      </dd>
      <dt>Problems</dt>
      <dd>{t.events}</dd>
    </dl>
  );
}

function SingleResults({ report, rows }: { report: Report; rows: CiRow[] }) {
  const { path, query, route } = useLocation();
  const sort: CiSortKey = isCiSortKey(query['sort']) ? query['sort'] : 'availability';
  const desc = query['dir'] === 'desc';
  const offset = Math.max(0, Number(query['bars']) || 0);
  const worstFirst = useMemo(() => sortedRows(rows, 'availability', false), [rows]);
  const sorted = useMemo(() => (sort === 'availability' && !desc ? worstFirst : sortedRows(rows, sort, desc)), [rows, worstFirst, sort, desc]);
  const byId = useMemo(() => new Map(rows.map((r) => [r.configItem.id, r])), [rows]);
  const asked = Number(query['ci']);
  const selected = byId.has(asked) ? asked : worstFirst[0]?.configItem.id;
  const liveIds = useMemo(() => worstFirst.slice(0, LIVE_CIS).map((r) => r.configItem.id), [worstFirst]);
  const live = useLiveBudgets(report.template.id, liveIds);

  const href = (changes: Record<string, string | undefined>): string => {
    const next = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...query, ...changes })) if (v !== undefined && v !== '') next.set(k, v);
    const text = next.toString();
    return text ? `${path}?${text}` : path;
  };
  const ciHref = (id: number) => `${href({ ci: String(id) })}#sla-timeline-h`;
  const selectedRow = selected === undefined ? undefined : byId.get(selected);

  return (
    <>
      <section aria-labelledby="sla-totals-h">
        <h2 id="sla-totals-h">Totals</h2>
        <Totals rows={rows} target={live.target} />
      </section>
      <section aria-labelledby="sla-chart-h">
        <h2 id="sla-chart-h">Availability by CI</h2>
        <SlaAvailabilityChart
          worstFirst={worstFirst}
          offset={offset}
          onOffset={(n) => route(href({ bars: n > 0 ? String(n) : undefined }), true)}
          target={live.target}
          ciHref={ciHref}
          selected={selected}
        />
      </section>
      <section aria-labelledby="sla-table-h">
        <h2 id="sla-table-h">Figures by CI</h2>
        {rows.length === 0 ? (
          <p class="empty">No CI.</p>
        ) : (
          <SlaCiTable
            rows={sorted}
            sort={sort}
            desc={desc}
            onSort={(key) => route(href({ sort: key, dir: key === sort && !desc ? 'desc' : undefined }), true)}
            ciHref={ciHref}
            selected={selected}
            target={live.target}
          />
        )}
      </section>
      <section aria-labelledby="sla-timeline-h">
        <h2 id="sla-timeline-h">Timeline{selectedRow ? ` of ${selectedRow.configItem.name}` : ''}</h2>
        {selected === undefined ? <p class="muted">No CI to show.</p> : <SlaTimeline reportId={report.id} ciId={selected} row={selectedRow} />}
      </section>
      <section aria-labelledby="sla-live-h">
        <h2 id="sla-live-h">Live availability and error budget</h2>
        <TemplateLiveSection templateId={report.template.id} />
        <SlaLiveBudget live={live} templateId={report.template.id} order={liveIds} />
      </section>
    </>
  );
}

function Results({ report }: { report: Report }) {
  const [loaded] = useLoad(
    (signal) =>
      api.GET('/api/public/sm/v1/sla/ordered/{id}/export', { params: { path: { id: report.id }, query: { format: 'json', exportType: 'configItems' } }, parseAs: 'json', signal }),
    [report.id],
  );
  if (loaded.state === 'error' && loaded.problem.status === 410) {
    return (
      <>
        <ApiAlert problem={loaded.problem} />
        <OrderAgain report={report} />
      </>
    );
  }
  return (
    <Load loaded={loaded} label="the figures">
      {(data) =>
        report.template.type === 'Multi' ? (
          <section aria-labelledby="sla-parts-h">
            <h2 id="sla-parts-h">Parts</h2>
            <SlaMultiTable rows={data as TemplateRow[]} />
          </section>
        ) : (
          <SingleResults report={report} rows={data as CiRow[]} />
        )
      }
    </Load>
  );
}

function ReportScreen() {
  const { params } = useRoute();
  const id = params['id'] ?? '';
  const polled = useReport(id);
  const report = polled.state === 'ok' ? polled.report : undefined;
  return (
    <main class="sla-report">
      <p class="crumbs">
        <a href="/sla">SLA</a> / report
      </p>
      <h1>{report ? `SLA report: ${report.template.name}` : 'SLA report'}</h1>
      {polled.state === 'loading' && <p class="loading">Loading the report…</p>}
      {polled.state === 'error' && <ApiAlert problem={polled.problem} />}
      {report && (
        <>
          <ReportFacts report={report} />
          <ReportProgress report={report} checks={polled.state === 'ok' ? polled.checks : 0} />
          {report.status === 'Error' && <OrderAgain report={report} />}
          {report.status === 'Ok' && (
            <>
              <Results report={report} />
              <ReportDownloads report={report} />
            </>
          )}
        </>
      )}
    </main>
  );
}

export default function SlaReport() {
  return (
    <NeedsRight title="SLA report" right="base-system.sla.read">
      <ReportScreen />
    </NeedsRight>
  );
}
