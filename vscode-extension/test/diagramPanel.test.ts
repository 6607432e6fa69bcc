import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DOCUMENT_DEBOUNCE_MS, DiagramPanels, STATUS_THROTTLE_MS } from '../src/diagramPanel';
import type { ElkNode } from 'elkjs/lib/elk-api';
import { seffToElk } from '../src/diagram/elkGraph';
import { LayoutThread } from '../src/diagram/layoutThread';
import { keyed } from '../src/diagram/seffModel';
import { layoutWorkerFile } from './layoutWorkerBuild';
import type { DiagramAction, SeffGraph } from '../src/protocol';
import { upload } from './fixtures/graphs';
import { FakePanel, Uri, events, fake, reset } from './fakeVscode';

const URI = 'file:///ws/model/fileshare.repository';

function setup(graph: (args: unknown[]) => SeffGraph | null = () => upload()) {
  const sent: { command: string; args: unknown[] }[] = [];
  const ran: [DiagramAction, string, string, string | null][] = [];
  const log: string[] = [];
  const panels = new DiagramPanels(
    Uri.file('/ext') as unknown as import('vscode').Uri,
    {
      execute: async <T,>(command: string, args: unknown[]) => {
        sent.push({ command, args });
        if (command === 'beagle.seffGraph') return graph(args) as T;
        return { uri: URI, name: 'FileShare', components: [] } as T;
      },
    },
    { run: async (action, uri, id, name) => void ran.push([action, uri, id, name]) },
    layouts,
    (line) => void log.push(line),
  );
  return { panels, sent, ran, log };
}
const lastPanel = () => fake.panels.at(-1) as FakePanel;
const flush = () => new Promise((r) => setTimeout(r, 0));
async function waitFor<T>(found: () => T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = found();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('no answer');
    await new Promise((r) => setTimeout(r, 10));
  }
}

// The real layout thread, as the extension starts it.
let layouts: LayoutThread;
beforeAll(async () => {
  layouts = new LayoutThread(await layoutWorkerFile());
}, 60_000);
afterAll(() => layouts.dispose());
beforeEach(reset);
afterEach(() => vi.useRealTimers());

