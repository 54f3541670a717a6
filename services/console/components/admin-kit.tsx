/**
 * What every admin section shares: the wire types (from the generated schema), the section's
 * state in the URL query (`/admin/<section>?<key>=…`, so a selection can be linked and reloaded),
 * one way to send a change and get its problem back, a Delete button behind a confirmation, and
 * the name form of workgroups and CMDB systems.
 */
import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { type ApiProblem, problemOf } from '../app/api.js';
import type { operations } from '../app/api-schema.js';
import { ApiAlert } from './load.js';
import { ConfirmDialog } from './confirm.js';
import { Field, FormError } from './cmdb-field.js';
import { errorAt, formError } from './cmdb-model.js';

type Ok<O, S extends number = 200> = O extends { responses: { [K in S]: { content: { 'application/json': infer T } } } } ? T : never;
type Body<O> = O extends { requestBody: { content: { 'application/json': infer T } } } ? T : never;

export type User = Ok<operations['admin.listUsers']>[number];
export type Token = Ok<operations['admin.listTokens']>[number];
export type IssuedToken = Ok<operations['admin.issueToken'], 201>;
export type WorkGroup = Ok<operations['admin.listWorkGroups']>[number];
export type Role = Ok<operations['admin.listRoles']>[number];
export type PlatformRight = Role['rights'][number];
export type CiType = Ok<operations['admin.listCiTypes']>[number];
export type CiTypeIcon = Ok<operations['admin.listCiTypeIcons']>[number];
export type CmdbSystem = Ok<operations['admin.listCmdbSystems']>[number];
export type SlaTemplate = Ok<operations['admin.listSlaTemplates']>[number];
export type SlaTemplateBody = Body<operations['admin.createSlaTemplate']>;
export type SlaTemplatePatch = Body<operations['admin.patchSlaTemplate']>;
export type Receiver = Ok<operations['admin.listNotificationReceivers']>[number];
export type ReceiverBody = Body<operations['admin.createNotificationReceiver']>;
export type ReceiverPatch = Body<operations['admin.patchNotificationReceiver']>;
export type Policy = Ok<operations['admin.listNotificationPolicies']>[number];
export type PolicyBody = Body<operations['admin.createNotificationPolicy']>;
export type PolicyPatch = Body<operations['admin.patchNotificationPolicy']>;
export type Delivery = Ok<operations['admin.listNotificationDeliveries']>['items'][number];
export type Trigger = Ok<operations['admin.listTriggers']>[number];

/** The platform rights a role may bundle, with what each lets a user do. */
export const PLATFORM_RIGHTS: ReadonlyArray<{ value: PlatformRight; label: string }> = [
  { value: 'base-system.admin', label: 'Administer the platform (everything)' },
  { value: 'base-system.notifications.write', label: 'Manage the notifications of its workgroups' },
  { value: 'base-system.rsm-maintenance.read', label: 'Read maintenance modes' },
  { value: 'base-system.rsm-maintenance.write', label: 'Plan maintenance modes' },
  { value: 'base-system.sla.read', label: 'Read SLA figures' },
  { value: 'base-system.streams.read', label: 'Read streams' },
];

/** The section's query and a way to change part of it (null removes a key). */
export function useSectionQuery(): [Record<string, string>, (patch: Record<string, string | null>, replace?: boolean) => void] {
  const { path, query, route } = useLocation();
  const set = (patch: Record<string, string | null>, replace = false) => {
    const next = new URLSearchParams(query);
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    const text = next.toString();
    route(text ? `${path}?${text}` : path, replace);
  };
  return [query, set];
}

/** An openapi-fetch answer as the forms need it: the data, or the problem to show. */
export async function send<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<{ data?: T; problem?: ApiProblem }> {
  try {
    const { data, error, response } = await call;
    if (response.ok) return { data: data as T };
    return { problem: problemOf(error, response.status) };
  } catch (error) {
    return { problem: { status: 0, title: 'Network error', detail: error instanceof Error ? error.message : String(error) } };
  }
}

/** The text of a form field, trimmed. */
export const textOf = (form: FormData, name: string): string => String(form.get(name) ?? '').trim();

/** A Delete button that asks first; the API's refusal (e.g. still in use) is shown in the dialog. */
export function DeleteButton({ what, label, remove, onDone }: { what: string; label?: string; remove: () => Promise<{ problem?: ApiProblem }>; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  return (
    <>
      <button type="button" class="danger" aria-label={`${label ?? 'Delete'} ${what}`} onClick={() => setOpen(true)}>
        {label ?? 'Delete'}
      </button>
      <ConfirmDialog
        open={open}
        title={`${label ?? 'Delete'} ${what}?`}
        confirmLabel={label ?? 'Delete'}
        busy={busy}
        onCancel={() => {
          setOpen(false);
          setProblem(undefined);
        }}
        onConfirm={async () => {
          setBusy(true);
          const { problem: refused } = await remove();
          setBusy(false);
          if (refused) setProblem(refused);
          else {
            setOpen(false);
            onDone();
          }
        }}
      >
        <p>This cannot be undone.</p>
        <ApiAlert problem={problem} />
      </ConfirmDialog>
    </>
  );
}

/** A polite line saying what just happened (a save, a replay asked). */
export function Notice({ text }: { text: string | undefined }) {
  return (
    <p class="admin-notice" role="status">
      {text ?? ''}
    </p>
  );
}

/** A set of checkboxes under one name (FormData.getAll gives the checked values). */
export function Checks({
  legend,
  name,
  options,
  checked,
  error,
}: {
  legend: string;
  name: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  checked: readonly string[];
  error?: string | undefined;
}) {
  return (
    <fieldset class={`checks${error ? ' invalid' : ''}`}>
      <legend>{legend}</legend>
      {options.length === 0 && <p class="muted">None to choose.</p>}
      {options.map((o) => (
        <label key={o.value} class="inline">
          <input type="checkbox" name={name} value={o.value} defaultChecked={checked.includes(o.value)} /> {o.label}
        </label>
      ))}
      {error && <p class="field-error">{error}</p>}
    </fieldset>
  );
}

/**
 * A form of one field, a name: a new workgroup or CMDB system ("New <noun>", "Create <noun>"),
 * or the rename of one (`named`); `onSaved` gets what `save` answered.
 */
export function NameForm<T>({
  noun,
  named,
  save,
  onSaved,
}: {
  noun: string;
  named?: { name: string };
  save: (name: string) => Promise<{ data?: T; problem?: ApiProblem }>;
  onSaved: (saved: T | undefined) => void;
}) {
  const label = named ? `Rename ${named.name}` : `New ${noun}`;
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const name = textOf(new FormData(event.currentTarget as HTMLFormElement), 'name');
    setBusy(true);
    setNotice(undefined);
    const { data, problem: refused } = await save(name);
    setBusy(false);
    setProblem(refused);
    if (!refused) {
      setNotice('Saved.');
      onSaved(data);
    }
  };
  const errors = { name: errorAt(problem, 'name', ['work_group.name_taken', 'cmdb_system.name_taken']) };
  const id = `${label.toLowerCase().replace(/\W+/g, '-')}-name`;
  return (
    <form class="admin-form" aria-label={label} onSubmit={submit} noValidate>
      <Field id={id} label="Name" error={errors.name}>
        {(a11y) => <input {...a11y} name="name" required autoComplete="off" defaultValue={named?.name ?? ''} maxLength={255} />}
      </Field>
      <FormError message={formError(problem, Object.values(errors))} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : named ? 'Rename' : `Create ${noun}`}
        </button>
      </div>
      <Notice text={notice} />
    </form>
  );
}
