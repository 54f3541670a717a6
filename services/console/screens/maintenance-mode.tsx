/**
 * /maintenance/new and /maintenance/:id: one maintenance mode, in the form with its live preview
 * (components/maintenance-form.tsx), and, for a saved mode, canceling or completing it with the
 * spec's rules said first. Without the write right the mode is shown, not offered for editing.
 */
import { useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api } from '../app/api.js';
import { hasRight } from '../app/session.js';
import { Load, NeedsRight, useLoad } from '../components/load.js';
import { MaintenanceForm } from '../components/maintenance-form.js';
import { browserZone, type Draft, type Fixed, labelsText, localInput } from '../components/maintenance-form-model.js';
import { Lifecycle } from '../components/maintenance-lifecycle.js';
import type { Mode } from '../components/maintenance-occurrences.js';
import { Time } from '../components/time.js';

const mayWrite = (): boolean => hasRight('base-system.rsm-maintenance.write') || hasRight('base-system.admin');

function draftOf(mode: Mode | undefined): { draft: Draft; fixed: Fixed } {
  if (!mode) {
    return {
      draft: {
        title: '',
        start: '',
        end: '',
        timeZone: browserZone(),
        scopes: [{ key: 1, ci: null, scope: 'Ci', depth: '' }],
        labels: '',
        repeats: false,
        recurrence: { rule: '', exdates: '' },
      },
      fixed: {},
    };
  }
  const timeZone = mode.recurrence?.timeZone ?? browserZone();
  const start = localInput(mode.dateStart, timeZone);
  const end = localInput(mode.dateEnd, timeZone);
  return {
    draft: {
      title: mode.title ?? '',
      start,
      end,
      timeZone,
      scopes: mode.configItems.map((c, i) => ({
        key: i + 1,
        ci: { id: c.id, name: `CI ${c.id}` },
        scope: c.scope,
        depth: c.scope === 'CiAndChildren' && c.depth >= 0 ? String(c.depth) : '',
      })),
      labels: labelsText(mode.labels),
      repeats: mode.recurrence !== undefined,
      recurrence: { rule: mode.recurrence?.rule ?? '', exdates: mode.recurrence?.exdates.join(', ') ?? '' },
    },
    fixed: { start: { input: start, iso: mode.dateStart }, end: { input: end, iso: mode.dateEnd } },
  };
}

function Facts({ mode }: { mode: Mode }) {
  return (
    <dl class="facts">
      <dt>State</dt>
      <dd>
        <span class={`badge mstate-${mode.state.toLowerCase()}`}>{mode.state}</span>
      </dd>
      <dt>{mode.recurrence ? 'First window' : 'Window'}</dt>
      <dd>
        <Time iso={mode.dateStart} /> – <Time iso={mode.dateEnd} />
      </dd>
      {mode.recurrence && (
        <>
          <dt>Repeats</dt>
          <dd>
            <code>{mode.recurrence.rule}</code> in {mode.recurrence.timeZone}
            {mode.recurrence.seriesEnd ? (
              <>
                , until <Time iso={mode.recurrence.seriesEnd} />
              </>
            ) : (
              ', with no end'
            )}
          </dd>
          {mode.recurrence.current && (
            <>
              <dt>Now</dt>
              <dd>
                In a window until <Time iso={mode.recurrence.current.dateEnd} />
              </dd>
            </>
          )}
        </>
      )}
    </dl>
  );
}

function ModePage({ mode: loaded }: { mode: Mode }) {
  const { route } = useLocation();
  const [mode, setMode] = useState(loaded);
  const [round, setRound] = useState(0);
  const { draft, fixed } = draftOf(mode);
  const title = mode.title || `Mode ${mode.id}`;
  return (
    <main class="maintenance-mode">
      <nav class="crumbs" aria-label="Breadcrumb">
        <a href="/maintenance">Maintenance</a> › {title}
      </nav>
      <h1>{title}</h1>
      <Facts mode={mode} />
      {mayWrite() ? (
        <>
          <MaintenanceForm
            key={`${mode.id}-${round}`}
            mode={mode}
            initial={draft}
            fixed={fixed}
            onSaved={(saved) => {
              setMode(saved);
              setRound((n) => n + 1);
            }}
            onCancel={() => route('/maintenance')}
          />
          <Lifecycle
            mode={mode}
            onChanged={(changed) => {
              setMode(changed);
              setRound((n) => n + 1);
            }}
          />
        </>
      ) : (
        <p class="muted">You may read this mode; changing it needs the right base-system.rsm-maintenance.write.</p>
      )}
    </main>
  );
}

function ExistingMode({ id }: { id: string }) {
  const [loaded] = useLoad((signal) => api.GET('/api/public/sm/v1/rsm-maintenance/{id}', { params: { path: { id } }, signal }), [id]);
  return (
    <Load loaded={loaded} label="the maintenance mode">
      {(mode) => <ModePage mode={mode} key={mode.id} />}
    </Load>
  );
}

function NewMode() {
  const { route } = useLocation();
  const { draft, fixed } = draftOf(undefined);
  if (!mayWrite()) {
    return (
      <main>
        <h1>New maintenance mode</h1>
        <p>
          Creating a maintenance mode needs the platform right <code>base-system.rsm-maintenance.write</code>, which your user does not hold.
        </p>
      </main>
    );
  }
  return (
    <main class="maintenance-mode">
      <nav class="crumbs" aria-label="Breadcrumb">
        <a href="/maintenance">Maintenance</a> › New mode
      </nav>
      <h1>New maintenance mode</h1>
      <MaintenanceForm initial={draft} fixed={fixed} onSaved={(saved) => route(`/maintenance/${saved.id}`)} onCancel={() => route('/maintenance')} />
    </main>
  );
}

export default function MaintenanceMode() {
  const { params } = useRoute();
  const id = params['id'];
  return (
    <NeedsRight title="Maintenance" right="base-system.rsm-maintenance.read">
      {id && /^\d+$/.test(id) ? (
        <ExistingMode id={id} />
      ) : id ? (
        <main>
          <h1>Maintenance</h1>
          <p>There is no maintenance mode “{id}”.</p>
        </main>
      ) : (
        <NewMode />
      )}
    </NeedsRight>
  );
}
