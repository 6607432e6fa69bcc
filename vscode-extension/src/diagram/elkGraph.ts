// SEFF and repository graphs as ELK graphs: every action a node with the size its texts need,
// loops, branches and forks as compound nodes holding their behaviours (a branch's transitions
// as compound nodes of their own), successor edges inside the behaviour they belong to. ELK's
// layered algorithm with INCLUDE_CHILDREN lays the nesting out in one pass.
//
// Text widths are estimated from character counts, not measured: the same sizes in the webview,
// the unit tests and the benchmark, and a layout that does not depend on fonts being loaded.

import type { ElkExtendedEdge, ElkNode, LayoutOptions } from 'elkjs/lib/elk-api';
import type { ComponentNode, RepositoryGraph } from '../protocol';
import { calleeText, lawOf, type DiagramBody, type DiagramFlow, type DiagramNode, type DiagramTree } from './seffModel';

const CHAR_W = 7.2; // px per character of a 12 px monospace font (the UI font is narrower)
export const LINE_H = 16;
export const PAD = 8;
const SHARE_W = 44; // room for "37 %" at the right of the name line
export const HEAT_H = 5; // the share bar under a box's texts
export const MAX_CHARS = 80; // longer texts are cut with an ellipsis (the tooltip has them whole)
const MIN_W = 120;
const STEP = 20; // widths are rounded up to this, so a slightly longer law still fits its box
const START_D = 22;
const STOP_D = 26;

/** Gaps between boxes side by side, and between successive actions: at the top level, and
 * inside containers (ELK's defaults there, given explicitly so chainLayout.ts uses the same). */
export const GAP_X = 24;
export const GAP_Y = 28;
export const INNER_GAP = 20;
export const ROOT_PAD = 12;

export const ROOT_OPTIONS: LayoutOptions = {
  'elk.algorithm': 'layered',
  'elk.direction': 'DOWN',
  'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.spacing.nodeNode': String(GAP_X),
  'elk.layered.spacing.nodeNodeBetweenLayers': String(GAP_Y),
  'elk.spacing.edgeNode': '12',
  // Keep the document's order of actions and transitions: successive layouts look alike.
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  // Edge points relative to the node whose `edges` hold them: we put each edge in the compound
  // node of its behaviour, which is also where the renderer draws it.
  'elk.json.edgeCoords': 'PARENT',
  'elk.padding': `[top=${ROOT_PAD},left=${ROOT_PAD},bottom=${ROOT_PAD},right=${ROOT_PAD}]`,
};

export function cut(text: string, max = MAX_CHARS): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const widthFor = (chars: number, extra = 0) =>
  Math.max(MIN_W, Math.ceil((chars * CHAR_W + 2 * PAD + extra) / STEP) * STEP);

/** Marks the ids of the layout's helper nodes and edges, which are not drawn. */
export const HIDDEN = '\u0000';

export type Item =
  | { type: 'action'; d: DiagramNode; container: boolean; width: number; height: number; headerHeight: number }
  | { type: 'body'; b: DiagramBody; label: string; width: number; headerHeight: number }
  | { type: 'component'; c: ComponentNode; key: string; lines: ComponentLine[]; width: number; height: number };

export type ComponentLine =
  | { kind: 'name' | 'type' | 'roles'; text: string }
  | { kind: 'seff'; text: string; seff: string | null }
  /** Under a SEFF's line: its unmodelled time (`detail` is the tooltip). */
  | { kind: 'unmodelled'; text: string; seff: string | null; detail: string; overpredicted: boolean };

export interface Converted {
  graph: ElkNode;
  /** What each ELK node id stands for. */
  items: Map<string, Item>;
  /** Keys, nesting, edges and box sizes: equal signatures lay out alike. */
  structure: string;
  /** Actions in the graph. */
  actions: number;
  /** Tooltips of edges (the repository's: the interface). */
  edgeTitles: Map<string, string>;
}

export function isStart(kind: string): boolean {
  return kind === 'StartAction';
}
export function isStop(kind: string): boolean {
  return kind === 'StopAction';
}

/** Bodies drawn as compound nodes of their own: a branch's transitions and a fork's behaviours
 * sit side by side with their condition on top; a loop's one body fills the loop itself. */
function bodiesAsContainers(d: DiagramNode): boolean {
  return d.bodies.length > 1 || /Branch|Fork/.test(d.node.kind);
}

function bodyLabel(b: DiagramBody, i: number): string {
  return b.body.condition ?? b.body.name ?? `behaviour ${i + 1}`;
}

/** The lines of text an action shows: its name, its law if it has one, an external call's
 * callee. svg.ts draws them in this order. */
export function textLines(d: DiagramNode, container: boolean): { name: string; law: string; callee: string; count: number } {
  const law = lawOf(d.node);
  const callee = container ? '' : calleeText(d.node);
  return { name: d.node.name ?? '', law, callee, count: 1 + (law ? 1 : 0) + (callee ? 1 : 0) };
}

