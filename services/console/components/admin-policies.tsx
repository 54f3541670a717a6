/**
 * Notification policies (docs/notifications.md): which events (CIs, priorities, triggers, tags,
 * kinds) go to which receivers of the policy's own workgroup, grouped and repeated how. The list,
 * a new policy, the selected one (`?policy=<id>`): changed (lists replaced whole) or deleted.
 */
import { useState } from 'preact/hooks';
import { type ApiProblem, api } from '../app/api.js';
import { Checks, Notice, type Policy, type PolicyBody, type Receiver, send, textOf, type Trigger } from './admin-kit.js';
import { AdminSplit } from './admin-split.js';
import { CiPicker, type PickedCi } from './ci-picker.js';
import { Field, FormError } from './cmdb-field.js';
import { errorAt, formError } from './cmdb-model.js';
import { useLoad } from './load.js';

const PRIORITIES = ['Problem1', 'Problem2', 'Problem3', 'Problem4'] as const;
const KINDS = ['problem.opened', 'problem.acknowledged', 'problem.resolved', 'problem.flapping', 'maintenance.started', 'maintenance.ended', 'sla.budget_burning'] as const;
type Scope = 'all' | 'ids' | 'labels';
const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

function scopeText(p: Policy): string {
  if (p.configItems === 'all') return 'Every CI';
  if ('ids' in p.configItems) return `${p.configItems.ids.length} CI${p.configItems.ids.length === 1 ? '' : 's'}${p.configItems.withDescendants ? ' and below' : ''}`;
  return `Labels ${p.configItems.labels.join(', ')}`;
}

interface Refs {
  groups: Array<{ id: number; name: string }>;
  receivers: Receiver[];
  triggers: Trigger[];
}

