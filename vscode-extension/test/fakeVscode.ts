// A small stand-in for the `vscode` module (aliased in vitest.config.ts): enough of the API for
// the command wiring, with every UI call recorded so the tests can assert on them.

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly path: string,
  ) {}
  static file(p: string): Uri {
    return new Uri('file', p);
  }
  static parse(s: string): Uri {
    const m = /^([a-z]+):\/\/(.*)$/.exec(s);
    return m ? new Uri(m[1], decodeURIComponent(m[2])) : new Uri('file', s);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, [base.path, ...parts].join('/'));
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `${this.scheme}://${encodeURI(this.path)}`;
  }
}

export enum FileType {
  Unknown = 0,
  File = 1,
  Directory = 2,
}
export enum QuickPickItemKind {
  Separator = -1,
  Default = 0,
}
export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}
export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
  Two = 2,
}
export enum TextEditorRevealType {
  Default = 0,
  InCenter = 1,
  InCenterIfOutsideViewport = 2,
}
export class Range {
  constructor(
    readonly startLine: number,
    readonly startCharacter: number,
    readonly endLine: number,
    readonly endCharacter: number,
  ) {}
}

type Listener<T> = (e: T) => unknown;
/** An event source like vscode.EventEmitter's `event`, with `fire` for the tests. */
function emitter<T>() {
  const listeners = new Set<Listener<T>>();
  const event = (l: Listener<T>) => {
    listeners.add(l);
    return { dispose: () => listeners.delete(l) };
  };
  return Object.assign(event, { fire: (e: T) => listeners.forEach((l) => l(e)) });
}

/** A webview panel that records what the extension posts; `receive` plays the webview's side. */
export class FakePanel {
  readonly posted: unknown[] = [];
  title: string;
  viewColumn: ViewColumn | undefined = ViewColumn.Two;
  disposed = false;
  private readonly received = emitter<unknown>();
  private readonly disposedEvent = emitter<void>();
  readonly webview = {
    html: '',
    cspSource: 'vscode-resource:',
    asWebviewUri: (u: Uri) => u,
    postMessage: async (m: unknown) => (this.posted.push(m), true),
    onDidReceiveMessage: this.received,
  };
  readonly onDidDispose = this.disposedEvent;
  constructor(
    readonly viewType: string,
    title: string,
    readonly options: unknown,
  ) {
    this.title = title;
  }
  reveal() {
    record('panel.reveal', [this.title]);
  }
  receive(m: unknown) {
    this.received.fire(m);
  }
  dispose() {
    this.disposed = true;
    this.disposedEvent.fire();
  }
}

export interface FakeDocument {
  uri: Uri;
  languageId: string;
  text?: string;
}

/** Everything the fake records, and the state the tests set up. Reset with `reset()`. */
export const fake = {
  calls: [] as { api: string; args: unknown[] }[],
  registered: new Map<string, (...args: unknown[]) => unknown>(),
  activeEditor: undefined as undefined | { document: FakeDocument; selection: { active: { line: number; character: number } } },
  directories: new Set<string>(),
  files: [] as Uri[],
  documents: new Map<string, string>(),
  quickPick: (items: unknown[]) => items[0] as unknown,
  messageChoice: undefined as string | undefined,
  statusItems: [] as { id: string; text: string; tooltip: string; command?: string; shown: boolean }[],
  config: {} as Record<string, unknown>,
  trusted: true,
  workspaceFolders: undefined as undefined | { uri: Uri }[],
  fileContents: new Map<string, string>(),
  output: [] as string[],
  panels: [] as FakePanel[],
  visibleEditors: [] as { document: { uri: Uri }; viewColumn: ViewColumn }[],
};

export function reset(): void {
  fake.calls = [];
  fake.registered.clear();
  fake.activeEditor = undefined;
  fake.directories.clear();
  fake.files = [];
  fake.documents.clear();
  fake.quickPick = (items) => items[0];
  fake.messageChoice = undefined;
  fake.statusItems = [];
  fake.config = {};
  fake.trusted = true;
  fake.workspaceFolders = undefined;
  fake.fileContents.clear();
  fake.output = [];
  fake.panels = [];
  fake.visibleEditors = [];
}

/** Fired by the tests: a document changed, the cursor moved in an editor. */
export const events = {
  documentChanged: emitter<{ document: { uri: Uri } }>(),
  selectionChanged: emitter<{ textEditor: { document: { uri: Uri } }; selections: { active: { line: number; character: number } }[] }>(),
};

function record(api: string, args: unknown[]) {
  fake.calls.push({ api, args });
}

export function messages(kind?: 'info' | 'warning' | 'error'): string[] {
  const api = { info: 'showInformationMessage', warning: 'showWarningMessage', error: 'showErrorMessage' };
  return fake.calls
    .filter((c) => (kind ? c.api === api[kind] : Object.values(api).includes(c.api)))
    .map((c) => c.args[0] as string);
}

export const window = {
  get activeTextEditor() {
    return fake.activeEditor;
  },
  showInformationMessage: async (...args: unknown[]) => (record('showInformationMessage', args), fake.messageChoice),
  showWarningMessage: async (...args: unknown[]) => (record('showWarningMessage', args), undefined),
  showErrorMessage: async (...args: unknown[]) => (record('showErrorMessage', args), undefined),
  showTextDocument: async (...args: unknown[]) => {
    record('showTextDocument', args);
    return { revealRange: (...a: unknown[]) => record('revealRange', a) };
  },
  get visibleTextEditors() {
    return fake.visibleEditors;
  },
  createWebviewPanel: (viewType: string, title: string, ...options: unknown[]) => {
    const panel = new FakePanel(viewType, title, options);
    fake.panels.push(panel);
    return panel;
  },
  onDidChangeTextEditorSelection: events.selectionChanged,
  showQuickPick: async (items: unknown[], options?: unknown) => {
    record('showQuickPick', [items, options]);
    return fake.quickPick(items);
  },
  createOutputChannel: () => ({
    appendLine: (line: string) => void fake.output.push(line),
    show: () => record('output.show', []),
    dispose: () => {},
  }),
  createStatusBarItem: (id: string) => {
    const item = { id, text: '', tooltip: '', command: undefined as string | undefined, shown: false, name: '',
      show() { item.shown = true; }, dispose() {} };
    fake.statusItems.push(item);
    return item;
  },
};

export const workspace = {
  fs: {
    stat: async (uri: Uri) => ({ type: fake.directories.has(uri.path) ? FileType.Directory : FileType.File }),
    readFile: async (uri: Uri) => new TextEncoder().encode(fake.fileContents.get(uri.path) ?? ''),
  },
  getConfiguration: () => ({ get: (key: string) => fake.config[key] }),
  get isTrusted() {
    return fake.trusted;
  },
  get workspaceFolders() {
    return fake.workspaceFolders;
  },
  findFiles: async () => fake.files,
  onDidChangeTextDocument: events.documentChanged,
  asRelativePath: (u: Uri) => u.path,
  openTextDocument: async (uri: Uri) => {
    record('openTextDocument', [uri]);
    return { uri, getText: () => fake.documents.get(uri.toString()) ?? '' };
  },
};

export const commands = {
  registerCommand: (id: string, handler: (...args: unknown[]) => unknown) => {
    fake.registered.set(id, handler);
    return { dispose: () => fake.registered.delete(id) };
  },
  executeCommand: async (...args: unknown[]) => (record('executeCommand', args), undefined),
};
