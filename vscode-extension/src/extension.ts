// Entry point: wires the client, the commands, the status bar and the results view together,
// and restarts the server when the settings or the workspace's trust change.

import * as vscode from 'vscode';
import { MessageType } from 'vscode-languageclient/node';
import { BeagleClient } from './client';
import { Command, Commands } from './commands';
import { doneLabel } from './pcmText';
import { ResultsPanels } from './resultsPanel';
import { StatusBar } from './statusBar';

let client: BeagleClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const statusBar = new StatusBar(Command.showStatus);
  let commands: Commands | undefined;
  client = new BeagleClient(context, {
    onStatus: (s) => statusBar.update(s),
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
  commands = new Commands({
    server,
    results,
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
    server,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('beagle')) void server.restart();
    }),
    // Granting trust changes the launch policy (deny -> the beagle.trust setting).
    vscode.workspace.onDidGrantWorkspaceTrust(() => void server.restart()),
  );
  await server.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
