/**
 * /sla: the SLA templates the user may read, and an ordered report looked up by its id
 * (`?report=<id>`; the API has no list of ordered reports): its status, range and template, with
 * its exports as links.
 */
import { useLocation } from 'preact-iso';
import { api } from '../app/api.js';
import type { operations, paths } from '../app/api-schema.js';
import { Load, NeedsRight, TableScroll, useLoad } from '../components/load.js';
import { Time } from '../components/time.js';

type Template = operations['sla.listTemplates']['responses'][200]['content']['application/json'][number];
type Report = operations['sla.getReport']['responses'][200]['content']['application/json'];

const EXPORT_PATH = '/api/public/sm/v1/sla/ordered/{id}/export' satisfies keyof paths;
const FORMATS = [
  { format: 'xls', label: 'Excel' },
  { format: 'csv', label: 'CSV' },
  { format: 'json', label: 'JSON' },
] as const;
const EXPORT_TYPES = [
  { type: 'events', label: 'problems' },
  { type: 'configItems', label: 'CIs' },
] as const;

const owner = (t: Pick<Template, 'ownerType' | 'userId' | 'workGroup'>): string =>
  t.ownerType === 'WorkGroup' ? `Workgroup ${t.workGroup?.name ?? ''}` : `User #${t.userId ?? ''}`;

/** "ThisMonth" → "this month". */
const period = (p: Template['period']): string => p.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

function Templates({ templates }: { templates: Template[] }) {
  if (templates.length === 0) return <p class="muted">No SLA template you may read.</p>;
  return (
    <TableScroll label="SLA templates table">
      <table>
        <thead>
          <tr>
            <th scope="col">Id</th>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Period</th>
            <th scope="col">Owner</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {templates.map((t) => (
            <tr key={t.id}>
              <td>{t.id}</td>
              <td>{t.name}</td>
              <td>{t.type === 'Multi' ? 'Multi-template' : 'Single'}</td>
              <td>{period(t.period)}</td>
              <td>{owner(t)}</td>
              <td>{t.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function ReportView({ r }: { r: Report }) {
  const exportHref = (format: string, exportType: string): string =>
    `${EXPORT_PATH.replace('{id}', encodeURIComponent(r.id))}?${new URLSearchParams({ format, exportType }).toString()}`;
  return (
    <>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <span class={`badge report-${r.status.toLowerCase()}`}>{r.status}</span>
          {r.error && <span class="error"> {r.error}</span>}
        </dd>
        <dt>Template</dt>
        <dd>
          {r.template.name} <span class="muted">#{r.template.id}</span>
        </dd>
        <dt>Range</dt>
        <dd>
          <Time iso={r.start} /> – <Time iso={r.end} />
        </dd>
        <dt>Owner</dt>
        <dd>{owner(r)}</dd>
      </dl>
      {r.status === 'Ok' && (
        <>
          <h3>Exports</h3>
          <ul class="plain exports">
            {EXPORT_TYPES.map((t) => (
              <li key={t.type}>
                By {t.label}:{' '}
                {FORMATS.map((f) => (
                  <a key={f.format} href={exportHref(f.format, t.type)} download>
                    {f.label}
                  </a>
                ))}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

function OrderedReport({ id }: { id: string }) {
  const [loaded, reload] = useLoad((signal) => api.GET('/api/public/sm/v1/sla/ordered/{id}', { params: { path: { id } }, signal }), [id]);
  return (
    <Load loaded={loaded} label="the report">
      {(r) => (
        <>
          <ReportView r={r} />
          {r.status === 'Pending' && (
            <button type="button" onClick={reload}>
              Check again
            </button>
          )}
        </>
      )}
    </Load>
  );
}

function SlaScreen() {
  const { query, route } = useLocation();
  const report = (query['report'] ?? '').trim();
  const [templates] = useLoad((signal) => api.GET('/api/public/sm/v1/sla/templates', { signal }), []);
  return (
    <main>
      <h1>SLA</h1>
      <section aria-labelledby="templates-h">
        <h2 id="templates-h">Templates</h2>
        <Load loaded={templates} label="SLA templates">
          {(list) => <Templates templates={list} />}
        </Load>
      </section>
      <section aria-labelledby="report-h">
        <h2 id="report-h">Ordered report</h2>
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            const id = String(new FormData(e.currentTarget).get('report') ?? '').trim();
            route(id ? `/sla?report=${encodeURIComponent(id)}` : '/sla');
          }}
        >
          <label for="sla-report">Report id</label>
          <input id="sla-report" name="report" defaultValue={report} key={report} size={38} placeholder="the id its order answered" />
          <button type="submit">Show report</button>
        </form>
        {report && <OrderedReport id={report} />}
      </section>
    </main>
  );
}

export default function Sla() {
  return (
    <NeedsRight title="SLA" right="base-system.sla.read">
      <SlaScreen />
    </NeedsRight>
  );
}