describe('SEFF diagram panels', () => {
  it('open one panel per SEFF, titled by its service, and send it the graph', async () => {
    const { panels, sent } = setup();
    await panels.showSeff(URI, '_fs_upload_seff');
    const panel = lastPanel();
    expect(panel.title).toBe('Beagle SEFF: IUpload.upload');
    expect(panel.webview.html).toContain('diagram.js');
    expect(sent).toEqual([{ command: 'beagle.seffGraph', args: [URI, '_fs_upload_seff'] }]);
    expect(panel.posted).toEqual([{ type: 'seff', title: 'BusinessCore: IUpload.upload', graph: upload() }]);
    await panels.showSeff(URI, '_fs_upload_seff');
    expect(fake.panels).toHaveLength(1);
  });

  it('a click on a node selects its name in the editor, in the editor’s own column', async () => {
    const { panels } = setup();
    fake.visibleEditors = [{ document: { uri: Uri.parse(URI) }, viewColumn: 1 }];
    await panels.showSeff(URI, '_fs_upload_seff');
    lastPanel().receive({ type: 'select', key: '_fs_partition' });
    await flush();
    const shown = fake.calls.find((c) => c.api === 'showTextDocument')!;
    const partition = upload().flow.nodes[1].range;
    expect(shown.args[1]).toMatchObject({ viewColumn: 1, preserveFocus: false });
    expect((shown.args[1] as { selection: unknown }).selection).toEqual({
      startLine: partition.start.line,
      startCharacter: partition.start.character,
      endLine: partition.end.line,
      endCharacter: partition.end.character,
    });
    expect(fake.calls.some((c) => c.api === 'revealRange')).toBe(true);
  });

  it('the cursor in the editor highlights the innermost node, once per change', async () => {
    const { panels } = setup();
    await panels.showSeff(URI, '_fs_upload_seff');
    const move = (line: number, character: number) =>
      events.selectionChanged.fire({ textEditor: { document: { uri: Uri.parse(URI) } }, selections: [{ active: { line, character } }] });
    move(19, 60);
    move(19, 61);
    move(8, 10);
    move(10, 50);
    expect(lastPanel().posted.slice(1)).toEqual([
      { type: 'highlight', key: '_fs_compress_call' },
      { type: 'highlight', key: null },
      { type: 'highlight', key: '_fs_partition' },
    ]);
  });

  it('asks again 300 ms after the last change of the file, and with the inputs set in the view', async () => {
    vi.useFakeTimers();
    const { panels, sent } = setup();
    await panels.showSeff(URI, '_fs_upload_seff');
    for (let i = 0; i < 5; i++) {
      events.documentChanged.fire({ document: { uri: Uri.parse(URI) } });
      await vi.advanceTimersByTimeAsync(100);
    }
    events.documentChanged.fire({ document: { uri: Uri.parse('file:///ws/other.repository') } });
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(DOCUMENT_DEBOUNCE_MS);
    expect(sent).toHaveLength(2);
    lastPanel().receive({ type: 'inputs', values: { 'files.NUMBER_OF_ELEMENTS': 50 } });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.at(-1)).toEqual({ command: 'beagle.seffGraph', args: [URI, '_fs_upload_seff', { 'files.NUMBER_OF_ELEMENTS': 50 }] });
  });

  it('asks again at most once a second while Beagle’s status changes', async () => {
    vi.useFakeTimers();
    const { panels, sent } = setup();
    await panels.showSeff(URI, '_fs_upload_seff');
    for (let i = 0; i < 8; i++) {
      panels.statusChanged();
      await vi.advanceTimersByTimeAsync(250);
    }
    await vi.advanceTimersByTimeAsync(STATUS_THROTTLE_MS);
    expect(sent.length - 1).toBe(2);
  });

  it('drops an answer overtaken by a newer request', async () => {
    let answer = 0;
    const slow: ((g: SeffGraph) => void)[] = [];
    const { panels } = setup();
    // the first answer arrives after the second
    (panels as unknown as { server: { execute: unknown } }).server.execute = () =>
      new Promise((resolve) => {
        const g = upload();
        g.service = `v${++answer}`;
        slow.push(() => resolve(g));
      });
    const opened = panels.showSeff(URI, '_fs_upload_seff');
    await flush();
    lastPanel().receive({ type: 'inputs', values: {} });
    await flush();
    slow[1](upload());
    await flush();
    slow[0](upload());
    await opened;
    const titles = lastPanel().posted.map((m) => (m as { graph: SeffGraph }).graph.service);
    expect(titles).toEqual(['v2']);
  });

  it('the node menu runs the action on the node’s id; the callee link opens the callee’s SEFF', async () => {
    const { panels, ran } = setup((args) => {
      const g = upload();
      g.id = args[1] as string;
      return g;
    });
    await panels.showSeff(URI, '_fs_upload_seff');
    lastPanel().receive({ type: 'action', action: 'analyse', key: '_fs_partition' });
    lastPanel().receive({ type: 'openCallee', key: '_fs_compress_call' });
    await flush();
    expect(ran).toEqual([['analyse', URI, '_fs_partition', 'partition files']]);
    expect(fake.panels).toHaveLength(2);
  });

  it('logs the webview’s layout time', async () => {
    const { panels, log } = setup();
    await panels.showSeff(URI, '_fs_upload_seff');
    lastPanel().receive({ type: 'timing', layoutMs: 42.5, nodes: 19, relayout: true });
    await flush();
    expect(log).toEqual(['Diagram of SEFF _fs_upload_seff: 19 nodes laid out and drawn in 42.5 ms']);
  });

  it('lays out what the webview asks for in the layout thread, and answers with the same id', async () => {
    const { panels } = setup();
    await panels.showSeff(URI, '_fs_upload_seff');
    const panel = lastPanel();
    const graph = seffToElk(keyed(upload())).graph;
    panel.receive({ type: 'layout', id: 7, graph });
    const answer = await waitFor(() => panel.posted.find((m) => (m as { id?: number }).id === 7));
    expect(answer).toMatchObject({ type: 'laidOut', id: 7, cached: expect.any(Boolean), warmUpRuns: 0 });
    const layout = (answer as { layout: ElkNode }).layout;
    expect(layout.children!.map((c) => c.id)).toEqual(graph.children!.map((c) => c.id));
    expect(layout.height).toBeGreaterThan(layout.width!);
    for (const c of layout.children!) expect([c.x, c.y].every(Number.isFinite)).toBe(true);
  });

  it('answers a layout ELK cannot make with the reason, under the request’s id', async () => {
    const { panels } = setup();
    await panels.showSeff(URI, '_fs_upload_seff');
    const panel = lastPanel();
    const graph = seffToElk(keyed(upload())).graph;
    graph.edges!.push({ id: 'bad', sources: ['_fs_partition'], targets: ['nowhere'] } as never);
    panel.receive({ type: 'layout', id: 8, graph });
    const answer = await waitFor(() => panel.posted.find((m) => (m as { id?: number }).id === 8));
    expect(answer).toEqual({ type: 'layoutFailed', id: 8, message: expect.stringMatching(/^ELK could not lay the diagram out: .*nowhere/) });
  });

  it('the repository overview opens a SEFF the view names', async () => {
    const { panels, sent } = setup();
    await panels.showRepository(URI);
    expect(lastPanel().title).toBe('Beagle Repository: FileShare');
    lastPanel().receive({ type: 'openSeff', uri: URI, seff: '_fs_upload_seff' });
    await flush();
    expect(sent.map((s) => s.command)).toEqual(['beagle.repositoryGraph', 'beagle.seffGraph']);
    expect(fake.panels).toHaveLength(2);
  });
});
