/**
 * The CI page's impact section: the depth (1–3, `?depth=` in the URL), the graph on a canvas —
 * impact-graph.tsx, imported only now so cytoscape is not in the first bundle — and the same CIs
 * as a list of links.
 */
import type { FunctionComponent } from 'preact';
import { useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import type { ConfigItem } from './cmdb-model.js';
import { ciPath } from './cmdb-model.js';
import { type ImpactGraph, loadImpact } from './impact-data.js';
import { ImpactList } from './impact-list.js';

type Canvas = FunctionComponent<{ graph: ImpactGraph; title: string; onOpen: (ciId: number) => void }>;

export function ImpactSection({ ci, depth, onDepth }: { ci: ConfigItem; depth: number; onDepth: (depth: number) => void }) {
  const { route } = useLocation();
  const [graph, setGraph] = useState<ImpactGraph | undefined>();
  const [Graph, setCanvas] = useState<Canvas | undefined>();
  const [failed, setFailed] = useState<string | undefined>();

  useEffect(() => {
    import('./impact-graph.js').then(
      (module) => setCanvas(() => module.ImpactGraphCanvas),
      () => setFailed('The graph could not be loaded; the list below shows the same CIs.'),
    );
  }, []);

  useEffect(() => {
    let current = true;
    setGraph(undefined);
    void loadImpact(ci, depth).then((g) => current && setGraph(g));
    return () => {
      current = false;
    };
  }, [ci, depth]);

  const title = `Impact of ${ci.name}`;
  return (
    <section class="ci-section" aria-labelledby="ci-impact-h">
      <h2 id="ci-impact-h">Impact</h2>
      <p class="hint">What it influences and what influences it (arrows point to the influenced CI), with its parent and children (dashed).</p>
      <div class="field inline-field">
        <label for="impact-depth">Depth</label>
        <select id="impact-depth" value={String(depth)} onChange={(e) => onDepth(Number(e.currentTarget.value))}>
          <option value="1">1 link</option>
          <option value="2">2 links</option>
          <option value="3">3 links</option>
        </select>
      </div>
      {!graph ? (
        <p class="muted" role="status">
          Reading the neighbourhood…
        </p>
      ) : (
        <>
          {failed && <p class="error">{failed}</p>}
          {Graph ? <Graph graph={graph} title={title} onOpen={(id) => route(ciPath(id))} /> : !failed && <p class="muted">Loading the graph…</p>}
          <h3>The same CIs as a list</h3>
          <ImpactList graph={graph} id="impact-list" />
        </>
      )}
    </section>
  );
}
