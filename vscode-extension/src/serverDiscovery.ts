// Where the `beagle` executable is: the setting beagle.serverPath, else the binary shipped in
// the extension (server/<platform>-<arch>/), else `beagle` on PATH. Pure: the file system and
// environment are passed in, so every source and failure is unit-tested.

import * as nodePath from 'node:path';

export interface DiscoveryEnv {
  platform: string; // process.platform
  arch: string; // process.arch
  extensionPath: string;
  pathVariable: string | undefined; // process.env.PATH
  homeDir: string | undefined;
  workspaceFolder: string | undefined; // the first folder, for relative serverPath values
  /** 'file' when the path is an executable file, 'missing', 'not-executable' or 'directory'. */
  probe(path: string): 'ok' | 'missing' | 'not-executable' | 'directory';
}

export type Source = 'setting' | 'shipped' | 'PATH';

export interface Candidate {
  source: Source;
  path: string;
}

export interface Attempt extends Candidate {
  problem: string;
}

export interface Discovery {
  found: Candidate | null;
  tried: Attempt[];
}

export function executableName(platform: string): string {
  return platform === 'win32' ? 'beagle.exe' : 'beagle';
}

function pathApi(platform: string): typeof nodePath.posix {
  return platform === 'win32' ? nodePath.win32 : nodePath.posix;
}

/** Expands `~` and `${workspaceFolder}` and makes a relative setting relative to the workspace. */
export function resolveSettingPath(value: string, env: DiscoveryEnv): string {
  const p = pathApi(env.platform);
  let v = value.trim();
  if (env.workspaceFolder) v = v.split('${workspaceFolder}').join(env.workspaceFolder);
  if ((v === '~' || v.startsWith('~/') || v.startsWith('~\\')) && env.homeDir) v = p.join(env.homeDir, v.slice(1));
  if (!p.isAbsolute(v) && env.workspaceFolder) v = p.join(env.workspaceFolder, v);
  return v;
}

/** The candidates in the order they are tried. An explicit setting is the only candidate: a
 * user who names a binary wants that one, not a silent fallback to another version. */
export function candidates(setting: string, env: DiscoveryEnv): Candidate[] {
  if (setting.trim() !== '') return [{ source: 'setting', path: resolveSettingPath(setting, env) }];
  const p = pathApi(env.platform);
  const exe = executableName(env.platform);
  const list: Candidate[] = [
    { source: 'shipped', path: p.join(env.extensionPath, 'server', `${env.platform}-${env.arch}`, exe) },
  ];
  const sep = env.platform === 'win32' ? ';' : ':';
  for (const dir of (env.pathVariable ?? '').split(sep)) {
    if (dir.trim() === '') continue;
    list.push({ source: 'PATH', path: p.join(dir, exe) });
  }
  return list;
}

const problems = {
  missing: 'does not exist',
  'not-executable': 'is not executable',
  directory: 'is a directory',
} as const;

export function discover(setting: string, env: DiscoveryEnv): Discovery {
  const tried: Attempt[] = [];
  for (const c of candidates(setting, env)) {
    const r = env.probe(c.path);
    if (r === 'ok') return { found: c, tried };
    tried.push({ ...c, problem: problems[r] });
  }
  return { found: null, tried };
}

/** The error text when no candidate works: what was tried, and what to do. PATH entries are
 * summarised, a long PATH would drown the message. */
export function describeFailure(d: Discovery): string {
  const setting = d.tried.find((t) => t.source === 'setting');
  if (setting) {
    return `Beagle: the language server in the setting beagle.serverPath (${setting.path}) ${setting.problem}.`;
  }
  const shipped = d.tried.find((t) => t.source === 'shipped');
  const onPath = d.tried.filter((t) => t.source === 'PATH').length;
  const parts: string[] = [];
  if (shipped) parts.push(`the shipped binary ${shipped.path} ${shipped.problem}`);
  parts.push(onPath === 0 ? 'PATH is empty' : `no executable \`beagle\` in the ${onPath} PATH folders`);
  return `Beagle: no language server found: the setting beagle.serverPath is empty, ${parts.join(', ')}. Set beagle.serverPath to the \`beagle\` executable.`;
}

/** The real probe (Node's fs); on Windows existence is enough, there is no executable bit. */
export function nodeProbe(fs: typeof import('node:fs'), platform: string) {
  return (path: string): 'ok' | 'missing' | 'not-executable' | 'directory' => {
    let stat;
    try {
      stat = fs.statSync(path);
    } catch {
      return 'missing';
    }
    if (stat.isDirectory()) return 'directory';
    if (platform === 'win32') return 'ok';
    try {
      fs.accessSync(path, fs.constants.X_OK);
      return 'ok';
    } catch {
      return 'not-executable';
    }
  };
}
