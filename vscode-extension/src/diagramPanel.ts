// The diagram panels: "Beagle SEFF: <service>" (one SEFF, from beagle.seffGraph) and "Beagle
// Repository: <name>" (its components, from beagle.repositoryGraph), one panel per SEFF or
// repository. The extension asks the server again when the file changes (debounced) or Beagle's
// status changes (throttled: results arrive with it); the webview decides whether that needs a
// new layout. A click on a node selects its element in the editor; the cursor in the editor
// highlights the innermost node around it. The webview asks for its layouts here: they are made
// by the extension's layout thread (diagram/layoutThread.ts), shared by all panels.

import * as vscode from 'vscode';
import { componentKeys } from './diagram/elkGraph';
import type { DiagramLayouts } from './diagram/layoutThread';
import { keyed, nodeAt, type DiagramTree } from './diagram/seffModel';
import { diagramHtml } from './diagramHtml';
import { errorText } from './errorText';
import {
  ServerCommand,
  type DiagramAction,
  type FromDiagram,
  type GraphProvider,
  type RepositoryGraph,
  type SeffGraph,
  type TextRange,
  type ToDiagram,
} from './protocol';
import { nonce } from './resultsHtml';
import type { ServerCommands } from './serverCommands';
import type { DiagramView } from './views';

/** What the context menu runs: the extension's own commands for an element (extension.ts hands
 * over Commands.runDiagramAction; a callback, so this module does not import commands.ts). */
export interface DiagramActions {
  run(action: DiagramAction, uri: string, id: string, name: string | null): Promise<unknown>;
}

type Target = { kind: 'seff'; uri: string; seff: string } | { kind: 'repository'; uri: string };

interface Entry {
  target: Target;
  panel: vscode.WebviewPanel;
  /** The inputs the user set in the view (none: the server's defaults). */
  inputs?: Record<string, number>;
  tree: DiagramTree | null;
  repository: RepositoryGraph | null;
  last: ToDiagram | null;
  highlighted: string | null;
  ticket: number;
  documentTimer?: ReturnType<typeof setTimeout>;
  statusTimer?: ReturnType<typeof setTimeout>;
  disposed: boolean;
}

export const DOCUMENT_DEBOUNCE_MS = 300;
export const STATUS_THROTTLE_MS = 1000;

/** URIs from the server and from VS Code may spell the same file differently (escapes). */
export const sameUri = (a: string, b: string) => vscode.Uri.parse(a).toString() === vscode.Uri.parse(b).toString();

