import { describe, expect, it } from 'vitest';
import { documentSelector } from '../src/documentSelector';
import { componentsIn, doneLabel, linkFilesIn } from '../src/pcmText';
import { nonce, resultsHtml } from '../src/resultsHtml';

describe('document selector', () => {
  it('covers the five PCM languages, beagle.toml and link files', () => {
    const s = documentSelector(['/ws/java-links.xml', '/ws/java-links.xml']);
    expect(s).toEqual([
      { language: 'pcm-repository' },
      { language: 'pcm-system' },
      { language: 'pcm-usagemodel' },
      { language: 'pcm-allocation' },
      { language: 'pcm-resourceenvironment' },
      { scheme: 'file', pattern: '**/beagle.toml' },
      { scheme: 'file', pattern: '**/*links*.toml' },
      { scheme: 'file', pattern: '/ws/java-links.xml' },
    ]);
  });
});

describe('PCM and TOML text', () => {
  it('finds the components of a repository', () => {
    const xml = `<repository:Repository id="r" entityName="R">
  <components__Repository xsi:type="repository:BasicComponent" id="_c1" entityName="Files">
  </components__Repository>
  <components__Repository entityName='Store' id='_c2'/>
  <interfaces__Repository id="_i1" entityName="IFiles"/>`;
    expect(componentsIn(xml)).toEqual([
      { id: '_c1', name: 'Files' },
      { id: '_c2', name: 'Store' },
    ]);
  });

  it('reads the link files a beagle.toml names', () => {
    expect(linkFilesIn('[model]\nrepository = "a.repository"\nlinks = "links.toml"\n')).toEqual(['links.toml']);
    expect(linkFilesIn('[model]\nlinks = ["a.toml", \'b.xml\']\n')).toEqual(['a.toml', 'b.xml']);
    expect(linkFilesIn('[model]\nmylinks = "x"\n')).toEqual([]);
  });

  it('recognises the server’s done messages', () => {
    expect(doneLabel('Beagle: files.repository done: 4 results, R² 0.98')).toBe('files.repository');
    expect(doneLabel('Beagle: read in files.repository done: 1 result')).toBe('read in files.repository');
    expect(doneLabel('Beagle: files.repository failed: no java')).toBeNull();
  });
});

describe('results webview HTML', () => {
  it('allows only the nonce script and no remote content', () => {
    const n = nonce();
    expect(n).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(nonce()).not.toBe(n);
    const html = resultsHtml({ cspSource: 'vscode-resource:', nonce: n, scriptUri: 'vscode-resource:/dist/results.js', title: 'Beagle Results: <x>' });
    const csp = /Content-Security-Policy" content="([^"]*)"/.exec(html)![1];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src 'nonce-${n}'`);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(html).toContain(`<script nonce="${n}" src="vscode-resource:/dist/results.js">`);
    expect(html.match(/<script/g)).toHaveLength(1);
    for (const id of ['result', 'parameter', 'chart', 'reset-zoom', 'points', 'quality']) expect(html).toContain(`id="${id}"`);
    expect(html).toContain('Beagle Results: &#60;x&#62;');
  });
});
