// A SEFF graph (beagle.seffGraph) as the diagram sees it: every action and nested behaviour with
// a stable key, the texts and status a node shows, the node under the editor's cursor, and
// whether an update changes the structure (then it is laid out again) or only texts and colours
// (then the nodes are patched in place). Pure: the webview, the extension, the unit tests and the
// benchmark share it, so both sides compute the same keys.

import type { GraphBody, GraphFlow, GraphNode, SeffGraph, TextPosition, TextRange } from '../protocol';

export type Status = 'final' | 'preliminary' | 'unmeasured';

export interface DiagramNode {
  /** The action's id; for an action without one (a broken file), a path-based key. Unique. */
  key: string;
  node: GraphNode;
  bodies: DiagramBody[];
}

export interface DiagramBody {
  key: string;
  body: GraphBody;
  flow: DiagramFlow;
}

export interface DiagramFlow {
  nodes: DiagramNode[];
  /** Successor edges [from, to], indices into `nodes` (edges to missing nodes dropped). */
  edges: [number, number][];
}

export interface DiagramTree {
  graph: SeffGraph;
  flow: DiagramFlow;
  /** Every action by key, nested ones included. */
  byKey: Map<string, DiagramNode>;
}

/** Gives every action and body a key. Ids come from the file, so a broken file may repeat one:
 * a repeated key gets a suffix, so keys stay unique (ELK rejects duplicate ids). */
export function keyed(graph: SeffGraph): DiagramTree {
  const used = new Set<string>();
  const byKey = new Map<string, DiagramNode>();
  const unique = (wanted: string) => {
    let key = wanted;
    for (let i = 2; used.has(key); i++) key = `${wanted}~${i}`;
    used.add(key);
    return key;
  };
  const flowOf = (flow: GraphFlow, path: string): DiagramFlow => {
    const nodes = flow.nodes.map((node, i): DiagramNode => {
      const key = unique(node.id ?? `${path}/${i}`);
      const d: DiagramNode = { key, node, bodies: [] };
      byKey.set(key, d);
      d.bodies = node.bodies.map((body, j) => {
        const bodyKey = unique(body.id ?? `${key}/body${j}`);
        return { key: bodyKey, body, flow: flowOf(body.flow, bodyKey) };
      });
      return d;
    });
    const edges = flow.edges.filter(([a, b]) => a < nodes.length && b < nodes.length).map(([a, b]) => [a, b] as [number, number]);
    return { nodes, edges };
  };
  return { graph, flow: flowOf(graph.flow, graph.id ?? 'seff'), byKey };
}

export function statusOf(node: GraphNode): Status {
  if (node.results.length === 0) return 'unmeasured';
  return node.results.every((r) => r.status === 'Final') ? 'final' : 'preliminary';
}

/** The law a node shows: Beagle's results when it has any, else the model's specifications. */
export function lawOf(node: GraphNode): string {
  if (node.results.length > 0) return node.results.map((r) => r.expression).join('; ');
  return node.specifications.map((s) => s.text).join('; ');
}

/** The law with what it is about and its quality, for the tooltip. */
export function lawDetail(node: GraphNode): string {
  if (node.results.length > 0) {
    return node.results
      .map((r) => {
        const r2 = r.r2 === null ? '' : `, R² ${r.r2.toFixed(3)}`;
        // A demand's law is in ms (the shares are of time); the model holds it in work units.
        const units = r.workUnits ? `\n  ${r.workUnits}` : '';
        return `${r.what}: ${r.expression} (${r.status.toLowerCase()}${r2}, ${r.samples} samples)${units}`;
      })
      .join('\n');
  }
  if (node.specifications.length > 0) return node.specifications.map((s) => `${s.what}: ${s.text} (model)`).join('\n');
  return '';
}

/** `37 %`, one decimal under 10 %; empty when the graph has no prediction. */
export function shareText(share: number | null): string {
  if (share === null || !Number.isFinite(share)) return '';
  const pct = share * 100;
  return `${pct < 10 ? pct.toFixed(1) : pct.toFixed(0)} %`;
}

export function calleeText(node: GraphNode): string {
  if (!node.call) return '';
  const n = node.call.providers.length;
  return `→ ${node.call.signature}${n > 1 ? ` (${n} providers)` : n === 0 ? ' (no provider)' : ''}`;
}

/** What a patch compares: everything a node shows. */
export function contentKey(node: GraphNode): string {
  return JSON.stringify([node.name, lawOf(node), lawDetail(node), statusOf(node), shareText(node.share), calleeText(node)]);
}

function before(a: TextPosition, b: TextPosition): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character);
}

export function contains(range: TextRange, p: TextPosition): boolean {
  return before(range.start, p) && before(p, range.end);
}

/** The innermost action whose element (extent) contains the position, or null. */
export function nodeAt(tree: DiagramTree, p: TextPosition): DiagramNode | null {
  let found: DiagramNode | null = null;
  let flows: DiagramFlow[] = [tree.flow];
  while (flows.length > 0) {
    const hit = flows.flatMap((f) => f.nodes).find((n) => contains(n.node.extent, p));
    if (!hit) break;
    found = hit;
    flows = hit.bodies.map((b) => b.flow);
  }
  return found;
}

export type UpdatePlan =
  | { kind: 'relayout' }
  | { kind: 'patch'; changed: string[] } // keys whose texts or colours changed (may be empty)

/** Whether `next` can be shown by patching the nodes drawn for `previous`: the same structure
 * (keys, nesting, edges and box sizes: `structure` is elkGraph's signature of them) and only
 * texts or colours changed. Otherwise the graph is laid out again. */
export function planUpdate(
  previous: { structure: string; tree: DiagramTree } | null,
  next: { structure: string; tree: DiagramTree },
): UpdatePlan {
  if (!previous || previous.structure !== next.structure) return { kind: 'relayout' };
  const changed: string[] = [];
  for (const [key, n] of next.tree.byKey) {
    const old = previous.tree.byKey.get(key);
    if (!old) return { kind: 'relayout' };
    if (contentKey(old.node) !== contentKey(n.node)) changed.push(key);
  }
  return { kind: 'patch', changed };
}
