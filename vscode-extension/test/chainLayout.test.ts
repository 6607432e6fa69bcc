import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import { describe, expect, it } from 'vitest';
import { chainLayout } from '../src/diagram/chainLayout';
import { HIDDEN, seffToElk } from '../src/diagram/elkGraph';
import { keyed } from '../src/diagram/seffModel';
import { warmUpSeff } from '../src/diagram/warmUp';
import type { GraphBody, GraphFlow, GraphNode, SeffGraph, TextRange } from '../src/protocol';
import { upload } from './fixtures/graphs';
// @ts-expect-error plain JavaScript, shared with the benchmark and the VS Code test
import { generateSeff, random, seffGraph } from '../../benchmarks/diagram/generate.mjs';

const elk = new ELK();

/** What the SVG is drawn from, in the diagram's own coordinates: every visible node's box and
 * every visible edge's route (the hidden helper nodes and edges are not drawn). */
function geometry(layout: ElkNode): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const walk = (n: ElkNode, ox: number, oy: number) => {
    for (const e of (n.edges ?? []) as ElkExtendedEdge[]) {
      if (e.id.includes(HIDDEN)) continue;
      const points = (e.sections ?? []).flatMap((s) => [s.startPoint, ...(s.bendPoints ?? []), s.endPoint]);
      out.set(`edge ${e.id}`, points.flatMap((p) => [ox + p.x, oy + p.y]));
    }
    for (const c of n.children ?? []) {
      const x = ox + (c.x ?? 0);
      const y = oy + (c.y ?? 0);
      if (!c.id.includes(HIDDEN)) out.set(`node ${c.id}`, [x, y, c.width ?? 0, c.height ?? 0]);
      walk(c, x, y);
    }
  };
  walk(layout, 0, 0);
  out.set('diagram', [layout.width ?? 0, layout.height ?? 0]);
  return out;
}

/** The ids whose boxes or routes differ by more than half a pixel, with both versions. */
function differences(a: Map<string, number[]>, b: Map<string, number[]>): string[] {
  const ids = new Set([...a.keys(), ...b.keys()]);
  return [...ids].filter((id) => {
    const x = a.get(id);
    const y = b.get(id);
    return !x || !y || x.length !== y.length || x.some((v, i) => Math.abs(v - y[i]) > 0.5);
  }).map((id) => `${id}: chains ${JSON.stringify(a.get(id))}, ELK ${JSON.stringify(b.get(id))}`);
}

async function expectAsElk(graph: SeffGraph) {
  const chains = chainLayout(seffToElk(keyed(graph)));
  expect(chains, 'a SEFF of chains').not.toBeNull();
  const byElk = await elk.layout(seffToElk(keyed(graph)).graph);
  const mine = geometry(chains!);
  expect(mine.size).toBeGreaterThan(3);
  expect(differences(mine, geometry(byElk))).toEqual([]);
}

const at: TextRange = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
let next = 0;
function action(kind: string, bodies: GraphBody[] = [], name: string | null = `${kind} ${next}`): GraphNode {
  const id = `t${next++}`;
  return { id, name: /^(Start|Stop)Action$/.test(kind) ? null : name, kind, range: at, extent: at, specifications: [], results: [], bodies, call: null, demandMs: null, share: null };
}
function chain(inner: GraphNode[], edges?: [number, number][]): GraphFlow {
  const nodes = [action('StartAction'), ...inner, action('StopAction')];
  return { id: null, nodes, edges: edges ?? nodes.slice(1).map((_, i) => [i, i + 1] as [number, number]) };
}
function behaviour(inner: GraphNode[], condition: string | null = null): GraphBody {
  return { id: `t${next++}`, name: null, condition, range: at, flow: chain(inner) };
}
function seff(flow: GraphFlow): SeffGraph {
  return { uri: 'file:///t.repository', id: 'seff', service: 'I.run', component: null, componentId: null, range: at, extent: at, flow, inputs: [], prediction: null, unmodelled: null };
}

