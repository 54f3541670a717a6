/**
 * Where a whole SLA template stands now (GET …/sla/templates/{id}/live): its availability so far
 * in its period, its error budget and burn rates when it has a target, a Multi's parts. `compact`
 * is the one line of the templates table; the full form heads the report page's live section.
 */
import { api } from '../app/api.js';
import type { operations } from '../app/api-schema.js';
import { showDuration } from '../app/time.js';
import { ApiAlert, useLoad } from './load.js';
import { showPercent } from './sla-model.js';
import { Time } from './time.js';

export type TemplateLive = operations['sla.templateLive']['responses'][200]['content']['application/json'];
type Budget = NonNullable<TemplateLive['budget']>;

const rate = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const share = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });

const budgetText = (b: Budget): string => (b.remaining < 0 ? `overspent by ${showDuration(-b.remainingMs)}` : `${share.format(b.remaining)} of the budget left`);

function BudgetLine({ b }: { b: Budget }) {
  return (
    <>
      <meter min={0} max={1} low={0.25} high={0.5} optimum={1} value={Math.max(0, Math.min(1, b.remaining))} aria-label="Budget left" />{' '}
      <span class={b.remaining < 0 ? 'error' : ''}>{budgetText(b)}</span>
      <span class={b.burnRate['1h'] > 1 ? 'error' : 'muted'}> · burn {rate.format(b.burnRate['1h'])} (1 h)</span>
      <span class={b.burnRate['6h'] > 1 ? 'error' : 'muted'}>, {rate.format(b.burnRate['6h'])} (6 h)</span>
    </>
  );
}

export function useTemplateLive(templateId: number) {
  return useLoad((signal) => api.GET('/api/public/sm/v1/sla/templates/{id}/live', { params: { path: { id: String(templateId) } }, signal }), [templateId])[0];
}

/** One table cell's worth: availability so far and, with a target, the budget left. */
export function TemplateLiveCell({ templateId }: { templateId: number }) {
  const loaded = useTemplateLive(templateId);
  if (loaded.state === 'loading') return <span class="muted">…</span>;
  if (loaded.state === 'error') return <span class="muted">{loaded.problem.status === 503 ? 'figures loading' : 'unavailable'}</span>;
  const live = loaded.data;
  return (
    <span>
      {showPercent(live.availability)} so far
      {live.budget && (
        <>
          {' '}
          · <BudgetLine b={live.budget} />
        </>
      )}
    </span>
  );
}

export function TemplateLivePanel({ live }: { live: TemplateLive }) {
  return (
    <div class="sla-template-live">
      <p>
        <strong>{live.template.name}</strong> now: {showPercent(live.availability)} available so far
        {live.period && (
          <>
            {' '}
            in its period (<Time iso={live.period.start} /> – <Time iso={live.period.end} />)
          </>
        )}{' '}
        over {live.configItems.toLocaleString()} {live.configItems === 1 ? 'CI' : 'CIs'}, as of <Time iso={live.asOf} />.
      </p>
      {live.budget && (
        <p>
          Target {showPercent(live.budget.target)}: <BudgetLine b={live.budget} />{' '}
          <span class="muted">
            (used {showDuration(live.budget.usedMs)} of {showDuration(live.budget.allowedMs)}, weighted over the CIs)
          </span>
        </p>
      )}
      {live.parts.length > 0 && (
        <div class="table-scroll" role="region" aria-label="Live figures of the parts" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Part</th>
                <th scope="col">Weight</th>
                <th scope="col">Influence</th>
                <th scope="col">CIs</th>
                <th scope="col">Available so far</th>
                <th scope="col">Error budget</th>
              </tr>
            </thead>
            <tbody>
              {live.parts.map((p) => (
                <tr key={p.template.id}>
                  <th scope="row">{p.template.name}</th>
                  <td>{p.weight}</td>
                  <td>{share.format(p.influence)}</td>
                  <td>{p.configItems.toLocaleString()}</td>
                  <td>{showPercent(p.availability)}</td>
                  <td>{p.budget ? <BudgetLine b={p.budget} /> : <span class="muted">no target</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** The panel, loaded. */
export function TemplateLiveSection({ templateId }: { templateId: number }) {
  const loaded = useTemplateLive(templateId);
  if (loaded.state === 'loading') return <p class="loading">Loading the template’s live figures…</p>;
  if (loaded.state === 'error') return <ApiAlert problem={loaded.problem} />;
  return <TemplateLivePanel live={loaded.data} />;
}
