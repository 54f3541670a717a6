/**
 * A Multi template's report: one row per part template with its weight and its influence on the
 * whole (spec 2.16; JSON times in milliseconds), and the weighted availability they make.
 */
import { showDuration } from '../app/time.js';
import { showPercent, type TemplateRow } from './sla-model.js';

const weightFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 3 });
/** `influence` is the part's share of the weights, a fraction. */
const share = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });

export function SlaMultiTable({ rows }: { rows: TemplateRow[] }) {
  if (rows.length === 0) return <p class="empty">The multi-template has no part.</p>;
  let weights = 0;
  let weighted = 0;
  for (const r of rows) {
    weights += r.weight;
    weighted += r.weight * r.serviceAvailability;
  }
  return (
    <>
      <p>
        Weighted availability (Σ weight × availability / Σ weights): <strong>{showPercent(weights > 0 ? weighted / weights : 100)}</strong>
      </p>
      <div class="table-scroll" role="region" aria-label="Parts of the multi-template" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">Template</th>
              <th scope="col">Weight</th>
              <th scope="col">Influence</th>
              <th scope="col">Availability</th>
              <th scope="col">OK time</th>
              <th scope="col">Problem time</th>
              <th scope="col">Maintenance</th>
              <th scope="col">Unattended</th>
              <th scope="col">Longest outage</th>
              <th scope="col">Problems</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.name}>
                <th scope="row">{r.name}</th>
                <td>{weightFormat.format(r.weight)}</td>
                <td>{share.format(r.influence)}</td>
                <td>{showPercent(r.serviceAvailability)}</td>
                <td>{showDuration(r.okTime)}</td>
                <td>{showDuration(r.problemTime)}</td>
                <td>{showDuration(r.maintenanceTime)}</td>
                <td>{showDuration(r.unattendedTime)}</td>
                <td>{showDuration(r.maxDownTime)}</td>
                <td>{r.eventsCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
