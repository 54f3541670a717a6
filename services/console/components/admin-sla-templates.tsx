/**
 * SLA templates: the list, a new template, the selected one (`?template=<id>`): changed (lists,
 * the calendar and the owner replaced whole) or deleted (refused while a Multi template lists
 * it). A Single template names CIs (picked by name, each with a weight and whether the CIs below
 * count), the priorities that count, a target and the working calendar; a Multi template
 * combines Single templates with weights.
 */
import { useState } from 'preact/hooks';
import { type ApiProblem, api } from '../app/api.js';
import { Checks, Notice, send, type SlaTemplate, type SlaTemplateBody, textOf } from './admin-kit.js';
import { calendarOf, SlaCalendar } from './admin-sla-calendar.js';
import { AdminSplit } from './admin-split.js';
import { CiPicker } from './ci-picker.js';
import { Field, FormError } from './cmdb-field.js';
import { errorAt, formError } from './cmdb-model.js';
import { useLoad } from './load.js';

const PERIODS: ReadonlyArray<SlaTemplate['period']> = [
  'Today',
  'Yesterday',
  'ThisWeek',
  'PreviousWeek',
  'ThisMonth',
  'PreviousMonth',
  'ThisQuarter',
  'PreviousQuarter',
  'ThisYear',
  'PreviousYear',
];
type Single = Extract<SlaTemplate, { type: 'Single' }>;
interface CiRow {
  id: number;
  name: string;
  weight: number;
  withDescendants: boolean;
}

