import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import { describe, expect, it } from 'vitest';
import { HIDDEN, repositoryToElk, seffToElk } from '../src/diagram/elkGraph';
import { keyed } from '../src/diagram/seffModel';
import type { RepositoryGraph } from '../src/protocol';
import { upload } from './fixtures/graphs';

const child = (n: ElkNode, id: string): ElkNode => {
  const c = n.children?.find((x) => x.id === id);
  if (!c) throw new Error(`${n.id} has no child ${id}: ${(n.children ?? []).map((x) => x.id).join(', ')}`);
  return c;
};
const visible = (id: string) => !id.includes(HIDDEN);
const edgePairs = (n: ElkNode) =>
  (n.edges ?? []).filter((e) => visible(e.id)).map((e) => `${(e as ElkExtendedEdge).sources[0]}>${(e as ElkExtendedEdge).targets[0]}`);

describe('SEFF graph to ELK', () => {
  const conv = seffToElk(keyed(upload()));
  const root = conv.graph;

  it('lays the top level out top to bottom, nesting included, with the layered algorithm', () => {
    expect(root.layoutOptions).toMatchObject({
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
    });
    expect(root.children?.map((c) => c.id)).toEqual(['_fs_upload_seff_start', '_fs_partition', '_fs_compress_loop', '_fs_file_loop', '_fs_upload_seff_stop']);
    expect(edgePairs(root)).toEqual([
      '_fs_upload_seff_start>_fs_partition',
      '_fs_partition>_fs_compress_loop',
      '_fs_compress_loop>_fs_file_loop',
      '_fs_file_loop>_fs_upload_seff_stop',
    ]);
    expect(conv.actions).toBe(19);
  });

  it('puts a loop’s body inside the loop, its successor edges with it', () => {
    const loop = child(root, '_fs_compress_loop');
    expect(loop.children?.map((c) => c.id)).toEqual(['_fs_compress_loop_body_start', '_fs_compress_call', '_fs_compress_loop_body_stop']);
    expect(edgePairs(loop)).toEqual(['_fs_compress_loop_body_start>_fs_compress_call', '_fs_compress_call>_fs_compress_loop_body_stop']);
    expect(loop.width).toBeUndefined(); // a compound node: ELK sizes it around its children
    expect(loop.layoutOptions?.['elk.padding']).toMatch(/top=\d+/);
  });

  it('puts each branch transition in a compound node of its own inside the branch', () => {
    const branch = child(child(root, '_fs_file_loop'), '_fs_accept');
    expect(branch.children?.map((c) => c.id).filter(visible)).toEqual(['_fs_rejected', '_fs_accepted']);
    expect(edgePairs(branch)).toEqual([]);
    // an invisible entry with an edge to each transition's start holds them side by side, in order
    expect(branch.children).toHaveLength(3);
    expect(branch.edges?.map((e) => (e as ElkExtendedEdge).targets[0])).toEqual(['_fs_rejected_behaviour_start', '_fs_accepted_behaviour_start']);
    expect(branch.children?.[0].ports?.map((p) => p.layoutOptions?.['elk.port.index'])).toEqual(['1', '0']);
    const accepted = child(branch, '_fs_accepted');
    expect(accepted.children?.map((c) => c.id)).toEqual(['_fs_accepted_behaviour_start', '_fs_store_call', '_fs_accepted_behaviour_stop']);
    expect(edgePairs(accepted)).toHaveLength(2);
    const item = conv.items.get('_fs_accepted');
    expect(item?.type === 'body' && item.label).toBe('p = 0.5');
  });

  it('counts nodes and edges of the whole SEFF', () => {
    let nodes = 0;
    let edges = 0;
    const walk = (n: ElkNode) => {
      edges += n.edges?.filter((e) => visible(e.id)).length ?? 0;
      for (const c of n.children ?? []) {
        if (conv.items.get(c.id)?.type === 'action') nodes++;
        walk(c);
      }
    };
    walk(root);
    expect([nodes, edges]).toEqual([19, 4 + 2 + 4 + 2 + 2]);
  });

  it('gives an external call a line for its callee, start and stop small round nodes', () => {
    const call = child(child(root, '_fs_compress_loop'), '_fs_compress_call');
    const internal = child(root, '_fs_partition');
    expect(call.height).toBe(internal.height!); // name and callee; name and law
    const g = upload();
    g.flow.nodes[2].bodies[0].flow.nodes[1].specifications.push({ what: 'parameter', text: 'data.BYTESIZE' });
    const withLaw = child(child(seffToElk(keyed(g)).graph, '_fs_compress_loop'), '_fs_compress_call');
    expect(withLaw.height).toBeGreaterThan(internal.height!); // name, law and callee
    expect(child(root, '_fs_upload_seff_start')).toMatchObject({ width: 22, height: 22 });
    const item = conv.items.get('_fs_compress_call');
    expect(item?.type === 'action' && item.d.node.call?.providers[0]).toMatchObject({ component: 'Compression', seff: '_fs_compress_seff' });
  });

  it('is laid out by ELK with every node inside its parent', async () => {
    const layout = await new ELK().layout(structuredClone(root));
    const inside = (n: ElkNode) => {
      for (const c of n.children ?? []) {
        expect(c.x).toBeGreaterThanOrEqual(0);
        expect(c.y).toBeGreaterThanOrEqual(0);
        expect(c.x! + c.width!).toBeLessThanOrEqual(n.width! + 0.5);
        expect(c.y! + c.height!).toBeLessThanOrEqual(n.height! + 0.5);
        inside(c);
      }
      for (const e of n.edges ?? []) expect((e as ElkExtendedEdge).sections?.length).toBeGreaterThan(0);
    };
    inside(layout);
    // top to bottom: each top-level action below the one before it
    const ys = layout.children!.map((c) => c.y!);
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);
    // a branch's transitions side by side, top-aligned, in the file's order
    const branch = child(child(layout, '_fs_file_loop'), '_fs_accept');
    const [rejected, accepted] = ['_fs_rejected', '_fs_accepted'].map((id) => child(branch, id));
    expect(rejected.y).toBe(accepted.y);
    expect(rejected.x! + rejected.width!).toBeLessThanOrEqual(accepted.x!);
    // the header of the loop stays clear: its first child starts below the padding
    const loop = child(layout, '_fs_compress_loop');
    expect(Math.min(...loop.children!.map((c) => c.y!))).toBeGreaterThanOrEqual(40);
  });

  it('keeps three transitions of different lengths in the file’s order, tops in one row', async () => {
    const g = upload();
    const accept = g.flow.nodes[3].bodies[0].flow.nodes[3];
    const third = structuredClone(accept.bodies[0]);
    third.id = '_third';
    for (const n of third.flow.nodes) n.id = `${n.id}_3`;
    third.flow.nodes.splice(1, 0, { ...structuredClone(third.flow.nodes[1]), id: '_extra' });
    third.flow.edges = [[0, 1], [1, 2], [2, 3]];
    accept.bodies.push(third);
    const layout = await new ELK().layout(seffToElk(keyed(g)).graph);
    const branch = child(child(layout, '_fs_file_loop'), '_fs_accept');
    const bodies = ['_fs_rejected', '_fs_accepted', '_third'].map((id) => child(branch, id));
    expect(bodies.map((b) => b.x! < (bodies[bodies.indexOf(b) + 1]?.x ?? Infinity))).toEqual([true, true, true]);
    expect(new Set(bodies.map((b) => b.y)).size).toBe(1);
  });

  it('makes a container as wide as its header and centres its behaviour under it', async () => {
    const layout = await new ELK().layout(structuredClone(root));
    const loop = child(layout, '_fs_compress_loop');
    const header = conv.items.get('_fs_compress_loop');
    expect(header?.type === 'action' && header.width).toBeGreaterThan(400); // its law is long
    expect(loop.width).toBeGreaterThanOrEqual(header?.type === 'action' ? header.width : Infinity);
    expect(loop.height).toBeLessThan(loop.width!); // not the swapped size
    const call = child(loop, '_fs_compress_call');
    const middle = call.x! + call.width! / 2;
    expect(Math.abs(middle - loop.width! / 2)).toBeLessThan(2);
  });
});

