import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { Command, Commands, type CommandDeps } from '../src/commands';
import type { ElementAt, ElementResults } from '../src/protocol';
import { DIAGRAM_COMMAND } from '../src/settings';
import { Uri, fake, messages, reset } from './fakeVscode';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const REPO = Uri.file('/ws/model/files.repository');

/** A fake server: records executeCommand calls and answers from a table. */
function setup(answers: Record<string, (args: unknown[]) => unknown> = {}) {
  const sent: { command: string; args: unknown[] }[] = [];
  const shown: { key: string; title: string; data: ElementResults }[] = [];
  const diagrams: string[][] = [];
  let restarts = 0;
  const deps: CommandDeps = {
    server: {
      execute: async <T,>(command: string, args: unknown[]) => {
        sent.push({ command, args });
        const a = answers[command];
        if (a) return a(args) as T;
        return { queued: true, job: 1, ahead: 0, label: 'files.repository' } as T;
      },
    },
    results: { show: (key, title, data) => void shown.push({ key, title, data }) },
    restartServer: async () => void restarts++,
    diagrams: {
      showSeff: async (uri, seff) => void diagrams.push(['seff', uri, seff]),
      showRepository: async (uri) => void diagrams.push(['repository', uri]),
    },
  };
  const commands = new Commands(deps);
  commands.register({ subscriptions: [] });
  const run = (id: string, ...args: unknown[]) => fake.registered.get(id)!(...args);
  return { sent, shown, diagrams, commands, run, restarts: () => restarts };
}

function cursorIn(uri = REPO, line = 12, character = 8, languageId = 'pcm-repository') {
  fake.activeEditor = { document: { uri, languageId }, selection: { active: { line, character } } };
}

const element = (e: Partial<ElementAt>): ElementAt => ({
  kind: 'other',
  actionKind: null,
  id: null,
  name: null,
  component: null,
  componentName: null,
  seff: null,
  ...e,
});

beforeEach(reset);

describe('contributed commands', () => {
  const contributed: string[] = pkg.contributes.commands.map((c: { command: string }) => c.command);

  it('every contributed command has a handler and every handler is contributed', () => {
    setup();
    expect([...fake.registered.keys()].sort()).toEqual([...contributed].sort());
  });

  it('has the titles of the contract', () => {
    const titles = Object.fromEntries(pkg.contributes.commands.map((c: { command: string; title: string }) => [c.command, c.title]));
    expect(titles).toEqual({
      'beagle.vscode.analyseRepository': 'Beagle: Analyse Repository',
      'beagle.vscode.analyseComponent': 'Beagle: Analyse Component',
      'beagle.vscode.analyseAction': 'Beagle: Analyse Internal Action',
      'beagle.vscode.analyseWorkspace': 'Beagle: Analyse Workspace',
      'beagle.vscode.pause': 'Beagle: Pause Analysis',
      'beagle.vscode.resume': 'Beagle: Resume Analysis',
      'beagle.vscode.abort': 'Beagle: Abort Analysis',
      'beagle.vscode.applyResults': 'Beagle: Apply Results',
      'beagle.vscode.discardResults': 'Beagle: Discard Results',
      'beagle.vscode.showStatus': 'Beagle: Show Status',
      'beagle.vscode.linkToCode': 'Beagle: Link Element to Code',
      'beagle.vscode.showResults': 'Beagle: Show Results',
      'beagle.vscode.restartServer': 'Beagle: Restart Server',
      'beagle.vscode.showSeffDiagram': 'Beagle: Show SEFF Diagram',
    });
  });

  it('never registers a server command id (vscode-languageclient does that)', () => {
    for (const id of contributed) expect(id.startsWith('beagle.vscode.')).toBe(true);
  });

  it('activates on every command, language and workspace marker', () => {
    const events: string[] = pkg.activationEvents;
    for (const id of contributed) expect(events).toContain(`onCommand:${id}`);
    for (const l of pkg.contributes.languages) expect(events).toContain(`onLanguage:${l.id}`);
    expect(events).toContain('workspaceContains:**/beagle.toml');
    expect(events).toContain('workspaceContains:**/*.repository');
  });

  it('puts Analyse Repository and the diagram in the explorer and the cursor commands in the repository editor menu', () => {
    const explorer = pkg.contributes.menus['explorer/context'];
    expect(explorer.map((m: { command: string }) => m.command)).toEqual([Command.analyseRepository, Command.showSeffDiagram]);
    expect(explorer[0].when).toContain('explorerResourceIsFolder');
    expect(explorer[0].when).toContain('repository');
    expect(explorer[1].when).toBe('resourceExtname == .repository');
    const editor = pkg.contributes.menus['editor/context'];
    for (const id of [Command.analyseComponent, Command.analyseAction, Command.showResults, Command.showSeffDiagram]) {
      const entry = editor.find((m: { command: string }) => m.command === id);
      expect(entry?.when).toBe('editorLangId == pcm-repository');
    }
  });
});

