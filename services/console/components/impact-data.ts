/**
 * A CI's neighbourhood for the impact graph and its accessible list: the CIs it influences, the
 * CIs that influence it, its parent and children, followed to a depth of 1–3. Around each CI that
 * is followed, more than GROUP_OVER neighbours of one type in one relation become one group
 * ("12 × server") whose members are not followed further. Bounded: at most MAX_NODES CIs, and the
 * first MAX_CHILDREN children of a CI (its total is still told).
 *
 * Reads: GET …/config-items/{id}?includeState=true for each CI followed and each parent or
 * influence neighbour (their edges name only id and name), and one page of
 * GET …/config-items/{id}/children for the children (with type and state).
 */
import { api } from '../app/api.js';
import type { ConfigItem } from './cmdb-model.js';

export const GROUP_OVER = 10;
const MAX_NODES = 400;
const MAX_CHILDREN = 500;

export type Relation = 'influences' | 'influenced-by' | 'parent' | 'child';

export interface ImpactNode {
  id: number;
  name: string;
  typeId: number;
  typeName: string;
  state: { value: string; valueUnderMaintenance: string } | null;
  /** Links followed from the CI of the page (0: that CI). */
  distance: number;
  /** How it is reached from the CI it was found from, and that CI. */
  relation?: Relation;
  from?: number;
  /** The group it is shown in, if any. */
  group?: string;
}

export interface ImpactEdge {
  /** For influence: the influencing CI; for hierarchy: the parent. */
  source: number | string;
  target: number | string;
  kind: 'influence' | 'hierarchy';
}

export interface ImpactGroup {
  id: string;
  typeName: string;
  typeId: number;
  relation: Relation;
  from: number;
  members: number[];
}

export interface ImpactGraph {
  rootId: number;
  nodes: Map<number, ImpactNode>;
  groups: ImpactGroup[];
  edges: ImpactEdge[];
  /** Children not read (past MAX_CHILDREN), by parent. */
  moreChildren: Map<number, number>;
  /** Neighbours the caller may not read. */
  hidden: number;
  truncated: boolean;
}

export const RELATION_TEXT: Record<Relation, string> = {
  influences: 'influenced by it',
  'influenced-by': 'influences it',
  parent: 'its parent',
  child: 'its child',
};

type Neighbour = { node: Omit<ImpactNode, 'distance' | 'relation' | 'from' | 'group'>; relation: Relation; full?: ConfigItem };

/**
 * The ids the caller may see (POST …/config-items/filter answers only those), so that CIs of
 * other workgroups are not asked for one by one only to be refused.
 */
export async function visibleIds(ids: readonly number[]): Promise<ReadonlySet<number>> {
  if (ids.length === 0) return new Set();
  const { data } = await api.POST('/api/public/sm/v2/rsm/config-items/filter', { body: { ids: [...ids] } });
  return new Set((data ?? []).map((c) => c.id));
}

async function readCi(id: number): Promise<ConfigItem | undefined> {
  const { data } = await api.GET('/api/public/sm/v2/rsm/config-items/{id}', { params: { path: { id: String(id) }, query: { includeState: true } } });
  return data;
}

const nodeOf = (ci: ConfigItem): Neighbour['node'] => ({
  id: ci.id,
  name: ci.name,
  typeId: ci.configItemType.id,
  typeName: ci.configItemType.name,
  state: ci.state ? { value: ci.state.value, valueUnderMaintenance: ci.state.valueUnderMaintenance } : null,
});

