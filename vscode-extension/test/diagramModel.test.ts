import { describe, expect, it } from 'vitest';
import { seffToElk } from '../src/diagram/elkGraph';
import { contentKey, keyed, lawDetail, lawOf, nodeAt, planUpdate, shareText, statusOf } from '../src/diagram/seffModel';
import type { GraphNode, SeffGraph } from '../src/protocol';
import { upload } from './fixtures/graphs';

const prepared = (g: SeffGraph) => {
  const tree = keyed(g);
  return { tree, structure: seffToElk(tree).structure };
};

function find(g: SeffGraph, id: string): GraphNode {
  const t = keyed(g);
  const d = t.byKey.get(id);
  if (!d) throw new Error(`no ${id}`);
  return d.node;
}

describe('the SEFF as the diagram sees it', () => {
  it('keys every action by its id, nested ones included', () => {
    const t = keyed(upload());
    expect(t.flow.nodes.map((n) => n.key)).toEqual(['_fs_upload_seff_start', '_fs_partition', '_fs_compress_loop', '_fs_file_loop', '_fs_upload_seff_stop']);
    expect(t.byKey.size).toBe(19);
    expect(t.byKey.get('_fs_store_call')?.node.kind).toBe('ExternalCallAction');
  });

  it('keeps keys unique when a broken file repeats an id or has none', () => {
    const g = upload();
    g.flow.nodes[1].id = '_fs_upload_seff_start';
    g.flow.nodes[4].id = null;
    const t = keyed(g);
    expect(t.flow.nodes.map((n) => n.key)).toEqual(['_fs_upload_seff_start', '_fs_upload_seff_start~2', '_fs_compress_loop', '_fs_file_loop', '_fs_upload_seff/4']);
    expect(new Set(t.byKey.keys()).size).toBe(t.byKey.size);
  });

  it('shows Beagle’s result where there is one, else the model’s specification', () => {
    const g = upload();
    expect(lawOf(find(g, '_fs_partition'))).toBe('0.0021 * files.NUMBER_OF_ELEMENTS + 0.35');
    expect(statusOf(find(g, '_fs_partition'))).toBe('final');
    expect(statusOf(find(g, '_fs_file_loop'))).toBe('preliminary');
    expect(lawOf(find(g, '_fs_count_rejection'))).toBe('0');
    expect(statusOf(find(g, '_fs_count_rejection'))).toBe('unmeasured');
    expect(lawDetail(find(g, '_fs_partition'))).toBe('CPU demand: 0.0021 * files.NUMBER_OF_ELEMENTS + 0.35 (final, R² 0.993, 48 samples)');
    expect(lawDetail(find(g, '_fs_count_rejection'))).toBe('CPU demand: 0 (model)');
    // With rates: the law (ms) and what the model holds, in work units on its container.
    const partition = find(g, '_fs_partition');
    const withUnits = { ...partition, results: partition.results.map((r) => ({ ...r, workUnits: 'in work units: 2100 * files.NUMBER_OF_ELEMENTS + 350000 CPU units on FileShareServer at 1E9/s' })) };
    expect(lawDetail(withUnits)).toBe(
      'CPU demand: 0.0021 * files.NUMBER_OF_ELEMENTS + 0.35 (final, R² 0.993, 48 samples)\n  in work units: 2100 * files.NUMBER_OF_ELEMENTS + 350000 CPU units on FileShareServer at 1E9/s',
    );
  });

  it('writes shares as percentages', () => {
    expect(shareText(0.61)).toBe('61 %');
    expect(shareText(0.04)).toBe('4.0 %');
    expect(shareText(null)).toBe('');
  });
});

describe('the node at the editor’s cursor', () => {
  const at = (line: number, character: number) => nodeAt(keyed(upload()), { line, character })?.key ?? null;

  it('is the innermost action whose element contains the cursor', () => {
    expect(at(10, 50)).toBe('_fs_partition'); // <steps_Behaviour ... entityName="partition files"
    expect(at(19, 60)).toBe('_fs_compress_call'); // inside the compress loop's body
    expect(at(17, 10)).toBe('_fs_compress_loop'); // the loop's <bodyBehaviour_Loop>, no action of the body
    expect(at(60, 20)).toBe('_fs_count_rejection'); // in a branch transition in the file loop
    expect(at(56, 20)).toBe('_fs_accept'); // the branch's own tag
  });

  it('is none outside the SEFF’s actions', () => {
    expect(at(8, 10)).toBeNull(); // the SEFF's own tag
    expect(at(0, 0)).toBeNull();
  });
});

describe('updates: patch in place or lay out again', () => {
  it('an unchanged graph patches nothing', () => {
    expect(planUpdate(prepared(upload()), prepared(upload()))).toEqual({ kind: 'patch', changed: [] });
  });

  it('new results with the same structure patch the changed nodes only', () => {
    const next = upload();
    const loop = next.flow.nodes[3];
    loop.results[0].status = 'Final';
    loop.share = 0.5;
    next.flow.nodes[1].results[0].r2 = 0.995;
    expect(planUpdate(prepared(upload()), prepared(next))).toEqual({ kind: 'patch', changed: ['_fs_partition', '_fs_file_loop'] });
  });

  it('a law that no longer fits its box lays out again', () => {
    const next = upload();
    next.flow.nodes[1].results[0].expression = '0.0021 * files.NUMBER_OF_ELEMENTS * log(files.INNER.BYTESIZE) + 0.35';
    expect(planUpdate(prepared(upload()), prepared(next))).toEqual({ kind: 'relayout' });
  });

  it('a new action, a removed edge or a different nesting lays out again', () => {
    const added = upload();
    added.flow.nodes.push({ ...added.flow.nodes[1], id: '_new' });
    const cut = upload();
    cut.flow.edges.pop();
    const moved = upload();
    const body = moved.flow.nodes[2].bodies[0].flow;
    body.nodes.push(moved.flow.nodes.splice(1, 1)[0]);
    for (const g of [added, cut, moved]) expect(planUpdate(prepared(upload()), prepared(g))).toEqual({ kind: 'relayout' });
  });

  it('the first graph is laid out', () => {
    expect(planUpdate(null, prepared(upload()))).toEqual({ kind: 'relayout' });
  });

  it('compares what a node shows, not how the server spelled it', () => {
    const a = find(upload(), '_fs_partition');
    expect(contentKey(a)).toBe(contentKey({ ...a, demandMs: 99 }));
    expect(contentKey(a)).not.toBe(contentKey({ ...a, share: 0.9 }));
  });
});
