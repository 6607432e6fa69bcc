// The language client: finds the `beagle` binary, starts `beagle lsp --stdio` with the settings
// and the workspace's trust as initializationOptions, restarts on settings/trust changes, and
// says clearly what was tried when the server cannot start.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  ShowMessageNotification,
  MessageType,
  State,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { documentSelector } from './documentSelector';
import { linkFilesIn } from './pcmText';
import { STATUS_NOTIFICATION, ServerCommand, type StatusPayload } from './protocol';
import type { ServerCommands } from './serverCommands';
import { describeFailure, discover, nodeProbe } from './serverDiscovery';
import { initializationOptions, readSettings } from './settings';

export interface ClientHooks {
  onStatus(status: StatusPayload): void;
  onStopped(reason: string): void;
  /** The server's window/showMessage; return true when handled (e.g. a "done" with a button). */
  onShowMessage(type: MessageType, message: string): boolean;
}

export class BeagleClient implements ServerCommands, vscode.Disposable {
  private client: LanguageClient | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  readonly output: vscode.OutputChannel;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly hooks: ClientHooks,
  ) {
    this.output = vscode.window.createOutputChannel('Beagle');
  }

  /** Starts, stops and restarts run one after the other, never interleaved. */
  private serial<T>(f: () => Promise<T>): Promise<T> {
    const next = this.chain.then(f, f);
    this.chain = next.catch(() => undefined);
    return next;
  }

  start(): Promise<boolean> {
    return this.serial(() => this.doStart());
  }

  stop(): Promise<void> {
    return this.serial(() => this.doStop());
  }

  restart(): Promise<boolean> {
    return this.serial(async () => {
      await this.doStop();
      return this.doStart();
    });
  }

  get running(): boolean {
    return this.client?.state === State.Running;
  }

  async execute<T = unknown>(command: string, args: unknown[]): Promise<T> {
    await this.chain; // a (re)start in progress finishes first
    const client = this.client;
    if (!client || client.state !== State.Running) {
      throw new Error('the language server is not running (run "Beagle: Restart Server", or see the Beagle output)');
    }
    return (await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args })) as T;
  }

  private async doStart(): Promise<boolean> {
    const config = vscode.workspace.getConfiguration('beagle');
    const settings = readSettings((k) => config.get(k));
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    this.ensureShippedExecutable();
    const found = discover(settings.serverPath, {
      platform: process.platform,
      arch: process.arch,
      extensionPath: this.context.extensionPath,
      pathVariable: process.env.PATH,
      homeDir: os.homedir(),
      workspaceFolder: folder,
      probe: nodeProbe(fs, process.platform),
    });
    if (!found.found) {
      const text = describeFailure(found);
      this.output.appendLine(text);
      for (const t of found.tried) this.output.appendLine(`  tried ${t.path} (${t.source}): ${t.problem}`);
      this.hooks.onStopped(text);
      void this.showStartError(text);
      return false;
    }
    const command = found.found.path;
    const trusted = vscode.workspace.isTrusted;
    const serverOptions: ServerOptions = {
      // TransportKind.stdio adds --stdio, which `beagle lsp` accepts.
      run: { command, args: ['lsp'], transport: TransportKind.stdio },
      debug: { command, args: ['lsp'], transport: TransportKind.stdio },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: documentSelector(await this.linkFiles()),
      initializationOptions: initializationOptions(settings, trusted),
      outputChannel: this.output,
    };
    const client = new LanguageClient('beagle', 'Beagle', serverOptions, clientOptions);
    client.onNotification(STATUS_NOTIFICATION, (p: StatusPayload) => this.hooks.onStatus(p));
    // Registered before start, so it replaces the client's default showMessage handler: the
    // extension adds "Show Results" to the "done" messages and shows the rest as before.
    client.onNotification(ShowMessageNotification.type, ({ type, message }) => {
      if (this.hooks.onShowMessage(type, message)) return;
      if (type === MessageType.Error) void vscode.window.showErrorMessage(message);
      else if (type === MessageType.Warning) void vscode.window.showWarningMessage(message);
      else void vscode.window.showInformationMessage(message);
    });
    client.onDidChangeState((e) => {
      if (e.newState === State.Stopped && this.client === client) this.hooks.onStopped('Beagle: the language server stopped');
    });
    this.client = client;
    this.output.appendLine(`Starting ${command} lsp --stdio (${found.found.source}; launch policy ${initializationOptions(settings, trusted).launchPolicy})`);
    try {
      await client.start();
    } catch (e) {
      const text = `Beagle: the language server ${command} (from ${found.found.source === 'setting' ? 'the setting beagle.serverPath' : found.found.source === 'shipped' ? 'the extension' : 'PATH'}) could not start: ${e instanceof Error ? e.message : String(e)}`;
      this.output.appendLine(text);
      this.hooks.onStopped(text);
      void this.showStartError(text);
      try {
        await client.dispose(2000);
      } catch {
        // It never ran; nothing to stop.
      }
      if (this.client === client) this.client = undefined;
      return false;
    }
    try {
      // Not this.execute: that waits for the start in progress, which is this one.
      const status = await client.sendRequest(ExecuteCommandRequest.type, { command: ServerCommand.status, arguments: [] });
      this.hooks.onStatus(status as StatusPayload);
    } catch (e) {
      this.output.appendLine(`beagle.status at start failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    return true;
  }

  /** Some vsix installs drop the executable bit; give it back to the shipped binary. */
  private ensureShippedExecutable(): void {
    const shipped = path.join(this.context.extensionPath, 'server', `${process.platform}-${process.arch}`, 'beagle');
    if (process.platform === 'win32' || !fs.existsSync(shipped)) return;
    try {
      fs.accessSync(shipped, fs.constants.X_OK);
    } catch {
      try {
        fs.chmodSync(shipped, 0o755);
      } catch {
        // Discovery reports it as not executable.
      }
    }
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    try {
      if (client.isRunning()) await client.stop(5000);
      await client.dispose(2000);
    } catch (e) {
      this.output.appendLine(`Stopping the server: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private async showStartError(text: string): Promise<void> {
    const choice = await vscode.window.showErrorMessage(text, 'Open Settings', 'Show Log');
    if (choice === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', 'beagle.serverPath');
    else if (choice === 'Show Log') this.output.show();
  }

  /** The link files the workspace's beagle.toml files name, so the server gets them too. */
  private async linkFiles(): Promise<string[]> {
    const out: string[] = [];
    try {
      const tomls = await vscode.workspace.findFiles('**/beagle.toml', '**/{node_modules,target,.git}/**', 50);
      for (const t of tomls) {
        const text = Buffer.from(await vscode.workspace.fs.readFile(t)).toString('utf8');
        for (const f of linkFilesIn(text)) out.push(path.resolve(path.dirname(t.fsPath), f));
      }
    } catch (e) {
      this.output.appendLine(`Reading beagle.toml files: ${e instanceof Error ? e.message : String(e)}`);
    }
    return out;
  }

  dispose(): void {
    void this.stop();
    this.output.dispose();
  }
}
