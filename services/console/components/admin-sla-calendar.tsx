/**
 * An SLA template's working calendar: the hours that count, a row per weekday (none: the day does
 * not count), and the holidays (dates that never count). Off: every hour counts (calendar null).
 * Its fields are read back by `calendarOf` from the form.
 */
import { useState } from 'preact/hooks';
import type { SlaTemplate } from './admin-kit.js';

type Calendar = NonNullable<Extract<SlaTemplate, { type: 'Single' }>['calendar']>;
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The calendar the form holds, or null when it is off. */
export function calendarOf(form: FormData): Calendar | null {
  if (form.get('calendarOn') !== 'on') return null;
  const week: Calendar['week'] = [];
  DAYS.forEach((_, i) => {
    const day = i + 1;
    if (form.get(`day${day}`) !== 'on') return;
    week.push({ day, from: String(form.get(`from${day}`) || '00:00'), to: String(form.get(`to${day}`) || '24:00') });
  });
  const holidays = String(form.get('holidays') ?? '')
    .split(/[\s,]+/)
    .filter((d) => d !== '');
  return { week, holidays };
}

export function SlaCalendar({ id, calendar, error }: { id: string; calendar: Calendar | null; error?: string | undefined }) {
  const [on, setOn] = useState(calendar !== null);
  const hours = (day: number) => calendar?.week.find((w) => w.day === day);
  return (
    <fieldset class={`admin-calendar${error ? ' invalid' : ''}`}>
      <legend>Working calendar</legend>
      <label class="check">
        <input type="checkbox" name="calendarOn" checked={on} onChange={(e) => setOn(e.currentTarget.checked)} /> Only working hours count (else every hour does)
      </label>
      {on && (
        <>
          <table>
            <caption class="visually-hidden">Working hours by weekday, in the template's time zone</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">From</th>
                <th scope="col">To</th>
              </tr>
            </thead>
            <tbody>
              {DAYS.map((name, i) => {
                const day = i + 1;
                const set = hours(day);
                const weekday = calendar === null ? day <= 5 : set !== undefined;
                return (
                  <tr key={day}>
                    <th scope="row">
                      <label class="check">
                        <input type="checkbox" name={`day${day}`} defaultChecked={weekday} /> {name}
                      </label>
                    </th>
                    <td>
                      <input type="time" name={`from${day}`} aria-label={`${name} from`} defaultValue={set?.from ?? '08:00'} />
                    </td>
                    <td>
                      {/* '24:00' ends the day but a time input cannot hold it: empty means the end of the day. */}
                      <input type="time" name={`to${day}`} aria-label={`${name} to (empty: end of day)`} defaultValue={set && set.to !== '24:00' ? set.to : set ? '' : '18:00'} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <label for={`${id}-holidays`}>Holidays</label>
          <textarea id={`${id}-holidays`} name="holidays" rows={2} class="mono" defaultValue={calendar?.holidays.join('\n') ?? ''} aria-describedby={`${id}-holidays-hint`} />
          <span id={`${id}-holidays-hint`} class="hint">
            One date a line, YYYY-MM-DD
          </span>
        </>
      )}
      {error && <p class="field-error">{error}</p>}
    </fieldset>
  );
}