function PolicyForm({ policy, refs, onSaved }: { policy?: Policy; refs: Refs; onSaved: (saved: Policy) => void }) {
  const initialScope: Scope = !policy || policy.configItems === 'all' ? 'all' : 'ids' in policy.configItems ? 'ids' : 'labels';
  const [owner, setOwner] = useState<number>(policy?.ownerWorkGroup.id ?? 0);
  const [scope, setScope] = useState<Scope>(initialScope);
  const [cis, setCis] = useState<PickedCi[]>(
    policy && policy.configItems !== 'all' && 'ids' in policy.configItems ? policy.configItems.ids.map((id) => ({ id, name: `CI ${id}` })) : [],
  );
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const p = policy ? `policy-${policy.id}` : 'new-policy';

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const configItems =
      scope === 'all'
        ? ('all' as const)
        : scope === 'ids'
          ? { ids: cis.map((c) => c.id), withDescendants: form.get('withDescendants') === 'on' }
          : { labels: lines(String(form.get('labels') ?? '')) };
    const repeat = textOf(form, 'repeatIntervalSeconds');
    const body: PolicyBody = {
      name: textOf(form, 'name'),
      ownerWorkGroup: { id: owner },
      configItems,
      priorities: form.getAll('priorities').map(String) as PolicyBody['priorities'],
      kinds: form.getAll('kinds').map(String) as PolicyBody['kinds'],
      triggerIds: form.getAll('triggerIds').map(Number),
      tags: lines(String(form.get('tags') ?? '')),
      receiverIds: form.getAll('receiverIds').map(Number),
      groupWindowSeconds: Number(textOf(form, 'groupWindowSeconds') || 30),
      repeatIntervalSeconds: repeat === '' ? null : Number(repeat),
      enabled: form.get('enabled') === 'on',
    };
    setBusy(true);
    setNotice(undefined);
    const { data, problem: refused } = policy
      ? await send(api.PATCH('/api/admin/v1/notifications/policies/{id}', { params: { path: { id: String(policy.id) } }, body }))
      : await send(api.POST('/api/admin/v1/notifications/policies', { body }));
    setBusy(false);
    setProblem(refused);
    if (data) {
      setNotice(`Saved ${data.name}.`);
      onSaved(data);
    }
  };
  const errors = {
    name: errorAt(problem, 'name', ['notification_policy.name_taken']),
    owner: errorAt(problem, 'ownerWorkGroup', ['notification.work_group_forbidden', 'work_group.not_found']),
    configItems: errorAt(problem, 'configItems'),
    priorities: errorAt(problem, 'priorities'),
    kinds: errorAt(problem, 'kinds'),
    triggerIds: errorAt(problem, 'triggerIds'),
    tags: errorAt(problem, 'tags'),
    receiverIds: errorAt(problem, 'receiverIds'),
    groupWindow: errorAt(problem, 'groupWindowSeconds'),
    repeat: errorAt(problem, 'repeatIntervalSeconds'),
  };
  const ownReceivers = refs.receivers.filter((r) => r.ownerWorkGroup.id === owner);
  return (
    <form class="admin-form" aria-label={policy ? `Edit ${policy.name}` : 'New policy'} onSubmit={submit} noValidate>
      <Field id={`${p}-name`} label="Name" error={errors.name}>
        {(a11y) => <input {...a11y} name="name" required autoComplete="off" defaultValue={policy?.name ?? ''} maxLength={255} />}
      </Field>
      <Field id={`${p}-owner`} label="Owner workgroup" error={errors.owner}>
        {(a11y) => (
          <select {...a11y} name="owner" value={String(owner)} onChange={(e) => setOwner(Number(e.currentTarget.value))}>
            <option value="0">Choose a workgroup</option>
            {refs.groups.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Checks
        key={owner}
        legend="Send to (receivers of the owner workgroup)"
        name="receiverIds"
        options={ownReceivers.map((r) => ({ value: String(r.id), label: `${r.name} (${r.type})` }))}
        checked={(policy?.receiverIds ?? []).map(String)}
        error={errors.receiverIds}
      />
      <fieldset class={errors.configItems ? 'invalid' : undefined}>
        <legend>CIs</legend>
        {(['all', 'ids', 'labels'] as const).map((s) => (
          <label key={s} class="inline">
            <input type="radio" name="scope" value={s} checked={scope === s} onChange={() => setScope(s)} />{' '}
            {s === 'all' ? 'Every CI the workgroup may read' : s === 'ids' ? 'Chosen CIs' : 'CIs with labels'}
          </label>
        ))}
        {scope === 'ids' && (
          <>
            <ul class="plain">
              {cis.map((c) => (
                <li key={c.id}>
                  <a href={`/cmdb/ci/${c.id}`}>{c.name}</a>{' '}
                  <button type="button" class="small" aria-label={`Remove ${c.name}`} onClick={() => setCis(cis.filter((x) => x.id !== c.id))}>
                    Remove
                  </button>
                </li>
              ))}
            </ul>
            <CiPicker
              id={`${p}-ci`}
              label="Add a CI"
              value={null}
              onChange={(ci) => ci && !cis.some((c) => c.id === ci.id) && setCis([...cis, ci])}
              exclude={cis.map((c) => c.id)}
            />
            <label class="check">
              <input
                type="checkbox"
                name="withDescendants"
                defaultChecked={policy?.configItems !== 'all' && policy?.configItems && 'ids' in policy.configItems ? policy.configItems.withDescendants : true}
              />{' '}
              And every CI below them
            </label>
          </>
        )}
        {scope === 'labels' && (
          <Field id={`${p}-labels`} label="Labels (every one listed)" hint="One a line: name or name=value">
            {(a11y) => (
              <textarea
                {...a11y}
                name="labels"
                rows={2}
                class="mono"
                defaultValue={policy && policy.configItems !== 'all' && 'labels' in policy.configItems ? policy.configItems.labels.join('\n') : ''}
              />
            )}
          </Field>
        )}
        {errors.configItems && <p class="field-error">{errors.configItems}</p>}
      </fieldset>
      <Checks
        legend="Priorities (none: any)"
        name="priorities"
        options={PRIORITIES.map((v) => ({ value: v, label: v.replace('Problem', 'P') }))}
        checked={policy?.priorities ?? []}
        error={errors.priorities}
      />
      <Checks legend="Event kinds (none: every kind)" name="kinds" options={KINDS.map((v) => ({ value: v, label: v }))} checked={policy?.kinds ?? []} error={errors.kinds} />
      <Checks
        legend="Triggers (none: any)"
        name="triggerIds"
        options={refs.triggers.map((t) => ({ value: String(t.id), label: t.name }))}
        checked={(policy?.triggerIds ?? []).map(String)}
        error={errors.triggerIds}
      />
      <Field id={`${p}-tags`} label="Tags (every one listed)" error={errors.tags} hint="One a line: name or name=value">
        {(a11y) => <textarea {...a11y} name="tags" rows={2} class="mono" defaultValue={policy?.tags.join('\n') ?? ''} />}
      </Field>
      <Field id={`${p}-group`} label="Group window (seconds)" error={errors.groupWindow} hint="0–3600: events within it go out as one message; 0 each alone">
        {(a11y) => <input {...a11y} name="groupWindowSeconds" type="number" min={0} max={3600} defaultValue={String(policy?.groupWindowSeconds ?? 30)} />}
      </Field>
      <Field id={`${p}-repeat`} label="Repeat while open (seconds)" error={errors.repeat} hint="60–604800; empty: never">
        {(a11y) => (
          <input
            {...a11y}
            name="repeatIntervalSeconds"
            type="number"
            min={60}
            max={604800}
            defaultValue={policy?.repeatIntervalSeconds ? String(policy.repeatIntervalSeconds) : ''}
          />
        )}
      </Field>
      <label class="check">
        <input type="checkbox" name="enabled" defaultChecked={policy?.enabled ?? true} /> Enabled
      </label>
      <FormError message={formError(problem, Object.values(errors))} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : policy ? 'Save policy' : 'Create policy'}
        </button>
      </div>
      <Notice text={notice} />
    </form>
  );
}

export function AdminPolicies() {
  const [policies, reload] = useLoad((signal) => api.GET('/api/admin/v1/notifications/policies', { signal }), [], { keepOnReload: true });
  const [groups] = useLoad((signal) => api.GET('/api/admin/v1/work-groups', { signal }), []);
  const [receivers] = useLoad((signal) => api.GET('/api/admin/v1/notifications/receivers', { signal }), []);
  const [triggers] = useLoad((signal) => api.GET('/api/admin/v1/triggers', { signal }), []);
  const refs: Refs = {
    groups: groups.state === 'ok' ? groups.data : [],
    receivers: receivers.state === 'ok' ? receivers.data : [],
    triggers: triggers.state === 'ok' ? triggers.data : [],
  };
  const groupName = (id: number) => refs.groups.find((g) => g.id === id)?.name ?? `Workgroup ${id}`;
  const receiverName = (id: number) => refs.receivers.find((r) => r.id === id)?.name ?? `#${id}`;
  return (
    <AdminSplit
      loaded={policies}
      section={{ path: 'policies', param: 'policy', noun: 'policy', plural: 'Policies' }}
      columns={[
        { label: 'Workgroup', cell: (x) => groupName(x.ownerWorkGroup.id) },
        { label: 'CIs', cell: scopeText },
        {
          label: 'Receivers',
          cell: (x) =>
            x.receiverIds.map((id) => (
              <a key={id} class="sep" href={`/admin/receivers?receiver=${id}`}>
                {receiverName(id)}
              </a>
            )),
        },
        { label: 'State', cell: (x) => (x.enabled ? 'Enabled' : <span class="badge disabled">Disabled</span>) },
      ]}
      empty="No policy yet: nothing is sent."
      create={(open) => <PolicyForm refs={refs} onSaved={(saved) => open(saved.id)} />}
      remove={(x) => send(api.DELETE('/api/admin/v1/notifications/policies/{id}', { params: { path: { id: String(x.id) } } }))}
      detail={(selected) => <PolicyForm key={`${selected.id}-${refs.receivers.length}`} policy={selected} refs={refs} onSaved={reload} />}
      reload={reload}
      hint="Choose a policy to change it."
    />
  );
}
