/**
 * CI types and their icons: the types (icon, name, description, which is the default), a new
 * type, the selected one (`?type=<id>`): rename, describe, set its icon, make it the default,
 * delete (not the default, not while a CI has it); and the icons a type may have, the built-in
 * SVGs and the uploaded PNGs (upload one, at most 64 KiB; delete one no type has).
 */
import { useState } from 'preact/hooks';
import { type ApiProblem, api } from '../app/api.js';
import { type CiType, type CiTypeIcon, DeleteButton, Notice, send, textOf } from './admin-kit.js';
import { AdminSplit } from './admin-split.js';
import { Field, FormError } from './cmdb-field.js';
import { errorAt, formError } from './cmdb-model.js';
import { ApiAlert, useLoad } from './load.js';

const ICON_MAX_BYTES = 64 * 1024;

function TypeForm({ type, icons, onSaved }: { type?: CiType; icons: CiTypeIcon[]; onSaved: (saved: CiType) => void }) {
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const iconText = textOf(form, 'iconId');
    const common = { name: textOf(form, 'name'), description: textOf(form, 'description'), iconId: iconText === '' ? null : Number(iconText) };
    const makeDefault = form.get('isDefault') === 'on';
    setBusy(true);
    setNotice(undefined);
    const { data, problem: refused } = type
      ? await send(
          api.PATCH('/api/admin/v1/config-item-types/{id}', {
            params: { path: { id: String(type.id) } },
            body: { ...common, ...(makeDefault && !type.isDefault ? { isDefault: true as const } : {}) },
          }),
        )
      : await send(api.POST('/api/admin/v1/config-item-types', { body: { ...common, isDefault: makeDefault } }));
    setBusy(false);
    setProblem(refused);
    if (data) {
      setNotice(`Saved ${data.name}.`);
      onSaved(data);
    }
  };
  const errors = {
    name: errorAt(problem, 'name', ['ci_type.name_taken']),
    description: errorAt(problem, 'description'),
    iconId: errorAt(problem, 'iconId', ['icon.unknown', 'icon.not_found']),
    isDefault: errorAt(problem, 'isDefault'),
  };
  const prefix = type ? `type-${type.id}` : 'new-type';
  return (
    <form class="admin-form" aria-label={type ? `Edit ${type.name}` : 'New CI type'} onSubmit={submit} noValidate>
      <Field id={`${prefix}-name`} label="Name" error={errors.name}>
        {(a11y) => <input {...a11y} name="name" required autoComplete="off" defaultValue={type?.name ?? ''} maxLength={255} />}
      </Field>
      <Field id={`${prefix}-description`} label="Description" error={errors.description}>
        {(a11y) => <input {...a11y} name="description" autoComplete="off" defaultValue={type?.description ?? ''} />}
      </Field>
      <Field id={`${prefix}-icon`} label="Icon" error={errors.iconId}>
        {(a11y) => (
          <select {...a11y} name="iconId">
            <option value="">No icon</option>
            {icons.map((i) => (
              <option key={i.id} value={i.id} selected={i.id === type?.icon?.id}>
                {i.name}
                {i.builtIn ? '' : ' (uploaded)'}
              </option>
            ))}
          </select>
        )}
      </Field>
      {type?.isDefault ? (
        <p class="muted">The default type: new CIs without a type get it. Make another type the default to change that.</p>
      ) : (
        <label class="check">
          <input type="checkbox" name="isDefault" /> Make it the default type
        </label>
      )}
      <FormError message={formError(problem, Object.values(errors))} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : type ? 'Save CI type' : 'Create CI type'}
        </button>
      </div>
      <Notice text={notice} />
    </form>
  );
}

