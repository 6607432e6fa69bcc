// Runs the real `beagle lsp --stdio` (only when BEAGLE_BIN names it) with the options the
// extension sends, and drives the protocol the extension relies on: elementAt at a cursor, an
// analysis with beagle/status notifications, elementResults, and beagle.evaluate over the grid
// and bindings the results view builds, and the SEFF diagram's graphs drawn by the extension's
// own code. Uses the recorded-events example, so no Java runs.

import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PCM_LANGUAGES } from '../src/documentSelector';
import ELK from 'elkjs/lib/elk.bundled.js';
import { seffToElk } from '../src/diagram/elkGraph';
import { keyed, nodeAt, planUpdate, statusOf } from '../src/diagram/seffModel';
import type { ElementAt, ElementResults, EvaluateResult, QueuedJob, RepositoryGraph, SeffGraph, StatusPayload } from '../src/protocol';
import { initializationOptions, readSettings } from '../src/settings';
import { bindings, defaultFixed, gridFor, parameterNames, pointBindings } from '../src/webview/model';
import { unmodelledBadge } from '../src/webview/unmodelled';

const bin = process.env.BEAGLE_BIN;
const fixture = new URL('../../fixtures/events-example', import.meta.url).pathname;

describe.skipIf(!bin)('beagle lsp (BEAGLE_BIN)', () => {
  let ws: string;
  let server: ChildProcess;
  let conn: MessageConnection;
  const statuses: StatusPayload[] = [];
  const shown: string[] = [];
  let repo: string;
  let text: string;
  const exec = <T,>(command: string, args: unknown[]) => conn.sendRequest('workspace/executeCommand', { command, arguments: args }) as Promise<T>;

  beforeAll(async () => {
    ws = mkdtempSync(join(tmpdir(), 'beagle-ext-'));
    cpSync(fixture, ws, { recursive: true });
    server = spawn(bin!, ['lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, BEAGLE_STATE_DIR: join(ws, '.state') } });
    conn = createMessageConnection(new StreamMessageReader(server.stdout!), new StreamMessageWriter(server.stdin!));
    conn.onNotification('beagle/status', (p: StatusPayload) => void statuses.push(p));
    conn.onNotification('window/showMessage', (p: { message: string }) => void shown.push(p.message));
    conn.onRequest('window/workDoneProgress/create', () => null);
    conn.onRequest('workspace/applyEdit', () => ({ applied: true }));
    conn.onRequest('window/showMessageRequest', () => null);
    conn.onRequest('workspace/configuration', () => []);
    conn.onRequest('client/registerCapability', () => null);
    conn.listen();
    const settings = readSettings((k) => ({ trust: 'ask', seed: 1 })[k]);
    await conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(ws).toString(),
      workspaceFolders: [{ uri: pathToFileURL(ws).toString(), name: 'ws' }],
      capabilities: { window: { workDoneProgress: true, showMessage: { messageActionItem: { additionalPropertiesSupport: false } } }, workspace: { workspaceEdit: { documentChanges: true } } },
      initializationOptions: initializationOptions(settings, true),
    });
    await conn.sendNotification('initialized', {});
    const path = join(ws, 'FileShare.repository');
    repo = pathToFileURL(path).toString();
    text = readFileSync(path, 'utf8');
    await conn.sendNotification('textDocument/didOpen', { textDocument: { uri: repo, languageId: PCM_LANGUAGES[0], version: 1, text } });
  }, 30_000);

  afterAll(async () => {
    try {
      await conn.sendRequest('shutdown');
      await conn.sendNotification('exit');
    } catch {
      server?.kill();
    }
    conn?.dispose();
    rmSync(ws, { recursive: true, force: true });
  });

  const positionOf = (needle: string) => {
    const before = text.slice(0, text.indexOf(needle)).split('\n');
    return { line: before.length - 1, character: before[before.length - 1].length };
  };

  it('finds the action and component at a cursor', async () => {
    const at = await exec<ElementAt>('beagle.elementAt', [repo, positionOf('entityName="hash"')]);
    expect(at).toMatchObject({ kind: 'action', id: '_fs_hash', name: 'hash', component: '_fs_FileShare', componentName: 'FileShare' });
  });

  it('analyses a component, reports status, and the results view can draw the fitted curve', async () => {
    const job = await exec<QueuedJob>('beagle.analyseComponent', [repo, '_fs_FileShare']);
    expect(job.queued).toBe(true);
    const deadline = Date.now() + 240_000;
    while (!statuses.some((s) => s.running === null && typeof s.last === 'string') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(statuses.some((s) => s.running?.label === job.label)).toBe(true);
    expect(statuses.at(-1)?.last).toMatch(/done/);
    expect(shown.some((m) => m.startsWith(`Beagle: ${job.label} done: `))).toBe(true);

    const data = await exec<ElementResults>('beagle.elementResults', [repo, '_fs_hash']);
    expect(data.name).toBe('hash');
    // An action's view has no SEFF rows; its SEFF's view has the unmodelled time of its last
    // validation, as the diagram has it (next test).
    expect(data.unmodelled).toEqual([]);
    expect(data.results.length).toBeGreaterThan(0);
    const r = data.results[0];
    const names = parameterNames(r);
    expect(names).toContain('size.VALUE');
    const xs = gridFor(r, 'size.VALUE');
    const curve = await exec<EvaluateResult>('beagle.evaluate', [{ expression: r.expression, bindings: bindings(xs, 'size.VALUE', defaultFixed(r, 'size.VALUE')) }]);
    expect(curve.values).toHaveLength(xs.length);
    expect(curve.values.every((v) => typeof v === 'number' && Number.isFinite(v))).toBe(true);
    const atPoints = await exec<EvaluateResult>('beagle.evaluate', [{ expression: r.expression, bindings: pointBindings(r) }]);
    expect(atPoints.values.every((v) => typeof v === 'number')).toBe(true);
  }, 300_000);

  it('serves the SEFF diagram: the overview, the analysed SEFF with its laws, laid out by ELK', async () => {
    const overview = await exec<RepositoryGraph>('beagle.repositoryGraph', [repo]);
    expect(overview.components.map((c) => c.id)).toEqual(['_fs_FileShare', '_fs_Storage']);
    const seffs = overview.components[0].seffs.map((x) => x.id);
    expect(seffs).toContain('_fs_upload_seff');

    const graph = await exec<SeffGraph>('beagle.seffGraph', [repo, '_fs_upload_seff']);
    // The analysis validated the model on held-out executions: the SEFF's unmodelled time, the
    // same in the results view's rows and on the overview's SEFF line (without the diagram's
    // value at its inputs), worded without a negative share.
    const u = graph.unmodelled!;
    expect(u).not.toBeNull();
    expect(u.points).toBeGreaterThanOrEqual(3);
    expect(u.label).toMatch(/^(unmodelled [0-9.]+ %|the model predicts [0-9.]+ % more than measured)$/);
    expect(u.overpredicted).toBe(u.label.startsWith('the model predicts'));
    const { atInputsMs: _, ...row } = u;
    const seffView = await exec<ElementResults>('beagle.elementResults', [repo, '_fs_upload_seff']);
    expect(seffView.unmodelled).toEqual([row]);
    expect(overview.components[0].seffs.find((x) => x.id === '_fs_upload_seff')?.unmodelled).toEqual(row);
    expect(unmodelledBadge(u)?.text.startsWith(u.label)).toBe(true);
    const tree = keyed(graph);
    const hash = nodeAt(tree, positionOf('entityName="hash"'));
    expect(hash?.key).toBe('_fs_hash');
    expect(hash?.node.name).toBe('hash');
    // after the analysis above, the internal action shows Beagle's law
    expect(statusOf(hash!.node)).not.toBe('unmeasured');
    expect(hash!.node.results[0].expression).toMatch(/size\.VALUE/);
    // its range selects its name in the file
    const lines = text.split('\n');
    const { start, end } = hash!.node.range;
    expect(start.line).toBe(end.line);
    expect(lines[start.line].slice(start.character, end.character)).toBe('hash');

    const conv = seffToElk(tree);
    const layout = await new ELK().layout(conv.graph);
    expect(layout.width).toBeGreaterThan(0);
    expect(conv.actions).toBe(tree.byKey.size);
    // asked again unchanged: nothing to lay out again
    const again = keyed(await exec<SeffGraph>('beagle.seffGraph', [repo, '_fs_upload_seff']));
    expect(planUpdate({ structure: conv.structure, tree }, { structure: seffToElk(again).structure, tree: again })).toEqual({ kind: 'patch', changed: [] });
    // with other inputs, the prediction follows
    if (graph.prediction && graph.inputs.length > 0) {
      const input = graph.inputs[0];
      const other = await exec<SeffGraph>('beagle.seffGraph', [repo, '_fs_upload_seff', { [input.name]: input.value * 10 + 1 }]);
      expect(other.inputs.find((i) => i.name === input.name)?.value).toBe(input.value * 10 + 1);
    }
  }, 60_000);
});
