/**
 * The maintenance mode form, to create a mode (POST) or replace one (PUT): title, start and end on
 * the chosen zone's clock, the CIs with their scope and depth, labels, and the recurrence; the
 * live preview beside it. The API's messages are shown at the field they concern, and so are
 * those of the checks made before asking for a preview. A started mode keeps its start; an ended
 * one cannot be changed (spec 3.2), so the form says so instead of offering it.
 */
import { useMemo, useState } from 'preact/hooks';
import { isTimeZone } from '../../../pipelines/time/time-zone.js';
import { type ApiProblem, api, fieldError, problemOf } from '../app/api.js';
import { CiPicker } from './ci-picker.js';
import { Field, FormError } from './cmdb-field.js';
import { formError } from './cmdb-model.js';
import { bodyOf, type Draft, type Fixed, readiness, type ScopeDraft } from './maintenance-form-model.js';
import type { Mode } from './maintenance-occurrences.js';
import { Preview, usePreview } from './maintenance-preview.js';
import { newDraft, RuleBuilder } from './maintenance-rule-builder.js';

interface Props {
  mode?: Mode;
  initial: Draft;
  fixed: Fixed;
  onSaved: (mode: Mode) => void;
  onCancel: () => void;
}

let nextKey = 1000;
const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

function ScopeRow({
  s,
  index,
  count,
  error,
  onChange,
  onRemove,
  disabled,
}: {
  s: ScopeDraft;
  index: number;
  count: number;
  error: (field: string) => string | undefined;
  onChange: (s: ScopeDraft) => void;
  onRemove: () => void;
  disabled: boolean;
}) {
  const id = `mscope-${s.key}`;
  return (
    <li class="mscope">
      <CiPicker
        id={`${id}-ci`}
        label={`CI ${index + 1}`}
        value={s.ci}
        onChange={(ci) => onChange({ ...s, ci })}
        error={error(`configItems/${index}/id`) ?? error(`configItems/${index}`)}
      />
      <Field id={`${id}-scope`} label="Scope" error={error(`configItems/${index}/scope`)}>
        {(a11y) => (
          <select {...a11y} value={s.scope} disabled={disabled} onChange={(e) => onChange({ ...s, scope: e.currentTarget.value as ScopeDraft['scope'] })}>
            <option value="Ci">Only this CI</option>
            <option value="CiAndChildren">This CI and its children</option>
          </select>
        )}
      </Field>
      {s.scope === 'CiAndChildren' && (
        <Field id={`${id}-depth`} label="Depth" error={error(`configItems/${index}/depth`)} hint="Levels below it; empty for all">
          {(a11y) => <input {...a11y} type="number" min={0} value={s.depth} disabled={disabled} onInput={(e) => onChange({ ...s, depth: e.currentTarget.value })} />}
        </Field>
      )}
      {count > 1 && (
        <button type="button" onClick={onRemove} disabled={disabled} aria-label={`Remove CI ${index + 1}`}>
          Remove
        </button>
      )}
    </li>
  );
}