describe('analyse repository', () => {
  it('turns the explorer Uri into a string after opening the file, without showing it', async () => {
    const { sent, run } = setup();
    await run(Command.analyseRepository, REPO);
    expect(sent).toEqual([{ command: 'beagle.analyseRepository', args: ['file:///ws/model/files.repository'] }]);
    const open = fake.calls.findIndex((c) => c.api === 'openTextDocument');
    expect(fake.calls[open]?.args[0]).toBe(REPO);
    expect(fake.calls.some((c) => c.api === 'showTextDocument')).toBe(false);
  });

  it('does not open a folder, and passes its URI', async () => {
    const { sent, run } = setup();
    fake.directories.add('/ws/model');
    await run(Command.analyseRepository, Uri.file('/ws/model'));
    expect(fake.calls.some((c) => c.api === 'openTextDocument')).toBe(false);
    expect(sent[0].args).toEqual(['file:///ws/model']);
  });

  it('analyses every selected file of a multi-selection', async () => {
    const { sent, run } = setup();
    const other = Uri.file('/ws/b.repository');
    await run(Command.analyseRepository, REPO, [REPO, other]);
    expect(sent.map((s) => s.args[0])).toEqual([REPO.toString(), other.toString()]);
  });

  it('from the palette, uses the active PCM editor', async () => {
    const { sent, run } = setup();
    cursorIn();
    await run(Command.analyseRepository);
    expect(sent[0]).toEqual({ command: 'beagle.analyseRepository', args: [REPO.toString()] });
  });

  it('from the palette without an editor, asks which repository', async () => {
    const { sent, run } = setup();
    fake.files = [Uri.file('/ws/a.repository'), Uri.file('/ws/b.repository')];
    fake.quickPick = (items) => items[1];
    await run(Command.analyseRepository);
    expect(sent[0].args).toEqual(['file:///ws/b.repository']);
  });

  it('shows the server error of a failed command', async () => {
    const { run } = setup({
      'beagle.analyseRepository': () => {
        throw new Error('no beagle.toml above /ws/model/files.repository');
      },
    });
    await run(Command.analyseRepository, REPO);
    expect(messages('error')).toEqual(['Beagle: Analyse Repository failed: no beagle.toml above /ws/model/files.repository']);
  });

  it('says how many analyses are ahead when the job waits', async () => {
    const { run } = setup({ 'beagle.analyseRepository': () => ({ queued: true, job: 4, ahead: 2, label: 'files.repository' }) });
    await run(Command.analyseRepository, REPO);
    expect(messages('info')).toEqual(['Beagle: files.repository is queued, 2 analyses ahead.']);
  });
});

