import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { repositoryToElk, seffToElk } from '../src/diagram/elkGraph';
import { LayoutThread } from '../src/diagram/layoutThread';
import { keyed } from '../src/diagram/seffModel';
import { warmUpSeff } from '../src/diagram/warmUp';
import { upload } from './fixtures/graphs';
import { layoutWorkerFile } from './layoutWorkerBuild';

let file = '';
beforeAll(async () => {
  file = await layoutWorkerFile();
}, 60_000);

const threads: LayoutThread[] = [];
function thread(options: ConstructorParameters<typeof LayoutThread>[1] = {}) {
  const t = new LayoutThread(file, options);
  threads.push(t);
  return t;
}
afterEach(() => {
  for (const t of threads.splice(0)) t.dispose();
});

const uploadGraph = () => seffToElk(keyed(upload())).graph;
/** Every node's position and size, and every edge's route, by id: what the SVG is drawn from. */
function geometry(n: ElkNode, out: Record<string, unknown> = {}): Record<string, unknown> {
  out[`node ${n.id}`] = [n.x ?? 0, n.y ?? 0, n.width, n.height];
  for (const e of n.edges ?? []) out[`edge ${e.id}`] = (e as { sections?: unknown }).sections;
  for (const c of n.children ?? []) geometry(c, out);
  return out;
}

describe('the layout thread', () => {
  it('lays a SEFF out exactly as ELK does in the extension’s own thread', async () => {
    const fromThread = await thread().layout(uploadGraph());
    const here = await new ELK().layout(uploadGraph());
    expect(fromThread.cached).toBe(false);
    expect(fromThread.ms).toBeGreaterThan(0);
    const g = geometry(fromThread.layout);
    expect(Object.keys(g).length).toBeGreaterThan(19);
    for (const [id, v] of Object.entries(g)) {
      if (id.startsWith('node ')) expect((v as number[]).every(Number.isFinite), id).toBe(true);
      else expect((v as unknown[]).length, id).toBeGreaterThan(0);
    }
    expect(g).toEqual(geometry(here));
  });

  it('answers a graph it laid out before from its cache, and a changed one anew', async () => {
    const t = thread();
    const first = await t.layout(uploadGraph());
    const again = await t.layout(uploadGraph());
    expect(again).toMatchObject({ cached: true, ms: 0 });
    expect(again.layout).toEqual(first.layout);
    const wider = uploadGraph();
    wider.children![1].width = (wider.children![1].width ?? 0) + 200;
    const changed = await t.layout(wider);
    expect(changed.cached).toBe(false);
    expect(changed.layout.width).toBeGreaterThan(first.layout.width!);
  });

  it('keeps only the most recently used layouts', async () => {
    const t = thread({ cacheSize: 1 });
    const a = uploadGraph();
    const b = seffToElk(keyed(warmUpSeff(1))).graph;
    await t.layout(a);
    await t.layout(b);
    expect((await t.layout(b)).cached).toBe(true);
    expect((await t.layout(a)).cached).toBe(false);
  });

  it('lays out the repository overview and several graphs asked at once, each answered with its own', async () => {
    const t = thread();
    const repo = repositoryToElk({
      uri: 'file:///r.repository',
      name: 'R',
      components: [
        { id: 'a', name: 'A', kind: 'BasicComponent', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, provides: [], requires: [{ name: 'r', interface: 'I', interfaceId: 'i' }], seffs: [] },
        { id: 'b', name: 'B', kind: 'BasicComponent', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, provides: [{ name: 'p', interface: 'I', interfaceId: 'i' }], requires: [], seffs: [] },
      ],
    } as never).graph;
    const small = seffToElk(keyed(warmUpSeff(1))).graph;
    const [r, s, w] = await Promise.all([t.layout(repo), t.layout(uploadGraph()), t.layout(small)]);
    const ids = (n: ElkNode) => n.children!.map((c) => c.id);
    expect(ids(r.layout)).toEqual(['a', 'b']);
    expect(ids(s.layout)).toEqual(ids(uploadGraph()));
    expect(ids(w.layout)).toEqual(ids(small));
  });

  it('reports a graph ELK cannot lay out, and lays out the next one', async () => {
    const t = thread();
    const broken = uploadGraph();
    broken.edges!.push({ id: 'bad', sources: ['_fs_partition'], targets: ['no such node'] } as never);
    await expect(t.layout(broken)).rejects.toThrow(/^ELK could not lay the diagram out: .*no such node/);
    expect((await t.layout(uploadGraph())).layout.children).toHaveLength(5);
  });

  it('warms ELK up in the background and says so', async () => {
    const log: string[] = [];
    const t = thread({ warmUpRuns: 2, log: (l) => void log.push(l) });
    t.warmUp();
    const deadline = Date.now() + 60_000;
    while (t.warmedUpRuns < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(t.warmedUpRuns).toBe(2);
    expect(log).toEqual([expect.stringMatching(/^Layout thread warmed up: 2 layouts of 60 actions in \d+\.\d s, the last in \d+ ms$/)]);
    const after = await t.layout(uploadGraph());
    expect(after.warmUpRuns).toBe(2);
  }, 90_000);

  it('gives up on a layout that takes too long, and starts a new thread for the next', async () => {
    const log: string[] = [];
    const t = thread({ timeoutMs: 1, log: (l) => void log.push(l) });
    await expect(t.layout(seffToElk(keyed(warmUpSeff(3))).graph)).rejects.toThrow('ELK did not finish a layout in 0.001 s');
    expect(log[0]).toMatch(/^Layout thread: ELK did not finish a layout in 0.001 s; it starts again on the next diagram\.$/);
  });

  it('after a timeout, lays out again in a fresh thread', async () => {
    const t = thread({ timeoutMs: 1 });
    await expect(t.layout(seffToElk(keyed(warmUpSeff(3))).graph)).rejects.toThrow(/did not finish/);
    // A generous limit now: the new thread must answer.
    t.timeoutMs = 60_000;
    expect((await t.layout(uploadGraph())).layout.children).toHaveLength(5);
  });

  it('once disposed, fails what waits and refuses new layouts', async () => {
    const t = thread();
    const waiting = t.layout(seffToElk(keyed(warmUpSeff(3))).graph);
    t.dispose();
    await expect(waiting).rejects.toThrow('the layout thread has stopped');
    await expect(t.layout(uploadGraph())).rejects.toThrow('the layout thread has stopped');
  });
});
