// Entry point: wires the client, the commands, the status bar, the results view and the diagrams
// together, and restarts the server when the settings or the workspace's trust change.

import * as vscode from 'vscode';
import { MessageType } from 'vscode-languageclient/node';
import { BeagleClient } from './client';
import { Command, Commands } from './commands';
import { LayoutThread } from './diagram/layoutThread';
import { DiagramPanels } from './diagramPanel';
import { doneLabel } from './pcmText';
import { ResultsPanels } from './resultsPanel';
import { StatusBar } from './statusBar';

let client: BeagleClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const statusBar = new StatusBar(Command.showStatus);
  let commands: Commands | undefined;
  let diagrams: DiagramPanels | undefined;
  client = new BeagleClient(context, {
    onStatus: (s) => {
      statusBar.update(s);
      diagrams?.statusChanged();
    },
    onStopped: (reason) => statusBar.stopped(reason),
    onShowMessage: (type, message) => {
      const label = type === MessageType.Info || type === MessageType.Log ? doneLabel(message) : null;
      if (label === null || !commands) return false;
      void commands.offerResults(message, label);
      return true;
    },
  });
  const server = client;
  const results = new ResultsPanels(context.extensionUri, server);
  const log = (line: string) => server.output.appendLine(line);
  const layouts = new LayoutThread(vscode.Uri.joinPath(context.extensionUri, 'dist', 'layoutWorker.js').fsPath, { log });
  diagrams = new DiagramPanels(
    context.extensionUri,
    server,
    { run: (action, uri, id, name) => commands!.runDiagramAction(action, uri, id, name) },
    layouts,
    log,
  );
  commands = new Commands({
    server,
    results,
    diagrams,
    restartServer: async () => {
      await server.restart();
    },
    showStatus: (s) => statusBar.update(s),
    showLog: () => server.output.show(),
  });
  commands.register(context);
  context.subscriptions.push(
    statusBar,
    results,
    diagrams,
    layouts,
    server,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('beagle')) void server.restart();
    }),
    // Granting trust changes the launch policy (deny -> the beagle.trust setting).
    vscode.workspace.onDidGrantWorkspaceTrust(() => void server.restart()),
  );
  await server.start();
  // ELK's first layouts are several times slower than later ones (layoutWorker.ts): the layout
  // thread loads ELK and warms it up in the background (about a second of one core), once the
  // server has started.
  const warmUp = setTimeout(() => layouts.warmUp(), WARM_UP_DELAY_MS);
  context.subscriptions.push({ dispose: () => clearTimeout(warmUp) });
}

const WARM_UP_DELAY_MS = 2000;

export async function deactivate(): Promise<void> {
  await client?.stop();
}
