/**
 * /cmdb/ci/{id}: one CI, its name as the page's heading, in three parts chosen in the URL
 * (`?tab=`): the overview (fields, state and health with why, open problems, maintenance,
 * live availability), links and impact (hierarchy, influence links, the impact graph) and
 * access (grants). `?edit=1` edits the fields. /cmdb/ci/new (`?parent=` optional) creates a CI.
 */
import { useLocation, useRoute } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { api, problemOf } from '../app/api.js';
import { CiAvailability } from '../components/ci-availability.js';
import { CiDetails } from '../components/ci-details.js';
import { CiForm } from '../components/ci-form.js';
import { CiGrants } from '../components/ci-grants.js';
import { CiHealth } from '../components/ci-health.js';
import { CiLinks } from '../components/ci-links.js';
import { CiMaintenance } from '../components/ci-maintenance.js';
import type { PickedCi } from '../components/ci-picker.js';
import { CiProblems } from '../components/ci-problems.js';
import { CiStateBadge } from '../components/ci-state.js';
import { CiTypeIcon, loadTypeIcons } from '../components/ci-type-icon.js';
import { type ConfigItem, ciPath } from '../components/cmdb-model.js';
import { ImpactSection } from '../components/impact-section.js';

const TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'links', label: 'Links and impact' },
  { id: 'access', label: 'Access' },
] as const;
type Tab = (typeof TABS)[number]['id'];

type Ref = { id: number; name: string };

/**
 * The CI's ancestors the caller may see, nearest first: the tree listing's search by the CI's
 * name answers each match with its path (one request, and none for a CI the caller may not
 * read). Failing that, its parent.
 */
function useAncestors(ci: ConfigItem | undefined): Ref[] | undefined {
  const [found, setFound] = useState<{ id: number; ancestors: Ref[] } | undefined>();
  useEffect(() => {
    if (!ci) return;
    let current = true;
    if (!ci.parent) {
      setFound({ id: ci.id, ancestors: [] });
      return;
    }
    void api
      .GET('/api/public/sm/v2/rsm/config-items/{parentId}/children', {
        params: { path: { parentId: '0' }, query: { search: ci.name, limit: 1000 } },
      })
      .then(({ data }) => {
        if (!current) return;
        const path = data?.items.find((item) => item.id === ci.id)?.path;
        setFound({ id: ci.id, ancestors: path ? [...path].reverse() : [ci.parent!] });
      });
    return () => {
      current = false;
    };
  }, [ci?.id, ci?.parent?.id, ci?.name]);
  return found && found.id === ci?.id ? found.ancestors : undefined;
}

export default function CiPage() {
  const { params } = useRoute();
  const id = params['id'] ?? '';
  return id === 'new' ? <NewCi /> : <ExistingCi id={id} />;
}

function NewCi() {
  const { query, route } = useLocation();
  const parentId = Number(query['parent']);
  const [parent, setParent] = useState<PickedCi | null | undefined>(parentId > 0 ? undefined : null);
  useEffect(() => {
    document.title = 'New CI · Operations console';
    if (!(parentId > 0)) return;
    void api
      .GET('/api/public/sm/v2/rsm/config-items/{id}', { params: { path: { id: String(parentId) } } })
      .then(({ data }) => setParent(data ? { id: data.id, name: data.name } : null));
  }, [parentId]);
  return (
    <main class="ci-page">
      <nav aria-label="Breadcrumb" class="crumbs">
        <ol>
          <li>
            <a href="/cmdb">CMDB</a>
          </li>
          <li aria-current="page">New CI</li>
        </ol>
      </nav>
      <h1>New CI</h1>
      {parent === undefined ? (
        <p class="muted">Loading…</p>
      ) : (
        <CiForm parent={parent} onDone={(created) => route(ciPath(created))} onCancel={() => route(parent ? ciPath(parent.id) : '/cmdb')} />
      )}
    </main>
  );
}

