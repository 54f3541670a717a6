/**
 * A stream's state for admins: what it is (status, framing, parser, route label, retention) and
 * the status changes the API allows: activate, deactivate (its key is then refused with 422) and
 * mark for deletion, which cannot be undone, so it asks first.
 */
import { useState } from 'preact/hooks';
import { api, type ApiProblem } from '../app/api.js';
import type { operations } from '../app/api-schema.js';
import { send } from './admin-kit.js';
import { ConfirmDialog } from './confirm.js';
import { ApiAlert } from './load.js';
import { Time } from './time.js';

export type Stream = operations['admin.getStream']['responses'][200]['content']['application/json'];

const STATUS_TEXT: Record<Stream['status'], string> = { active: 'Active', inactive: 'Inactive', pendingDeletion: 'Pending deletion' };

export function StatusBadge({ status }: { status: Stream['status'] }) {
  return <span class={`badge sstate-${status.toLowerCase()}`}>{STATUS_TEXT[status]}</span>;
}

type Action = 'activate' | 'deactivate' | 'mark-for-deletion';

export function StreamStatus({ stream, onChanged }: { stream: Stream; onChanged: (s: Stream) => void }) {
  const [busy, setBusy] = useState<Action | undefined>();
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [asking, setAsking] = useState(false);
  const path = { params: { path: { id: String(stream.id) } } };
  const act = async (action: Action): Promise<void> => {
    setBusy(action);
    const answer = await send(
      action === 'activate'
        ? api.POST('/api/admin/v1/streams/{id}/activate', path)
        : action === 'deactivate'
          ? api.POST('/api/admin/v1/streams/{id}/deactivate', path)
          : api.POST('/api/admin/v1/streams/{id}/mark-for-deletion', path),
    );
    setBusy(undefined);
    setProblem(answer.problem);
    if (answer.data) {
      setAsking(false);
      onChanged(answer.data);
    }
  };
  const c = stream.config;
  return (
    <section class="stream-state" aria-labelledby="stream-state-h">
      <h2 id="stream-state-h">State</h2>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={stream.status} />
        </dd>
        <dt>Framing</dt>
        <dd>{c.framing ?? 'body'}</dd>
        <dt>Parser</dt>
        <dd>{c.parser ? c.parser.type : 'JSON'}</dd>
        {c.routeLabel && (
          <>
            <dt>Route label</dt>
            <dd>{c.routeLabel}</dd>
          </>
        )}
        {c.retentionDays !== undefined && (
          <>
            <dt>Kept</dt>
            <dd>{c.retentionDays} days</dd>
          </>
        )}
        <dt>Created</dt>
        <dd>
          <Time iso={stream.createdAt} />
        </dd>
      </dl>
      {stream.status === 'pendingDeletion' ? (
        <p class="muted">Marked for deletion: its key is refused and it can no longer be activated.</p>
      ) : (
        <div class="buttons">
          {stream.status === 'inactive' ? (
            <button type="button" onClick={() => void act('activate')} disabled={busy !== undefined}>
              {busy === 'activate' ? 'Activating…' : 'Activate'}
            </button>
          ) : (
            <button type="button" onClick={() => void act('deactivate')} disabled={busy !== undefined}>
              {busy === 'deactivate' ? 'Deactivating…' : 'Deactivate'}
            </button>
          )}
          <button type="button" class="danger" onClick={() => setAsking(true)} disabled={busy !== undefined}>
            Mark for deletion
          </button>
        </div>
      )}
      {!asking && <ApiAlert problem={problem} />}
      <ConfirmDialog
        open={asking}
        title={`Mark ${stream.name} for deletion?`}
        confirmLabel="Mark for deletion"
        busy={busy !== undefined}
        onConfirm={() => void act('mark-for-deletion')}
        onCancel={() => {
          setAsking(false);
          setProblem(undefined);
        }}
      >
        <p>Its key is refused from then on, and the stream cannot be activated again. What it stored stays readable until it is deleted.</p>
        <ApiAlert problem={problem} />
      </ConfirmDialog>
    </section>
  );
}
