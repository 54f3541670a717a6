/**
 * The calendar's state as the URL holds it (`view`, `date`, `search`) and the days a view shows:
 * a month (whole weeks from Monday), a week (Monday to Sunday) or a list of seven days from the
 * date. Days are the browser's local days, or UTC days when the console shows UTC.
 */
export type CalendarView = 'month' | 'week' | 'list';
export const VIEWS: ReadonlyArray<{ id: CalendarView; label: string }> = [
  { id: 'month', label: 'Month' },
  { id: 'week', label: 'Week' },
  { id: 'list', label: 'List' },
];

export interface CalendarQuery {
  view: CalendarView;
  /** A local date YYYY-MM-DD inside the shown range. */
  date: string;
  search: string;
}

/** A calendar day: year, month 1..12, day. */
export interface Day {
  year: number;
  month: number;
  day: number;
}

const pad = (n: number): string => String(n).padStart(2, '0');
export const dayText = (d: Day): string => `${d.year}-${pad(d.month)}-${pad(d.day)}`;

/** The day `offset` days after `d` (rolls over months and years). */
export function addDays(d: Day, offset: number): Day {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + offset));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** ISO weekday, 1 = Monday .. 7 = Sunday. */
export const weekday = (d: Day): number => ((new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay() + 6) % 7) + 1;

/** The first instant of a day on the shown clock. */
export const dayStart = (d: Day, utc: boolean): number => (utc ? Date.UTC(d.year, d.month - 1, d.day) : new Date(d.year, d.month - 1, d.day).getTime());

/** The day an instant falls on, on the shown clock. */
export function dayOfInstant(ms: number, utc: boolean): Day {
  const t = new Date(ms);
  return utc ? { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() } : { year: t.getFullYear(), month: t.getMonth() + 1, day: t.getDate() };
}

export function parseDay(text: string | null): Day | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text ?? '');
  if (!m) return null;
  const d = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  return dayText(addDays(d, 0)) === text ? d : null;
}

export function readQuery(params: URLSearchParams, utc: boolean): CalendarQuery {
  const view = VIEWS.find((v) => v.id === params.get('view'))?.id ?? 'month';
  const date = parseDay(params.get('date')) ?? dayOfInstant(Date.now(), utc);
  return { view, date: dayText(date), search: params.get('search')?.trim() ?? '' };
}

export function queryHref(q: CalendarQuery): string {
  const p = new URLSearchParams({ view: q.view, date: q.date });
  if (q.search) p.set('search', q.search);
  return `/maintenance?${p.toString()}`;
}

export interface Range {
  days: Day[];
  /** The days' first instants and the range's end: days.length + 1 entries. */
  starts: number[];
  title: string;
  previous: string;
  next: string;
}

/**
 * Formatters by key, made once: making one costs a Chromium tens of milliseconds the first time
 * (measured in the console bench's profile: 24–53 ms of the month's first render, before its
 * request could start), and the screen formats on every render.
 */
const formats = new Map<string, Intl.DateTimeFormat>();
export function format(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(undefined, options);
    formats.set(key, f);
  }
  return f;
}

const monthName = (d: Day): string => format('month', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(d.year, d.month - 1, d.day));
const shortDay = (d: Day): string => format('short-year', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(d.year, d.month - 1, d.day));

/** The days a view shows around `date`, with its title and the dates of the ranges either side. */
export function rangeOf(view: CalendarView, date: Day, utc: boolean): Range {
  let first: Day;
  let count: number;
  let title: string;
  let previous: Day;
  let next: Day;
  if (view === 'month') {
    const firstOfMonth = { ...date, day: 1 };
    first = addDays(firstOfMonth, 1 - weekday(firstOfMonth));
    const lastOfMonth = { ...date, day: new Date(Date.UTC(date.year, date.month, 0)).getUTCDate() };
    count = Math.round((dayStart(addDays(lastOfMonth, 8 - weekday(lastOfMonth)), true) - dayStart(first, true)) / 86_400_000);
    title = monthName(date);
    previous = { ...addDays(firstOfMonth, -1), day: 1 };
    next = addDays(lastOfMonth, 1);
  } else if (view === 'week') {
    first = addDays(date, 1 - weekday(date));
    count = 7;
    title = `Week of ${shortDay(first)}`;
    previous = addDays(first, -7);
    next = addDays(first, 7);
  } else {
    first = date;
    count = 7;
    title = `${shortDay(first)} – ${shortDay(addDays(first, 6))}`;
    previous = addDays(first, -7);
    next = addDays(first, 7);
  }
  const days = Array.from({ length: count }, (_, i) => addDays(first, i));
  const starts = [...days, addDays(first, count)].map((d) => dayStart(d, utc));
  return { days, starts, title, previous: dayText(previous), next: dayText(next) };
}
