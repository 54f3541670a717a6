/**
 * The maintenance modes that cover a CI, now or later: modes naming the CI, and modes naming an
 * ancestor with the scope `CiAndChildren` deep enough to reach it (spec 2.10), read through
 * POST /api/public/sm/v1/rsm-maintenance/filter; finished and canceled modes are left out.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, problemOf } from '../app/api.js';
import { hasRight } from '../app/session.js';
import type { MaintenanceMode } from './cmdb-model.js';
import { Time } from './time.js';

interface Covering {
  mode: MaintenanceMode;
  /** The ancestor whose entry covers the CI; undefined: an entry on the CI itself. */
  via?: { id: number; name: string };
}

/** `ancestors`: nearest first. */
export function CiMaintenance({ ciId, ancestors }: { ciId: number; ancestors: ReadonlyArray<{ id: number; name: string }> }) {
  const [answer, setAnswer] = useState<Covering[] | string | undefined>();
  const allowed = hasRight('base-system.rsm-maintenance.read') || hasRight('base-system.admin');
  useEffect(() => {
    if (!allowed) {
      setAnswer('You may not read maintenance modes.');
      return;
    }
    let current = true;
    setAnswer(undefined);
    const ids = [ciId, ...ancestors.map((a) => a.id)];
    void api
      .POST('/api/public/sm/v1/rsm-maintenance/filter', {
        params: { query: { sortCol: 'dateStart', sortDir: 'asc', perPage: '200' } },
        body: { configItemIds: ids },
      })
      .then(({ data, error, response }) => {
        if (!current) return;
        if (!data) {
          setAnswer(response.status === 403 ? 'You may not read maintenance modes.' : (problemOf(error, response.status).detail ?? 'The modes could not be read'));
          return;
        }
        const distance = new Map(ancestors.map((a, i) => [a.id, i + 1]));
        const out: Covering[] = [];
        for (const mode of data) {
          if (mode.state === 'Completed' || mode.state === 'Canceled') continue;
          const own = mode.configItems.some((e) => e.id === ciId);
          const through = mode.configItems.find((e) => {
            const d = distance.get(e.id);
            return d !== undefined && e.scope === 'CiAndChildren' && (e.depth < 0 || e.depth >= d);
          });
          if (own) out.push({ mode });
          else if (through) out.push({ mode, via: ancestors.find((a) => a.id === through.id)! });
        }
        setAnswer(out);
      });
    return () => {
      current = false;
    };
  }, [ciId, ancestors, allowed]);

  return (
    <section class="ci-section" aria-labelledby="ci-maintenance-h">
      <h2 id="ci-maintenance-h">Maintenance</h2>
      {answer === undefined ? (
        <p class="muted">Loading…</p>
      ) : typeof answer === 'string' ? (
        <p class="muted">{answer}</p>
      ) : answer.length === 0 ? (
        <p>No maintenance mode covers it now or later.</p>
      ) : (
        <ul class="ci-modes">
          {answer.map(({ mode, via }) => {
            // A recurring mode is Active for its whole span; it covers the CI only within a window.
            const window = mode.recurrence ? (mode.recurrence.current ?? mode.recurrence.next[0] ?? mode) : mode;
            const coveringNow = mode.recurrence ? mode.recurrence.current != null : mode.state === 'Active';
            return (
              <li key={mode.id}>
                <strong>{mode.title || `Mode ${mode.id}`}</strong>{' '}
                <span class={`mode-state mode-${mode.state.toLowerCase()}`}>
                  {coveringNow ? 'Active now' : mode.recurrence && mode.state === 'Active' ? 'Next window' : mode.state}
                </span>
                <span class="muted">
                  {' '}
                  · <Time iso={window.dateStart} /> to <Time iso={window.dateEnd} />
                  {mode.recurrence ? ` · repeats (${mode.recurrence.rule})` : ''}
                  {via ? ` · through ${via.name}, above it` : ''}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
