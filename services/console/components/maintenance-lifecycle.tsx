/**
 * Ending a mode early (PUT/PATCH with `cancel=true`, spec 3.2): a mode that has not started is
 * canceled (it never takes effect); a running one is completed (it ends now). A mode that has
 * ended can be neither, and the screen says so. The rule is shown before the user confirms.
 */
import { useState } from 'preact/hooks';
import { type ApiProblem, api, problemOf } from '../app/api.js';
import { ConfirmDialog } from './confirm.js';
import { ApiAlert } from './load.js';
import type { Mode } from './maintenance-occurrences.js';

const RULES = {
  Scheduled: {
    action: 'Cancel this mode',
    title: 'Cancel this maintenance mode?',
    rule: 'The mode has not started, so it can be canceled: it will not take effect, and its CIs will not be in maintenance. A canceled mode cannot be changed or resumed.',
  },
  Active: {
    action: 'Complete now',
    title: 'Complete this maintenance mode now?',
    rule: 'The mode is running, so it cannot be canceled, only completed: it ends now and its CIs leave maintenance. A recurring mode has no further windows. A completed mode cannot be changed.',
  },
} as const;

export function Lifecycle({ mode, onChanged }: { mode: Mode; onChanged: (mode: Mode) => void }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  if (mode.state === 'Completed' || mode.state === 'Canceled') {
    return (
      <p class="notice">
        This mode is {mode.state === 'Completed' ? 'completed' : 'canceled'}: a mode that has ended can be neither canceled nor completed, and cannot be changed.
      </p>
    );
  }
  const r = RULES[mode.state];
  const confirm = async () => {
    setBusy(true);
    const { data, error, response } = await api.PATCH('/api/public/sm/v1/rsm-maintenance/{id}', { params: { path: { id: String(mode.id) } }, body: { cancel: true } });
    setBusy(false);
    setOpen(false);
    if (data) onChanged(data);
    else setProblem(problemOf(error, response.status));
  };
  return (
    <section class="mlifecycle" aria-labelledby="mlifecycle-h">
      <h2 id="mlifecycle-h">{mode.state === 'Scheduled' ? 'Cancel' : 'Complete'}</h2>
      <p class="muted">{r.rule}</p>
      <button type="button" onClick={() => setOpen(true)}>
        {r.action}
      </button>
      <ApiAlert problem={problem} />
      <ConfirmDialog open={open} title={r.title} confirmLabel={r.action} busy={busy} onConfirm={() => void confirm()} onCancel={() => setOpen(false)}>
        <p>{r.rule}</p>
      </ConfirmDialog>
    </section>
  );
}
