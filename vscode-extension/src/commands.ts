// The extension's commands (beagle.vscode.*) and what each one asks of the server. The server's
// own ids (beagle.*) are registered by vscode-languageclient; ours wrap them because explorer and
// editor menus hand over a vscode.Uri (the server wants a string, and a didOpen for files) and
// because component/action commands work on the element at the cursor (beagle.elementAt).

import * as vscode from 'vscode';
import { errorText } from './errorText';
import { componentsIn } from './pcmText';
import {
  ServerCommand,
  type DiagramAction,
  type ElementAt,
  type ElementResults,
  type QueuedJob,
  type StatusPayload,
  type TextPosition,
} from './protocol';
import type { ServerCommands } from './serverCommands';
import type { DiagramView, ResultsView } from './views';

export const Command = {
  analyseRepository: 'beagle.vscode.analyseRepository',
  analyseComponent: 'beagle.vscode.analyseComponent',
  analyseAction: 'beagle.vscode.analyseAction',
  analyseWorkspace: 'beagle.vscode.analyseWorkspace',
  pause: 'beagle.vscode.pause',
  resume: 'beagle.vscode.resume',
  abort: 'beagle.vscode.abort',
  applyResults: 'beagle.vscode.applyResults',
  discardResults: 'beagle.vscode.discardResults',
  showStatus: 'beagle.vscode.showStatus',
  linkToCode: 'beagle.vscode.linkToCode',
  showResults: 'beagle.vscode.showResults',
  restartServer: 'beagle.vscode.restartServer',
  showSeffDiagram: 'beagle.vscode.showSeffDiagram',
} as const;
export type CommandId = (typeof Command)[keyof typeof Command];

/** What a queued job analyses, so its "done" message can offer that element's results. */
export interface JobTarget {
  uri: string;
  id: string | null;
  name: string | null;
}

export interface CommandDeps {
  server: ServerCommands;
  results: ResultsView;
  restartServer(): Promise<void>;
  showStatus?(status: StatusPayload): void; // updates the status bar with a fresh beagle.status
  showLog?(): void;
  diagrams?: DiagramView;
}

const PCM_LANGUAGES = ['pcm-repository', 'pcm-system', 'pcm-usagemodel', 'pcm-allocation', 'pcm-resourceenvironment'];

/** The command handlers, by command id; also used by the unit tests with a fake `vscode`. */
export class Commands {
  /** Queued jobs by label (the server's "done" message names the label). */
  readonly jobs = new Map<string, JobTarget>();

  constructor(private readonly deps: CommandDeps) {}

  handlers(): Record<CommandId, (...args: unknown[]) => Promise<unknown>> {
    const guard =
      (what: string, f: (...args: unknown[]) => Promise<unknown>) =>
      async (...args: unknown[]) => {
        try {
          return await f(...args);
        } catch (e) {
          void vscode.window.showErrorMessage(`Beagle: ${what} failed: ${errorText(e)}`);
          return undefined;
        }
      };
    return {
      [Command.analyseRepository]: guard('Analyse Repository', (a, b) => this.analyseRepository(a, b)),
      [Command.analyseComponent]: guard('Analyse Component', () => this.analyseComponent()),
      [Command.analyseAction]: guard('Analyse Internal Action', () => this.analyseAction()),
      [Command.analyseWorkspace]: guard('Analyse Workspace', () => this.analyseWorkspace()),
      [Command.pause]: guard('Pause Analysis', () => this.control(ServerCommand.pause)),
      [Command.resume]: guard('Resume Analysis', () => this.control(ServerCommand.resume)),
      [Command.abort]: guard('Abort Analysis', () => this.control(ServerCommand.abort)),
      [Command.applyResults]: guard('Apply Results', (a) => this.onResults(ServerCommand.applyResults, a)),
      [Command.discardResults]: guard('Discard Results', (a) => this.onResults(ServerCommand.discardResults, a)),
      [Command.showStatus]: guard('Show Status', () => this.showStatus()),
      [Command.linkToCode]: guard('Link Element to Code', () => this.linkToCode()),
      [Command.showResults]: guard('Show Results', () => this.showResults()),
      [Command.restartServer]: guard('Restart Server', () => this.deps.restartServer()),
      [Command.showSeffDiagram]: guard('Show SEFF Diagram', (a, b) => this.showSeffDiagram(a, b)),
    };
  }

  register(context: { subscriptions: { dispose(): unknown }[] }): void {
    for (const [id, handler] of Object.entries(this.handlers())) {
      context.subscriptions.push(vscode.commands.registerCommand(id, handler));
    }
  }

