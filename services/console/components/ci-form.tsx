/**
 * The CI form, to create a CI (POST …/config-items) or edit one (PUT …/config-items/{id}): name,
 * description, type, owner workgroup (taken from the parent when there is one), parent (new CIs;
 * an existing CI moves with the Move form) and labels, one `name=value` a line. The API's
 * validation messages are shown at the field they concern.
 */
import { useEffect, useState } from 'preact/hooks';
import { type ApiProblem, api, problemOf } from '../app/api.js';
import { CiPicker, type PickedCi } from './ci-picker.js';
import { Field, FormError } from './cmdb-field.js';
import { type CiCreateBody, type CiUpdateBody, type ConfigItem, errorAt, formError, labelsToText, textToLabels } from './cmdb-model.js';
import { ciTypes, loadCiTypes, loadWorkGroups, workGroups } from './cmdb-reference.js';

interface Props {
  /** The CI to edit; absent: a new CI. */
  ci?: ConfigItem;
  /** A new CI's parent, when it comes from the page it was asked from. */
  parent?: PickedCi | null;
  onDone: (id: number) => void;
  onCancel: () => void;
}

export function CiForm({ ci, parent: initialParent = null, onDone, onCancel }: Props) {
  const creating = ci === undefined;
  const [parent, setParent] = useState<PickedCi | null>(creating ? initialParent : ci.parent);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void loadCiTypes();
    void loadWorkGroups();
  }, []);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '');
    const typeId = Number(text('type'));
    const ownerId = Number(text('owner'));
    const common = {
      name: text('name').trim(),
      description: text('description'),
      configItemType: typeId > 0 ? { id: typeId } : null,
      labels: textToLabels(text('labels')),
    };
    setBusy(true);
    setProblem(undefined);
    if (creating) {
      const body: CiCreateBody = { ...common, ...(parent ? { parent: { id: parent.id } } : { ownerWorkGroup: ownerId > 0 ? { id: ownerId } : null }) };
      const { data, error, response } = await api.POST('/api/public/sm/v2/rsm/config-items', { body });
      setBusy(false);
      if (data) onDone(data.id);
      else setProblem(problemOf(error, response.status));
    } else {
      const body: CiUpdateBody = {
        ...common,
        ownerWorkGroup: { id: ci.parent ? ci.ownerWorkGroup.id : ownerId },
        cmdbSystemId: ci.cmdbSystem?.id ?? -1,
      };
      const { data, error, response } = await api.PUT('/api/public/sm/v2/rsm/config-items/{id}', { params: { path: { id: String(ci.id) } }, body });
      setBusy(false);
      if (data) onDone(data.id);
      else setProblem(problemOf(error, response.status));
    }
  };

  const errors = {
    name: errorAt(problem, 'name', ['ci.name_taken', 'ci.name_missing']),
    description: errorAt(problem, 'description'),
    type: errorAt(problem, 'configItemType', ['ci_type.unknown', 'ci_type.no_default']),
    owner: errorAt(problem, 'ownerWorkGroup', ['ci.owner_missing', 'ci.add_forbidden', 'ci.give_away_forbidden', 'ci.give_away_not_owner', 'work_group.not_found']),
    parent: errorAt(problem, 'parent', ['ci.parent_unknown', 'ci.add_under_forbidden']),
    labels: errorAt(problem, 'labels'),
  };
  const owned = parent !== null;
  const prefix = creating ? 'new-ci' : `ci-${ci.id}`;

  return (
    <form class="ci-form" onSubmit={submit} aria-label={creating ? 'New CI' : `Edit ${ci.name}`} noValidate>
      <Field id={`${prefix}-name`} label="Name" error={errors.name}>
        {(a11y) => <input {...a11y} name="name" required defaultValue={ci?.name ?? ''} autoComplete="off" maxLength={255} />}
      </Field>
      <Field id={`${prefix}-description`} label="Description" error={errors.description}>
        {(a11y) => <textarea {...a11y} name="description" rows={3} defaultValue={ci?.description ?? ''} />}
      </Field>
      <Field id={`${prefix}-type`} label="Type" error={errors.type}>
        {(a11y) => (
          <select {...a11y} name="type">
            {creating && <option value="">The default type</option>}
            {ci && !ciTypes.value && <option value={ci.configItemType.id}>{ci.configItemType.name}</option>}
            {ciTypes.value?.map((t) => (
              <option key={t.id} value={t.id} selected={t.id === ci?.configItemType.id}>
                {t.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      {creating && (
        <CiPicker id={`${prefix}-parent`} label="Parent CI (optional)" value={parent} onChange={setParent} error={errors.parent} hint="Leave empty for a CI at the top level" />
      )}
      <Field id={`${prefix}-owner`} label="Owner workgroup" error={errors.owner} hint={owned ? 'Taken from the parent CI' : undefined}>
        {(a11y) => (
          <select {...a11y} name="owner" disabled={owned}>
            {creating && !owned && <option value="">Choose a workgroup</option>}
            {ci && !workGroups.value && <option value={ci.ownerWorkGroup.id}>{ci.ownerWorkGroup.name}</option>}
            {owned && creating && <option value="">The parent’s workgroup</option>}
            {workGroups.value?.map((w) => (
              <option key={w.id} value={w.id} selected={w.id === ci?.ownerWorkGroup.id}>
                {w.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id={`${prefix}-labels`} label="Labels" error={errors.labels} hint="One a line: name=value, or a name alone; a name on several lines holds a list">
        {(a11y) => <textarea {...a11y} name="labels" rows={4} class="mono" defaultValue={labelsToText(ci?.labels)} spellcheck={false} />}
      </Field>
      <FormError message={formError(problem, Object.values(errors))} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : creating ? 'Create CI' : 'Save'}
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
