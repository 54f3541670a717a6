/**
 * Notification receivers (docs/notifications.md): the list, a new receiver of each type, and the
 * selected one (`?receiver=<id>`): its fields changed (secrets are write-only: the form never
 * shows them, and an empty secret field keeps the stored one), delete (refused while a policy
 * sends to it), and its delivery log with replay. URLs are checked by the outbound address rules
 * when saved; the API's refusal is shown at the field it names.
 */
import { useState } from 'preact/hooks';
import { type ApiProblem, api } from '../app/api.js';
import { Notice, type Receiver, type ReceiverBody, send, textOf } from './admin-kit.js';
import { AdminDeliveries } from './admin-deliveries.js';
import { AdminSplit } from './admin-split.js';
import { Field, FormError } from './cmdb-field.js';
import { errorAt, formError } from './cmdb-model.js';
import { useLoad } from './load.js';

type ReceiverType = Receiver['type'];
const TYPES: ReadonlyArray<{ value: ReceiverType; label: string }> = [
  { value: 'webhook', label: 'Webhook (CloudEvents, signed)' },
  { value: 'slack', label: 'Slack' },
  { value: 'teams', label: 'Microsoft Teams' },
  { value: 'pagerduty', label: 'PagerDuty' },
  { value: 'alertmanager', label: 'Alertmanager' },
  { value: 'email', label: 'E-mail' },
];
const URL_CODES = ['notify.address_refused', 'notify.host_not_found', 'notify.host_unresolved', 'notify.url_invalid', 'notify.scheme_refused'];
const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** The body from the form: only what is filled, so a PATCH changes what the user changed. */
function bodyOf(form: FormData, type: ReceiverType, editing: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { name: textOf(form, 'name'), ownerWorkGroup: { id: Number(textOf(form, 'owner')) }, enabled: form.get('enabled') === 'on' };
  const number = (name: string) => (textOf(form, name) === '' ? undefined : Number(textOf(form, name)));
  const optional = (key: string, value: unknown) => {
    if (value !== undefined && value !== '') body[key] = value;
  };
  optional('rateLimitPerSecond', number('rateLimitPerSecond'));
  optional('maxAgeHours', number('maxAgeHours'));
  if (type !== 'email') optional('url', textOf(form, 'url'));
  if (type === 'webhook') {
    const secrets = lines(String(form.get('secrets') ?? ''));
    if (secrets.length > 0 || !editing) body['secrets'] = secrets;
  }
  if (type === 'pagerduty') optional('routingKey', textOf(form, 'routingKey'));
  if (type === 'alertmanager') optional('resendSeconds', number('resendSeconds'));
  if (type === 'email') {
    const smtp: Record<string, unknown> = { host: textOf(form, 'smtpHost'), port: Number(textOf(form, 'smtpPort')), secure: form.get('smtpSecure') === 'on' };
    if (textOf(form, 'smtpUser')) smtp['user'] = textOf(form, 'smtpUser');
    if (textOf(form, 'smtpPassword')) smtp['password'] = textOf(form, 'smtpPassword');
    body['smtp'] = smtp;
    body['from'] = textOf(form, 'from');
    body['to'] = lines(String(form.get('to') ?? ''));
  }
  return body;
}