const boxHeight = (lines: number) => 2 * PAD + lines * LINE_H + HEAT_H;

function leafSize(d: DiagramNode): { width: number; height: number } {
  const kind = d.node.kind;
  if (isStart(kind)) return { width: START_D, height: START_D };
  if (isStop(kind)) return { width: STOP_D, height: STOP_D };
  const t = textLines(d, false);
  const longest = Math.max(...[t.name, t.law, t.callee].map((x) => cut(x).length));
  return { width: widthFor(longest, SHARE_W), height: boxHeight(t.count) };
}

/** The keys of a behaviour's actions that no successor edge leads to (its start action); the
 * behaviour's own key when it has no actions. */
function firstActions(b: DiagramBody): string[] {
  const { nodes, edges } = b.flow;
  if (nodes.length === 0) return [b.key];
  const first = nodes.filter((_, i) => !edges.some(([, to]) => to === i)).map((n) => n.key);
  return first.length > 0 ? first : [nodes[0].key];
}

export function seffToElk(tree: DiagramTree): Converted {
  const items = new Map<string, Item>();
  let actions = 0;

  const flowInto = (parent: ElkNode, flow: DiagramFlow) => {
    parent.children = parent.children ?? [];
    parent.edges = parent.edges ?? [];
    for (const d of flow.nodes) parent.children.push(actionNode(d));
    flow.edges.forEach(([a, b], i) => {
      const edge: ElkExtendedEdge = { id: `${parent.id}>${i}`, sources: [flow.nodes[a].key], targets: [flow.nodes[b].key], sections: [] };
      parent.edges!.push(edge);
    });
  };

  const actionNode = (d: DiagramNode): ElkNode => {
    actions++;
    if (d.bodies.length === 0) {
      const { width, height } = leafSize(d);
      items.set(d.key, { type: 'action', d, container: false, width, height, headerHeight: height });
      return { id: d.key, width, height };
    }
    const t = textLines(d, true);
    const headerHeight = boxHeight(t.count);
    const width = widthFor(Math.max(cut(t.name).length, cut(t.law).length), SHARE_W);
    items.set(d.key, { type: 'action', d, container: true, width, height: headerHeight, headerHeight });
    const node: ElkNode = { id: d.key, layoutOptions: containerOptions(headerHeight, width) };
    if (bodiesAsContainers(d)) {
      // The behaviours side by side, their tops in one row under the header: an invisible
      // entry node with an edge to each behaviour's first actions (ELK layers the actions
      // inside frames, so the frames follow; unconnected, each behaviour would be layered on
      // its own and they would come out staggered). The edges leave the entry from ports in a
      // fixed order, so the behaviours keep the file's order left to right (otherwise ELK
      // breaks the tie at random). Ports are numbered clockwise, and on the south side
      // clockwise runs right to left: the first behaviour gets the highest index.
      const entry = `${d.key}${HIDDEN}in`;
      const count = d.bodies.length;
      node.children = [
        {
          id: entry,
          width: 1,
          height: 1,
          layoutOptions: { 'elk.portConstraints': 'FIXED_ORDER' },
          ports: d.bodies.map((_, i) => ({
            id: `${entry}${i}`,
            width: 1,
            height: 1,
            layoutOptions: { 'elk.port.side': 'SOUTH', 'elk.port.index': String(count - 1 - i) },
          })),
        },
        ...d.bodies.map((b, i) => bodyNode(b, i)),
      ];
      node.edges = d.bodies.flatMap((b, i) =>
        firstActions(b).map((k, j) => ({ id: `${entry}${i}.${j}`, sources: [`${entry}${i}`], targets: [k], sections: [] })),
      );
    } else {
      flowInto(node, d.bodies[0].flow);
    }
    return node;
  };

  const bodyNode = (b: DiagramBody, i: number): ElkNode => {
    const label = bodyLabel(b, i);
    const headerHeight = PAD + LINE_H;
    const width = widthFor(cut(label).length);
    items.set(b.key, { type: 'body', b, label, width, headerHeight });
    const node: ElkNode = { id: b.key, layoutOptions: containerOptions(headerHeight, width) };
    flowInto(node, b.flow);
    return node;
  };

  const graph: ElkNode = { id: '__root', layoutOptions: ROOT_OPTIONS };
  flowInto(graph, tree.flow);
  return { graph, items, structure: signature(graph), actions, edgeTitles: new Map() };
}

/** A compound node at least as wide as its header, its behaviour centred under the header.
 * ELK (0.12, INCLUDE_CHILDREN) applies a compound node's minimum size and content alignment in
 * the left-to-right frame it lays out in before turning the drawing downwards: both are given
 * as for that frame, the size as (height, width), the horizontal centring as V_CENTER.
 * elkGraph.test.ts checks the result, so an ELK that stops doing this fails there. */
