/**
 * A CI's place among the others, and changing it: its parent and moving it (POST
 * …/{parentId}/children, or DELETE …/{parentId}/children/{id} to the top level), its children,
 * and its influence links both ways (POST / DELETE …/{dependentId}/influentials). The API's
 * messages are shown at the field they concern.
 */
import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { type ApiProblem, api, problemOf } from '../app/api.js';
import { CiPicker, type PickedCi } from './ci-picker.js';
import { FormError } from './cmdb-field.js';
import { type ConfigItem, ciPath, errorAt, formError } from './cmdb-model.js';
import { ConfirmDialog } from './confirm.js';

const SHOWN_CHILDREN = 25;
const LINK_CODES = [
  'ci.not_found',
  'ci.id_invalid',
  'ci.influence_cycle',
  'ci.hierarchy_cycle',
  'ci.link_across_work_groups',
  'ci.dependent_forbidden',
  'ci.influencing_forbidden',
  'ci.parent_forbidden',
  'ci.move_forbidden',
];

type Ref = { id: number; name: string };

export function CiLinks({ ci, onChanged }: { ci: ConfigItem; onChanged: () => void }) {
  const { route } = useLocation();
  const children = ci.outgoingEdges.filter((e) => e.type === 'Hierarchy').map((e) => e.configItem);
  const influencedBy = ci.incomingEdges.filter((e) => e.type === 'Influence').map((e) => e.configItem);
  const influences = ci.outgoingEdges.filter((e) => e.type === 'Influence').map((e) => e.configItem);
  const [removing, setRemoving] = useState<{ text: string; run: () => Promise<ApiProblem | undefined> } | undefined>();
  const [removeProblem, setRemoveProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const unlinkInfluencing = (other: Ref) =>
    setRemoving({
      text: `${other.name} will no longer influence ${ci.name}.`,
      run: async () => {
        const { error, response } = await api.DELETE('/api/public/sm/v2/rsm/config-items/{dependentId}/influentials/{influentialId}', {
          params: { path: { dependentId: String(ci.id), influentialId: String(other.id) } },
        });
        return response.ok ? undefined : problemOf(error, response.status);
      },
    });
  const unlinkDependent = (other: Ref) =>
    setRemoving({
      text: `${ci.name} will no longer influence ${other.name}.`,
      run: async () => {
        const { error, response } = await api.DELETE('/api/public/sm/v2/rsm/config-items/{dependentId}/influentials/{influentialId}', {
          params: { path: { dependentId: String(other.id), influentialId: String(ci.id) } },
        });
        return response.ok ? undefined : problemOf(error, response.status);
      },
    });

  return (
    <section class="ci-section" aria-labelledby="ci-links-h">
      <h2 id="ci-links-h">Hierarchy and links</h2>

      <h3>Parent</h3>
      <p>{ci.parent ? <a href={ciPath(ci.parent.id)}>{ci.parent.name}</a> : <span class="muted">None: it is at the top level.</span>}</p>
      <MoveForm ci={ci} onMoved={onChanged} />

      <h3>Children</h3>
      {children.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <>
          <ul class="ci-refs">
            {children.slice(0, SHOWN_CHILDREN).map((c) => (
              <li key={c.id}>
                <a href={ciPath(c.id)}>{c.name}</a>
              </li>
            ))}
          </ul>
          {children.length > SHOWN_CHILDREN && <p class="muted">And {children.length - SHOWN_CHILDREN} more: see them in the tree of the CMDB.</p>}
        </>
      )}
      <p>
        <button type="button" onClick={() => route(`/cmdb/ci/new?parent=${ci.id}`)}>
          New child CI
        </button>
      </p>

      <h3>Influenced by</h3>
      <p class="hint">A problem of these CIs lowers this CI’s health.</p>
      <RefList refs={influencedBy} onRemove={unlinkInfluencing} what="influence" />
      <LinkForm
        id={`ci-${ci.id}-influencing`}
        label="Add a CI that influences it"
        exclude={[ci.id, ...influencedBy.map((r) => r.id)]}
        link={async (other) => {
          const { error, response } = await api.POST('/api/public/sm/v2/rsm/config-items/{dependentId}/influentials', {
            params: { path: { dependentId: String(ci.id) } },
            body: { id: other.id },
          });
          return response.ok ? undefined : problemOf(error, response.status);
        }}
        onLinked={onChanged}
      />

      <h3>Influences</h3>
      <p class="hint">This CI’s problems lower their health.</p>
      <RefList refs={influences} onRemove={unlinkDependent} what="influence" />
      <LinkForm
        id={`ci-${ci.id}-dependent`}
        label="Add a CI it influences"
        exclude={[ci.id, ...influences.map((r) => r.id)]}
        link={async (other) => {
          const { error, response } = await api.POST('/api/public/sm/v2/rsm/config-items/{dependentId}/influentials', {
            params: { path: { dependentId: String(other.id) } },
            body: { id: ci.id },
          });
          return response.ok ? undefined : problemOf(error, response.status);
        }}
        onLinked={onChanged}
      />

      <ConfirmDialog
        open={removing !== undefined}
        title="Remove the link?"
        confirmLabel="Remove link"
        busy={busy}
        onCancel={() => {
          setRemoving(undefined);
          setRemoveProblem(undefined);
        }}
        onConfirm={async () => {
          if (!removing) return;
          setBusy(true);
          const problem = await removing.run();
          setBusy(false);
          if (problem) setRemoveProblem(problem.detail ?? problem.title ?? 'The link could not be removed');
          else {
            setRemoving(undefined);
            setRemoveProblem(undefined);
            onChanged();
          }
        }}
      >
        <p>{removing?.text}</p>
        {removeProblem && (
          <p class="error" role="alert">
            {removeProblem}
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}

function RefList({ refs, onRemove, what }: { refs: Ref[]; onRemove: (r: Ref) => void; what: string }) {
  if (refs.length === 0) return <p class="muted">None.</p>;
  return (
    <ul class="ci-refs">
      {refs.map((r) => (
        <li key={r.id}>
          <a href={ciPath(r.id)}>{r.name}</a>{' '}
          <button type="button" class="small" onClick={() => onRemove(r)} aria-label={`Remove the ${what} link with ${r.name}`}>
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}

function LinkForm(props: { id: string; label: string; exclude: number[]; link: (other: PickedCi) => Promise<ApiProblem | undefined>; onLinked: () => void }) {
  const [other, setOther] = useState<PickedCi | null>(null);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const error = errorAt(problem, 'id', LINK_CODES);
  return (
    <form
      class="ci-link-form"
      onSubmit={async (event) => {
        event.preventDefault();
        if (!other) {
          setProblem({ status: 400, detail: 'Choose a CI first', errors: [{ path: '/id', message: 'Choose a CI first' }] });
          return;
        }
        setBusy(true);
        const failed = await props.link(other);
        setBusy(false);
        setProblem(failed);
        if (!failed) {
          setOther(null);
          props.onLinked();
        }
      }}
    >
      <CiPicker id={props.id} label={props.label} value={other} onChange={setOther} error={error} exclude={props.exclude} />
      <FormError message={formError(problem, [error])} />
      <button type="submit" disabled={busy}>
        {busy ? 'Linking…' : 'Link'}
      </button>
    </form>
  );
}

function MoveForm({ ci, onMoved }: { ci: ConfigItem; onMoved: () => void }) {
  const [open, setOpen] = useState(false);
  const [target, setTarget] = useState<PickedCi | null>(null);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  if (!open) {
    return (
      <p>
        <button type="button" onClick={() => setOpen(true)}>
          Move
        </button>
      </p>
    );
  }
  const error = errorAt(problem, 'id', LINK_CODES);
  const move = async (toTop: boolean) => {
    setBusy(true);
    let failed: ApiProblem | undefined;
    if (toTop) {
      if (ci.parent) {
        const { error: e, response } = await api.DELETE('/api/public/sm/v2/rsm/config-items/{parentId}/children/{childId}', {
          params: { path: { parentId: String(ci.parent.id), childId: String(ci.id) } },
        });
        failed = response.ok ? undefined : problemOf(e, response.status);
      }
    } else if (!target) {
      failed = { status: 400, detail: 'Choose the new parent first', errors: [{ path: '/id', message: 'Choose the new parent first' }] };
    } else {
      const { error: e, response } = await api.POST('/api/public/sm/v2/rsm/config-items/{parentId}/children', {
        params: { path: { parentId: String(target.id) } },
        body: { id: ci.id },
      });
      failed = response.ok ? undefined : problemOf(e, response.status);
    }
    setBusy(false);
    setProblem(failed);
    if (!failed) {
      setOpen(false);
      setTarget(null);
      onMoved();
    }
  };
  return (
    <form
      class="ci-move-form"
      aria-label={`Move ${ci.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        void move(false);
      }}
    >
      <CiPicker
        id={`ci-${ci.id}-new-parent`}
        label="New parent"
        value={target}
        onChange={setTarget}
        error={error}
        exclude={[ci.id]}
        hint="The new parent must belong to the same workgroup"
      />
      <FormError message={formError(problem, [error])} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          Move under it
        </button>
        {ci.parent && (
          <button type="button" disabled={busy} onClick={() => void move(true)}>
            Move to the top level
          </button>
        )}
        <button
          type="button"
          disabled={busy}
          onClick={() => {
            setOpen(false);
            setProblem(undefined);
          }}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
