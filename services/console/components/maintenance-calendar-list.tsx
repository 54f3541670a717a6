/**
 * The list view: every window of the shown days in time order, one row each, with the mode's
 * state, scope and rule. Capped (a busy week of 10 000 modes is thousands of windows): past the
 * cap the search narrows it.
 */
import { TableScroll } from './load.js';
import { fullTime } from './maintenance-calendar-grid.js';
import type { Occurrence } from './maintenance-occurrences.js';

const MAX_ROWS = 500;

export function CalendarList({ occurrences, title, utc }: { occurrences: Occurrence[]; title: string; utc: boolean }) {
  if (occurrences.length === 0) return <p class="empty">No maintenance window in these days.</p>;
  const rows = occurrences.slice(0, MAX_ROWS);
  return (
    <>
      {rows.length < occurrences.length && (
        <p class="notice" role="status">
          The first {rows.length} of {occurrences.length.toLocaleString()} windows; search to narrow them.
        </p>
      )}
      <TableScroll label="Maintenance windows list">
        <table class="mcal-list">
          <caption class="visually-hidden">Maintenance windows, {title}</caption>
          <thead>
            <tr>
              <th scope="col">Start</th>
              <th scope="col">End</th>
              <th scope="col">Mode</th>
              <th scope="col">State</th>
              <th scope="col">CIs</th>
              <th scope="col">Repeats</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((o) => (
              <tr key={`${o.mode.id}-${o.start}`} class={o.canceled ? 'canceled' : undefined}>
                <td>
                  <time dateTime={new Date(o.start).toISOString()} title={new Date(o.start).toISOString()}>
                    {fullTime(o.start, utc)}
                  </time>
                </td>
                <td>
                  <time dateTime={new Date(o.end).toISOString()} title={new Date(o.end).toISOString()}>
                    {fullTime(o.end, utc)}
                  </time>
                </td>
                <td>
                  <a href={`/maintenance/${o.mode.id}`}>{o.mode.title || `Mode ${o.mode.id}`}</a>
                </td>
                <td>
                  <span class={`badge mstate-${o.mode.state.toLowerCase()}`}>{o.mode.state}</span>
                </td>
                <td>
                  {o.mode.configItems.map((ci, i) => (
                    <span key={ci.id}>
                      {i > 0 && ', '}
                      <a href={`/cmdb/ci/${ci.id}`}>CI {ci.id}</a>
                      {ci.scope === 'CiAndChildren' && <span class="muted"> and children{ci.depth >= 0 ? ` (depth ${ci.depth})` : ''}</span>}
                    </span>
                  ))}
                </td>
                <td>
                  {o.mode.recurrence ? (
                    <>
                      <code>{o.mode.recurrence.rule}</code> <span class="muted">({o.mode.recurrence.timeZone})</span>
                    </>
                  ) : (
                    <span class="muted">once</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
