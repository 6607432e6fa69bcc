// A made-up SEFF for warming ELK up. ELK's first layouts cost several times later ones (its code
// loads, and V8 optimises it only after many runs), so the layout thread (layoutWorker.ts) lays
// this one out a few times when the extension starts. It has every shape a SEFF has (loops,
// branches with transitions, calls, nesting), so the code paths a real layout takes are the ones
// that get optimised.

import type { GraphBody, GraphFlow, GraphNode, SeffGraph, TextRange } from '../protocol';

const at: TextRange = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
let next = 0;

function node(kind: string, bodies: GraphBody[] = [], call = false): GraphNode {
  const id = `w${next++}`;
  return {
    id,
    name: kind === 'StartAction' || kind === 'StopAction' ? null : `${kind} ${id}`,
    kind,
    range: at,
    extent: at,
    specifications: kind === 'InternalAction' ? [{ what: 'CPU demand', text: '0.5 * n.VALUE' }] : [],
    results: [],
    bodies,
    call: call ? { signature: 'I.call', role: null, providers: [] } : null,
    demandMs: 1,
    share: 0.1,
  };
}

function flow(depth: number): GraphFlow {
  const inner: GraphNode[] = [node('InternalAction'), node('ExternalCallAction', [], true)];
  if (depth > 0) {
    inner.push(node('LoopAction', [body(depth - 1, null)]));
    inner.push(node('BranchAction', [body(depth - 1, 'p = 0.5'), body(depth - 1, 'p = 0.5')]));
  }
  const nodes = [node('StartAction'), ...inner, node('StopAction')];
  return { id: null, nodes, edges: nodes.slice(1).map((_, i) => [i, i + 1]) };
}

function body(depth: number, condition: string | null): GraphBody {
  return { id: `w${next++}`, name: null, condition, range: at, flow: flow(depth) };
}

/** Nested `depth` deep: 60 actions at depth 2, 186 at depth 3. */
export function warmUpSeff(depth = 2): SeffGraph {
  next = 0;
  return { uri: '', id: 'warm-up', service: null, component: null, componentId: null, range: at, extent: at, flow: flow(depth), inputs: [], prediction: null, unmodelled: null };
}
