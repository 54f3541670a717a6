/**
 * /maintenance: the maintenance modes the user may see, searched, sorted and paged by the API
 * (`search`, `sortCol`, `sortDir`, `page` in the URL), with the CIs each covers and, for a
 * recurring mode, its rule and next windows.
 */
import { useLocation } from 'preact-iso';
import { api } from '../app/api.js';
import type { operations } from '../app/api-schema.js';
import { Load, NeedsRight, TableScroll, useLoad } from '../components/load.js';
import { Time } from '../components/time.js';

type Mode = operations['maintenance.listModes']['responses'][200]['content']['application/json'][number];

const PER_PAGE = 100;
const COLUMNS = [
  { col: 'id', label: 'Id' },
  { col: 'title', label: 'Title' },
  { col: 'state', label: 'State' },
  { col: 'dateStart', label: 'Start' },
  { col: 'dateEnd', label: 'End' },
] as const;
type SortCol = (typeof COLUMNS)[number]['col'];

function Recurrence({ r }: { r: NonNullable<Mode['recurrence']> }) {
  const next = r.current ?? r.next[0];
  return (
    <>
      <code>{r.rule}</code> <span class="muted">({r.timeZone})</span>
      {next && (
        <div class="muted">
          {r.current ? 'Now until ' : 'Next: '}
          {r.current ? <Time iso={r.current.dateEnd} /> : <Time iso={next.dateStart} />}
        </div>
      )}
    </>
  );
}

function MaintenanceScreen() {
  const { url, route } = useLocation();
  const params = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?')) : '');
  const search = params.get('search') ?? '';
  const sortCol: SortCol = COLUMNS.find((c) => c.col === params.get('sortCol'))?.col ?? 'dateStart';
  const sortDir = params.get('sortDir') === 'asc' ? 'asc' : 'desc';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const href = (changes: Record<string, string>): string => {
    const next = new URLSearchParams({ ...(search ? { search } : {}), sortCol, sortDir, page: String(page), ...changes });
    if (next.get('page') === '1') next.delete('page');
    if (!next.get('search')) next.delete('search');
    return `/maintenance?${next.toString()}`;
  };
  const [loaded] = useLoad(
    (signal) =>
      api.GET('/api/public/sm/v1/rsm-maintenance', {
        params: { query: { sortCol, sortDir, page: String(page), perPage: String(PER_PAGE), ...(search ? { search } : {}) } },
        signal,
      }),
    [search, sortCol, sortDir, page],
  );
  return (
    <main>
      <h1>Maintenance</h1>
      <form
        class="inline-form"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          const text = String(new FormData(e.currentTarget).get('search') ?? '').trim();
          route(href({ search: text, page: '1' }));
        }}
      >
        <label for="m-search">Search</label>
        <input id="m-search" name="search" type="search" defaultValue={search} key={search} placeholder="title, label, mode or CI id" />
        <button type="submit">Search</button>
      </form>
      <Load loaded={loaded} label="maintenance modes">
        {(modes) => (
          <>
            <p class="muted" role="status">
              {modes.length === 0 ? 'No maintenance mode matches.' : `Modes ${(page - 1) * PER_PAGE + 1}–${(page - 1) * PER_PAGE + modes.length}`}
            </p>
            {modes.length > 0 && (
              <TableScroll label="Maintenance modes table">
                <table>
                  <caption class="visually-hidden">Maintenance modes</caption>
                  <thead>
                    <tr>
                      {COLUMNS.map((c) => {
                        const active = sortCol === c.col;
                        return (
                          <th key={c.col} scope="col" aria-sort={active ? (sortDir === 'asc' ? 'ascending' : 'descending') : undefined}>
                            <a
                              href={href({
                                sortCol: c.col,
                                sortDir: active && sortDir === 'desc' ? 'asc' : active ? 'desc' : c.col === 'dateStart' || c.col === 'dateEnd' ? 'desc' : 'asc',
                                page: '1',
                              })}
                            >
                              {c.label}
                              <span aria-hidden="true">{active ? (sortDir === 'desc' ? ' ▼' : ' ▲') : ''}</span>
                            </a>
                          </th>
                        );
                      })}
                      <th scope="col">CIs</th>
                      <th scope="col">Recurrence</th>
                      <th scope="col">Labels</th>
                    </tr>
                  </thead>
                  <tbody>
                    {modes.map((m) => (
                      <tr key={m.id}>
                        <td>{m.id}</td>
                        <td>{m.title ?? <span class="muted">untitled</span>}</td>
                        <td>
                          <span class={`badge mstate-${m.state.toLowerCase()}`}>{m.state}</span>
                        </td>
                        <td>
                          <Time iso={m.dateStart} />
                        </td>
                        <td>
                          <Time iso={m.dateEnd} />
                        </td>
                        <td>
                          <ul class="plain">
                            {m.configItems.map((ci) => (
                              <li key={ci.id}>
                                <a href={`/cmdb/ci/${ci.id}`}>CI {ci.id}</a>
                                {ci.scope === 'CiAndChildren' && <span class="muted"> and children{ci.depth >= 0 ? ` (depth ${ci.depth})` : ''}</span>}
                              </li>
                            ))}
                          </ul>
                        </td>
                        <td>{m.recurrence ? <Recurrence r={m.recurrence} /> : <span class="muted">once</span>}</td>
                        <td>
                          {Object.entries(m.labels).map(([k, v]) => (
                            <span key={k} class="tag">
                              {v ? `${k}=${v}` : k}
                            </span>
                          ))}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
            <nav class="pager" aria-label="Pages">
              {page > 1 && <a href={href({ page: String(page - 1) })}>Previous page</a>}
              {modes.length === PER_PAGE && <a href={href({ page: String(page + 1) })}>Next page</a>}
            </nav>
          </>
        )}
      </Load>
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
