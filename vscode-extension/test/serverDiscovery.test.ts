import { describe, expect, it } from 'vitest';
import { candidates, describeFailure, discover, executableName, type DiscoveryEnv } from '../src/serverDiscovery';

function env(files: Record<string, 'ok' | 'not-executable' | 'directory'>, over: Partial<DiscoveryEnv> = {}): DiscoveryEnv {
  return {
    platform: 'linux',
    arch: 'x64',
    extensionPath: '/ext',
    pathVariable: '/usr/local/bin:/usr/bin',
    homeDir: '/home/me',
    workspaceFolder: '/ws',
    probe: (p) => files[p] ?? 'missing',
    ...over,
  };
}

describe('server discovery', () => {
  it('uses the setting when it names an executable', () => {
    const d = discover('/opt/beagle/bin/beagle', env({ '/opt/beagle/bin/beagle': 'ok', '/ext/server/linux-x64/beagle': 'ok' }));
    expect(d.found).toEqual({ source: 'setting', path: '/opt/beagle/bin/beagle' });
  });

  it('does not fall back when the setting names a missing file, and says so', () => {
    const d = discover('/nope/beagle', env({ '/ext/server/linux-x64/beagle': 'ok' }));
    expect(d.found).toBeNull();
    expect(d.tried).toEqual([{ source: 'setting', path: '/nope/beagle', problem: 'does not exist' }]);
    expect(describeFailure(d)).toContain('beagle.serverPath (/nope/beagle) does not exist');
  });

  it('reports a setting that is not executable or a directory', () => {
    expect(discover('/x/beagle', env({ '/x/beagle': 'not-executable' })).tried[0].problem).toBe('is not executable');
    expect(discover('/x', env({ '/x': 'directory' })).tried[0].problem).toBe('is a directory');
  });

  it('expands ~ and ${workspaceFolder}, and resolves a relative setting against the workspace', () => {
    expect(discover('~/bin/beagle', env({ '/home/me/bin/beagle': 'ok' })).found?.path).toBe('/home/me/bin/beagle');
    expect(discover('${workspaceFolder}/target/release/beagle', env({ '/ws/target/release/beagle': 'ok' })).found?.path).toBe(
      '/ws/target/release/beagle',
    );
    expect(discover('target/release/beagle', env({ '/ws/target/release/beagle': 'ok' })).found?.path).toBe('/ws/target/release/beagle');
  });

  it('prefers the shipped binary over PATH when the setting is empty', () => {
    const d = discover('', env({ '/ext/server/linux-x64/beagle': 'ok', '/usr/bin/beagle': 'ok' }));
    expect(d.found).toEqual({ source: 'shipped', path: '/ext/server/linux-x64/beagle' });
  });

  it('falls back to the first PATH folder that has an executable beagle', () => {
    const d = discover('  ', env({ '/usr/local/bin/beagle': 'not-executable', '/usr/bin/beagle': 'ok' }));
    expect(d.found).toEqual({ source: 'PATH', path: '/usr/bin/beagle' });
    expect(d.tried.map((t) => t.path)).toEqual(['/ext/server/linux-x64/beagle', '/usr/local/bin/beagle']);
  });

  it('names what was tried when nothing works', () => {
    const d = discover('', env({}));
    expect(d.found).toBeNull();
    expect(d.tried.map((t) => t.source)).toEqual(['shipped', 'PATH', 'PATH']);
    const text = describeFailure(d);
    expect(text).toContain('/ext/server/linux-x64/beagle does not exist');
    expect(text).toContain('2 PATH folders');
    expect(text).toContain('beagle.serverPath');
  });

  it('handles an empty PATH', () => {
    const d = discover('', env({}, { pathVariable: undefined }));
    expect(d.tried).toHaveLength(1);
    expect(describeFailure(d)).toContain('PATH is empty');
  });

  it('uses beagle.exe, ; and the platform folder on Windows', () => {
    expect(executableName('win32')).toBe('beagle.exe');
    expect(executableName('darwin')).toBe('beagle');
    const e = env({}, { platform: 'win32', arch: 'x64', extensionPath: 'C:\\ext', pathVariable: 'C:\\bin;D:\\tools' });
    expect(candidates('', e).map((c) => c.path)).toEqual([
      'C:\\ext\\server\\win32-x64\\beagle.exe',
      'C:\\bin\\beagle.exe',
      'D:\\tools\\beagle.exe',
    ]);
    const found = discover('', { ...e, probe: (p) => (p === 'D:\\tools\\beagle.exe' ? 'ok' : 'missing') });
    expect(found.found).toEqual({ source: 'PATH', path: 'D:\\tools\\beagle.exe' });
  });

  it('names the shipped folder after platform and architecture', () => {
    expect(candidates('', env({}, { platform: 'darwin', arch: 'arm64' }))[0].path).toBe('/ext/server/darwin-arm64/beagle');
  });
});
