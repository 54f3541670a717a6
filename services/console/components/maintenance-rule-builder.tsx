/**
 * The recurrence part of the mode form: the builder for the common rules and, under it, the RRULE
 * text it writes (which may also be typed: a rule beyond the builder stays text), the IANA zone
 * whose wall clock the windows keep, and the local dates to skip.
 */
import { Field } from './cmdb-field.js';
import { type Built, builderOf, defaultBuilt, type Freq, ordinalOf, ruleText, WEEKDAY_CODES, WEEKDAY_NAMES } from './maintenance-rule.js';

export interface RecurrenceDraft {
  rule: string;
  exdates: string;
}

interface Props {
  draft: RecurrenceDraft;
  startDate: string;
  onChange: (draft: RecurrenceDraft) => void;
  errors: { rule?: string | undefined; exdates?: string | undefined };
  disabled: boolean;
}

const ORDINALS: Array<[number, string]> = [
  [1, 'first'],
  [2, 'second'],
  [3, 'third'],
  [4, 'fourth'],
  [-1, 'last'],
];
const UNITS: Record<Freq, string> = { DAILY: 'days', WEEKLY: 'weeks', MONTHLY: 'months' };

export function RuleBuilder({ draft, startDate, onChange, errors, disabled }: Props) {
  const built = builderOf(draft.rule, startDate);
  const set = (b: Built) => onChange({ ...draft, rule: ruleText(b) });
  return (
    <fieldset class="mrule" disabled={disabled}>
      <legend>Repeats</legend>
      {built ? (
        <div class="mrule-builder">
          <div class="field">
            <label for="mrule-freq">Every</label>
            <span class="mrule-every">
              <input
                id="mrule-interval"
                type="number"
                min={1}
                max={99}
                aria-label="Interval"
                value={built.interval}
                onInput={(e) => {
                  const n = Number(e.currentTarget.value);
                  if (Number.isInteger(n) && n >= 1 && n <= 99) set({ ...built, interval: n });
                }}
              />
              <select
                id="mrule-freq"
                value={built.freq}
                onChange={(e) => {
                  const freq = e.currentTarget.value as Freq;
                  const o = ordinalOf(startDate);
                  set({
                    ...built,
                    freq,
                    ...(freq === 'MONTHLY' && built.freq !== 'MONTHLY' ? { monthly: { kind: 'day', day: Number(startDate.slice(8, 10)) || 1 } } : {}),
                    ...(freq === 'WEEKLY' && built.weekdays.length === 0 ? { weekdays: [o.weekday] } : {}),
                  });
                }}
              >
                {(['DAILY', 'WEEKLY', 'MONTHLY'] as const).map((f) => (
                  <option key={f} value={f}>
                    {UNITS[f]}
                  </option>
                ))}
              </select>
            </span>
          </div>
          {built.freq === 'WEEKLY' && (
            <fieldset class="mrule-days">
              <legend>On</legend>
              {WEEKDAY_CODES.map((code) => (
                <label key={code} class="check">
                  <input
                    type="checkbox"
                    checked={built.weekdays.includes(code)}
                    onChange={(e) => set({ ...built, weekdays: e.currentTarget.checked ? [...built.weekdays, code] : built.weekdays.filter((d) => d !== code) })}
                  />
                  {WEEKDAY_NAMES[code]}
                </label>
              ))}
            </fieldset>
          )}
          {built.freq === 'MONTHLY' && (
            <div class="field">
              <label for="mrule-monthly">On</label>
              <select
                id="mrule-monthly"
                value={built.monthly.kind}
                onChange={(e) => {
                  const o = ordinalOf(startDate);
                  set({ ...built, monthly: e.currentTarget.value === 'day' ? { kind: 'day', day: Number(startDate.slice(8, 10)) || 1 } : { kind: 'weekday', ...o } });
                }}
              >
                <option value="day">day {built.monthly.kind === 'day' ? built.monthly.day : Number(startDate.slice(8, 10)) || 1} of the month</option>
                <option value="weekday">
                  the {ORDINALS.find(([n]) => n === (built.monthly.kind === 'weekday' ? built.monthly.ordinal : ordinalOf(startDate).ordinal))?.[1]}{' '}
                  {WEEKDAY_NAMES[built.monthly.kind === 'weekday' ? built.monthly.weekday : ordinalOf(startDate).weekday]}
                </option>
              </select>
            </div>
          )}
          <div class="field">
            <label for="mrule-ends">Ends</label>
            <span class="mrule-every">
              <select
                id="mrule-ends"
                value={built.ends.kind}
                onChange={(e) => {
                  const kind = e.currentTarget.value;
                  set({ ...built, ends: kind === 'count' ? { kind, count: 10 } : kind === 'until' ? { kind, date: startDate } : { kind: 'never' } });
                }}
              >
                <option value="never">never</option>
                <option value="count">after a number of windows</option>
                <option value="until">on a date</option>
              </select>
              {built.ends.kind === 'count' && (
                <input
                  type="number"
                  min={1}
                  max={5000}
                  aria-label="Number of windows"
                  value={built.ends.count}
                  onInput={(e) => {
                    const n = Number(e.currentTarget.value);
                    if (Number.isInteger(n) && n >= 1) set({ ...built, ends: { kind: 'count', count: n } });
                  }}
                />
              )}
              {built.ends.kind === 'until' && (
                <input
                  type="date"
                  aria-label="Last date"
                  value={built.ends.date}
                  onInput={(e) => e.currentTarget.value && set({ ...built, ends: { kind: 'until', date: e.currentTarget.value } })}
                />
              )}
            </span>
          </div>
        </div>
      ) : (
        <p class="muted">This rule goes beyond the builder; edit it as text below.</p>
      )}
      <Field id="mrule-rule" label="RRULE" error={errors.rule} hint="RFC 5545, e.g. FREQ=MONTHLY;BYDAY=-1FR; the builder above writes it">
        {(a11y) => <input {...a11y} class="mono" value={draft.rule} spellcheck={false} autoComplete="off" onInput={(e) => onChange({ ...draft, rule: e.currentTarget.value })} />}
      </Field>
      <Field id="mrule-exdates" label="Skip dates" error={errors.exdates} hint="Local dates YYYY-MM-DD whose window does not happen, separated by commas">
        {(a11y) => (
          <input {...a11y} class="mono" value={draft.exdates} spellcheck={false} autoComplete="off" onInput={(e) => onChange({ ...draft, exdates: e.currentTarget.value })} />
        )}
      </Field>
    </fieldset>
  );
}

export const newDraft = (startDate: string): RecurrenceDraft => ({ rule: ruleText(defaultBuilt(startDate)), exdates: '' });