export async function loadImpact(root: ConfigItem, depth: number): Promise<ImpactGraph> {
  const graph: ImpactGraph = { rootId: root.id, nodes: new Map(), groups: [], edges: [], moreChildren: new Map(), hidden: 0, truncated: false };
  const full = new Map<number, ConfigItem>([[root.id, root]]);
  graph.nodes.set(root.id, { ...nodeOf(root), distance: 0 });
  const edgeKeys = new Set<string>();
  const addEdge = (edge: ImpactEdge) => {
    const key = `${edge.kind}:${edge.source}>${edge.target}`;
    if (edgeKeys.has(key)) return;
    edgeKeys.add(key);
    graph.edges.push(edge);
  };
  let frontier = [root.id];
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const next: number[] = [];
    for (const id of frontier) {
      if (graph.nodes.size >= MAX_NODES) {
        graph.truncated = true;
        break;
      }
      const ci = full.get(id) ?? (await readCi(id));
      if (!ci) continue;
      full.set(id, ci);
      const neighbours = await neighboursOf(ci, graph, full);
      // Group by relation and type; a large group becomes one node.
      const buckets = new Map<string, Neighbour[]>();
      for (const n of neighbours) {
        if (graph.nodes.has(n.node.id)) {
          // Already shown: only the edge.
          addEdge(edgeFor(id, n.node.id, n.relation));
          continue;
        }
        const key = `${n.relation}\u0000${n.node.typeId}`;
        const list = buckets.get(key) ?? [];
        list.push(n);
        buckets.set(key, list);
      }
      for (const list of buckets.values()) {
        const first = list[0]!;
        let groupId: string | undefined;
        if (list.length > GROUP_OVER) {
          groupId = `g${id}-${first.relation}-${first.node.typeId}`;
          graph.groups.push({ id: groupId, typeName: first.node.typeName, typeId: first.node.typeId, relation: first.relation, from: id, members: list.map((n) => n.node.id) });
          addEdge(edgeFor(id, groupId, first.relation));
        }
        for (const n of list) {
          if (graph.nodes.size >= MAX_NODES) {
            graph.truncated = true;
            break;
          }
          graph.nodes.set(n.node.id, { ...n.node, distance: d, relation: n.relation, from: id, ...(groupId ? { group: groupId } : {}) });
          if (!groupId) {
            addEdge(edgeFor(id, n.node.id, n.relation));
            next.push(n.node.id);
          }
        }
      }
    }
    frontier = next;
  }
  return graph;
}

function edgeFor(from: number, to: number | string, relation: Relation): ImpactEdge {
  switch (relation) {
    case 'influences':
      return { source: from, target: to, kind: 'influence' };
    case 'influenced-by':
      return { source: to, target: from, kind: 'influence' };
    case 'parent':
      return { source: to, target: from, kind: 'hierarchy' };
    case 'child':
      return { source: from, target: to, kind: 'hierarchy' };
  }
}

async function neighboursOf(ci: ConfigItem, graph: ImpactGraph, full: Map<number, ConfigItem>): Promise<Neighbour[]> {
  const refs: Array<{ id: number; relation: Relation }> = [];
  if (ci.parent) refs.push({ id: ci.parent.id, relation: 'parent' });
  for (const e of ci.incomingEdges) if (e.type === 'Influence') refs.push({ id: e.configItem.id, relation: 'influenced-by' });
  for (const e of ci.outgoingEdges) if (e.type === 'Influence') refs.push({ id: e.configItem.id, relation: 'influences' });
  const seeable = await visibleIds(refs.filter((r) => !graph.nodes.has(r.id) && !full.has(r.id)).map((r) => r.id));
  const read = await Promise.all(refs.map(async (r) => ({ r, ci: full.get(r.id) ?? (graph.nodes.has(r.id) || !seeable.has(r.id) ? undefined : await readCi(r.id)) })));
  const out: Neighbour[] = [];
  for (const { r, ci: other } of read) {
    if (graph.nodes.has(r.id)) {
      const known = graph.nodes.get(r.id)!;
      out.push({ node: known, relation: r.relation });
      continue;
    }
    if (!other) {
      graph.hidden++;
      continue;
    }
    full.set(other.id, other);
    out.push({ node: nodeOf(other), relation: r.relation, full: other });
  }
  const childCount = ci.outgoingEdges.filter((e) => e.type === 'Hierarchy').length;
  if (childCount > 0) {
    const { data } = await api.GET('/api/public/sm/v2/rsm/config-items/{parentId}/children', {
      params: { path: { parentId: String(ci.id) }, query: { limit: MAX_CHILDREN, includeState: true } },
    });
    if (data) {
      for (const c of data.items) {
        out.push({ node: { id: c.id, name: c.name, typeId: c.configItemType.id, typeName: c.configItemType.name, state: c.state ?? null }, relation: 'child' });
      }
      if (data.total > data.items.length) graph.moreChildren.set(ci.id, data.total - data.items.length);
    }
  }
  return out;
}
