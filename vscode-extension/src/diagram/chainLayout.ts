// The layout of a SEFF whose behaviours are each one chain from start to stop: the shape PCM
// gives every well-formed SEFF (successor links; loops hold one behaviour, branches and forks
// several side by side). Such a layout is fixed by the boxes' sizes alone: each behaviour stacks
// its actions top to bottom on one axis, a container frames its behaviour under its header, a
// branch puts its behaviours side by side. This computes it directly, in one pass over the graph
// (about 1 ms for 200 actions), with the gaps, paddings and least sizes ELK is given
// (elkGraph.ts), so the picture is the one ELK draws for such a graph (chainLayout.test.ts
// compares them).
//
// Why not ELK for these too: ELK is Java compiled to JavaScript, and a 200-action SEFF took it
// 0.11-0.17 s warm and 0.4-0.9 s in a fresh VS Code while the webview loads
// (benchmarks/diagram). Anything else (a broken chain, actions no successor reaches, a cycle)
// returns null, and ELK lays it out.

import type { ElkEdgeSection, ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import { GAP_X, GAP_Y, HIDDEN, INNER_GAP, ROOT_PAD, containerFrame, type Converted, type Item } from './elkGraph';

/** From a branch's padding to its behaviours' frames: where ELK puts them, under its hidden
 * entry node (1 px, with a port per behaviour), a layer gap, and 10 px more per edge-routing
 * slot the entry's fan-out needs beyond two. chainLayout.test.ts holds it to ELK's. */
const entryGap = (behaviours: number) => 27 + 10 * Math.max(0, behaviours - 2);

interface Frame {
  top: number;
  side: number;
  bottom: number;
  minWidth: number;
  minHeight: number;
  gapX: number;
  gapY: number;
}

const ROOT_FRAME: Frame = { top: ROOT_PAD, side: ROOT_PAD, bottom: ROOT_PAD, minWidth: 0, minHeight: 0, gapX: GAP_X, gapY: GAP_Y };

/** The layout of `conv`'s SEFF graph, or null when a behaviour is not one chain. */
export function chainLayout(conv: Converted): ElkNode | null {
  try {
    return layOut(conv.graph, conv.items, ROOT_FRAME);
  } catch (e) {
    if (e instanceof NotAChain) return null;
    throw e;
  }
}

class NotAChain extends Error {}

function frameOf(item: Item | undefined): Frame {
  if (item?.type === 'action' || item?.type === 'body') return { ...containerFrame(item.headerHeight, item.width), gapX: INNER_GAP, gapY: INNER_GAP };
  throw new NotAChain();
}

const isContainer = (item: Item | undefined) => item?.type === 'body' || (item?.type === 'action' && item.container);

const source = (e: ElkExtendedEdge) => e.sources[0];
const target = (e: ElkExtendedEdge) => e.targets[0];

function layOut(node: ElkNode, items: Map<string, Item>, frame: Frame): ElkNode {
  const children = node.children ?? [];
  const edges = (node.edges ?? []) as ElkExtendedEdge[];
  const entry = children[0]?.id.includes(HIDDEN) ? children[0] : null;
  let laid: ElkNode[];
  let contentWidth: number;
  let contentHeight: number;
  if (entry) {
    // A branch or fork: its behaviours side by side, tops in one row under the header.
    const bodies = children.slice(1).map((c) => layOut(c, items, frameOf(items.get(c.id))));
    if (bodies.some((b) => b.id.includes(HIDDEN)) || edges.some((e) => !e.id.includes(HIDDEN))) throw new NotAChain();
    contentWidth = bodies.reduce((w, b) => w + b.width!, 0) + frame.gapX * Math.max(0, bodies.length - 1);
    contentHeight = entryGap(bodies.length) + Math.max(0, ...bodies.map((b) => b.height!));
    laid = [{ ...entry, x: 0, y: 0 }, ...bodies];
  } else {
    laid = chainOrder(children, edges).map((c) => (isContainer(items.get(c.id)) ? layOut(c, items, frameOf(items.get(c.id))) : { ...c }));
    contentWidth = Math.max(0, ...laid.map((c) => c.width ?? 0));
    contentHeight = laid.reduce((h, c) => h + (c.height ?? 0), 0) + frame.gapY * Math.max(0, laid.length - 1);
  }
  const width = Math.max(frame.minWidth, contentWidth + 2 * frame.side);
  const height = Math.max(frame.minHeight, contentHeight + frame.top + frame.bottom);
  // The content centred under the header when the frame is wider (its least width).
  const left = frame.side + (width - 2 * frame.side - contentWidth) / 2;
  const axis = left + contentWidth / 2;
  if (entry) {
    let x = left;
    laid[0] = { ...laid[0], x: axis - (entry.width ?? 0) / 2, y: frame.top };
    for (let i = 1; i < laid.length; i++) {
      laid[i] = { ...laid[i], x, y: frame.top + entryGap(laid.length - 1) };
      x += laid[i].width! + frame.gapX;
    }
  } else {
    let y = frame.top;
    for (let i = 0; i < laid.length; i++) {
      laid[i] = { ...laid[i], x: axis - (laid[i].width ?? 0) / 2, y };
      y += (laid[i].height ?? 0) + frame.gapY;
    }
  }
  const at = new Map(laid.map((c) => [c.id, c]));
  const routed = edges.map((e) => {
    const from = at.get(source(e));
    const to = at.get(target(e));
    // Straight down the axis, from the bottom of one action to the top of the next.
    const sections: ElkEdgeSection[] =
      from && to ? [{ id: `${e.id}_s0`, startPoint: { x: axis, y: from.y! + from.height! }, endPoint: { x: axis, y: to.y! } }] : [];
    return { ...e, sections };
  });
  return { ...node, width, height, children: laid, edges: routed };
}

/** The children in successor order when the edges make them one chain (a single start, each
 * action followed by at most one, each reached from at most one, all reached); else NotAChain. */
function chainOrder(children: ElkNode[], edges: ElkExtendedEdge[]): ElkNode[] {
  if (children.length === 0) {
    if (edges.length > 0) throw new NotAChain();
    return [];
  }
  if (edges.length !== children.length - 1) throw new NotAChain();
  const byId = new Map(children.map((c) => [c.id, c]));
  const next = new Map<string, string>();
  const reached = new Set<string>();
  for (const e of edges) {
    if (e.sources.length !== 1 || e.targets.length !== 1) throw new NotAChain();
    const [a, b] = [source(e), target(e)];
    if (!byId.has(a) || !byId.has(b) || next.has(a) || reached.has(b) || a === b) throw new NotAChain();
    next.set(a, b);
    reached.add(b);
  }
  const starts = children.filter((c) => !reached.has(c.id));
  if (starts.length !== 1) throw new NotAChain();
  const order: ElkNode[] = [];
  for (let id: string | undefined = starts[0].id; id !== undefined; id = next.get(id)) {
    order.push(byId.get(id)!);
    if (order.length > children.length) throw new NotAChain();
  }
  if (order.length !== children.length) throw new NotAChain();
  return order;
}