function ExistingCi({ id }: { id: string }) {
  const { query, route, path } = useLocation();
  const tab: Tab = TABS.some((t) => t.id === query['tab']) ? (query['tab'] as Tab) : 'overview';
  const editing = query['edit'] === '1';
  const below = query['below'] === '1';
  const depth = Math.min(3, Math.max(1, Number(query['depth']) || 1));
  const [ci, setCi] = useState<ConfigItem | undefined>();
  const [failure, setFailure] = useState<{ status: number; text: string } | undefined>();
  const [version, setVersion] = useState(0);
  const ancestors = useAncestors(ci);

  useEffect(() => void loadTypeIcons(), []);
  useEffect(() => {
    let current = true;
    void api
      .GET('/api/public/sm/v2/rsm/config-items/{id}', {
        params: { path: { id }, query: { includeState: true, includeHealth: true, includeSla: true } },
      })
      .then(({ data, error, response }) => {
        if (!current) return;
        if (data) {
          setCi(data);
          setFailure(undefined);
        } else {
          const problem = problemOf(error, response.status);
          setFailure({ status: response.status, text: problem.detail ?? problem.title ?? 'The CI could not be read' });
        }
      });
    return () => {
      current = false;
    };
  }, [id, version]);
  useEffect(() => {
    if (ci) document.title = `${ci.name} · CMDB · Operations console`;
  }, [ci?.name]);

  /** The same page with some query parameters changed (null removes one). */
  const withQuery = (changes: Record<string, string | null>): string => {
    const next = new URLSearchParams(query);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    const text = next.toString();
    return text ? `${path}?${text}` : path;
  };
  const reload = () => setVersion((v) => v + 1);

  if (failure && (!ci || String(ci.id) !== id)) {
    return (
      <main class="ci-page">
        <h1>{failure.status === 404 ? 'CI not found' : failure.status === 403 ? 'Not allowed' : 'The CI could not be read'}</h1>
        <p>{failure.text}</p>
        <p>
          <a href="/cmdb">Back to the CMDB</a>
        </p>
      </main>
    );
  }
  if (!ci || String(ci.id) !== id) return <p class="loading">Loading…</p>;

  const crumbs = [...(ancestors ?? (ci.parent ? [ci.parent] : []))].reverse();
  return (
    <main class="ci-page">
      <nav aria-label="Breadcrumb" class="crumbs">
        <ol>
          <li>
            <a href="/cmdb">CMDB</a>
          </li>
          {crumbs.map((a) => (
            <li key={a.id}>
              <a href={ciPath(a.id)}>{a.name}</a>
            </li>
          ))}
          <li aria-current="page">{ci.name}</li>
        </ol>
      </nav>
      <div class="ci-title">
        <CiTypeIcon typeId={ci.configItemType.id} size={28} />
        <h1>{ci.name}</h1>
        <CiStateBadge state={ci.state} />
      </div>
      <p class="muted ci-subtitle">
        {ci.configItemType.name} · owned by {ci.ownerWorkGroup.name} · CI {ci.id}
      </p>
      <nav aria-label="CI sections" class="ci-tabs">
        <ul>
          {TABS.map((t) => (
            <li key={t.id}>
              <a href={withQuery({ tab: t.id === 'overview' ? null : t.id, edit: null })} aria-current={t.id === tab ? 'page' : undefined}>
                {t.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      {tab === 'overview' && (
        <div class="ci-grid">
          {editing ? (
            <section class="ci-section" aria-labelledby="ci-edit-h">
              <h2 id="ci-edit-h">Edit</h2>
              <CiForm
                ci={ci}
                onDone={() => {
                  reload();
                  route(withQuery({ edit: null }));
                }}
                onCancel={() => route(withQuery({ edit: null }))}
              />
            </section>
          ) : (
            <CiDetails ci={ci} onEdit={() => route(withQuery({ edit: '1' }))} />
          )}
          <CiHealth ci={ci} />
          <CiProblems ciId={ci.id} below={below} onBelow={(on) => route(withQuery({ below: on ? '1' : null }), true)} />
          {ancestors ? <CiMaintenance ciId={ci.id} ancestors={ancestors} /> : <p class="muted">Loading the maintenance…</p>}
          <CiAvailability sla={ci.sla} />
        </div>
      )}
      {tab === 'links' && (
        <div class="ci-stack">
          <CiLinks ci={ci} onChanged={reload} />
          <ImpactSection ci={ci} depth={depth} onDepth={(d) => route(withQuery({ depth: d === 1 ? null : String(d) }), true)} />
        </div>
      )}
      {tab === 'access' && <CiGrants ci={ci} onChanged={reload} />}
    </main>
  );
}
