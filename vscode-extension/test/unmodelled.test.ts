// @vitest-environment happy-dom
// Each SEFF's unmodelled time in the views: the results view's table (a row per SEFF), the SEFF
// diagram's badge (with the law at the diagram's inputs) and the repository overview's line under
// each SEFF, read back through a DOM. A negative share arrives worded by the server ("the model
// predicts 6 % more than measured") and must reach the page as that, never as "-6 %".
import type { ElkNode } from 'elkjs/lib/elk-api';
import { describe, expect, it } from 'vitest';
import { repositoryToElk } from '../src/diagram/elkGraph';
import { renderGraph } from '../src/diagram/svg';
import { diagramHtml } from '../src/diagramHtml';
import type { RepositoryGraph, UnmodelledTime } from '../src/protocol';
import { resultsHtml } from '../src/resultsHtml';
import { unmodelledBadge, unmodelledTable } from '../src/webview/unmodelled';

/** As the server sends them (server/lsp/tests/unmodelled.rs checks that side). */
const upload: UnmodelledTime = {
  seff: '_fs_upload_seff',
  service: 'BusinessCore.upload',
  share: 0.23,
  points: 10,
  law: '0.05 * files.NUMBER_OF_ELEMENTS',
  status: 'Final',
  reasons: [],
  overpredicted: false,
  label: 'unmodelled 23 %',
  detail: 'unmodelled: 23 % of the measured time (median of 10 points); per call 0.05 * files.NUMBER_OF_ELEMENTS ms (final)',
};
const compress: UnmodelledTime = {
  seff: '_fs_compress_seff',
  service: 'Compression.compress<T>',
  share: -0.06,
  points: 4,
  law: '-0.1',
  status: 'Preliminary',
  reasons: ['4 points', 'a constant predicts held-out points as well'],
  overpredicted: true,
  label: 'the model predicts 6.0 % more than measured',
  detail: 'unmodelled: none, the model predicts 6.0 % more than measured (median of 4 points); measured less predicted per call -0.1 ms (preliminary: 4 points)',
};

function table(markup: string): HTMLTableElement {
  document.body.innerHTML = `<table id="t">${markup}</table>`;
  return document.getElementById('t') as HTMLTableElement;
}

describe('the results view’s unmodelled time', () => {
  it('has a row per SEFF: service, share, law and status, the whole line as its tooltip', () => {
    const t = table(unmodelledTable([upload, compress]));
    const rows = Array.from(t.querySelectorAll('tbody tr'));
    expect(rows.map((r) => r.getAttribute('data-seff'))).toEqual(['_fs_upload_seff', '_fs_compress_seff']);
    const cells = (r: Element) => Array.from(r.querySelectorAll('td')).map((c) => c.textContent);
    expect(cells(rows[0])).toEqual(['BusinessCore.upload', 'unmodelled 23 % (median of 10 points)', '0.05 * files.NUMBER_OF_ELEMENTS', 'final']);
    expect(rows[0].getAttribute('title')).toBe(upload.detail);
    expect(rows[0].getAttribute('data-overpredicted')).toBe('false');
    // Escaped, and the over-prediction said as such, with why the law is preliminary.
    expect(cells(rows[1])).toEqual([
      'Compression.compress<T>',
      'the model predicts 6.0 % more than measured (median of 4 points)',
      '-0.1',
      'preliminary: 4 points; a constant predicts held-out points as well',
    ]);
    expect(rows[1].getAttribute('data-overpredicted')).toBe('true');
    expect(rows[1].getAttribute('data-status')).toBe('preliminary');
    expect(rows[1].querySelector('td.share')?.textContent).not.toMatch(/-\s*6/);
    expect(t.querySelectorAll('thead th')).toHaveLength(4);
  });

  it('is empty without SEFFs, and the page hides its section until there are some', () => {
    expect(unmodelledTable([])).toBe('');
    document.documentElement.innerHTML = resultsHtml({ cspSource: 'vscode-resource:', nonce: 'n', scriptUri: 's.js', title: 'R' });
    const section = document.getElementById('unmodelled')!;
    expect(section.hidden).toBe(true);
    expect(section.querySelector('table#unmodelled-table')).not.toBeNull();
  });
});

