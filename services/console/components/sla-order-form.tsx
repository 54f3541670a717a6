/**
 * Ordering a custom SLA report (POST …/sla/ordered): a template, and either its own period or a
 * range picked here (in the browser's zone, sent as UTC instants). The API's messages go to the
 * field they concern; an accepted order opens the report's page, which follows its progress.
 */
import { useState } from 'preact/hooks';
import { type ApiProblem, api, problemOf } from '../app/api.js';
import { Field, FormError } from './cmdb-field.js';
import { errorAt, formError } from './cmdb-model.js';
import { periodName, type Report, type Template } from './sla-model.js';

interface Props {
  templates: Template[];
  /** The template chosen beforehand (the URL's `template`). */
  templateId: number | undefined;
  onOrdered: (report: Report) => void;
}

/** A datetime-local value (the browser's zone) as an ISO instant, or undefined when empty or unreadable. */
function instant(local: string): string | undefined {
  if (!local) return undefined;
  const ms = new Date(local).getTime();
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

export function SlaOrderForm({ templates, templateId, onOrdered }: Props) {
  const [ownRange, setOwnRange] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [busy, setBusy] = useState(false);
  const [chosen, setChosen] = useState<number | undefined>(templateId ?? templates[0]?.id);
  const template = templates.find((t) => t.id === chosen);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '');
    const id = Number(text('template'));
    let range: { start: string; end: string } | undefined;
    if (ownRange) {
      const start = instant(text('start'));
      const end = instant(text('end'));
      // The API would say the same; said here, it lands at the fields without a round trip.
      const missing = [...(start ? [] : [{ path: '/range/start', message: 'choose the start' }]), ...(end ? [] : [{ path: '/range/end', message: 'choose the end' }])];
      if (missing.length > 0 || !start || !end) {
        setProblem({ status: 400, title: 'The range is incomplete', errors: missing });
        return;
      }
      range = { start, end };
    }
    setBusy(true);
    setProblem(undefined);
    const { data, error, response } = await api.POST('/api/public/sm/v1/sla/ordered', { body: { template: { id }, ...(range ? { range } : {}) } });
    setBusy(false);
    if (data) onOrdered(data);
    else setProblem(problemOf(error, response.status));
  };

  const errors = {
    template: errorAt(problem, 'template', ['sla_template.unknown', 'sla_template.read_forbidden', 'sla_template.not_found']),
    start: errorAt(problem, 'range/start'),
    end: errorAt(problem, 'range/end', ['sla_report.range_invalid']) ?? (ownRange ? errorAt(problem, 'range') : undefined),
  };

  return (
    <form class="sla-order" onSubmit={submit} aria-label="Order a report" noValidate>
      <Field id="sla-order-template" label="Template" error={errors.template}>
        {(a11y) => (
          <select {...a11y} name="template" value={chosen} onChange={(e) => setChosen(Number(e.currentTarget.value))}>
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.type === 'Multi' ? 'multi-template' : periodName(t.period)})
              </option>
            ))}
          </select>
        )}
      </Field>
      <fieldset class="sla-range">
        <legend>Range</legend>
        <label class="inline">
          <input type="radio" name="rangeKind" checked={!ownRange} onChange={() => setOwnRange(false)} />
          The template’s period{template ? ` (${periodName(template.period)})` : ''}
        </label>
        <label class="inline">
          <input type="radio" name="rangeKind" checked={ownRange} onChange={() => setOwnRange(true)} />
          From … to …
        </label>
        {ownRange && (
          <div class="sla-range-fields">
            <Field id="sla-order-start" label="From" error={errors.start} hint="In your time zone">
              {(a11y) => <input {...a11y} type="datetime-local" name="start" step={60} required />}
            </Field>
            <Field id="sla-order-end" label="To" error={errors.end}>
              {(a11y) => <input {...a11y} type="datetime-local" name="end" step={60} required />}
            </Field>
          </div>
        )}
      </fieldset>
      <FormError message={formError(problem, Object.values(errors))} />
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy || templates.length === 0}>
          {busy ? 'Ordering…' : 'Order report'}
        </button>
      </div>
    </form>
  );
}
