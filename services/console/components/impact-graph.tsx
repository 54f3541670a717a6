/**
 * The impact graph on a canvas: Cytoscape.js with the dagre layout, loaded only when a CI page
 * shows it (ci.tsx imports this module with import(), so cytoscape stays out of the first
 * bundle). Influence edges are arrows from the influencing CI to the one it influences,
 * hierarchy edges dashed from parent to child; nodes carry the state colour and the type icon; a
 * group ("12 × server") opens into a compound node when clicked, any other node opens its CI
 * page. The canvas is not accessible: impact-list.tsx shows the same CIs as links beside it.
 *
 * CSP (`style-src 'self'`): Cytoscape's renderer adds a <style> element to the document head
 * (`.__________cytoscape_container { position: relative }`) unless an element with its id is
 * already there, and has no option to skip it. So that id is given to an empty <meta> first, and
 * the rule lives in styles.css. Its other styling goes through element.style (the CSSOM), which
 * the CSP allows.
 */
import cytoscape, { type Core, type ElementDefinition, type StylesheetJson } from 'cytoscape';
import dagre from 'cytoscape-dagre';
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeState, type StateTone } from './cmdb-model.js';
import { typeIcons } from './cmdb-reference.js';
import type { ImpactGraph as Graph } from './impact-data.js';

cytoscape.use(dagre);

const STYLESHEET_ID = '__________cytoscape_stylesheet';

function claimStylesheetSlot(): void {
  if (document.getElementById(STYLESHEET_ID)) return;
  const placeholder = document.createElement('meta');
  placeholder.id = STYLESHEET_ID;
  placeholder.name = 'cytoscape-container-style-in-styles-css';
  document.head.appendChild(placeholder);
}

const cssVar = (name: string): string => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
const toneColour = (tone: StateTone): string => cssVar(`--state-${tone}`);
const WORST: StateTone[] = ['problem', 'warning', 'maintenance', 'unknown', 'ok'];

function elementsOf(graph: Graph, open: ReadonlySet<string>): ElementDefinition[] {
  const out: ElementDefinition[] = [];
  const shownAs = new Map<number, string>();
  const icons = typeIcons.value;
  for (const group of graph.groups) {
    const tones = group.members.map((id) => describeState(graph.nodes.get(id)?.state).tone);
    const tone = WORST.find((t) => tones.includes(t)) ?? 'unknown';
    const expanded = open.has(group.id);
    const groupIcon = expanded ? undefined : icons.get(group.typeId);
    out.push({
      data: { id: group.id, label: `${group.members.length} × ${group.typeName}`, group: 1, stroke: toneColour(tone), ...(groupIcon ? { icon: groupIcon } : {}) },
      classes: expanded ? 'group open' : 'group',
    });
    if (!expanded) for (const id of group.members) shownAs.set(id, group.id);
  }
  for (const node of graph.nodes.values()) {
    if (shownAs.has(node.id)) continue;
    const tone = describeState(node.state).tone;
    const icon = icons.get(node.typeId);
    out.push({
      data: {
        id: String(node.id),
        ciId: node.id,
        label: node.name,
        stroke: toneColour(tone),
        ...(icon ? { icon } : {}),
        ...(node.group ? { parent: node.group } : {}),
      },
      classes: node.id === graph.rootId ? 'ci root' : 'ci',
    });
  }
  for (const [parentId, more] of graph.moreChildren) {
    out.push({ data: { id: `more-${parentId}`, label: `+${more} more children` }, classes: 'more' });
    out.push({ data: { id: `more-edge-${parentId}`, source: String(parentId), target: `more-${parentId}` }, classes: 'hierarchy' });
  }
  const seen = new Set<string>();
  for (const edge of graph.edges) {
    const end = (v: number | string) => (typeof v === 'number' ? (shownAs.get(v) ?? String(v)) : v);
    const source = end(edge.source);
    const target = end(edge.target);
    const key = `${edge.kind}:${source}>${target}`;
    if (source === target || seen.has(key)) continue;
    seen.add(key);
    out.push({ data: { id: key, source, target }, classes: edge.kind });
  }
  return out;
}