function IconUpload({ onUploaded }: { onUploaded: () => void }) {
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const [fileError, setFileError] = useState<string | undefined>();
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const formElement = event.currentTarget as HTMLFormElement;
    const form = new FormData(formElement);
    const file = form.get('file');
    setNotice(undefined);
    setProblem(undefined);
    if (!(file instanceof File) || file.size === 0) return setFileError('Choose a PNG file.');
    if (file.size > ICON_MAX_BYTES) return setFileError(`The file has ${file.size} bytes; an icon may have at most ${ICON_MAX_BYTES} (64 KiB).`);
    setFileError(undefined);
    const name = textOf(form, 'name') || file.name.replace(/\.png$/i, '');
    setBusy(true);
    const { data, problem: refused } = await send(
      api.POST('/api/admin/v1/config-item-type-icons', {
        params: { query: { name, fileName: file.name } },
        // The body is the image itself, as the API takes it (image/png), not JSON.
        body: file as unknown as string,
        bodySerializer: (image: unknown) => image as Blob,
        headers: { 'content-type': 'image/png' },
      }),
    );
    setBusy(false);
    setProblem(refused);
    if (data) {
      formElement.reset();
      setNotice(`Uploaded ${data.name}.`);
      onUploaded();
    }
  };
  const errors = { name: errorAt(problem, 'name'), file: fileError ?? (problem?.code === 'icon.not_png' || problem?.status === 413 ? problem.detail : undefined) };
  return (
    <form class="admin-form" aria-label="Upload an icon" onSubmit={submit} noValidate>
      <Field id="icon-name" label="Icon name" error={errors.name} hint="Empty: the file's name">
        {(a11y) => <input {...a11y} name="name" autoComplete="off" maxLength={100} />}
      </Field>
      <Field id="icon-file" label="PNG file" error={errors.file} hint="At most 64 KiB and 1024×1024 pixels">
        {(a11y) => <input {...a11y} name="file" type="file" accept="image/png" />}
      </Field>
      <FormError message={errors.file ? undefined : formError(problem, Object.values(errors))} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Uploading…' : 'Upload icon'}
        </button>
      </div>
      <Notice text={notice} />
    </form>
  );
}

function Icons({ icons, types, onChanged }: { icons: CiTypeIcon[]; types: CiType[]; onChanged: () => void }) {
  const used = new Map(types.filter((t) => t.icon).map((t) => [t.icon?.id, t.name]));
  return (
    <section aria-labelledby="icons-h" class="admin-panel">
      <h3 id="icons-h">Icons</h3>
      <ul class="plain admin-icons">
        {icons.map((i) => (
          <li key={i.id}>
            <img src={i.iconUrl} alt="" width={24} height={24} />
            <span>
              {i.name}
              <span class="muted">
                {' '}
                {i.builtIn ? 'built-in' : `${i.fileName ?? 'uploaded'}, ${Math.ceil(i.bytes / 1024)} KiB`}
                {used.has(i.id) ? `, used by ${used.get(i.id)}` : ''}
              </span>
            </span>
            {!i.builtIn && (
              <DeleteButton
                what={`the icon ${i.name}`}
                remove={() => send(api.DELETE('/api/admin/v1/config-item-type-icons/{id}', { params: { path: { id: String(i.id) } } }))}
                onDone={onChanged}
              />
            )}
          </li>
        ))}
      </ul>
      <h4>Upload an icon</h4>
      <IconUpload onUploaded={onChanged} />
    </section>
  );
}

export function AdminCiTypes() {
  const [types, reloadTypes] = useLoad((signal) => api.GET('/api/admin/v1/config-item-types', { signal }), [], { keepOnReload: true });
  const [icons, reloadIcons] = useLoad((signal) => api.GET('/api/admin/v1/config-item-type-icons', { signal }), [], { keepOnReload: true });
  const iconList = icons.state === 'ok' ? icons.data : [];
  return (
    <AdminSplit
      loaded={types}
      section={{ path: 'ci-types', param: 'type', noun: 'CI type', plural: 'CI types' }}
      before={[{ label: 'Icon', cell: (t) => (t.icon ? <img src={t.icon.iconUrl} alt={t.icon.name} width={20} height={20} /> : <span class="muted">none</span>) }]}
      columns={[
        { label: 'Description', cell: (t) => t.description },
        { label: 'Default', cell: (t) => (t.isDefault ? 'Default' : '') },
      ]}
      below={(list) => (icons.state === 'error' ? <ApiAlert problem={icons.problem} /> : <Icons icons={iconList} types={list} onChanged={reloadIcons} />)}
      create={(open) => <TypeForm icons={iconList} onSaved={(saved) => open(saved.id)} />}
      remove={(t) => send(api.DELETE('/api/admin/v1/config-item-types/{id}', { params: { path: { id: String(t.id) } } }))}
      removable={(t) => !t.isDefault}
      detail={(selected) => <TypeForm type={selected} icons={iconList} onSaved={reloadTypes} />}
      reload={reloadTypes}
      hint="Choose a CI type to change it or its icon."
    />
  );
}