  // --- analyses -----------------------------------------------------------------------------

  private async analyseRepository(arg?: unknown, selection?: unknown): Promise<unknown> {
    // The explorer passes the clicked Uri and, with several selected, all of them.
    let targets: vscode.Uri[] = [];
    if (Array.isArray(selection) && selection.every((u) => u instanceof vscode.Uri) && selection.length > 0) {
      targets = selection as vscode.Uri[];
    } else if (arg instanceof vscode.Uri) {
      targets = [arg];
    } else {
      const doc = vscode.window.activeTextEditor?.document;
      if (doc && (PCM_LANGUAGES.includes(doc.languageId) || doc.uri.path.endsWith('/beagle.toml'))) {
        targets = [doc.uri];
      } else {
        const picked = await this.pickRepositoryFile();
        if (!picked) return undefined;
        targets = [picked];
      }
    }
    let last: unknown;
    for (const uri of targets) {
      await this.openIfFile(uri);
      last = await this.queue(ServerCommand.analyseRepository, [uri.toString()], { uri: uri.toString(), id: null, name: null });
    }
    return last;
  }

  private async analyseComponent(): Promise<unknown> {
    const at = await this.elementAtCursor();
    if (!at) return undefined;
    const { uri, element } = at;
    const id = element?.kind === 'component' ? element.id : (element?.component ?? null);
    if (!element || !id) {
      void vscode.window.showInformationMessage(
        'Beagle: the cursor is not inside a component. Put it in a component (or one of its SEFFs or actions) and try again.',
      );
      return undefined;
    }
    const name = element.kind === 'component' ? element.name : element.componentName;
    return this.queue(ServerCommand.analyseComponent, [uri, id], { uri, id, name });
  }

  private async analyseAction(): Promise<unknown> {
    const at = await this.elementAtCursor();
    if (!at) return undefined;
    const { uri, element } = at;
    if (!element || !element.id || (element.kind !== 'action' && element.kind !== 'seff')) {
      void vscode.window.showInformationMessage(
        'Beagle: the cursor is not inside an internal action or SEFF. Put it in one and try again.',
      );
      return undefined;
    }
    return this.analyseElement(uri, element.id, element.name);
  }

  /** Queues the analysis of one action or SEFF (the editor menu, a diagram's node menu). */
  analyseElement(uri: string, id: string, name: string | null): Promise<unknown> {
    return this.queue(ServerCommand.analyseAction, [uri, id], { uri, id, name });
  }

  private async analyseWorkspace(): Promise<unknown> {
    const r = await this.deps.server.execute<{ queued?: QueuedJob[]; problems?: string[] }>(ServerCommand.analyseWorkspace, []);
    for (const job of r?.queued ?? []) this.jobs.set(job.label, { uri: '', id: null, name: null });
    if (r?.problems && r.problems.length > 0) {
      void vscode.window.showWarningMessage(`Beagle: ${r.problems.join('; ')}`);
    }
    return r;
  }

  private async queue(command: string, args: unknown[], target: JobTarget): Promise<unknown> {
    const r = await this.deps.server.execute<QueuedJob>(command, args);
    if (r && typeof r.label === 'string') {
      this.jobs.set(r.label, target);
      if (r.ahead > 0) {
        void vscode.window.showInformationMessage(
          `Beagle: ${r.label} is queued, ${r.ahead} ${r.ahead === 1 ? 'analysis' : 'analyses'} ahead.`,
        );
      }
    }
    return r;
  }

  private async control(command: string): Promise<unknown> {
    const r = await this.deps.server.execute<{ running?: boolean; paused?: boolean }>(command, []);
    if (r && r.running === false) {
      const what =
        command === ServerCommand.pause
          ? 'no analysis is running; queued analyses wait until you resume.'
          : command === ServerCommand.resume
            ? 'no analysis is running; queued analyses run again.'
            : 'no analysis is running.';
      void vscode.window.showInformationMessage(`Beagle: ${what}`);
    }
    return r;
  }

  // --- results ------------------------------------------------------------------------------

  private async onResults(command: string, arg?: unknown): Promise<unknown> {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    if (!uri) {
      void vscode.window.showInformationMessage('Beagle: open a PCM repository first.');
      return undefined;
    }
    await this.openIfFile(uri);
    const r = await this.deps.server.execute<Record<string, unknown>>(command, [uri.toString()]);
    const count = r?.applied ?? r?.discarded;
    const verb = command === ServerCommand.applyResults ? 'applied' : 'discarded';
    if (typeof count === 'number') {
      void vscode.window.showInformationMessage(`Beagle: ${count} ${count === 1 ? 'result' : 'results'} ${verb}.`);
    } else if (count === false) {
      void vscode.window.showInformationMessage(`Beagle: no results to ${verb === 'applied' ? 'apply' : 'discard'}.`);
    }
    return r;
  }