function CiRows({ rows, onChange, prefix, error }: { rows: CiRow[]; onChange: (rows: CiRow[]) => void; prefix: string; error?: string | undefined }) {
  const set = (id: number, patch: Partial<CiRow>) => onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  return (
    <fieldset class={error ? 'invalid' : undefined}>
      <legend>CIs</legend>
      {rows.length === 0 ? (
        <p class="muted">No CI yet.</p>
      ) : (
        <table>
          <caption class="visually-hidden">The template's CIs</caption>
          <thead>
            <tr>
              <th scope="col">CI</th>
              <th scope="col">Weight</th>
              <th scope="col">And below</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>
                  <a href={`/cmdb/ci/${r.id}`}>{r.name}</a>
                </td>
                <td>
                  <input
                    type="number"
                    min={0.01}
                    step="any"
                    value={r.weight}
                    aria-label={`Weight of ${r.name}`}
                    onInput={(e) => set(r.id, { weight: Number(e.currentTarget.value) })}
                    class="narrow"
                  />
                </td>
                <td>
                  <input
                    type="checkbox"
                    checked={r.withDescendants}
                    aria-label={`CIs below ${r.name} count`}
                    onChange={(e) => set(r.id, { withDescendants: e.currentTarget.checked })}
                  />
                </td>
                <td>
                  <button type="button" class="small" aria-label={`Remove ${r.name}`} onClick={() => onChange(rows.filter((x) => x.id !== r.id))}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CiPicker
        id={`${prefix}-ci`}
        label="Add a CI"
        value={null}
        exclude={rows.map((r) => r.id)}
        onChange={(ci) => ci && onChange([...rows, { id: ci.id, name: ci.name, weight: 1, withDescendants: true }])}
      />
      {error && <p class="field-error">{error}</p>}
    </fieldset>
  );
}

function TemplateForm({
  template,
  templates,
  groups,
  onSaved,
}: {
  template?: SlaTemplate;
  templates: SlaTemplate[];
  groups: Array<{ id: number; name: string }>;
  onSaved: (saved: SlaTemplate) => void;
}) {
  const [type, setType] = useState<SlaTemplate['type']>(template?.type ?? 'Single');
  const single = template?.type === 'Single' ? (template as Single) : undefined;
  const [rows, setRows] = useState<CiRow[]>(single?.configItems.map((c) => ({ ...c, name: `CI ${c.id}` })) ?? []);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const p = template ? `template-${template.id}` : 'new-template';
  const parts = template?.type === 'Multi' ? template.templates : [];
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const number = (name: string) => (textOf(form, name) === '' ? null : Number(textOf(form, name)));
    const common = {
      name: textOf(form, 'name'),
      description: textOf(form, 'description'),
      period: textOf(form, 'period') as SlaTemplate['period'],
      ownerType: 'WorkGroup' as const,
      workGroupId: Number(textOf(form, 'owner')) || null,
      timeZone: textOf(form, 'timeZone') || 'UTC',
    };
    const body =
      type === 'Single'
        ? {
            ...common,
            configItems: rows.map(({ id, weight, withDescendants }) => ({ id, weight, withDescendants })),
            priorities: form.getAll('priorities').map(Number),
            excludeMaintenance: form.get('excludeMaintenance') === 'on',
            target: number('target'),
            burnRateAlert: number('burnRateAlert'),
            calendar: calendarOf(form),
          }
        : { ...common, templates: form.getAll('templates').map((id) => ({ id: Number(id), weight: Number(textOf(form, `weight${String(id)}`) || 1) })) };
    setBusy(true);
    setNotice(undefined);
    const { data, problem: refused } = template
      ? await send(api.PATCH('/api/admin/v1/sla/templates/{id}', { params: { path: { id: String(template.id) } }, body }))
      : await send(api.POST('/api/admin/v1/sla/templates', { body: { ...body, type } as SlaTemplateBody }));
    setBusy(false);
    setProblem(refused);
    if (data) {
      setNotice(`Saved ${data.name}.`);
      onSaved(data);
    }
  };
  const errors = {
    type: errorAt(problem, 'type', ['sla_template.type_fixed']),
    name: errorAt(problem, 'name', ['sla_template.name_taken']),
    description: errorAt(problem, 'description'),
    period: errorAt(problem, 'period'),
    owner: errorAt(problem, 'workGroupId', ['work_group.not_found', 'sla_template.owner_in_use']),
    timeZone: errorAt(problem, 'timeZone'),
    configItems: errorAt(problem, 'configItems'),
    priorities: errorAt(problem, 'priorities'),
    target: errorAt(problem, 'target'),
    burnRateAlert: errorAt(problem, 'burnRateAlert'),
    calendar: errorAt(problem, 'calendar'),
    templates: errorAt(problem, 'templates', ['sla_template.unknown']),
  };
  const singles = templates.filter((t) => t.type === 'Single' && t.id !== template?.id);
  return (
    <form class="admin-form" aria-label={template ? `Edit ${template.name}` : 'New SLA template'} onSubmit={submit} noValidate>
      <Field id={`${p}-type`} label="Kind" error={errors.type} hint={template ? 'A template keeps its kind' : 'Multi: a weighted combination of Single templates'}>
        {(a11y) => (
          <select {...a11y} name="type" value={type} disabled={template !== undefined} onChange={(e) => setType(e.currentTarget.value as SlaTemplate['type'])}>
            <option value="Single">Single (CIs)</option>
            <option value="Multi">Multi (templates)</option>
          </select>
        )}
      </Field>
      <Field id={`${p}-name`} label="Name" error={errors.name}>
        {(a11y) => <input {...a11y} name="name" required autoComplete="off" defaultValue={template?.name ?? ''} maxLength={255} />}
      </Field>
      <Field id={`${p}-description`} label="Description" error={errors.description}>
        {(a11y) => <input {...a11y} name="description" autoComplete="off" defaultValue={template?.description ?? ''} />}
      </Field>
      <Field id={`${p}-owner`} label="Owner workgroup" error={errors.owner}>
        {(a11y) => (
          <select {...a11y} name="owner">
            <option value="">Choose a workgroup</option>
            {groups.map((g) => (
              <option key={g.id} value={g.id} selected={g.id === template?.workGroupId}>
                {g.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id={`${p}-period`} label="Default period" error={errors.period}>
        {(a11y) => (
          <select {...a11y} name="period">
            {PERIODS.map((period) => (
              <option key={period} value={period} selected={period === (template?.period ?? 'ThisMonth')}>
                {period.replace(/([a-z])([A-Z])/g, '$1 $2')}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field id={`${p}-tz`} label="Time zone" error={errors.timeZone} hint="IANA name, e.g. Europe/Berlin; of the period and the calendar">
        {(a11y) => <input {...a11y} name="timeZone" autoComplete="off" defaultValue={template?.timeZone ?? 'UTC'} />}
      </Field>
      {type === 'Single' ? (
        <>
          <CiRows rows={rows} onChange={setRows} prefix={p} error={errors.configItems} />
          <Checks
            legend="Priorities that count"
            name="priorities"
            options={[1, 2, 3, 4].map((n) => ({ value: String(n), label: `P${n}` }))}
            checked={(single?.priorities ?? [1, 2]).map(String)}
            error={errors.priorities}
          />
          <label class="check">
            <input type="checkbox" name="excludeMaintenance" defaultChecked={single?.excludeMaintenance ?? true} /> Time in maintenance does not count
          </label>
          <Field id={`${p}-target`} label="Target (%)" error={errors.target} hint="e.g. 99.9; empty: none">
            {(a11y) => (
              <input
                {...a11y}
                name="target"
                type="number"
                min={0}
                max={100}
                step="any"
                defaultValue={single?.target !== null && single?.target !== undefined ? String(single.target) : ''}
              />
            )}
          </Field>
          <Field
            id={`${p}-burn`}
            label="Burn-rate alert"
            error={errors.burnRateAlert}
            hint="With a target: notify when the last hour's burn rate reaches it, e.g. 14.4; empty: no alert"
          >
            {(a11y) => (
              <input {...a11y} name="burnRateAlert" type="number" min={0} step="any" defaultValue={single?.burnRateAlert !== undefined ? String(single.burnRateAlert) : ''} />
            )}
          </Field>
          <SlaCalendar id={p} calendar={single?.calendar ?? null} error={errors.calendar} />
        </>
      ) : (
        <fieldset class={errors.templates ? 'invalid' : undefined}>
          <legend>Single templates combined</legend>
          {singles.length === 0 && <p class="muted">No Single template yet.</p>}
          {singles.map((s) => {
            const part = parts.find((x) => x.id === s.id);
            return (
              <div key={s.id} class="inline-field">
                <label class="check">
                  <input type="checkbox" name="templates" value={s.id} defaultChecked={part !== undefined} /> {s.name}
                </label>
                <input type="number" name={`weight${s.id}`} min={0.01} step="any" defaultValue={String(part?.weight ?? 1)} aria-label={`Weight of ${s.name}`} class="narrow" />
              </div>
            );
          })}
          {errors.templates && <p class="field-error">{errors.templates}</p>}
        </fieldset>
      )}
      <FormError message={formError(problem, Object.values(errors))} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : template ? 'Save template' : 'Create template'}
        </button>
      </div>
      <Notice text={notice} />
    </form>
  );
}

export function AdminSlaTemplates() {
  const [templates, reload] = useLoad((signal) => api.GET('/api/admin/v1/sla/templates', { signal }), [], { keepOnReload: true });
  const [groups] = useLoad((signal) => api.GET('/api/admin/v1/work-groups', { signal }), []);
  const groupList = groups.state === 'ok' ? groups.data : [];
  return (
    <AdminSplit
      loaded={templates}
      section={{ path: 'sla-templates', param: 'template', noun: 'SLA template', plural: 'SLA templates' }}
      columns={[
        { label: 'Kind', cell: (x) => x.type },
        {
          label: 'Owner',
          cell: (x) => (x.workGroupId !== null ? (groupList.find((g) => g.id === x.workGroupId)?.name ?? `Workgroup ${x.workGroupId}`) : `User ${x.userId ?? ''}`),
        },
        { label: 'Period', cell: (x) => x.period },
        { label: 'Target', cell: (x) => (x.type === 'Single' && x.target !== null ? `${x.target} %` : <span class="muted">none</span>) },
        { label: 'Covers', cell: (x) => (x.type === 'Single' ? `${x.configItems.length} CI${x.configItems.length === 1 ? '' : 's'}` : `${x.templates.length} templates`) },
      ]}
      empty="No SLA template yet."
      create={(open, list) => <TemplateForm templates={list} groups={groupList} onSaved={(saved) => open(saved.id)} />}
      remove={(x) => send(api.DELETE('/api/admin/v1/sla/templates/{id}', { params: { path: { id: String(x.id) } } }))}
      detail={(selected, list) => (
        <>
          <p>
            <a href={`/sla?template=${selected.id}`}>Its figures on the SLA screen</a>
          </p>
          <TemplateForm template={selected} templates={list} groups={groupList} onSaved={reload} />
        </>
      )}
      reload={reload}
      hint="Choose an SLA template to change it."
    />
  );
}
