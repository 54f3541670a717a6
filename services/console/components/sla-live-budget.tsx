/**
 * Where the report's worst CIs stand now: live availability (rolling 24 h, 7 d, 30 d) and the
 * error budget of the report's template with its burn rates, from the CMDB's live SLA (POST
 * …/config-items/filter?includeSla=true), below the template's own figures
 * (sla-template-live.tsx). Only templates with a target have a budget; the target found here is
 * also the one the chart draws.
 */
import { api } from '../app/api.js';
import type { operations } from '../app/api-schema.js';
import { showDuration } from '../app/time.js';
import { ApiAlert, type Loaded, useLoad } from './load.js';
import { Time } from './time.js';
import { showPercent } from './sla-model.js';

type LiveCi = operations['cmdb.filterConfigItems']['responses'][200]['content']['application/json'][number];
export type Budget = NonNullable<LiveCi['sla']>['budgets'][number];

/** How many of the worst CIs are asked about: enough to see the trouble, few enough to ask at once. */
export const LIVE_CIS = 20;

export interface LiveBudgets {
  loaded: Loaded<LiveCi[]>;
  /** The template's target, when some CI has a budget for it. */
  target: number | undefined;
}

export function useLiveBudgets(templateId: number, ciIds: number[]): LiveBudgets {
  const key = ciIds.join(',');
  const [loaded] = useLoad(
    (signal) =>
      ciIds.length === 0
        ? Promise.resolve({ data: [] as LiveCi[], response: new Response('[]') })
        : api.POST('/api/public/sm/v2/rsm/config-items/filter', { params: { query: { includeSla: true } }, body: { ids: ciIds }, signal }),
    [templateId, key],
  );
  let target: number | undefined;
  if (loaded.state === 'ok') {
    for (const ci of loaded.data) target ??= ci.sla?.budgets.find((b) => b.template.id === templateId)?.target;
  }
  return { loaded, target };
}

const rate = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const share = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });

function BudgetCell({ b }: { b: Budget | undefined }) {
  if (!b) return <td class="muted">—</td>;
  return (
    <td>
      <meter min={0} max={1} low={0.25} high={0.5} optimum={1} value={Math.max(0, Math.min(1, b.remaining))} aria-label="Budget left" />{' '}
      <span class={b.remaining < 0 ? 'error' : ''}>
        {b.remaining < 0 ? `overspent by ${showDuration(-b.remainingMs)}` : `${share.format(b.remaining)} left (${showDuration(b.remainingMs)})`}
      </span>
    </td>
  );
}

export function SlaLiveBudget({ live, templateId, order }: { live: LiveBudgets; templateId: number; order: number[] }) {
  const { loaded, target } = live;
  if (loaded.state === 'loading') return <p class="loading">Loading the live figures…</p>;
  if (loaded.state === 'error') return <ApiAlert problem={loaded.problem} />;
  const byId = new Map(loaded.data.map((ci) => [ci.id, ci]));
  const cis = order.map((id) => byId.get(id)).filter((ci): ci is LiveCi => ci?.sla !== undefined);
  if (cis.length === 0) return <p class="muted">No live figures: none of these CIs is one you may read.</p>;
  const budget = (ci: LiveCi) => ci.sla?.budgets.find((b) => b.template.id === templateId);
  const period = cis.map(budget).find((b) => b !== undefined)?.period;
  return (
    <>
      <p class="muted">
        {target === undefined ? (
          'This template has no target, so no error budget: live availability only.'
        ) : (
          <>
            Target {showPercent(target)} over the template’s current period
            {period && (
              <>
                {' '}
                (<Time iso={period.start} /> – <Time iso={period.end} />)
              </>
            )}
            . A burn rate of 1 spends the budget exactly over the period; above 1 it runs out before.
          </>
        )}{' '}
        The {cis.length === 1 ? 'CI' : `${cis.length} CIs`} worst in the report, as of <Time iso={cis[0]!.sla!.asOf} />.
      </p>
      <div class="table-scroll" role="region" aria-label="Live figures of the worst CIs" tabIndex={0}>
        <table class="sla-live">
          <thead>
            <tr>
              <th scope="col">CI</th>
              <th scope="col">Last 24 h</th>
              <th scope="col">Last 7 d</th>
              <th scope="col">Last 30 d</th>
              {target !== undefined && (
                <>
                  <th scope="col">Error budget</th>
                  <th scope="col">Burn rate 1 h</th>
                  <th scope="col">Burn rate 6 h</th>
                </>
              )}
            </tr>
          </thead>
          <tbody>
            {cis.map((ci) => {
              const b = budget(ci);
              const win = (w: string) => ci.sla?.windows.find((x) => x.window === w);
              return (
                <tr key={ci.id}>
                  <th scope="row">
                    <a href={`/cmdb/ci/${ci.id}`}>{ci.name}</a>
                  </th>
                  {['24h', '7d', '30d'].map((w) => {
                    const figures = win(w);
                    return <td key={w}>{figures ? showPercent(figures.availability) : '—'}</td>;
                  })}
                  {target !== undefined && (
                    <>
                      <BudgetCell b={b} />
                      <td class={b && b.burnRate['1h'] > 1 ? 'error' : ''}>{b ? rate.format(b.burnRate['1h']) : '—'}</td>
                      <td class={b && b.burnRate['6h'] > 1 ? 'error' : ''}>{b ? rate.format(b.burnRate['6h']) : '—'}</td>
                    </>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