  private async showResults(): Promise<unknown> {
    const at = await this.elementAtCursor();
    if (!at) return undefined;
    const { uri, element } = at;
    if (element && element.id && (element.kind === 'action' || element.kind === 'seff' || element.kind === 'component')) {
      return this.showResultsFor(uri, element.id, element.name);
    }
    if (element?.component) return this.showResultsFor(uri, element.component, element.componentName);
    return this.showRepositoryResults(uri);
  }

  /** Opens the results view of an element (action, SEFF or component). */
  async showResultsFor(uri: string, id: string, name: string | null): Promise<ElementResults> {
    const data = await this.deps.server.execute<ElementResults>(ServerCommand.elementResults, [uri, id]);
    this.deps.results.show(`${uri}#${id}`, `Beagle Results: ${data?.name ?? name ?? id}`, data);
    return data;
  }

  /** No element at the cursor (or a whole repository was analysed): choose a component. */
  private async showRepositoryResults(uri: string): Promise<unknown> {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
    const components = componentsIn(doc.getText());
    if (components.length === 0) {
      void vscode.window.showInformationMessage('Beagle: the cursor is not inside a component, SEFF or action, and the file has no components.');
      return undefined;
    }
    const chosen =
      components.length === 1
        ? components[0]
        : (await vscode.window.showQuickPick(
            components.map((c) => ({ label: c.name, description: c.id, c })),
            { placeHolder: 'Beagle: results of which component?' },
          ))?.c;
    return chosen ? this.showResultsFor(uri, chosen.id, chosen.name) : undefined;
  }

  /** The server said "Beagle: <label> done: ...": offer the results of what was analysed. */
  async offerResults(message: string, label: string): Promise<void> {
    const target = this.jobs.get(label);
    const choice = await vscode.window.showInformationMessage(message, 'Show Results');
    if (choice !== 'Show Results') return;
    try {
      if (target?.id) await this.showResultsFor(target.uri, target.id, target.name);
      else if (target?.uri && !target.uri.endsWith('beagle.toml') && /\.repository$/.test(target.uri)) await this.showRepositoryResults(target.uri);
      else await this.showResults();
    } catch (e) {
      void vscode.window.showErrorMessage(`Beagle: Show Results failed: ${errorText(e)}`);
    }
  }

  // --- other --------------------------------------------------------------------------------

  private async linkToCode(): Promise<unknown> {
    const at = await this.elementAtCursor();
    if (!at) return undefined;
    const { uri, element } = at;
    if (!element || !element.id || element.kind === 'repository') {
      void vscode.window.showInformationMessage('Beagle: the cursor is not inside a component, SEFF or action to link.');
      return undefined;
    }
    return this.linkElement(uri, element.id, element.name);
  }

  /** Proposes a link entry for one element (the editor menu, a diagram's node menu). */
  async linkElement(uri: string, id: string, name: string | null): Promise<unknown> {
    const r = await this.deps.server.execute<{ applied?: boolean; file?: string }>(ServerCommand.linkToCode, [uri, id]);
    if (r?.applied && r.file) {
      void vscode.window.showInformationMessage(`Beagle: ${name ?? id} is linked in ${r.file}; edit the proposed entry there.`);
    }
    return r;
  }

  /** A diagram node's context menu. */
  runDiagramAction(action: DiagramAction, uri: string, id: string, name: string | null): Promise<unknown> {
    if (action === 'analyse') return this.analyseElement(uri, id, name);
    if (action === 'results') return this.showResultsFor(uri, id, name);
    return this.linkElement(uri, id, name);
  }

  // --- diagrams -----------------------------------------------------------------------------

  /** From a code lens: [uri, seffId]; from the explorer: the file's Uri and the selection (the
   * repository overview); from the editor's menu (its document's Uri) or the palette: the SEFF
   * around the cursor, else the overview. */
  private async showSeffDiagram(arg?: unknown, seff?: unknown): Promise<unknown> {
    const diagrams = this.deps.diagrams;
    if (!diagrams) return undefined;
    if (typeof arg === 'string' && typeof seff === 'string') return diagrams.showSeff(arg, seff);
    const editor = vscode.window.activeTextEditor;
    const inEditor = arg instanceof vscode.Uri && !Array.isArray(seff) && editor?.document.uri.toString() === arg.toString();
    if (arg instanceof vscode.Uri && !inEditor) {
      await this.openIfFile(arg);
      return diagrams.showRepository(arg.toString());
    }
    const at = await this.elementAtCursor();
    if (!at) return undefined;
    const { uri, element } = at;
    // beagle.elementAt names the SEFF holding the action at the cursor (or the SEFF itself).
    return element?.seff ? diagrams.showSeff(uri, element.seff) : diagrams.showRepository(uri);
  }