describe('commands at the cursor', () => {
  it('analyse component asks elementAt at the cursor and sends the enclosing component', async () => {
    const { sent, run } = setup({
      'beagle.elementAt': () => element({ kind: 'action', actionKind: 'InternalAction', id: 'act1', name: 'read', component: 'comp1', componentName: 'Files' }),
    });
    cursorIn(REPO, 12, 8);
    await run(Command.analyseComponent);
    expect(sent).toEqual([
      { command: 'beagle.elementAt', args: [REPO.toString(), { line: 12, character: 8 }] },
      { command: 'beagle.analyseComponent', args: [REPO.toString(), 'comp1'] },
    ]);
  });

  it('analyse component on the component itself sends its id', async () => {
    const { sent, run } = setup({ 'beagle.elementAt': () => element({ kind: 'component', id: 'comp2', name: 'Store' }) });
    cursorIn();
    await run(Command.analyseComponent);
    expect(sent[1]).toEqual({ command: 'beagle.analyseComponent', args: [REPO.toString(), 'comp2'] });
  });

  it('analyse component outside any component says so and sends nothing more', async () => {
    const { sent, run } = setup({ 'beagle.elementAt': () => element({ kind: 'repository', id: 'repo' }) });
    cursorIn();
    await run(Command.analyseComponent);
    expect(sent.map((s) => s.command)).toEqual(['beagle.elementAt']);
    expect(messages('info')[0]).toMatch(/not inside a component/);
  });

  it('analyse action sends the action or SEFF at the cursor', async () => {
    for (const kind of ['action', 'seff'] as const) {
      const { sent, run } = setup({ 'beagle.elementAt': () => element({ kind, id: `${kind}-id`, component: 'comp1' }) });
      cursorIn();
      await run(Command.analyseAction);
      expect(sent[1]).toEqual({ command: 'beagle.analyseAction', args: [REPO.toString(), `${kind}-id`] });
    }
  });

  it('analyse action outside an action says so', async () => {
    const { sent, run } = setup({ 'beagle.elementAt': () => null });
    cursorIn();
    await run(Command.analyseAction);
    expect(sent).toHaveLength(1);
    expect(messages('info')[0]).toMatch(/not inside an internal action or SEFF/);
  });

  it('cursor commands need a repository editor', async () => {
    const { sent, run } = setup();
    cursorIn(Uri.file('/ws/a.system'), 0, 0, 'pcm-system');
    await run(Command.analyseAction);
    expect(sent).toHaveLength(0);
    expect(messages('info')[0]).toMatch(/open a PCM repository/);
  });

  it('link to code sends the element at the cursor', async () => {
    const { sent, run } = setup({
      'beagle.elementAt': () => element({ kind: 'action', id: 'act1', name: 'read' }),
      'beagle.linkToCode': () => ({ applied: true, file: '/ws/links.toml', text: '...' }),
    });
    cursorIn();
    await run(Command.linkToCode);
    expect(sent[1]).toEqual({ command: 'beagle.linkToCode', args: [REPO.toString(), 'act1'] });
    expect(messages('info')[0]).toContain('/ws/links.toml');
  });

  it('show results fetches elementResults for the element at the cursor and opens the view', async () => {
    const data: ElementResults = { repository: '/ws/model/files.repository', stage: 'final', headline: null, name: 'read', results: [], unmodelled: [] };
    const { sent, shown, run } = setup({
      'beagle.elementAt': () => element({ kind: 'action', id: 'act1', name: 'read', component: 'comp1' }),
      'beagle.elementResults': () => data,
    });
    cursorIn();
    await run(Command.showResults);
    expect(sent[1]).toEqual({ command: 'beagle.elementResults', args: [REPO.toString(), 'act1'] });
    expect(shown).toEqual([{ key: `${REPO.toString()}#act1`, title: 'Beagle Results: read', data }]);
  });

  it('show results outside an element offers the file’s components', async () => {
    const data: ElementResults = { repository: '/ws/r', stage: null, headline: null, name: 'Store', results: [], unmodelled: [] };
    const { sent, shown, run } = setup({ 'beagle.elementAt': () => element({ kind: 'repository', id: 'r' }), 'beagle.elementResults': () => data });
    fake.documents.set(
      REPO.toString(),
      `<repository:Repository id="r"><components__Repository xsi:type="x" id="c1" entityName="Files"/>\n<components__Repository entityName="Store" id="c2"></components__Repository></repository:Repository>`,
    );
    fake.quickPick = (items) => items[1];
    cursorIn();
    await run(Command.showResults);
    expect(sent[1]).toEqual({ command: 'beagle.elementResults', args: [REPO.toString(), 'c2'] });
    expect(shown[0].title).toBe('Beagle Results: Store');
  });
});