describe('the SEFF diagram’s badge', () => {
  it('gives the label, and where the law evaluates, its value at the diagram’s inputs', () => {
    expect(unmodelledBadge({ ...upload, atInputsMs: 1 })).toEqual({
      text: 'unmodelled 23 %, 1.00 ms per call here',
      title: `${upload.detail}\nat these inputs: 1.00 ms per call (measured less predicted)`,
      overpredicted: false,
      status: 'final',
    });
    expect(unmodelledBadge(upload)?.text).toBe('unmodelled 23 %');
    expect(unmodelledBadge(upload)?.title).toBe(upload.detail);
  });

  it('says the model predicts more rather than giving a negative time', () => {
    const badge = unmodelledBadge({ ...compress, atInputsMs: -0.1 })!;
    expect(badge.text).toBe('the model predicts 6.0 % more than measured');
    expect(badge.overpredicted).toBe(true);
    expect(badge.status).toBe('preliminary');
    expect(badge.title).toContain('at these inputs: -0.10 ms per call (measured less predicted)');
  });

  it('is none without an unmodelled time, and hidden on the page until there is one', () => {
    expect(unmodelledBadge(null)).toBeNull();
    expect(unmodelledBadge(undefined)).toBeNull();
    document.documentElement.innerHTML = diagramHtml({ cspSource: 'vscode-resource:', nonce: 'n', scriptUri: 'd.js', title: 'D' });
    const badge = document.getElementById('unmodelled')!;
    expect(badge.hidden).toBe(true);
    // In the header, next to the predicted time.
    expect(badge.previousElementSibling?.id).toBe('prediction');
  });
});

describe('the repository overview', () => {
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
  const seff = (id: string, service: string, unmodelled: UnmodelledTime | null) => ({ id, service, range, actions: 3, results: 1, unmodelled });
  const repo = (core: UnmodelledTime | null): RepositoryGraph => ({
    uri: 'file:///ws/r.repository',
    name: 'R',
    components: [
      { id: 'core', name: 'BusinessCore', kind: 'BasicComponent', range, provides: [], requires: [], seffs: [seff('_fs_upload_seff', 'IUpload.upload', core), seff('_other', 'IUpload.other', null)] },
      { id: 'comp', name: 'Compression', kind: 'BasicComponent', range, provides: [], requires: [], seffs: [seff('_fs_compress_seff', 'ICompression.compress', compress)] },
    ],
  });

  it('puts each SEFF’s unmodelled time on a line under it, the law in its tooltip', () => {
    const conv = repositoryToElk(repo(upload));
    const item = conv.items.get('core');
    expect(item?.type === 'component' && item.lines.map((l) => [l.kind, l.text.trim()])).toEqual([
      ['name', 'BusinessCore'],
      ['type', '«BasicComponent»'],
      ['seff', '◇ IUpload.upload (3 actions, 1 result)'],
      ['unmodelled', 'unmodelled 23 %'],
      ['seff', '◇ IUpload.other (3 actions, 1 result)'],
    ]);
    // The box is a line taller than without it.
    const without = repositoryToElk(repo(null)).items.get('core');
    expect(item?.type === 'component' && without?.type === 'component' && item.height - without.height).toBe(16);

    const layout: ElkNode = {
      id: '__root',
      children: (conv.graph.children ?? []).map((c, i) => ({ ...c, x: 0, y: 200 * i })),
      edges: [],
    };
    document.body.innerHTML = `<svg xmlns="http://www.w3.org/2000/svg">${renderGraph(layout, conv, false)}</svg>`;
    const lines = Array.from(document.querySelectorAll('text.unmodelled'));
    expect(lines.map((l) => l.getAttribute('data-seff'))).toEqual(['_fs_upload_seff', '_fs_compress_seff']);
    const [up, comp] = lines;
    expect(up.querySelector('title')?.textContent).toBe(upload.detail);
    expect(up.getAttribute('data-overpredicted')).toBe('false');
    expect(comp.getAttribute('data-overpredicted')).toBe('true');
    expect(comp.textContent).toBe(`${compress.detail}the model predicts 6.0 % more than measured`);
    expect(Number(up.getAttribute('x'))).toBeGreaterThan(Number(document.querySelector('text.seff')?.getAttribute('x')));
    expect(comp.textContent).not.toMatch(/unmodelled -/);
    // Not a link: a click on the SEFF's own line opens it.
    expect(up.getAttribute('role')).toBeNull();
  });
});
