/**
 * The impact graph's CIs as a list of links (the accessible alternative to the canvas): each CI
 * with how it is reached, its type and its state in words; a group as a disclosure of its
 * members.
 */
import { CiStateBadge } from './ci-state.js';
import { CiTypeIcon } from './ci-type-icon.js';
import { ciPath } from './cmdb-model.js';
import type { ImpactGraph, ImpactNode, Relation } from './impact-data.js';

const PHRASE: Record<Relation, string> = {
  influences: 'influenced by',
  'influenced-by': 'influences',
  parent: 'parent of',
  child: 'child of',
};

function how(graph: ImpactGraph, relation: Relation | undefined, from: number | undefined): string {
  if (relation === undefined || from === undefined) return '';
  return `${PHRASE[relation]} ${graph.nodes.get(from)?.name ?? `CI ${from}`}`;
}

function Item({ graph, node }: { graph: ImpactGraph; node: ImpactNode }) {
  return (
    <li>
      <CiTypeIcon typeId={node.typeId} /> <a href={ciPath(node.id)}>{node.name}</a>
      <span class="muted">
        {' '}
        · {how(graph, node.relation, node.from)} · {node.typeName} ·{' '}
      </span>
      <CiStateBadge state={node.state} compact />
    </li>
  );
}

export function ImpactList({ graph, id }: { graph: ImpactGraph; id: string }) {
  const byDistance = [...graph.nodes.values()].filter((n) => n.id !== graph.rootId && !n.group).sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name));
  const distances = [...new Set(byDistance.map((n) => n.distance).concat(graph.groups.map((g) => graph.nodes.get(g.members[0]!)?.distance ?? 1)))].sort();
  if (byDistance.length === 0 && graph.groups.length === 0) return <p id={id}>No CI is linked to it.</p>;
  return (
    <div id={id} class="impact-list">
      {distances.map((d) => (
        <div key={d}>
          <h4>{d === 1 ? 'Directly linked' : `${d} links away`}</h4>
          <ul>
            {byDistance
              .filter((n) => n.distance === d)
              .map((n) => (
                <Item key={n.id} graph={graph} node={n} />
              ))}
            {graph.groups
              .filter((g) => (graph.nodes.get(g.members[0]!)?.distance ?? 1) === d)
              .map((g) => (
                <li key={g.id}>
                  <details>
                    <summary>
                      {g.members.length} × {g.typeName}, {how(graph, g.relation, g.from)}
                    </summary>
                    <ul>
                      {g.members.map((m) => {
                        const node = graph.nodes.get(m);
                        return node ? <Item key={m} graph={graph} node={node} /> : null;
                      })}
                    </ul>
                  </details>
                </li>
              ))}
          </ul>
        </div>
      ))}
      {[...graph.moreChildren].map(([parentId, more]) => (
        <p key={parentId} class="muted">
          And {more} more children of {graph.nodes.get(parentId)?.name ?? `CI ${parentId}`}, not drawn.
        </p>
      ))}
      {graph.hidden > 0 && <p class="muted">{graph.hidden} linked CIs you may not read are not shown.</p>}
      {graph.truncated && <p class="muted">The neighbourhood is larger than shown.</p>}
    </div>
  );
}
