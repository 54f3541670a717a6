/**
 * /cmdb: the CI hierarchy as a lazily loaded, virtualised tree (components/cmdb-tree.tsx), a
 * search by name and a label filter (`?q=…&label=env=prod`: the URL is the state; with either,
 * the top level lists the matches from anywhere, each with its path), and the way to a new CI.
 */
import { useLocation } from 'preact-iso';
import { useEffect, useMemo } from 'preact/hooks';
import { loadTypeIcons } from '../components/ci-type-icon.js';
import { CmdbTree } from '../components/cmdb-tree.js';
import { TreeModel } from '../components/cmdb-tree-model.js';

const count = new Intl.NumberFormat();

export default function Cmdb() {
  const { query, route } = useLocation();
  const search = query['q']?.trim() || undefined;
  const label = query['label']?.trim() || undefined;
  const model = useMemo(() => new TreeModel({ ...(search ? { search } : {}), ...(label ? { label } : {}) }), [search, label]);
  useEffect(() => void loadTypeIcons(), []);
  useEffect(() => {
    document.title = search || label ? 'CMDB search · Operations console' : 'CMDB · Operations console';
  }, [search, label]);

  void model.version.value;
  const top = model.branches.get(0);
  const filtered = search !== undefined || label !== undefined;
  const failures = [...model.branches.entries()].filter(([, b]) => b.error);

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const params = new URLSearchParams();
    const q = String(form.get('q') ?? '').trim();
    const l = String(form.get('label') ?? '').trim();
    if (q) params.set('q', q);
    if (l) params.set('label', l);
    const text = params.toString();
    route(text ? `/cmdb?${text}` : '/cmdb');
  };

  return (
    <main class="cmdb">
      <div class="cmdb-head">
        <h1>CMDB</h1>
        <button type="button" class="primary" onClick={() => route('/cmdb/ci/new')}>
          New CI
        </button>
      </div>
      <form role="search" class="cmdb-search" onSubmit={submit} aria-label="Find CIs">
        <div class="field">
          <label for="cmdb-q">Name contains</label>
          <input id="cmdb-q" name="q" type="search" defaultValue={search ?? ''} key={`q${search ?? ''}`} autoComplete="off" />
        </div>
        <div class="field">
          <label for="cmdb-label">Label</label>
          <input
            id="cmdb-label"
            name="label"
            type="search"
            defaultValue={label ?? ''}
            key={`l${label ?? ''}`}
            placeholder="env or env=prod"
            aria-describedby="cmdb-label-hint"
            autoComplete="off"
          />
          <span id="cmdb-label-hint" class="hint">
            A label name, or name=value
          </span>
        </div>
        <div class="buttons">
          <button type="submit">Search</button>
          {filtered && (
            <button type="button" onClick={() => route('/cmdb')}>
              Clear
            </button>
          )}
        </div>
      </form>
      <p class="cmdb-status" role="status">
        {top === undefined || (top.loading && top.items.length === 0)
          ? 'Loading…'
          : top.error
            ? ''
            : filtered
              ? top.total === 0
                ? 'No CI matches.'
                : `${count.format(top.total)} ${top.total === 1 ? 'CI matches' : 'CIs match'}; each shows where it is.`
              : top.total === 0
                ? 'No CIs yet.'
                : `${count.format(top.total)} at the top level. Arrow keys move and open, Enter opens a CI.`}
      </p>
      {failures.map(([parentId, branch]) => (
        <p key={parentId} class="error" role="alert">
          {parentId === 0 ? 'Could not load the CIs' : `Could not load the children of CI ${parentId}`}: {branch.error}{' '}
          <button type="button" onClick={() => void model.load(parentId)}>
            Retry
          </button>
        </p>
      ))}
      <CmdbTree key={`${search ?? ''}\u0000${label ?? ''}`} model={model} label={filtered ? 'Matching CIs' : 'CI hierarchy'} />
    </main>
  );
}
