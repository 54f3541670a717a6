/**
 * The trigger's conditions, every one of which a record must meet: a field (a dotted path), an
 * operator and what it compares with. No condition matches every record. Each condition is a
 * group of its own, with the API's messages at its field and value.
 */
import { Field } from './cmdb-field.js';
import { type ConditionDraft, conditionKey, type Op } from './trigger-draft.js';

const OPS: ReadonlyArray<{ value: Op; label: string; hint: string }> = [
  { value: 'equals', label: 'equals', hint: 'Compared as text: 500 equals "500"' },
  { value: 'in', label: 'is one of', hint: 'Values separated by commas' },
  { value: 'regex', label: 'matches', hint: 'An RE2 pattern, e.g. (?i)link down' },
  { value: 'exists', label: 'exists', hint: '' },
];

interface Props {
  match: ConditionDraft[];
  onChange: (match: ConditionDraft[]) => void;
  error: (path: string) => string | undefined;
}

export function TriggerConditions({ match, onChange, error }: Props) {
  const set = (key: number, change: Partial<ConditionDraft>): void => onChange(match.map((m) => (m.key === key ? { ...m, ...change } : m)));
  const whole = error('match');
  return (
    <fieldset class="tform-conditions">
      <legend>Conditions</legend>
      <p class="hint">A record must meet every condition; with none, every record of the streams counts.</p>
      {whole && !match.some((_, i) => error(`match/${i}`)) && <p class="field-error">{whole}</p>}
      <ol class="plain">
        {match.map((m, i) => {
          const id = `tcond-${m.key}`;
          const op = OPS.find((o) => o.value === m.op)!;
          const valuePath = m.op === 'equals' ? 'value' : m.op === 'in' ? 'values' : 'pattern';
          return (
            <li key={m.key}>
              <fieldset class="tform-condition">
                <legend>Condition {i + 1}</legend>
                <Field id={`${id}-field`} label="Field" error={error(`match/${i}/field`)}>
                  {(a11y) => <input {...a11y} value={m.field} spellcheck={false} autoComplete="off" onInput={(e) => set(m.key, { field: e.currentTarget.value })} />}
                </Field>
                <Field id={`${id}-op`} label="Operator" error={error(`match/${i}/op`)}>
                  {(a11y) => (
                    <select {...a11y} value={m.op} onChange={(e) => set(m.key, { op: e.currentTarget.value as Op })}>
                      {OPS.map((o) => (
                        <option key={o.value} value={o.value}>
                          {o.label}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                {m.op !== 'exists' && (
                  <Field
                    id={`${id}-value`}
                    label={m.op === 'in' ? 'Values' : m.op === 'regex' ? 'Pattern' : 'Value'}
                    error={error(`match/${i}/${valuePath}`) ?? error(`match/${i}`)}
                    hint={op.hint}
                  >
                    {(a11y) => <input {...a11y} value={m.value} spellcheck={false} autoComplete="off" class="mono" onInput={(e) => set(m.key, { value: e.currentTarget.value })} />}
                  </Field>
                )}
                <button type="button" onClick={() => onChange(match.filter((x) => x.key !== m.key))} aria-label={`Remove condition ${i + 1}`}>
                  Remove
                </button>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <button type="button" onClick={() => onChange([...match, { key: conditionKey(), field: '', op: 'equals', value: '' }])}>
        Add a condition
      </button>
    </fieldset>
  );
}