describe('queue control and results', () => {
  it('pause, resume, abort and analyse workspace send no arguments', async () => {
    const { sent, run } = setup({
      'beagle.analyseWorkspace': () => ({ queued: [], problems: ['no beagle.toml in the workspace folders'] }),
    });
    await run(Command.pause);
    await run(Command.resume);
    await run(Command.abort);
    await run(Command.analyseWorkspace);
    expect(sent).toEqual([
      { command: 'beagle.pause', args: [] },
      { command: 'beagle.resume', args: [] },
      { command: 'beagle.abort', args: [] },
      { command: 'beagle.analyseWorkspace', args: [] },
    ]);
    expect(messages('warning')).toEqual(['Beagle: no beagle.toml in the workspace folders']);
  });

  it('says when there is nothing to abort', async () => {
    const { run } = setup({ 'beagle.abort': () => ({ running: false, paused: false }) });
    await run(Command.abort);
    expect(messages('info')).toEqual(['Beagle: no analysis is running.']);
  });

  it('apply and discard send the active document as a string, or an explorer Uri', async () => {
    const { sent, run } = setup({ 'beagle.applyResults': () => ({ applied: 3 }), 'beagle.discardResults': () => ({ discarded: true }) });
    cursorIn();
    await run(Command.applyResults);
    await run(Command.discardResults, Uri.file('/ws/b.repository'));
    expect(sent).toEqual([
      { command: 'beagle.applyResults', args: [REPO.toString()] },
      { command: 'beagle.discardResults', args: ['file:///ws/b.repository'] },
    ]);
    expect(messages('info')).toEqual(['Beagle: 3 results applied.']);
  });

  it('show status asks beagle.status and runs the chosen action', async () => {
    const { sent, run } = setup({
      'beagle.status': () => ({
        running: { id: 1, label: 'files.repository', paused: false, percentage: 10, message: 'm' },
        queued: [],
        last: null,
        paused: false,
        results: [],
      }),
    });
    fake.quickPick = (items) => (items as { label: string }[]).find((i) => i.label.includes('Pause Analysis'));
    await run(Command.showStatus);
    expect(sent[0]).toEqual({ command: 'beagle.status', args: [] });
    expect(fake.calls.find((c) => c.api === 'executeCommand')?.args).toEqual([Command.pause]);
  });

  it('restart server restarts the client', async () => {
    const s = setup();
    await s.run(Command.restartServer);
    expect(s.restarts()).toBe(1);
  });

  it('a done message offers the results of what the job analysed', async () => {
    const data: ElementResults = { repository: '/ws/r', stage: 'final', headline: null, name: 'read', results: [], unmodelled: [] };
    const s = setup({
      'beagle.elementAt': () => element({ kind: 'action', id: 'act1', name: 'read' }),
      'beagle.analyseAction': () => ({ queued: true, job: 9, ahead: 0, label: 'read in files.repository' }),
      'beagle.elementResults': () => data,
    });
    cursorIn();
    await s.run(Command.analyseAction);
    fake.activeEditor = undefined; // the user moved on; the results are still found by the label
    fake.messageChoice = 'Show Results';
    await s.commands.offerResults('Beagle: read in files.repository done: 1 result', 'read in files.repository');
    expect(fake.calls.find((c) => c.api === 'showInformationMessage')?.args).toEqual([
      'Beagle: read in files.repository done: 1 result',
      'Show Results',
    ]);
    expect(s.sent.at(-1)).toEqual({ command: 'beagle.elementResults', args: [REPO.toString(), 'act1'] });
    expect(s.shown).toHaveLength(1);
  });
});