function ReceiverForm({ receiver, groups, onSaved }: { receiver?: Receiver; groups: Array<{ id: number; name: string }>; onSaved: (saved: Receiver) => void }) {
  const [type, setType] = useState<ReceiverType>(receiver?.type ?? 'webhook');
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const editing = receiver !== undefined;
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const body = bodyOf(new FormData(event.currentTarget as HTMLFormElement), type, editing);
    setBusy(true);
    setNotice(undefined);
    const { data, problem: refused } = receiver
      ? await send(api.PATCH('/api/admin/v1/notifications/receivers/{id}', { params: { path: { id: String(receiver.id) } }, body }))
      : await send(api.POST('/api/admin/v1/notifications/receivers', { body: { ...body, type } as ReceiverBody }));
    setBusy(false);
    setProblem(refused);
    if (data) {
      setNotice(`Saved ${data.name}.`);
      onSaved(data);
    }
  };
  const errors = {
    type: errorAt(problem, 'type', ['notification_receiver.type_fixed']),
    name: errorAt(problem, 'name', ['notification_receiver.name_taken']),
    owner: errorAt(problem, 'ownerWorkGroup', ['notification.work_group_forbidden', 'notification_receiver.in_use', 'work_group.not_found']),
    rate: errorAt(problem, 'rateLimitPerSecond'),
    maxAge: errorAt(problem, 'maxAgeHours'),
    url: errorAt(problem, 'url', type === 'email' ? [] : URL_CODES),
    secrets: errorAt(problem, 'secrets'),
    routingKey: errorAt(problem, 'routingKey'),
    resend: errorAt(problem, 'resendSeconds'),
    smtpHost: errorAt(problem, 'smtp/host', type === 'email' ? URL_CODES : []),
    smtpPort: errorAt(problem, 'smtp/port'),
    smtpUser: errorAt(problem, 'smtp/user'),
    from: errorAt(problem, 'from'),
    to: errorAt(problem, 'to'),
  };
  const p = receiver ? `receiver-${receiver.id}` : 'new-receiver';
  const shownUrl = receiver && 'url' in receiver ? receiver.url : '';
  const keep = editing ? 'Empty: keep the stored one (never shown)' : undefined;
  return (
    <form class="admin-form" aria-label={receiver ? `Edit ${receiver.name}` : 'New receiver'} onSubmit={submit} noValidate>
      <Field id={`${p}-type`} label="Type" error={errors.type} hint={editing ? 'A receiver keeps its type' : undefined}>
        {(a11y) => (
          <select {...a11y} name="type" disabled={editing} value={type} onChange={(e) => setType(e.currentTarget.value as ReceiverType)}>
            {TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id={`${p}-name`} label="Name" error={errors.name}>
        {(a11y) => <input {...a11y} name="name" required autoComplete="off" defaultValue={receiver?.name ?? ''} maxLength={255} />}
      </Field>
      <Field id={`${p}-owner`} label="Owner workgroup" error={errors.owner}>
        {(a11y) => (
          <select {...a11y} name="owner">
            {!receiver && <option value="">Choose a workgroup</option>}
            {groups.map((g) => (
              <option key={g.id} value={g.id} selected={g.id === receiver?.ownerWorkGroup.id}>
                {g.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      {type !== 'email' && (
        <Field
          id={`${p}-url`}
          label={type === 'pagerduty' ? 'Events API URL (optional)' : 'URL'}
          error={errors.url}
          hint={editing ? `Now ${shownUrl} (credentials hidden). Empty: keep it` : undefined}
        >
          {(a11y) => <input {...a11y} name="url" type="url" autoComplete="off" spellcheck={false} />}
        </Field>
      )}
      {type === 'webhook' && (
        <Field id={`${p}-secrets`} label="Signing secrets" error={errors.secrets} hint={`One a line, whsec_ and base64; two while one is rotated. ${keep ?? ''}`}>
          {(a11y) => <textarea {...a11y} name="secrets" rows={2} class="mono" spellcheck={false} autoComplete="off" />}
        </Field>
      )}
      {type === 'pagerduty' && (
        <Field id={`${p}-routing-key`} label="Routing key" error={errors.routingKey} hint={keep}>
          {(a11y) => <input {...a11y} name="routingKey" type="password" autoComplete="off" />}
        </Field>
      )}
      {type === 'alertmanager' && (
        <Field id={`${p}-resend`} label="Resend every (seconds)" error={errors.resend} hint="10–3600; default 60">
          {(a11y) => (
            <input {...a11y} name="resendSeconds" type="number" min={10} max={3600} defaultValue={receiver?.type === 'alertmanager' ? String(receiver.resendSeconds) : ''} />
          )}
        </Field>
      )}
      {type === 'email' && (
        <fieldset>
          <legend>SMTP server</legend>
          <Field id={`${p}-smtp-host`} label="Host" error={errors.smtpHost}>
            {(a11y) => <input {...a11y} name="smtpHost" autoComplete="off" defaultValue={receiver?.type === 'email' ? receiver.smtp.host : ''} />}
          </Field>
          <Field id={`${p}-smtp-port`} label="Port" error={errors.smtpPort}>
            {(a11y) => <input {...a11y} name="smtpPort" type="number" min={1} max={65535} defaultValue={receiver?.type === 'email' ? String(receiver.smtp.port) : '587'} />}
          </Field>
          <label class="check">
            <input type="checkbox" name="smtpSecure" defaultChecked={receiver?.type === 'email' ? receiver.smtp.secure : false} /> TLS from the start (usually port 465)
          </label>
          <Field id={`${p}-smtp-user`} label="User (optional)" error={errors.smtpUser}>
            {(a11y) => <input {...a11y} name="smtpUser" autoComplete="off" defaultValue={receiver?.type === 'email' ? (receiver.smtp.user ?? '') : ''} />}
          </Field>
          <Field id={`${p}-smtp-password`} label="Password (optional)" hint={keep}>
            {(a11y) => <input {...a11y} name="smtpPassword" type="password" autoComplete="new-password" />}
          </Field>
        </fieldset>
      )}
      {type === 'email' && (
        <>
          <Field id={`${p}-from`} label="From" error={errors.from}>
            {(a11y) => <input {...a11y} name="from" type="email" autoComplete="off" defaultValue={receiver?.type === 'email' ? receiver.from : ''} />}
          </Field>
          <Field id={`${p}-to`} label="Recipients" error={errors.to} hint="One address a line, at most 50">
            {(a11y) => <textarea {...a11y} name="to" rows={3} defaultValue={receiver?.type === 'email' ? receiver.to.join('\n') : ''} />}
          </Field>
        </>
      )}
      <Field id={`${p}-rate`} label="Messages per second at most" error={errors.rate} hint="Default 1 for Slack, else 10">
        {(a11y) => <input {...a11y} name="rateLimitPerSecond" type="number" min={1} defaultValue={receiver ? String(receiver.rateLimitPerSecond) : ''} />}
      </Field>
      <Field id={`${p}-max-age`} label="Retry for (hours)" error={errors.maxAge} hint="1–168; default 24">
        {(a11y) => <input {...a11y} name="maxAgeHours" type="number" min={1} max={168} defaultValue={receiver ? String(receiver.maxAgeHours) : ''} />}
      </Field>
      <label class="check">
        <input type="checkbox" name="enabled" defaultChecked={receiver?.enabled ?? true} /> Enabled
      </label>
      {receiver?.disabledReason && <p class="error">Disabled by the platform: {receiver.disabledReason}. Enable it again once fixed.</p>}
      <FormError message={formError(problem, Object.values(errors))} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : receiver ? 'Save receiver' : 'Create receiver'}
        </button>
      </div>
      <Notice text={notice} />
    </form>
  );
}

export function AdminReceivers() {
  const [receivers, reload] = useLoad((signal) => api.GET('/api/admin/v1/notifications/receivers', { signal }), [], { keepOnReload: true });
  const [groups] = useLoad((signal) => api.GET('/api/admin/v1/work-groups', { signal }), []);
  const groupList = groups.state === 'ok' ? groups.data : [];
  const groupName = (id: number) => groupList.find((g) => g.id === id)?.name ?? `Workgroup ${id}`;
  return (
    <AdminSplit
      loaded={receivers}
      section={{ path: 'receivers', param: 'receiver', noun: 'receiver', plural: 'Receivers' }}
      columns={[
        { label: 'Type', cell: (r) => r.type },
        { label: 'Workgroup', cell: (r) => groupName(r.ownerWorkGroup.id) },
        { label: 'State', cell: (r) => (r.enabled ? 'Enabled' : <span class="badge disabled">{r.disabledReason ? `Disabled: ${r.disabledReason}` : 'Disabled'}</span>) },
        { label: 'Sends to', class: 'admin-wrap', cell: (r) => <code>{r.type === 'email' ? r.to.join(', ') : r.url}</code> },
      ]}
      empty="No receiver yet: make one, then a policy that sends to it."
      create={(open) => <ReceiverForm groups={groupList} onSaved={(saved) => open(saved.id)} />}
      remove={(r) => send(api.DELETE('/api/admin/v1/notifications/receivers/{id}', { params: { path: { id: String(r.id) } } }))}
      detail={(selected) => (
        <>
          <ReceiverForm receiver={selected} groups={groupList} onSaved={reload} />
          <AdminDeliveries receiver={selected} />
        </>
      )}
      reload={reload}
      hint="Choose a receiver to change it or to read its delivery log."
    />
  );
}
