/**
 * /maintenance: the calendar of the maintenance modes the user may see, as a month, a week or a
 * list of days (`view`, `date` and `search` in the URL), recurring modes drawn at each occurrence
 * and canceled ones marked; below it, the user's calendar feeds.
 *
 * The windows of the visible days come from the API's windows endpoint, recurring modes expanded
 * by the server (maintenance-occurrences.ts).
 */
import { useMemo } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api } from '../app/api.js';
import { hasRight } from '../app/session.js';
import { utc } from '../app/time.js';
import { Load, NeedsRight, useLoad } from '../components/load.js';
import { CalendarGrid } from '../components/maintenance-calendar-grid.js';
import { CalendarList } from '../components/maintenance-calendar-list.js';
import { type CalendarQuery, dayOfInstant, dayText, parseDay, queryHref, rangeOf, readQuery, VIEWS } from '../components/maintenance-calendar-model.js';
import { CalendarFeeds } from '../components/maintenance-feeds.js';
import { byDay, occurrencesOf, type Windows } from '../components/maintenance-occurrences.js';

function Toolbar({ q, title }: { q: CalendarQuery; title: string }) {
  const { route } = useLocation();
  const range = rangeOf(q.view, parseDay(q.date)!, utc.value);
  const today = dayText(dayOfInstant(Date.now(), utc.value));
  return (
    <div class="mcal-bar">
      <nav aria-label="Calendar views" class="mcal-views">
        {VIEWS.map((v) => (
          <a key={v.id} href={queryHref({ ...q, view: v.id })} aria-current={q.view === v.id ? 'page' : undefined}>
            {v.label}
          </a>
        ))}
      </nav>
      <nav aria-label="Calendar dates" class="mcal-nav">
        <a href={queryHref({ ...q, date: range.previous })}>Previous</a>
        <a href={queryHref({ ...q, date: today })}>Today</a>
        <a href={queryHref({ ...q, date: range.next })}>Next</a>
      </nav>
      <h2 class="mcal-title" aria-live="polite">
        {title}
      </h2>
      <form
        class="inline-form"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          const date = parseDay(String(form.get('date') ?? '')) ? String(form.get('date')) : q.date;
          route(queryHref({ ...q, date, search: String(form.get('search') ?? '').trim() }));
        }}
      >
        <label for="mcal-date">Go to</label>
        <input id="mcal-date" name="date" type="date" defaultValue={q.date} key={q.date} />
        <label for="mcal-search">Search</label>
        <input id="mcal-search" name="search" type="search" defaultValue={q.search} key={q.search} placeholder="title, label, mode or CI id" />
        <button type="submit">Show</button>
      </form>
    </div>
  );
}

function Calendar({ q, windows }: { q: CalendarQuery; windows: Windows }) {
  const shownUtc = utc.value;
  const date = parseDay(q.date)!;
  const range = useMemo(() => rangeOf(q.view, date, shownUtc), [q.view, q.date, shownUtc]);
  const occurrences = useMemo(() => occurrencesOf(windows), [windows]);
  const perDay = useMemo(() => (q.view === 'list' ? [] : byDay(occurrences, range.starts)), [occurrences, range, q.view]);
  const today = dayText(dayOfInstant(Date.now(), shownUtc));
  return (
    <>
      <p class="muted" role="status">
        {occurrences.length === 0
          ? 'No maintenance window in these days.'
          : `${occurrences.length.toLocaleString()} ${occurrences.length === 1 ? 'window' : 'windows'} in these days`}
        {shownUtc ? ' · times in UTC' : ''}
      </p>
      {windows.truncated && (
        <p class="notice" role="status">
          More windows meet these days than one answer holds: the latest are not shown; search to narrow them.
        </p>
      )}
      {q.view === 'list' ? (
        <CalendarList occurrences={occurrences} title={range.title} utc={shownUtc} />
      ) : (
        <div class="mcal-scroll" role="region" aria-label={`${q.view === 'month' ? 'Month' : 'Week'} calendar`} tabIndex={0}>
          <CalendarGrid
            view={q.view}
            title={range.title}
            days={range.days}
            starts={range.starts}
            perDay={perDay}
            month={date.month}
            today={today}
            utc={shownUtc}
            search={q.search}
          />
        </div>
      )}
    </>
  );
}

function MaintenanceScreen() {
  const { url } = useLocation();
  const params = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?')) : '');
  const q = readQuery(params, utc.value);
  const range = rangeOf(q.view, parseDay(q.date)!, utc.value);
  const from = new Date(range.starts[0]!).toISOString();
  const to = new Date(range.starts[range.starts.length - 1]!).toISOString();
  const [loaded] = useLoad(
    (signal) =>
      api.GET('/api/public/sm/v1/rsm-maintenance/windows', {
        params: { query: { dateFrom: from, dateTo: to, ...(q.search ? { search: q.search } : {}) } },
        signal,
      }),
    [from, to, q.search],
  );
  const mayWrite = hasRight('base-system.rsm-maintenance.write') || hasRight('base-system.admin');
  return (
    <main class="maintenance">
      <div class="mcal-head">
        <h1>Maintenance</h1>
        {mayWrite && (
          <a class="button primary" href="/maintenance/new">
            New maintenance mode
          </a>
        )}
      </div>
      <Toolbar q={q} title={range.title} />
      <Load loaded={loaded} label="maintenance windows">
        {(windows) => <Calendar q={q} windows={windows} />}
      </Load>
      <CalendarFeeds search={q.search} />
    </main>
  );
}

export default function Maintenance() {
  return (
    <NeedsRight title="Maintenance" right="base-system.rsm-maintenance.read">
      <MaintenanceScreen />
    </NeedsRight>
  );
}
