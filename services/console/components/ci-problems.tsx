/**
 * The open problems of a CI (GET /api/public/sm/v1/problems?configItemIds=…), optionally with
 * those of the CIs below it (`?below=1` in the page's URL), most severe first, each linking to
 * its problem page.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, problemOf } from '../app/api.js';
import { showDuration } from '../app/time.js';
import type { OpenProblem } from './cmdb-model.js';
import { PriorityBadge } from './problem-table.js';
import { Time } from './time.js';

const LIMIT = 50;

export interface OpenProblems {
  items: OpenProblem[];
  total: number;
}

/** The open problems of some CIs (comma-joined ids), most severe first. */
export async function openProblems(ciIds: readonly number[], withDescendants = false, limit = LIMIT): Promise<OpenProblems | string> {
  const { data, error, response } = await api.GET('/api/public/sm/v1/problems', {
    params: {
      query: { state: 'open', configItemIds: ciIds.join(','), withDescendants: String(withDescendants), sort: 'priority', limit: String(limit), withTotal: 'true' },
    },
  });
  if (data) return { items: data.items, total: data.total ?? data.items.length };
  return problemOf(error, response.status).detail ?? 'The problems could not be read';
}

export function ProblemList({ problems, showCi = false }: { problems: OpenProblem[]; showCi?: boolean }) {
  const now = Date.now();
  return (
    <ul class="ci-problems">
      {problems.map((p) => (
        <li key={p.id}>
          <PriorityBadge priority={p.priority} /> <a href={`/problems/${p.id}`}>{p.trigger.name}</a>
          {showCi && (
            <>
              {' '}
              on <a href={`/cmdb/ci/${p.configItem.id}`}>{p.configItem.name || `CI ${p.configItem.id}`}</a>
            </>
          )}
          <span class="muted">
            {' '}
            · since <Time iso={p.dateStart} /> ({showDuration(now - Date.parse(p.dateStart))}){p.acknowledged ? ` · acknowledged by ${p.acknowledged.byName}` : ''}
            {p.inMaintenance ? ' · in maintenance' : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function CiProblems({ ciId, below, onBelow }: { ciId: number; below: boolean; onBelow: (on: boolean) => void }) {
  const [answer, setAnswer] = useState<OpenProblems | string | undefined>();
  useEffect(() => {
    let current = true;
    setAnswer(undefined);
    void openProblems([ciId], below).then((a) => current && setAnswer(a));
    return () => {
      current = false;
    };
  }, [ciId, below]);
  return (
    <section class="ci-section" aria-labelledby="ci-problems-h">
      <h2 id="ci-problems-h">Open problems</h2>
      <label class="inline">
        <input type="checkbox" checked={below} onChange={(e) => onBelow(e.currentTarget.checked)} /> Include the CIs below it
      </label>
      {answer === undefined ? (
        <p class="muted">Loading…</p>
      ) : typeof answer === 'string' ? (
        <p class="error">{answer}</p>
      ) : answer.items.length === 0 ? (
        <p>No open problems.</p>
      ) : (
        <>
          <p class="muted">{answer.total > answer.items.length ? `The ${answer.items.length} most severe of ${answer.total}:` : `${answer.total} open:`}</p>
          <ProblemList problems={answer.items} showCi={below} />
          {answer.total > answer.items.length && (
            <p>
              <a href={`/problems?configItemIds=${ciId}${below ? '&withDescendants=true' : ''}`}>All {answer.total} in the problem list</a>
            </p>
          )}
        </>
      )}
    </section>
  );
}
