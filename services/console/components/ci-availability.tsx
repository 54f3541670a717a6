/**
 * A CI's live availability (GET …/config-items/{id}?includeSla=true): the rolling 24 h, 7 d and
 * 30 d figures, and the error budget of each SLA template with a target that covers it — how much
 * problem time the period allows, how much is used, what is left, and how fast it burns.
 */
import { showDuration } from '../app/time.js';
import type { LiveSla } from './cmdb-model.js';
import { Time } from './time.js';

const percent = new Intl.NumberFormat(undefined, { maximumFractionDigits: 3 });
const share = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
const rate = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const WINDOW_NAMES: Record<string, string> = { '24h': 'Last 24 hours', '7d': 'Last 7 days', '30d': 'Last 30 days' };

export function CiAvailability({ sla }: { sla: LiveSla | undefined }) {
  return (
    <section class="ci-section" aria-labelledby="ci-sla-h">
      <h2 id="ci-sla-h">Availability</h2>
      {!sla ? (
        <p class="muted">Not available.</p>
      ) : (
        <>
          <div class="table-scroll" role="region" aria-label="Live availability by window" tabIndex={0}>
            <table class="ci-sla">
              <caption class="visually-hidden">Live availability by window</caption>
              <thead>
                <tr>
                  <th scope="col">Window</th>
                  <th scope="col">Availability</th>
                  <th scope="col">Problem time</th>
                  <th scope="col">Maintenance</th>
                  <th scope="col">Longest outage</th>
                </tr>
              </thead>
              <tbody>
                {sla.windows.map((w) => (
                  <tr key={w.window}>
                    <th scope="row">{WINDOW_NAMES[w.window] ?? w.window}</th>
                    <td>{percent.format(w.availability)} %</td>
                    <td>{showDuration(w.problemMs)}</td>
                    <td>{showDuration(w.maintenanceMs)}</td>
                    <td>{showDuration(w.maxDowntimeMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h3>Error budgets</h3>
          {sla.budgets.length === 0 ? (
            <p class="muted">No SLA template with a target covers this CI.</p>
          ) : (
            <ul class="ci-budgets">
              {sla.budgets.map((b) => {
                const left = Math.max(0, Math.min(1, b.remaining));
                const id = `budget-${b.template.id}`;
                return (
                  <li key={b.template.id}>
                    <div class="budget-head">
                      <strong id={id}>{b.template.name}</strong>
                      <span class="muted">
                        {' '}
                        · target {percent.format(b.target)} % · <Time iso={b.period.start} /> to <Time iso={b.period.end} />
                      </span>
                    </div>
                    <div class="budget-bar">
                      <meter aria-labelledby={id} min={0} max={1} low={0.25} high={0.5} optimum={1} value={left} />
                      <span class={b.remaining < 0 ? 'error' : ''}>
                        {b.remaining < 0 ? `Overspent by ${showDuration(-b.remainingMs)}` : `${share.format(b.remaining)} left (${showDuration(b.remainingMs)})`}
                      </span>
                    </div>
                    <p class="muted">
                      Used {showDuration(b.usedMs)} of {showDuration(b.allowedMs)} · burn rate {rate.format(b.burnRate['1h'])} over 1 h, {rate.format(b.burnRate['6h'])} over 6 h
                      {b.burnRate['1h'] > 1 ? ' (faster than the budget allows)' : ''}
                    </p>
                  </li>
                );
              })}
            </ul>
          )}
          <p class="muted">
            As of <Time iso={sla.asOf} />.
          </p>
        </>
      )}
    </section>
  );
}
