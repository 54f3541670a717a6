/**
 * What a matching record does, in the trigger editor: the CI it names (by a field holding the
 * CI's id or name, or one fixed CI), the problem's priority (fixed, or read from a field through
 * a map), the values that resolve it, and its tags, incident references, influence and late
 * window. Each control carries the API's message for its path.
 */
import { CiPicker } from './ci-picker.js';
import { Field } from './cmdb-field.js';
import type { Draft } from './trigger-draft.js';

/** What the form needs of a CI type. */
interface CiType {
  id: number;
  name: string;
}

interface Props {
  d: Draft;
  set: (change: Partial<Draft>) => void;
  error: (path: string) => string | undefined;
  ciTypes: readonly CiType[];
}

export function TriggerTargets({ d, set, error, ciTypes }: Props) {
  return (
    <>
      <fieldset class="tform-group">
        <legend>CI</legend>
        <Field id="tform-ci-by" label="The CI is" error={d.ciBy === 'fixed' ? undefined : error('ci')}>
          {(a11y) => (
            <select {...a11y} value={d.ciBy} onChange={(e) => set({ ciBy: e.currentTarget.value as Draft['ciBy'] })}>
              <option value="nameField">named by a field</option>
              <option value="idField">the id in a field</option>
              <option value="fixed">always the same CI</option>
            </select>
          )}
        </Field>
        {d.ciBy === 'fixed' ? (
          <CiPicker id="tform-ci-fixed" label="Fixed CI" value={d.ciFixed} onChange={(ci) => set({ ciFixed: ci })} error={error('ci/id') ?? error('ci')} />
        ) : (
          <>
            <Field id="tform-ci-field" label="CI field" error={error('ci/field')} hint="A dotted path of the record, e.g. host">
              {(a11y) => <input {...a11y} value={d.ciField} spellcheck={false} autoComplete="off" onInput={(e) => set({ ciField: e.currentTarget.value })} />}
            </Field>
            {d.ciBy === 'nameField' && (
              <Field id="tform-ci-type" label="CI type" error={error('ci/ciTypeId')} hint="Only CIs of this type are looked up by name">
                {(a11y) => (
                  <select {...a11y} value={d.ciTypeId} onChange={(e) => set({ ciTypeId: e.currentTarget.value })}>
                    <option value="">Any type</option>
                    {ciTypes.map((t) => (
                      <option key={t.id} value={String(t.id)}>
                        {t.name}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            )}
          </>
        )}
      </fieldset>

      <fieldset class="tform-group">
        <legend>Priority</legend>
        <Field id="tform-priority-by" label="The priority is" error={error('priority')}>
          {(a11y) => (
            <select {...a11y} value={d.priorityBy} onChange={(e) => set({ priorityBy: e.currentTarget.value as Draft['priorityBy'] })}>
              <option value="value">always the same</option>
              <option value="field">read from a field</option>
            </select>
          )}
        </Field>
        {d.priorityBy === 'value' ? (
          <Field id="tform-priority" label="Priority" error={error('priority/value')} hint="1 (highest) to 4">
            {(a11y) => <input {...a11y} type="number" min={1} max={4} value={d.priorityValue} onInput={(e) => set({ priorityValue: e.currentTarget.value })} />}
          </Field>
        ) : (
          <>
            <Field id="tform-priority-field" label="Priority field" error={error('priority/field')}>
              {(a11y) => <input {...a11y} value={d.priorityField} spellcheck={false} onInput={(e) => set({ priorityField: e.currentTarget.value })} />}
            </Field>
            <Field id="tform-priority-map" label="Priority of each value" error={error('priority/map')} hint="One value=priority a line, e.g. critical=1">
              {(a11y) => <textarea {...a11y} rows={4} class="mono" value={d.priorityMap} spellcheck={false} onInput={(e) => set({ priorityMap: e.currentTarget.value })} />}
            </Field>
            <Field id="tform-priority-default" label="Priority of other values" error={error('priority/default')} hint="1 (highest) to 4">
              {(a11y) => <input {...a11y} type="number" min={1} max={4} value={d.priorityDefault} onInput={(e) => set({ priorityDefault: e.currentTarget.value })} />}
            </Field>
          </>
        )}
      </fieldset>

      <fieldset class="tform-group">
        <legend>Resolve</legend>
        <Field id="tform-resolve-field" label="Resolve field" error={error('resolve/field') ?? error('resolve')}>
          {(a11y) => <input {...a11y} value={d.resolveField} spellcheck={false} onInput={(e) => set({ resolveField: e.currentTarget.value })} />}
        </Field>
        <Field
          id="tform-resolve-values"
          label="Resolving values"
          error={error('resolve/values')}
          hint="Separated by commas: a matching record holding one of them resolves the problem"
        >
          {(a11y) => <input {...a11y} value={d.resolveValues} spellcheck={false} onInput={(e) => set({ resolveValues: e.currentTarget.value })} />}
        </Field>
      </fieldset>

      <fieldset class="tform-group">
        <legend>Effect</legend>
        <Field id="tform-influence" label="Influence" error={error('influence/value') ?? error('influence')} hint="0 to 100: how far an open problem lowers the CI's health">
          {(a11y) => <input {...a11y} type="number" min={0} max={100} value={d.influenceValue} onInput={(e) => set({ influenceValue: e.currentTarget.value })} />}
        </Field>
        <label class="check">
          <input type="checkbox" checked={d.maxInfluence} onChange={(e) => set({ maxInfluence: e.currentTarget.checked })} /> Takes the CI's health to 0
        </label>
        <Field id="tform-late" label="Late window (minutes)" error={error('lateWindowMinutes')} hint="How far behind a CI's newest record a late record still counts">
          {(a11y) => <input {...a11y} type="number" min={1} max={10080} value={d.lateWindowMinutes} onInput={(e) => set({ lateWindowMinutes: e.currentTarget.value })} />}
        </Field>
        <Field id="tform-tags" label="Tags" error={error('tags')} hint="One id, name, colour a line, e.g. 2, network, blue">
          {(a11y) => <textarea {...a11y} rows={2} class="mono" value={d.tags} spellcheck={false} onInput={(e) => set({ tags: e.currentTarget.value })} />}
        </Field>
        <Field
          id="tform-incidents"
          label="Incident references"
          error={error('incidents')}
          hint="One connector id, connector name, field, type a line, e.g. 7, tracker, ticket, Incident"
        >
          {(a11y) => <textarea {...a11y} rows={2} class="mono" value={d.incidents} spellcheck={false} onInput={(e) => set({ incidents: e.currentTarget.value })} />}
        </Field>
      </fieldset>
    </>
  );
}
