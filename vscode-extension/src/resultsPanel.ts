// Results webview panels, one per element. The webview asks for the fitted expression's values
// (postMessage "evaluate"); the extension forwards to the server's beagle.evaluate, so the
// curve is what Beagle itself computes.

import * as vscode from 'vscode';
import { ServerCommand, type ElementResults, type EvaluateResult, type FromWebview, type ToWebview } from './protocol';
import { nonce, resultsHtml } from './resultsHtml';
import type { ServerCommands } from './serverCommands';
import type { ResultsView } from './views';

export class ResultsPanels implements ResultsView, vscode.Disposable {
  private readonly panels = new Map<string, { panel: vscode.WebviewPanel; data: ElementResults; title: string }>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly server: ServerCommands,
  ) {}

  show(key: string, title: string, data: ElementResults): void {
    const open = this.panels.get(key);
    if (open) {
      open.data = data;
      open.title = title;
      open.panel.title = title;
      open.panel.reveal();
      void this.post(open.panel, { type: 'results', title, data });
      return;
    }
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const panel = vscode.window.createWebviewPanel('beagle.results', title, vscode.ViewColumn.Beside, {
      enableScripts: true,
      localResourceRoots: [dist],
    });
    const entry = { panel, data, title };
    this.panels.set(key, entry);
    const n = nonce();
    panel.webview.html = resultsHtml({
      cspSource: panel.webview.cspSource,
      nonce: n,
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'results.js')).toString(),
      title,
    });
    panel.webview.onDidReceiveMessage((m: FromWebview) => this.receive(panel, entry, m));
    panel.onDidDispose(() => this.panels.delete(key));
  }

  private async receive(panel: vscode.WebviewPanel, entry: { data: ElementResults; title: string }, m: FromWebview) {
    if (m.type === 'ready') {
      // Sent when the page (re)loads, e.g. after the panel was hidden and shown again.
      await this.post(panel, { type: 'results', title: entry.title, data: entry.data });
    } else if (m.type === 'evaluate') {
      try {
        const r = await this.server.execute<EvaluateResult>(ServerCommand.evaluate, [
          { expression: m.expression, bindings: m.bindings },
        ]);
        await this.post(panel, { type: 'evaluated', requestId: m.requestId, values: r?.values ?? [] });
      } catch (e) {
        const error = e instanceof Error ? e.message : String(e);
        await this.post(panel, { type: 'evaluated', requestId: m.requestId, error });
      }
    }
  }

  private post(panel: vscode.WebviewPanel, m: ToWebview): Thenable<boolean> {
    return panel.webview.postMessage(m);
  }

  dispose(): void {
    for (const { panel } of this.panels.values()) panel.dispose();
    this.panels.clear();
  }
}
