/**
 * /sla: the SLA templates the user may read, the form that orders a report (the URL's `template`
 * chooses one), and the reports ordered in this browser in the last day (the API lists none).
 * A report is its own page, /sla/reports/{id}; the old `?report=<id>` links lead there.
 */
import { useLocation } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { api } from '../app/api.js';
import { Load, NeedsRight, TableScroll, useLoad } from '../components/load.js';
import { SlaOrderForm } from '../components/sla-order-form.js';
import { TemplateLiveCell } from '../components/sla-template-live.js';
import { owner, periodName, REPORT_PATH, recentReports, rememberReport, type Template } from '../components/sla-model.js';

function Templates({ templates }: { templates: Template[] }) {
  if (templates.length === 0) return <p class="empty">No SLA template you may read. An administrator makes them, in the Admin screen.</p>;
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
            <th scope="col">Now</th>
            <th scope="col">Description</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {templates.map((t) => (
            <tr key={t.id}>
              <td>{t.id}</td>
              <td>{t.name}</td>
              <td>{t.type === 'Multi' ? 'Multi-template' : 'Single'}</td>
              <td>{periodName(t.period)}</td>
              <td>{owner(t)}</td>
              <td>
                <TemplateLiveCell templateId={t.id} />
              </td>
              <td>{t.description}</td>
              <td>
                <a href={`/sla?template=${t.id}#order-h`} aria-label={`Order a report of ${t.name}`}>
                  Order a report
                </a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function Recent() {
  const list = recentReports();
  if (list.length === 0) return <p class="muted">None yet. A report’s results are kept for a day after it is ordered.</p>;
  return (
    <ul class="sla-recent">
      {list.map((r) => (
        <li key={r.id}>
          <a href={REPORT_PATH(r.id)}>{r.template}</a> <span class="muted">ordered {new Date(r.orderedAt).toLocaleString()}</span>
        </li>
      ))}
    </ul>
  );
}

function SlaScreen() {
  const { query, route } = useLocation();
  const oldLink = (query['report'] ?? '').trim();
  const templateId = Number(query['template']) || undefined;
  useEffect(() => {
    if (oldLink) route(REPORT_PATH(oldLink), true);
  }, [oldLink]);
  const [templates] = useLoad((signal) => api.GET('/api/public/sm/v1/sla/templates', { signal }), []);
  if (oldLink) return <p class="loading">Opening the report…</p>;
  return (
    <main class="sla">
      <h1>SLA</h1>
      <section aria-labelledby="templates-h">
        <h2 id="templates-h">Templates</h2>
        <Load loaded={templates} label="SLA templates">
          {(list) => <Templates templates={list} />}
        </Load>
      </section>
      <section aria-labelledby="order-h">
        <h2 id="order-h">Order a report</h2>
        <Load loaded={templates} label="SLA templates">
          {(list) =>
            list.length === 0 ? (
              <p class="muted">There is no template to order a report of.</p>
            ) : (
              <SlaOrderForm
                key={templateId}
                templates={list}
                templateId={templateId}
                onOrdered={(report) => {
                  rememberReport({ id: report.id, template: report.template.name, orderedAt: Date.now() });
                  route(REPORT_PATH(report.id));
                }}
              />
            )
          }
        </Load>
      </section>
      <section aria-labelledby="recent-h">
        <h2 id="recent-h">Reports ordered here</h2>
        <Recent />
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            const id = String(new FormData(e.currentTarget).get('report') ?? '').trim();
            if (id) route(REPORT_PATH(id));
          }}
        >
          <label for="sla-report">Report id</label>
          <input id="sla-report" name="report" size={38} placeholder="the id its order answered" autoComplete="off" />
          <button type="submit">Open report</button>
        </form>
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