export class DiagramPanels implements DiagramView, vscode.Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly server: ServerCommands,
    private readonly actions: DiagramActions,
    private readonly layouts: DiagramLayouts,
    private readonly log: (line: string) => void = () => {},
  ) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeTextDocument((e) => this.documentChanged(e.document.uri.toString())),
      vscode.window.onDidChangeTextEditorSelection((e) =>
        this.cursorMoved(e.textEditor.document.uri.toString(), e.selections[0]?.active),
      ),
    );
  }

  showSeff(uri: string, seff: string): Promise<void> {
    return this.show({ kind: 'seff', uri, seff }, seff);
  }

  showRepository(uri: string): Promise<void> {
    return this.show({ kind: 'repository', uri }, uri.split('/').pop() ?? uri);
  }

  /** Beagle's status changed (an analysis progressed or ended): results may have changed. */
  statusChanged(): void {
    for (const e of this.entries.values()) {
      if (e.statusTimer) continue;
      e.statusTimer = setTimeout(() => {
        e.statusTimer = undefined;
        void this.refresh(e);
      }, STATUS_THROTTLE_MS);
    }
  }

  private key(t: Target): string {
    const uri = vscode.Uri.parse(t.uri).toString();
    return t.kind === 'seff' ? `seff:${uri}#${t.seff}` : `repository:${uri}`;
  }

  private async show(target: Target, name: string): Promise<void> {
    const key = this.key(target);
    const open = this.entries.get(key);
    if (open) {
      open.panel.reveal(undefined, true);
      return this.refresh(open);
    }
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const title = target.kind === 'seff' ? `Beagle SEFF: ${name}` : `Beagle Repository: ${name}`;
    const panel = vscode.window.createWebviewPanel(
      target.kind === 'seff' ? 'beagle.seffDiagram' : 'beagle.repositoryDiagram',
      title,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      // Kept when hidden: a big diagram is not laid out again, and pan and zoom stay.
      { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [dist] },
    );
    const entry: Entry = { target, panel, tree: null, repository: null, last: null, highlighted: null, ticket: 0, disposed: false };
    this.entries.set(key, entry);
    panel.webview.html = diagramHtml({
      cspSource: panel.webview.cspSource,
      nonce: nonce(),
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'diagram.js')).toString(),
      title,
    });
    panel.webview.onDidReceiveMessage((m: FromDiagram) => void this.receive(entry, m));
    panel.onDidDispose(() => {
      entry.disposed = true;
      clearTimeout(entry.documentTimer);
      clearTimeout(entry.statusTimer);
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    await this.refresh(entry);
  }

  /** Asks the server for the graph and sends it to the webview; an answer overtaken by a newer
   * request is dropped. */
  private async refresh(e: Entry): Promise<void> {
    const ticket = ++e.ticket;
    const t = e.target;
    try {
      // The server reads open documents (didOpen); opening is enough, nothing is shown.
      await vscode.workspace.openTextDocument(vscode.Uri.parse(t.uri));
      if (t.kind === 'seff') {
        const args: unknown[] = e.inputs ? [t.uri, t.seff, e.inputs] : [t.uri, t.seff];
        const graph = await this.server.execute<SeffGraph | null>(ServerCommand.seffGraph, args);
        if (ticket !== e.ticket || e.disposed) return;
        if (!graph) return this.post(e, { type: 'error', message: `No SEFF ${t.seff} in ${t.uri}.` });
        e.tree = keyed(graph);
        const service = graph.service ?? t.seff;
        e.panel.title = `Beagle SEFF: ${service}`;
        const title = graph.component ? `${graph.component}: ${service}` : service;
        await this.post(e, { type: 'seff', title, graph });
      } else {
        const graph = await this.server.execute<RepositoryGraph | null>(ServerCommand.repositoryGraph, [t.uri]);
        if (ticket !== e.ticket || e.disposed) return;
        if (!graph) return this.post(e, { type: 'error', message: `${t.uri} is no repository.` });
        e.repository = graph;
        const name = graph.name ?? t.uri.split('/').pop() ?? t.uri;
        e.panel.title = `Beagle Repository: ${name}`;
        await this.post(e, { type: 'repository', title: `Repository ${name}`, graph });
      }
    } catch (err) {
      if (ticket !== e.ticket || e.disposed) return;
      await this.post(e, { type: 'error', message: `Beagle could not draw the diagram: ${errorText(err)}` });
    }
  }

  /** Lays a graph out for the webview; the answer names the request. */
  private async layout(e: Entry, id: number, graph: Parameters<DiagramLayouts['layout']>[0]): Promise<void> {
    const t0 = performance.now();
    try {
      const l = await this.layouts.layout(graph);
      const hostMs = Number((performance.now() - t0).toFixed(1));
      await this.post(e, { type: 'laidOut', id, layout: l.layout, ms: Number(l.ms.toFixed(1)), hostMs, cached: l.cached, warmUpRuns: l.warmUpRuns });
    } catch (err) {
      await this.post(e, { type: 'layoutFailed', id, message: errorText(err) });
    }
  }

  private async post(e: Entry, m: ToDiagram): Promise<void> {
    if (m.type === 'seff' || m.type === 'repository') e.last = m;
    if (!e.disposed) await e.panel.webview.postMessage(m);
  }

  private async receive(e: Entry, m: FromDiagram): Promise<void> {
    try {
      switch (m.type) {
        case 'ready':
          // The page (re)loaded: send what it shows.
          if (e.last) await this.post(e, e.last);
          if (e.highlighted) await this.post(e, { type: 'highlight', key: e.highlighted });
          return;
        case 'select':
          return await this.select(e, m.key);
        case 'action': {
          const d = e.tree?.byKey.get(m.key);
          if (!d?.node.id || e.target.kind !== 'seff') {
            void vscode.window.showInformationMessage('Beagle: this node has no id in the model.');
            return;
          }
          await this.actions.run(m.action, e.target.uri, d.node.id, d.node.name);
          return;
        }
        case 'openCallee':
          return await this.openCallee(e, m.key);
        case 'openSeff':
          return await this.showSeff(m.uri, m.seff);
        case 'inputs':
          e.inputs = m.values;
          return await this.refresh(e);
        case 'layout':
          return await this.layout(e, m.id, m.graph);
        case 'timing': {
          const what = e.target.kind === 'seff' ? `SEFF ${e.target.seff}` : `repository ${e.target.uri}`;
          const how = m.relayout ? 'laid out and drawn' : 'updated in place';
          this.log(`Diagram of ${what}: ${m.nodes} nodes ${how} in ${m.layoutMs} ms`);
          return;
        }
      }
    } catch (err) {
      void vscode.window.showErrorMessage(`Beagle: ${errorText(err)}`);
    }
  }

  /** A click on a node: its element selected in the editor. */
  private async select(e: Entry, key: string): Promise<void> {
    let range: TextRange | undefined;
    if (e.target.kind === 'seff') range = e.tree?.byKey.get(key)?.node.range;
    else if (e.repository) range = e.repository.components[componentKeys(e.repository).indexOf(key)]?.range;
    if (range) await this.reveal(e, e.target.uri, range);
  }

  private async reveal(e: Entry, uri: string, range: TextRange): Promise<void> {
    const visible = vscode.window.visibleTextEditors.find((ed) => sameUri(ed.document.uri.toString(), uri));
    const document = visible?.document ?? (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri)));
    const selection = new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
    // The editor's own column when it is shown, else one that is not the diagram's.
    const column = visible?.viewColumn ?? (e.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One);
    const editor = await vscode.window.showTextDocument(document, { viewColumn: column, selection, preserveFocus: false });
    editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private async openCallee(e: Entry, key: string): Promise<void> {
    const call = e.tree?.byKey.get(key)?.node.call;
    if (!call) return;
    const providers = call.providers.filter((p): p is GraphProvider & { seff: string } => p.seff !== null);
    if (providers.length === 0) {
      void vscode.window.showInformationMessage(`Beagle: no SEFF in the workspace describes ${call.signature}.`);
      return;
    }
    const chosen =
      providers.length === 1
        ? providers[0]
        : (
            await vscode.window.showQuickPick(
              providers.map((p) => ({ label: p.component ?? p.seff, description: vscode.workspace.asRelativePath(vscode.Uri.parse(p.uri)), p })),
              { placeHolder: `Beagle: which implementation of ${call.signature}?` },
            )
          )?.p;
    if (chosen) await this.showSeff(chosen.uri, chosen.seff);
  }

  private documentChanged(uri: string): void {
    for (const e of this.entries.values()) {
      if (!sameUri(e.target.uri, uri)) continue;
      clearTimeout(e.documentTimer);
      e.documentTimer = setTimeout(() => void this.refresh(e), DOCUMENT_DEBOUNCE_MS);
    }
  }

  private cursorMoved(uri: string, position: vscode.Position | undefined): void {
    if (!position) return;
    for (const e of this.entries.values()) {
      if (e.target.kind !== 'seff' || !e.tree || !sameUri(e.target.uri, uri)) continue;
      const key = nodeAt(e.tree, { line: position.line, character: position.character })?.key ?? null;
      if (key === e.highlighted) continue;
      e.highlighted = key;
      void this.post(e, { type: 'highlight', key });
    }
  }

  dispose(): void {
    for (const e of this.entries.values()) e.panel.dispose();
    this.entries.clear();
    for (const s of this.subscriptions) s.dispose();
  }
}