export function MaintenanceForm({ mode, initial, fixed, onSaved, onCancel }: Props) {
  const [d, setD] = useState<Draft>(initial);
  const [saveProblem, setSaveProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const set = (change: Partial<Draft>) => {
    setD((old) => ({ ...old, ...change }));
    setSaveProblem(undefined);
  };
  const ended = mode?.state === 'Completed' || mode?.state === 'Canceled';
  const started = mode?.state === 'Active';

  const body = useMemo(() => bodyOf(d, fixed), [d, fixed]);
  const zoneProblem = isTimeZone(d.timeZone) ? undefined : 'is not an IANA time zone, e.g. Europe/Berlin';
  const ready = zoneProblem ? { why: 'The preview appears once the zone is a known IANA zone.' } : readiness(body);
  const preview = usePreview(ready.why || ready.problem || ended ? null : body, ended ? 'This mode has ended.' : (ready.why ?? 'Fix the fields marked above to see the preview.'));
  const problem = saveProblem ?? ready.problem ?? (preview.state === 'error' ? preview.problem : undefined);
  const error = (field: string): string | undefined => fieldError(problem, field);

  const names = new Map(preview.state === 'ok' ? preview.data.configItems.map((c) => [c.id, c.name]) : []);
  const scopes = d.scopes.map((s) => (s.ci && names.has(s.ci.id) && s.ci.name !== names.get(s.ci.id) ? { ...s, ci: { id: s.ci.id, name: names.get(s.ci.id)! } } : s));

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setBusy(true);
    setSaveProblem(undefined);
    const answer = mode
      ? await api.PUT('/api/public/sm/v1/rsm-maintenance/{id}', { params: { path: { id: String(mode.id) } }, body })
      : await api.POST('/api/public/sm/v1/rsm-maintenance', { body });
    setBusy(false);
    if (answer.data) onSaved(answer.data);
    else setSaveProblem(problemOf(answer.error, answer.response.status));
  };

  const errors = {
    title: error('title'),
    start: error('dateStart'),
    end: error('dateEnd'),
    zone: zoneProblem ?? error('recurrence/timeZone'),
    cis: error('configItems') && !problem?.errors?.some((e) => /^\/configItems\/\d/.test(e.path)) ? error('configItems') : undefined,
    labels: error('labels'),
    rule: error('recurrence/rule') ?? (error('recurrence') && !error('recurrence/timeZone') && !error('recurrence/exdates') ? error('recurrence') : undefined),
    exdates: error('recurrence/exdates'),
  };
  const placed = [...Object.values(errors), ...d.scopes.flatMap((_, i) => [error(`configItems/${i}`)])];
  const startDate = d.start.slice(0, 10);

  return (
    <div class="mform-layout">
      <form class="mform" aria-label={mode ? `Edit ${mode.title || `mode ${mode.id}`}` : 'New maintenance mode'} onSubmit={submit} noValidate>
        {ended && <p class="notice">This mode has ended: it can no longer be changed (a mode that has ended cannot be changed at all).</p>}
        <fieldset class="mform-main" disabled={ended || busy}>
          <Field id="mform-title" label="Title" error={errors.title}>
            {(a11y) => <input {...a11y} value={d.title} autoComplete="off" maxLength={255} onInput={(e) => set({ title: e.currentTarget.value })} />}
          </Field>
          <Field id="mform-zone" label="Time zone" error={errors.zone} hint="IANA zone; the times below, and each recurring window, keep this zone’s wall clock">
            {(a11y) => (
              <input {...a11y} list="mform-zones" value={d.timeZone} autoComplete="off" spellcheck={false} onInput={(e) => set({ timeZone: e.currentTarget.value.trim() })} />
            )}
          </Field>
          <datalist id="mform-zones">
            {zones.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
          <div class="mform-times">
            <Field id="mform-start" label="Start" error={errors.start} hint={started ? 'The mode has started: its start can no longer change' : 'The first window’s start'}>
              {(a11y) => <input {...a11y} type="datetime-local" value={d.start} disabled={started} onInput={(e) => set({ start: e.currentTarget.value })} />}
            </Field>
            <Field id="mform-end" label="End" error={errors.end} hint="Must be after the start and in the future">
              {(a11y) => <input {...a11y} type="datetime-local" value={d.end} onInput={(e) => set({ end: e.currentTarget.value })} />}
            </Field>
          </div>
          <fieldset class="mform-cis">
            <legend>CIs</legend>
            {errors.cis && <p class="field-error">{errors.cis}</p>}
            <ul class="plain">
              {scopes.map((s, i) => (
                <ScopeRow
                  key={s.key}
                  s={s}
                  index={i}
                  count={d.scopes.length}
                  error={error}
                  disabled={ended}
                  onChange={(next) => set({ scopes: d.scopes.map((x) => (x.key === s.key ? next : x)) })}
                  onRemove={() => set({ scopes: d.scopes.filter((x) => x.key !== s.key) })}
                />
              ))}
            </ul>
            <button type="button" onClick={() => set({ scopes: [...d.scopes, { key: nextKey++, ci: null, scope: 'Ci', depth: '' }] })}>
              Add a CI
            </button>
          </fieldset>
          <Field id="mform-labels" label="Labels" error={errors.labels} hint="One a line: name=value, or a name alone">
            {(a11y) => <textarea {...a11y} rows={3} class="mono" value={d.labels} spellcheck={false} onInput={(e) => set({ labels: e.currentTarget.value })} />}
          </Field>
          <label class="check">
            <input
              type="checkbox"
              checked={d.repeats}
              onChange={(e) => set({ repeats: e.currentTarget.checked, ...(e.currentTarget.checked && d.recurrence.rule === '' ? { recurrence: newDraft(startDate) } : {}) })}
            />
            Repeats
          </label>
          {d.repeats && (
            <RuleBuilder
              draft={d.recurrence}
              startDate={startDate}
              onChange={(recurrence) => set({ recurrence })}
              errors={{ rule: errors.rule, exdates: errors.exdates }}
              disabled={ended}
            />
          )}
        </fieldset>
        <FormError message={saveProblem ? formError(saveProblem, placed) : undefined} />
        <div class="buttons">
          {!ended && (
            <button type="submit" class="primary" disabled={busy}>
              {busy ? 'Saving…' : mode ? 'Save' : 'Create mode'}
            </button>
          )}
          <button type="button" onClick={onCancel} disabled={busy}>
            Back to the calendar
          </button>
        </div>
      </form>
      <Preview preview={preview} />
    </div>
  );
}
