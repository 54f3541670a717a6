/**
 * The month and week views: a table of days (weekday columns), each cell listing the windows
 * starting that day in the shown clock's time, capped so that a busy day stays one cell (the
 * rest behind a "more" link to that day's list). One component a day, not one a mode: 10 000
 * modes render as 42 cells of a few links.
 */
import { memo } from 'preact/compat';
import { type CalendarView, type Day, dayText, format, queryHref } from './maintenance-calendar-model.js';
import type { Occurrence } from './maintenance-occurrences.js';

/** Windows shown in one cell before the "more" link. */
const SHOWN: Record<Exclude<CalendarView, 'list'>, number> = { month: 3, week: 20 };
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export const clockTime = (ms: number, utc: boolean): string => format(`t${utc}`, { hour: '2-digit', minute: '2-digit', ...(utc ? { timeZone: 'UTC' } : {}) }).format(ms);
export const fullTime = (ms: number, utc: boolean): string => format(`f${utc}`, { dateStyle: 'medium', timeStyle: 'short', ...(utc ? { timeZone: 'UTC' } : {}) }).format(ms);
const longDay = (d: Day): string =>
  format('day', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(d.year, d.month - 1, d.day));
const shortDay = (d: Day): string => format('short', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(Date.UTC(d.year, d.month - 1, d.day));

/** One window as a link to its mode; `continued`: it began on an earlier day. */
export function Entry({ o, utc, continued, withEnd }: { o: Occurrence; utc: boolean; continued: boolean; withEnd: boolean }) {
  const title = o.mode.title || `Mode ${o.mode.id}`;
  return (
    <a
      href={`/maintenance/${o.mode.id}`}
      class={`mcal-entry${o.canceled ? ' canceled' : ''}${o.mode.recurrence ? ' recurring' : ''}`}
      title={`${fullTime(o.start, utc)} – ${fullTime(o.end, utc)} (UTC ${new Date(o.start).toISOString()} – ${new Date(o.end).toISOString()})`}
    >
      <span class="mcal-time">{continued ? '…' : clockTime(o.start, utc)}</span>
      {withEnd && !continued && <span class="mcal-time">–{clockTime(o.end, utc)}</span>} {title}
      {o.canceled && <span class="mcal-flag"> (canceled)</span>}
      {o.mode.recurrence && (
        <span class="mcal-repeat" aria-label="recurring" role="img">
          {' '}
          ↻
        </span>
      )}
    </a>
  );
}

interface CellProps {
  view: 'month' | 'week';
  day: Day;
  dayStart: number;
  entries: Occurrence[];
  outside: boolean;
  today: boolean;
  utc: boolean;
  search: string;
}

const DayCell = memo(function DayCell({ view, day, dayStart, entries, outside, today, utc, search }: CellProps) {
  const shown = entries.slice(0, SHOWN[view]);
  const more = entries.length - shown.length;
  const dayHref = queryHref({ view: 'list', date: dayText(day), search });
  return (
    <td class={`mcal-day${outside ? ' outside' : ''}`} aria-current={today ? 'date' : undefined}>
      <a class="mcal-date" href={dayHref}>
        {view === 'month' ? day.day : shortDay(day)}
        <span class="visually-hidden">
          , {longDay(day)}: {entries.length === 0 ? 'no window' : entries.length === 1 ? '1 window' : `${entries.length} windows`}
        </span>
      </a>
      {shown.length > 0 && (
        <ul class="plain">
          {shown.map((o) => (
            <li key={`${o.mode.id}-${o.start}`}>
              <Entry o={o} utc={utc} continued={o.start < dayStart} withEnd={view === 'week'} />
            </li>
          ))}
        </ul>
      )}
      {more > 0 && (
        <a class="mcal-more" href={dayHref}>
          {more} more
        </a>
      )}
    </td>
  );
});

export function CalendarGrid(props: {
  view: 'month' | 'week';
  title: string;
  days: Day[];
  starts: number[];
  perDay: Occurrence[][];
  month: number;
  today: string;
  utc: boolean;
  search: string;
}) {
  const { view, title, days, starts, perDay, month, today, utc, search } = props;
  const weeks: number[] = [];
  for (let i = 0; i < days.length; i += 7) weeks.push(i);
  return (
    <table class={`mcal mcal-${view}`}>
      <caption class="visually-hidden">Maintenance windows, {title}</caption>
      <thead>
        <tr>
          {WEEKDAYS.map((w) => (
            <th key={w} scope="col" abbr={w}>
              {w.slice(0, 3)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((w) => (
          <tr key={w}>
            {days.slice(w, w + 7).map((day, i) => (
              <DayCell
                key={dayText(day)}
                view={view}
                day={day}
                dayStart={starts[w + i]!}
                entries={perDay[w + i]!}
                outside={view === 'month' && day.month !== month}
                today={dayText(day) === today}
                utc={utc}
                search={search}
              />
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