describe('SEFF diagrams', () => {
  it('is the command the server’s lens runs (initializationOptions.diagramCommand)', () => {
    expect(DIAGRAM_COMMAND).toBe(Command.showSeffDiagram);
  });

  it('a code lens passes [uri, seffId]: that SEFF, without asking the server', async () => {
    const { sent, diagrams, run } = setup();
    await run(Command.showSeffDiagram, REPO.toString(), '_fs_upload_seff');
    expect(diagrams).toEqual([['seff', REPO.toString(), '_fs_upload_seff']]);
    expect(sent).toEqual([]);
  });

  it('the explorer passes the file and the selection: the repository overview, also of the file in the editor', async () => {
    const { diagrams, run } = setup();
    cursorIn();
    await run(Command.showSeffDiagram, REPO, [REPO]);
    expect(diagrams).toEqual([['repository', REPO.toString()]]);
    expect(fake.calls.some((c) => c.api === 'openTextDocument')).toBe(true);
  });

  it('the cursor on a SEFF opens it, from the palette and from the editor’s menu (which passes its Uri)', async () => {
    const { diagrams, run } = setup({ 'beagle.elementAt': () => element({ kind: 'seff', id: 's1', component: 'c1', seff: 's1' }) });
    cursorIn();
    await run(Command.showSeffDiagram);
    await run(Command.showSeffDiagram, REPO);
    expect(diagrams).toEqual([
      ['seff', REPO.toString(), 's1'],
      ['seff', REPO.toString(), 's1'],
    ]);
  });

  it('the cursor in an action opens the SEFF elementAt names, asking nothing more', async () => {
    const { sent, diagrams, run } = setup({
      'beagle.elementAt': () => element({ kind: 'action', id: 'a1', component: 'c1', seff: 's2' }),
    });
    cursorIn(REPO, 12, 8);
    await run(Command.showSeffDiagram);
    expect(diagrams).toEqual([['seff', REPO.toString(), 's2']]);
    expect(sent.map((s) => [s.command, s.args[1]])).toEqual([['beagle.elementAt', { line: 12, character: 8 }]]);
  });

  it('the cursor outside any SEFF opens the repository overview', async () => {
    const { diagrams, run } = setup({ 'beagle.elementAt': () => element({ kind: 'repository', id: 'r' }) });
    cursorIn();
    await run(Command.showSeffDiagram);
    expect(diagrams).toEqual([['repository', REPO.toString()]]);
  });

  it('a node’s menu runs the same commands as the editor’s', async () => {
    const data: ElementResults = { repository: '/ws/r', stage: null, headline: null, name: 'partition files', results: [], unmodelled: [] };
    const { sent, shown, commands } = setup({
      'beagle.analyseAction': () => ({ queued: true, job: 2, ahead: 0, label: 'partition files in files.repository' }),
      'beagle.elementResults': () => data,
      'beagle.linkToCode': () => ({ applied: true, file: '/ws/links.toml', text: '' }),
    });
    await commands.runDiagramAction('analyse', REPO.toString(), '_fs_partition', 'partition files');
    await commands.runDiagramAction('results', REPO.toString(), '_fs_partition', 'partition files');
    await commands.runDiagramAction('link', REPO.toString(), '_fs_partition', 'partition files');
    expect(sent).toEqual([
      { command: 'beagle.analyseAction', args: [REPO.toString(), '_fs_partition'] },
      { command: 'beagle.elementResults', args: [REPO.toString(), '_fs_partition'] },
      { command: 'beagle.linkToCode', args: [REPO.toString(), '_fs_partition'] },
    ]);
    // queued like the editor's command: its "done" message offers these results
    expect(commands.jobs.get('partition files in files.repository')).toEqual({ uri: REPO.toString(), id: '_fs_partition', name: 'partition files' });
    expect(shown[0].title).toBe('Beagle Results: partition files');
    expect(messages('info')[0]).toContain('partition files is linked in /ws/links.toml');
  });
});