describe('the layout of a SEFF made of chains', () => {
  it('is ELK’s, box for box and edge for edge, on the file-share upload SEFF', async () => {
    await expectAsElk(upload());
  });

  it('is ELK’s on generated SEFFs of 20, 60 and 200 actions, over seeds', async () => {
    for (const actions of [20, 60, 200]) for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) await expectAsElk(seffGraph(generateSeff(actions, seed)));
  }, 120_000);

  it('is ELK’s for branches and forks of one to six behaviours, of unequal lengths, nested', async () => {
    for (const kind of ['BranchAction', 'ForkAction']) {
      for (let k = 1; k <= 6; k++) {
        const bodies = Array.from({ length: k }, (_, i) => behaviour(Array.from({ length: i % 3 }, () => action('InternalAction')), `p = ${(1 / k).toFixed(2)}`));
        const inner = action('LoopAction', [behaviour([action(kind, [behaviour([action('InternalAction')]), behaviour([])])])]);
        await expectAsElk(seff(chain([action('InternalAction'), action(kind, bodies), inner])));
      }
    }
  });

  it('is ELK’s for a loop with an empty behaviour and for long names that widen the frames', async () => {
    const wide = action('InternalAction', [], 'a name long enough to be wider than the frame around it, cut at eighty characters …');
    await expectAsElk(seff(chain([action('LoopAction', [behaviour([])]), action('LoopAction', [behaviour([wide])]), wide])));
    await expectAsElk(warmUpSeff(3));
  });

  it('routes each successor edge straight down from one action to the next', () => {
    const layout = chainLayout(seffToElk(keyed(upload())))!;
    const edges = (layout.edges ?? []) as ElkExtendedEdge[];
    expect(edges).toHaveLength(4);
    for (const e of edges) {
      const from = layout.children!.find((c) => c.id === e.sources[0])!;
      const to = layout.children!.find((c) => c.id === e.targets[0])!;
      const [s] = e.sections!;
      expect(s.startPoint).toEqual({ x: from.x! + from.width! / 2, y: from.y! + from.height! });
      expect(s.endPoint).toEqual({ x: to.x! + to.width! / 2, y: to.y! });
      expect(s.bendPoints ?? []).toEqual([]);
    }
  });
});

/** Every behaviour of a SEFF, nested ones included. */
function flows(f: GraphFlow, out: GraphFlow[] = []): GraphFlow[] {
  out.push(f);
  for (const n of f.nodes) for (const b of n.bodies) flows(b.flow, out);
  return out;
}

describe('a SEFF with damaged successor links (seeded, not shaped for the test)', () => {
  it('is laid out as ELK lays it out, or left to ELK; never a wrong picture, never an exception', async () => {
    let left = 0;
    let laid = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const rng = random(seed);
      const graph = seffGraph(generateSeff(20 + Math.floor(rng() * 60), seed)) as SeffGraph;
      // Every third SEFF: each behaviour's edges shuffled (the chains stay: order must not
      // matter). The others: one to three damages in random behaviours, an edge dropped, added,
      // reversed or repeated, or the edges shuffled.
      const all = flows(graph.flow);
      if (seed % 3 === 0) for (const f of all) f.edges.sort(() => rng() - 0.5);
      else for (let k = 1 + Math.floor(rng() * 3); k > 0; k--) {
        const f = all[Math.floor(rng() * all.length)];
        const n = f.nodes.length;
        const pick = Math.floor(rng() * Math.max(1, f.edges.length));
        switch (Math.floor(rng() * 5)) {
          case 0: f.edges.splice(pick, 1); break;
          case 1: f.edges.push([Math.floor(rng() * n), Math.floor(rng() * n)]); break;
          case 2: if (f.edges[pick]) f.edges[pick] = [f.edges[pick][1], f.edges[pick][0]]; break;
          case 3: if (f.edges[pick]) f.edges.push([...f.edges[pick]] as [number, number]); break;
          default: f.edges.sort(() => rng() - 0.5);
        }
      }
      const chains = chainLayout(seffToElk(keyed(graph)));
      const byElk = await elk.layout(seffToElk(keyed(graph)).graph);
      if (chains === null) {
        left++;
        continue;
      }
      laid++;
      expect(differences(geometry(chains), geometry(byElk)), `seed ${seed}`).toEqual([]);
    }
    // Both outcomes occur, so both paths were tried.
    expect(left).toBeGreaterThan(5);
    expect(laid).toBeGreaterThan(5);
  }, 120_000);
});

describe('a SEFF that is not made of chains is left to ELK', () => {
  const a = () => action('InternalAction');
  const cases: [string, () => SeffGraph][] = [
    ['an action no successor reaches', () => seff(chain([a(), a()], [[0, 1], [1, 3]]))],
    ['two successors of one action', () => seff(chain([a(), a()], [[0, 1], [0, 2], [2, 3]]))],
    ['a cycle', () => seff(chain([a(), a()], [[0, 1], [1, 2], [2, 1]]))],
    ['two starts', () => seff(chain([a(), a()], [[0, 2], [1, 3]]))],
    ['no edges at all', () => seff(chain([a()], []))],
    ['a broken chain inside a loop', () => seff(chain([action('LoopAction', [{ ...behaviour([a(), a()]), flow: chain([a(), a()], [[0, 1], [2, 3]]) }])]))],
    ['a broken chain in one of a branch’s behaviours', () => seff(chain([action('BranchAction', [behaviour([a()]), { ...behaviour([]), flow: chain([a()], [[1, 2]]) }])]))],
  ];
  for (const [what, graph] of cases) {
    it(what, async () => {
      const conv = seffToElk(keyed(graph()));
      expect(chainLayout(conv)).toBeNull();
      // ELK still draws every action.
      const byElk = await elk.layout(seffToElk(keyed(graph())).graph);
      const drawn = [...geometry(byElk).keys()].filter((k) => k.startsWith('node ')).length;
      expect(drawn).toBe(conv.items.size);
    });
  }
});
