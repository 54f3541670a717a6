/**
 * Who may use a CI besides its owner workgroup (spec 2.8): its access grants, and sharing it
 * (POST …/work-groups), changing a grant (PUT …/work-groups) and removing one (DELETE
 * …/work-groups/{sharedId}). Only members of the owner workgroup may; the API says so at the
 * form when the caller is not one.
 */
import { useEffect, useState } from 'preact/hooks';
import { type ApiProblem, api, problemOf } from '../app/api.js';
import { Field, FormError } from './cmdb-field.js';
import { type ConfigItem, errorAt, formError, type Grant, RIGHTS, type Right, rightLabel, SHARE_TYPES, type ShareType, shareTypeLabel } from './cmdb-model.js';
import { loadWorkGroups, workGroups } from './cmdb-reference.js';
import { ConfirmDialog } from './confirm.js';

const workGroupName = (id: number): string => (id === 0 ? 'Every workgroup' : (workGroups.value?.find((w) => w.id === id)?.name ?? `Workgroup ${id}`));

export function CiGrants({ ci, onChanged }: { ci: ConfigItem; onChanged: () => void }) {
  const [editing, setEditing] = useState<number | undefined>();
  const [removing, setRemoving] = useState<Grant | undefined>();
  const [removeProblem, setRemoveProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => void loadWorkGroups(), []);

  return (
    <section class="ci-section" aria-labelledby="ci-grants-h">
      <h2 id="ci-grants-h">Access</h2>
      <p>
        Owned by <strong>{ci.ownerWorkGroup.name}</strong>: its members may do everything with this CI and the CIs below it.
      </p>
      <h3>Shared with</h3>
      {ci.sharedToWorkGroups.length === 0 ? (
        <p class="muted">No other workgroup.</p>
      ) : (
        <div class="table-scroll" role="region" aria-label="Access grants" tabIndex={0}>
          <table class="ci-grants">
            <caption class="visually-hidden">Access grants</caption>
            <thead>
              <tr>
                <th scope="col">Workgroup</th>
                <th scope="col">Reaches</th>
                <th scope="col">Rights</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {ci.sharedToWorkGroups.map((g) =>
                editing === g.id ? (
                  <tr key={g.id}>
                    <td colSpan={4}>
                      <GrantForm
                        ci={ci}
                        grant={g}
                        onDone={() => {
                          setEditing(undefined);
                          onChanged();
                        }}
                        onCancel={() => setEditing(undefined)}
                      />
                    </td>
                  </tr>
                ) : (
                  <tr key={g.id}>
                    <th scope="row">{workGroupName(g.workGroupId)}</th>
                    <td>{shareTypeLabel(g.shareType)}</td>
                    <td>{g.grants.map(rightLabel).join(', ')}</td>
                    <td class="actions">
                      <button type="button" class="small" onClick={() => setEditing(g.id)} aria-label={`Change the access of ${workGroupName(g.workGroupId)}`}>
                        Change
                      </button>{' '}
                      <button type="button" class="small" onClick={() => setRemoving(g)} aria-label={`Remove the access of ${workGroupName(g.workGroupId)}`}>
                        Remove
                      </button>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
      <h3>Share</h3>
      <GrantForm ci={ci} onDone={onChanged} />
      <ConfirmDialog
        open={removing !== undefined}
        title="Remove the access?"
        confirmLabel="Remove access"
        busy={busy}
        onCancel={() => {
          setRemoving(undefined);
          setRemoveProblem(undefined);
        }}
        onConfirm={async () => {
          if (!removing) return;
          setBusy(true);
          const { error, response } = await api.DELETE('/api/public/sm/v2/rsm/config-items/{id}/work-groups/{sharedId}', {
            params: { path: { id: String(ci.id), sharedId: String(removing.id) } },
          });
          setBusy(false);
          if (!response.ok) {
            const problem = problemOf(error, response.status);
            setRemoveProblem(problem.detail ?? problem.title ?? 'The access could not be removed');
            return;
          }
          setRemoving(undefined);
          setRemoveProblem(undefined);
          onChanged();
        }}
      >
        <p>
          {removing &&
            `${workGroupName(removing.workGroupId)} will lose ${removing.grants.map(rightLabel).join(', ').toLowerCase()} on ${shareTypeLabel(removing.shareType).toLowerCase()}.`}
        </p>
        {removeProblem && (
          <p class="error" role="alert">
            {removeProblem}
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}

const OWNER_CODES = ['ci.share_forbidden', 'ci.access_change_forbidden'];

/** Shares the CI (no `grant`) or changes one grant. */
function GrantForm({ ci, grant, onDone, onCancel }: { ci: ConfigItem; grant?: Grant; onDone: () => void; onCancel?: () => void }) {
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const [rights, setRights] = useState<ReadonlySet<Right>>(new Set(grant?.grants ?? ['base-system.rsm.read']));
  const prefix = grant ? `grant-${grant.id}` : `ci-${ci.id}-share`;

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const shareType = String(form.get('shareType')) as ShareType;
    const grants = RIGHTS.map((r) => r.value).filter((r) => rights.has(r));
    if (!grant && form.get('workGroupId') === '') {
      setProblem({ status: 400, detail: 'Choose a workgroup', errors: [{ path: '/workGroupId', message: 'Choose a workgroup' }] });
      return;
    }
    setBusy(true);
    const path = { params: { path: { id: String(ci.id) } } };
    const answer = grant
      ? await api.PUT('/api/public/sm/v2/rsm/config-items/{id}/work-groups', { ...path, body: { id: grant.id, workGroupId: grant.workGroupId, shareType, grants } })
      : await api.POST('/api/public/sm/v2/rsm/config-items/{id}/work-groups', {
          ...path,
          body: { workGroupId: form.get('workGroupId') === '' ? null : Number(form.get('workGroupId')), shareType, grants },
        });
    setBusy(false);
    if (answer.response.ok) {
      setProblem(undefined);
      onDone();
    } else setProblem(problemOf(answer.error, answer.response.status));
  };

  const errors = {
    workGroup: errorAt(problem, 'workGroupId', ['work_group.not_found', 'grant.already_set', 'grant.work_group_missing']),
    shareType: errorAt(problem, 'shareType'),
    grants: errorAt(problem, 'grants', ['grant.list_missing']),
  };
  const owner = OWNER_CODES.includes(problem?.code ?? '') ? problem?.detail : undefined;
  return (
    <form class="ci-grant-form" onSubmit={submit} aria-label={grant ? `Change the access of ${workGroupName(grant.workGroupId)}` : 'Share with a workgroup'}>
      {!grant && (
        <Field id={`${prefix}-wg`} label="Workgroup" error={errors.workGroup}>
          {(a11y) => (
            <select {...a11y} name="workGroupId">
              <option value="">Choose a workgroup</option>
              <option value="0">Every workgroup (also ones created later)</option>
              {workGroups.value
                ?.filter((w) => w.id !== ci.ownerWorkGroup.id)
                .map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.name}
                  </option>
                ))}
            </select>
          )}
        </Field>
      )}
      {grant && errors.workGroup && <p class="field-error">{errors.workGroup}</p>}
      <Field id={`${prefix}-type`} label="Reaches" error={errors.shareType}>
        {(a11y) => (
          <select {...a11y} name="shareType">
            {SHARE_TYPES.map((s) => (
              <option key={s.value} value={s.value} selected={s.value === (grant?.shareType ?? 'Tree')}>
                {s.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <fieldset
        class={`rights${errors.grants ? ' invalid' : ''}`}
        aria-describedby={errors.grants ? `${prefix}-rights-error` : undefined}
        aria-invalid={errors.grants ? true : undefined}
      >
        <legend>Rights</legend>
        {RIGHTS.map((r) => (
          <label key={r.value} class="inline">
            <input
              type="checkbox"
              checked={rights.has(r.value)}
              onChange={(e) => {
                const next = new Set(rights);
                if (e.currentTarget.checked) next.add(r.value);
                else next.delete(r.value);
                setRights(next);
              }}
            />{' '}
            {r.label}
          </label>
        ))}
        {errors.grants && (
          <span id={`${prefix}-rights-error`} class="field-error">
            {errors.grants}
          </span>
        )}
      </fieldset>
      <FormError message={owner ?? formError(problem, Object.values(errors))} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : grant ? 'Save access' : 'Share'}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