function containerOptions(top: number, minWidth: number): LayoutOptions {
  const f = containerFrame(top, minWidth);
  return {
    'elk.padding': `[top=${f.top},left=${f.side},bottom=${f.bottom},right=${f.side}]`,
    'elk.nodeSize.constraints': 'MINIMUM_SIZE',
    'elk.nodeSize.minimum': `(${f.minHeight}, ${f.minWidth})`,
    'elk.contentAlignment': 'V_CENTER H_LEFT',
    'elk.spacing.nodeNode': String(INNER_GAP),
    'elk.layered.spacing.nodeNodeBetweenLayers': String(INNER_GAP),
  };
}

/** A compound node's padding and least size, for a header `top` high and `minWidth` wide (ELK's
 * options above and chainLayout.ts use the same). */
export function containerFrame(top: number, minWidth: number) {
  return { top: top + 4, side: PAD + 4, bottom: PAD + 4, minWidth, minHeight: top + 24 };
}

/** Ids, sizes, nesting and edges of an ELK input graph, as one string. */
export function signature(n: ElkNode): string {
  const children = (n.children ?? []).map(signature).join(',');
  const edges = (n.edges ?? []).map((e) => `${(e as ElkExtendedEdge).sources.join('+')}>${(e as ElkExtendedEdge).targets.join('+')}`).join(',');
  return `${n.id}:${n.width ?? ''}x${n.height ?? ''}[${children}]{${edges}}`;
}

// --- the repository overview --------------------------------------------------------------

function componentLines(c: ComponentNode): ComponentLine[] {
  const names = (roles: { interface: string | null; name: string | null }[]) =>
    roles.map((r) => r.interface ?? r.name ?? '?').join(', ');
  const lines: ComponentLine[] = [
    { kind: 'name', text: c.name ?? c.id ?? '(unnamed)' },
    { kind: 'type', text: `«${c.kind}»` },
  ];
  if (c.provides.length > 0) lines.push({ kind: 'roles', text: `provides ${names(c.provides)}` });
  if (c.requires.length > 0) lines.push({ kind: 'roles', text: `requires ${names(c.requires)}` });
  for (const s of c.seffs) {
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const counts = `${plural(s.actions, 'action')}${s.results > 0 ? `, ${plural(s.results, 'result')}` : ''}`;
    lines.push({ kind: 'seff', text: `◇ ${s.service ?? s.id ?? '?'} (${counts})`, seff: s.id });
    const u = s.unmodelled;
    // Two spaces of indent under the SEFF's line: counted in the box's width, drawn as an offset.
    if (u) lines.push({ kind: 'unmodelled', text: `  ${u.label}`, seff: s.id, detail: u.detail, overpredicted: u.overpredicted });
  }
  return lines;
}

/** A key per component: its id, else its index; unique (a broken file may repeat an id). The
 * extension uses the same keys to find the component a click names. */
export function componentKeys(repo: RepositoryGraph): string[] {
  const used = new Set<string>();
  return repo.components.map((c, i) => {
    const wanted = c.id ?? `component${i}`;
    let key = wanted;
    for (let n = 2; used.has(key); n++) key = `${wanted}~${n}`;
    used.add(key);
    return key;
  });
}

/** Components as boxes listing their SEFFs; an edge from each component requiring an interface
 * to each component providing it (matched by interface id). */
export function repositoryToElk(repo: RepositoryGraph): Converted {
  const items = new Map<string, Item>();
  const keys = componentKeys(repo);
  const children: ElkNode[] = repo.components.map((c, i) => {
    const lines = componentLines(c);
    const width = widthFor(Math.max(...lines.map((l) => cut(l.text).length)));
    const height = 2 * PAD + lines.length * LINE_H;
    items.set(keys[i], { type: 'component', c, key: keys[i], lines, width, height });
    return { id: keys[i], width, height };
  });
  const edges: ElkExtendedEdge[] = [];
  const edgeTitles = new Map<string, string>();
  repo.components.forEach((c, i) => {
    for (const r of c.requires) {
      if (!r.interfaceId) continue;
      repo.components.forEach((p, j) => {
        if (j === i || !p.provides.some((q) => q.interfaceId === r.interfaceId)) return;
        const id = `${keys[i]}>${keys[j]}`;
        const title = `${c.name ?? keys[i]} requires ${r.interface ?? r.interfaceId} (${r.name ?? 'role'}), ${p.name ?? keys[j]} provides it`;
        if (edgeTitles.has(id)) {
          edgeTitles.set(id, `${edgeTitles.get(id)}\n${title}`);
          return;
        }
        edgeTitles.set(id, title);
        edges.push({ id, sources: [keys[i]], targets: [keys[j]], sections: [] });
      });
    }
  });
  const graph: ElkNode = { id: '__root', layoutOptions: { ...ROOT_OPTIONS, 'elk.hierarchyHandling': 'SEPARATE_CHILDREN' }, children, edges };
  return { graph, items, structure: signature(graph), actions: 0, edgeTitles };
}
