/**
 * A CI's state and health, and why (DESIGN §7, services/control-plane/problems/ci-state.ts):
 * the state is `Problem` while the CI has an open problem of its own; the health is 100 − the
 * largest influence of its own open problems (the "direct" figure), lowered to the health of
 * any CI that influences it. So the reasons are its own open problems, and, following the
 * influence links upwards, the influencing CIs whose health is below 100 — down to the ones
 * whose own problems cause it, with those problems.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../app/api.js';
import { CiStateBadge, ToneBadge } from './ci-state.js';
import { type ConfigItem, healthTone } from './cmdb-model.js';
import { openProblems, type OpenProblems, ProblemList } from './ci-problems.js';
import { visibleIds } from './impact-data.js';
import { Time } from './time.js';

/** At most this many influencing CIs are read to explain a figure. */
const MAX_READS = 60;

interface Cause {
  id: number;
  name: string;
  health: number;
  direct: number;
  /** The CIs between it and the page's CI, nearest last. */
  via: Array<{ id: number; name: string }>;
}

async function influencingCauses(ci: ConfigItem): Promise<{ causes: Cause[]; hidden: number; truncated: boolean }> {
  const causes: Cause[] = [];
  const seen = new Set<number>([ci.id]);
  let hidden = 0;
  let reads = 0;
  let level = ci.incomingEdges.filter((e) => e.type === 'Influence').map((e) => ({ ref: e.configItem, via: [] as Cause['via'] }));
  while (level.length > 0 && reads < MAX_READS) {
    const next: typeof level = [];
    const batch = level.filter((l) => !seen.has(l.ref.id)).slice(0, MAX_READS - reads);
    batch.forEach((l) => seen.add(l.ref.id));
    reads += batch.length;
    const seeable = await visibleIds(batch.map((l) => l.ref.id));
    const answers = await Promise.all(
      batch.map((l) =>
        seeable.has(l.ref.id)
          ? api.GET('/api/public/sm/v2/rsm/config-items/{id}', { params: { path: { id: String(l.ref.id) }, query: { includeHealth: true } } })
          : Promise.resolve({ data: undefined }),
      ),
    );
    answers.forEach(({ data }, i) => {
      const { ref, via } = batch[i]!;
      if (!data) {
        hidden++;
        return;
      }
      const health = data.healthStatus?.value ?? 100;
      if (health >= 100) return;
      const direct = data.healthStatus?.calculation.direct ?? 100;
      causes.push({ id: ref.id, name: data.name, health, direct, via });
      for (const e of data.incomingEdges) if (e.type === 'Influence') next.push({ ref: e.configItem, via: [{ id: data.id, name: data.name }, ...via] });
    });
    level = next;
  }
  return { causes, hidden, truncated: level.length > 0 };
}

export function CiHealth({ ci }: { ci: ConfigItem }) {
  const health = ci.healthStatus?.value;
  const direct = ci.healthStatus?.calculation.direct;
  const [own, setOwn] = useState<OpenProblems | string | undefined>();
  const [inherited, setInherited] = useState<Awaited<ReturnType<typeof influencingCauses>> | undefined>();
  const [causeProblems, setCauseProblems] = useState<OpenProblems | string | undefined>();

  useEffect(() => {
    let current = true;
    setOwn(undefined);
    setInherited(undefined);
    setCauseProblems(undefined);
    void openProblems([ci.id], false, 10).then((a) => current && setOwn(a));
    if (health !== undefined && direct !== undefined && health < direct) {
      void influencingCauses(ci).then(async (found) => {
        if (!current) return;
        setInherited(found);
        const roots = found.causes.filter((c) => c.direct < 100).map((c) => c.id);
        if (roots.length > 0) {
          const problems = await openProblems(roots, false, 10);
          if (current) setCauseProblems(problems);
        }
      });
    }
    return () => {
      current = false;
    };
  }, [ci]);

  return (
    <section class="ci-section" aria-labelledby="ci-health-h">
      <h2 id="ci-health-h">State and health</h2>
      <dl class="ci-figures">
        <div>
          <dt>State</dt>
          <dd>
            <CiStateBadge state={ci.state} />
            {ci.state && (
              <span class="muted">
                {' '}
                since <Time iso={ci.state.Timestamp} />
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>Health</dt>
          <dd>
            {health === undefined ? (
              <span class="muted">Not shown</span>
            ) : (
              <>
                <ToneBadge tone={healthTone(health)}>{health} of 100</ToneBadge>
                {direct !== undefined && direct !== health && <span class="muted"> · from its own problems alone: {direct}</span>}
              </>
            )}
          </dd>
        </div>
      </dl>
      <h3>Why</h3>
      {own === undefined ? (
        <p class="muted">Loading…</p>
      ) : typeof own === 'string' ? (
        <p class="error">{own}</p>
      ) : own.total === 0 ? (
        <p>{ci.state?.value === 'Unknown' ? 'No trigger has matched this CI yet, so its state is unknown.' : 'It has no open problem of its own.'}</p>
      ) : (
        <>
          <p>
            {own.total === 1 ? 'Its own open problem' : `Its own ${own.total} open problems`} (the most severe decides the state
            {direct !== undefined ? `, and the largest influence the health of ${direct}` : ''}):
          </p>
          <ProblemList problems={own.items} />
        </>
      )}
      {health !== undefined && direct !== undefined && health < direct && (
        <div class="ci-why-influence">
          <p>The health is lowered to {health} by CIs that influence it:</p>
          {inherited === undefined ? (
            <p class="muted">Following the influence links…</p>
          ) : (
            <>
              <ul>
                {inherited.causes.map((c) => (
                  <li key={c.id}>
                    <a href={`/cmdb/ci/${c.id}`}>{c.name}</a> <ToneBadge tone={healthTone(c.health)}>health {c.health}</ToneBadge>
                    {c.direct < 100 ? <span class="muted"> · its own problems</span> : <span class="muted"> · from CIs influencing it</span>}
                    {c.via.length > 0 && <span class="muted"> · via {c.via.map((v) => v.name).join(' → ')}</span>}
                  </li>
                ))}
              </ul>
              {inherited.hidden > 0 && <p class="muted">{inherited.hidden} influencing CIs you may not read are not shown.</p>}
              {inherited.truncated && <p class="muted">Only the nearest influencing CIs are shown.</p>}
              {causeProblems && typeof causeProblems !== 'string' && causeProblems.items.length > 0 && (
                <>
                  <p>Their open problems:</p>
                  <ProblemList problems={causeProblems.items} showCi />
                </>
              )}
            </>
          )}
        </div>
      )}
    </section>
  );
}