describe('repository graph to ELK', () => {
  const role = (interfaceId: string, name = interfaceId) => ({ id: `r-${name}`, name, interface: name, interfaceId });
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
  const repo: RepositoryGraph = {
    uri: 'file:///ws/r.repository',
    name: 'R',
    components: [
      { id: 'core', name: 'BusinessCore', kind: 'BasicComponent', range, provides: [role('IUpload')], requires: [role('IStorage'), role('IHashing')], seffs: [{ id: 'up', service: 'IUpload.upload', range, actions: 19, results: 3, unmodelled: null }] },
      { id: 'store', name: 'Storage', kind: 'BasicComponent', range, provides: [role('IStorage')], requires: [role('IFileStore', 'large'), role('IFileStore', 'small')], seffs: [] },
      { id: 'fs', name: 'FileStore', kind: 'BasicComponent', range, provides: [role('IFileStore')], requires: [], seffs: [] },
      { id: 'fs2', name: 'OtherFileStore', kind: 'BasicComponent', range, provides: [role('IFileStore')], requires: [], seffs: [] },
    ],
  };

  it('draws an edge from each requiring component to each provider of the interface, once per pair', () => {
    const conv = repositoryToElk(repo);
    expect(conv.graph.children?.map((c) => c.id)).toEqual(['core', 'store', 'fs', 'fs2']);
    expect(edgePairs(conv.graph)).toEqual(['core>store', 'store>fs', 'store>fs2']);
    expect(conv.edgeTitles.get('store>fs')).toContain('large');
    expect(conv.edgeTitles.get('store>fs')).toContain('small');
  });

  it('lists each component’s SEFFs', () => {
    const item = repositoryToElk(repo).items.get('core');
    expect(item?.type === 'component' && item.lines.filter((l) => l.kind === 'seff')).toEqual([
      { kind: 'seff', text: '◇ IUpload.upload (19 actions, 3 results)', seff: 'up' },
    ]);
  });
});
