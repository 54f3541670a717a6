/**
 * A custom report's state (GET …/sla/ordered/{id}), asked again while it is Pending (every half
 * second at first, then less often, at most every 5 s) so the page moves on by itself to Ok or
 * Error; and the facts about it with its downloads.
 */
import { useEffect, useState } from 'preact/hooks';
import { type ApiProblem, api, problemOf } from '../app/api.js';
import { Time } from './time.js';
import { exportHref, FORMATS, owner, periodName, type Report } from './sla-model.js';

export type Polled = { state: 'loading' } | { state: 'error'; problem: ApiProblem } | { state: 'ok'; report: Report; checks: number };

export function useReport(id: string): Polled {
  const [polled, setPolled] = useState<Polled>({ state: 'loading' });
  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let checks = 0;
    setPolled({ state: 'loading' });
    const ask = async (): Promise<void> => {
      try {
        const { data, error, response } = await api.GET('/api/public/sm/v1/sla/ordered/{id}', { params: { path: { id } }, signal: abort.signal });
        if (abort.signal.aborted) return;
        if (!data) return setPolled({ state: 'error', problem: problemOf(error, response.status) });
        checks++;
        setPolled({ state: 'ok', report: data, checks });
        if (data.status === 'Pending') timer = setTimeout(() => void ask(), Math.min(5000, 500 * 2 ** Math.min(checks - 1, 4)));
      } catch (e) {
        if (!abort.signal.aborted) setPolled({ state: 'error', problem: { status: 0, title: 'Network error', detail: e instanceof Error ? e.message : String(e) } });
      }
    };
    void ask();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [id]);
  return polled;
}

export function ReportFacts({ report }: { report: Report }) {
  return (
    <dl class="facts">
      <dt>Status</dt>
      <dd>
        <span class={`badge report-${report.status.toLowerCase()}`}>{report.status}</span>
        {report.error && <span class="error"> {report.error}</span>}
      </dd>
      <dt>Template</dt>
      <dd>
        {report.template.name} <span class="muted">#{report.template.id}</span>
        {report.template.type === 'Multi' ? ' · multi-template' : ` · its period: ${periodName(report.template.period)}`}
      </dd>
      <dt>Range</dt>
      <dd>
        <Time iso={report.start} /> – <Time iso={report.end} />
      </dd>
      <dt>Owner</dt>
      <dd>{owner(report)}</dd>
    </dl>
  );
}

/** While the report is calculated: said politely to screen readers, and how long it has been asked. */
export function ReportProgress({ report, checks }: { report: Report; checks: number }) {
  if (report.status !== 'Pending') return null;
  return (
    <p class="sla-progress" role="status">
      <span class="sla-spinner" aria-hidden="true" /> Calculating… checked {checks} {checks === 1 ? 'time' : 'times'}; this page updates by itself.
    </p>
  );
}

const EXPORTS = [
  { type: 'configItems', label: 'Figures by CI' },
  { type: 'events', label: 'Problems' },
] as const;

export function ReportDownloads({ report }: { report: Report }) {
  const multi = report.template.type === 'Multi';
  // A Multi report exports its templates whatever the type asked; one line says so.
  const kinds = multi ? [{ type: 'configItems' as const, label: 'Figures by template' }] : EXPORTS;
  return (
    <section aria-labelledby="sla-downloads-h">
      <h2 id="sla-downloads-h">Downloads</h2>
      <ul class="plain exports">
        {kinds.map((k) => (
          <li key={k.type}>
            {k.label}:{' '}
            {FORMATS.map((f) => (
              <a key={f.format} href={exportHref(report.id, f.format, k.type)} download aria-label={`${k.label} as ${f.label}`}>
                {f.label}
              </a>
            ))}
          </li>
        ))}
      </ul>
      <p class="muted">The results are kept for a day after the order; order it again after that.</p>
    </section>
  );
}