function stylesheet(): StylesheetJson {
  const fg = cssVar('--fg');
  const muted = cssVar('--muted');
  const bg = cssVar('--bg');
  const panel = cssVar('--panel');
  return [
    {
      selector: 'node',
      style: {
        label: 'data(label)',
        color: fg,
        'font-size': 12,
        'min-zoomed-font-size': 6,
        'text-valign': 'bottom',
        'text-margin-y': 4,
        'text-wrap': 'ellipsis',
        'text-max-width': '140px',
        'background-color': bg,
        'border-width': 3,
        'border-color': 'data(stroke)',
        width: 30,
        height: 30,
      },
    },
    { selector: 'node[icon]', style: { 'background-image': 'data(icon)', 'background-fit': 'contain', 'background-width': '65%', 'background-height': '65%' } },
    { selector: 'node.root', style: { width: 40, height: 40, 'border-width': 5, 'font-weight': 'bold' } },
    { selector: 'node.group', style: { shape: 'round-rectangle', width: 56, height: 30, 'background-color': panel, 'border-style': 'double', 'border-width': 5 } },
    { selector: 'node.group.open', style: { 'text-valign': 'top', 'text-margin-y': -4, 'background-opacity': 0.4, 'border-width': 2, 'border-style': 'solid' } },
    { selector: 'node.more', style: { shape: 'round-rectangle', width: 20, height: 12, 'border-width': 1, 'border-color': muted, color: muted } },
    {
      selector: 'edge',
      style: { width: 1.5, 'curve-style': 'bezier', 'line-color': muted, 'target-arrow-shape': 'triangle', 'target-arrow-color': muted, 'arrow-scale': 1.1 },
    },
    { selector: 'edge.hierarchy', style: { 'line-style': 'dashed', 'target-arrow-shape': 'none' } },
  ];
}

/** The whole graph in view, but a small one not blown up past a readable size. */
function fit(instance: Core): void {
  instance.fit(undefined, 24);
  if (instance.zoom() > 1.3) {
    instance.zoom(1.3);
    instance.center();
  }
}

export function ImpactGraphCanvas({ graph, title, onOpen }: { graph: Graph; title: string; onOpen: (ciId: number) => void }) {
  const container = useRef<HTMLDivElement>(null);
  const cy = useRef<Core | undefined>(undefined);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const opener = useRef(onOpen);
  opener.current = onOpen;

  useEffect(() => {
    claimStylesheetSlot();
    const instance = cytoscape({
      container: container.current,
      style: stylesheet(),
      userZoomingEnabled: false,
      boxSelectionEnabled: false,
      autoungrabify: true,
      minZoom: 0.2,
      maxZoom: 3,
    });
    instance.on('tap', 'node', (event) => {
      const data = event.target.data() as { id: string; ciId?: number; group?: number };
      if (data.group) {
        setOpen((before) => {
          const next = new Set(before);
          if (next.has(data.id)) next.delete(data.id);
          else next.add(data.id);
          return next;
        });
      } else if (data.ciId !== undefined) opener.current(data.ciId);
    });
    instance.on('mouseover', 'node.ci, node.group', () => container.current?.style.setProperty('cursor', 'pointer'));
    instance.on('mouseout', 'node', () => container.current?.style.removeProperty('cursor'));
    cy.current = instance;
    return () => {
      instance.destroy();
      cy.current = undefined;
    };
  }, []);

  useEffect(() => {
    const instance = cy.current;
    if (!instance) return;
    instance.elements().remove();
    instance.add(elementsOf(graph, open));
    const wide = (container.current?.clientWidth ?? 0) > 640;
    instance.layout({ name: 'dagre', rankDir: wide ? 'LR' : 'TB', nodeSep: 24, rankSep: 70, padding: 16, animate: false } as cytoscape.LayoutOptions).run();
    fit(instance);
  }, [graph, open]);

  const zoom = (factor: number) => {
    const instance = cy.current;
    if (!instance) return;
    instance.zoom({ level: instance.zoom() * factor, renderedPosition: { x: instance.width() / 2, y: instance.height() / 2 } });
  };

  return (
    <div class="impact-graph">
      <div class="impact-tools" role="group" aria-label="Graph view">
        <button type="button" class="small" onClick={() => zoom(1.25)}>
          Zoom in
        </button>
        <button type="button" class="small" onClick={() => zoom(0.8)}>
          Zoom out
        </button>
        <button type="button" class="small" onClick={() => cy.current && fit(cy.current)}>
          Fit
        </button>
      </div>
      <div ref={container} class="impact-canvas" role="img" aria-label={`${title}: a drawing of the CIs listed below`} />
      <p class="hint">Click a CI to open it; click a group to show its CIs. Drag to move the view.</p>
    </div>
  );
}

export default ImpactGraphCanvas;