  private async showStatus(): Promise<unknown> {
    const s = await this.deps.server.execute<StatusPayload>(ServerCommand.status, []);
    this.deps.showStatus?.(s);
    type Item = vscode.QuickPickItem & { run?: () => unknown };
    const items: Item[] = [];
    if (s?.running) {
      const pct = s.running.percentage === null ? '' : ` ${Math.round(s.running.percentage)} %`;
      items.push({
        label: `$(${s.running.paused || s.paused ? 'debug-pause' : 'sync'}) ${s.running.label}${pct}`,
        detail: s.running.message ?? undefined,
      });
    } else {
      items.push({ label: s?.paused ? '$(debug-pause) The queue is paused' : '$(beaker) No analysis running', detail: s?.last ?? undefined });
    }
    for (const q of s?.queued ?? []) items.push({ label: `$(clock) queued: ${q.label}` });
    for (const r of s?.results ?? []) {
      items.push({
        label: `$(graph) ${r.repository.split(/[\\/]/).pop()}`,
        description: `${r.results} results${r.stage ? `, ${r.stage}` : ''}`,
        detail: r.headline,
        run: async () => vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(r.repository))),
      });
    }
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
    const run = (id: CommandId) => () => vscode.commands.executeCommand(id);
    if (s?.running && !(s.running.paused || s.paused)) items.push({ label: '$(debug-pause) Pause Analysis', run: run(Command.pause) });
    if (s?.running?.paused || s?.paused) items.push({ label: '$(debug-continue) Resume Analysis', run: run(Command.resume) });
    if (s?.running) items.push({ label: '$(debug-stop) Abort Analysis', run: run(Command.abort) });
    if (vscode.window.activeTextEditor?.document.languageId === 'pcm-repository') {
      items.push({ label: '$(graph-line) Show Results', run: run(Command.showResults) });
    }
    items.push({ label: '$(run-all) Analyse Workspace', run: run(Command.analyseWorkspace) });
    items.push({ label: '$(debug-restart) Restart Server', run: run(Command.restartServer) });
    if (this.deps.showLog) items.push({ label: '$(output) Show Log', run: () => this.deps.showLog?.() });
    const picked = await vscode.window.showQuickPick(items, { placeHolder: 'Beagle' });
    await picked?.run?.();
    return s;
  }

  // --- helpers ------------------------------------------------------------------------------

  /** The element at the cursor of the active editor (a PCM repository). */
  private async elementAtCursor(): Promise<{ uri: string; element: ElementAt | null; position: TextPosition } | undefined> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== 'pcm-repository') {
      void vscode.window.showInformationMessage('Beagle: open a PCM repository (.repository) and put the cursor in an element.');
      return undefined;
    }
    const uri = editor.document.uri.toString();
    const { line, character } = editor.selection.active;
    const element = await this.deps.server.execute<ElementAt | null>(ServerCommand.elementAt, [uri, { line, character }]);
    return { uri, element: element ?? null, position: { line, character } };
  }

  /** Files are opened first: the server works on open documents (didOpen). Opening is enough
   * (the language client syncs every open document, shown or not); showing it would cover
   * whatever the active editor group holds, the results view say. */
  private async openIfFile(uri: vscode.Uri): Promise<void> {
    let isFile = true;
    try {
      isFile = ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.Directory) === 0;
    } catch {
      // Unknown: let the server say what is wrong with it.
    }
    if (isFile) await vscode.workspace.openTextDocument(uri);
  }

  private async pickRepositoryFile(): Promise<vscode.Uri | undefined> {
    const files = await vscode.workspace.findFiles('**/*.repository', '**/{node_modules,target,.git}/**', 200);
    if (files.length === 0) {
      void vscode.window.showInformationMessage('Beagle: no .repository file in the workspace.');
      return undefined;
    }
    if (files.length === 1) return files[0];
    const picked = await vscode.window.showQuickPick(
      files.map((f) => ({ label: vscode.workspace.asRelativePath(f), f })),
      { placeHolder: 'Beagle: analyse which repository?' },
    );
    return picked?.f;
  }
}
