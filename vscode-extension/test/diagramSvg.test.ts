// @vitest-environment happy-dom
// The SVG drawing of the upload SEFF, checked through a DOM (happy-dom) against the contract the
// end-to-end test relies on (tests/vscode/README.md).
import ELK from 'elkjs/lib/elk.bundled.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { seffToElk, type Converted } from '../src/diagram/elkGraph';
import { keyed } from '../src/diagram/seffModel';
import { boxes, esc, patchAction, renderGraph } from '../src/diagram/svg';
import { diagramHtml } from '../src/diagramHtml';
import type { ElkNode } from 'elkjs/lib/elk-api';
import { upload, uploadAsModelled } from './fixtures/graphs';

let conv: Converted;
let layout: ElkNode;
let svg: SVGSVGElement;

function draw(markup: string): SVGSVGElement {
  document.body.innerHTML = `<svg id="diagram" xmlns="http://www.w3.org/2000/svg"><g id="viewport"><g id="content">${markup}</g></g></svg>`;
  return document.getElementById('diagram') as unknown as SVGSVGElement;
}
const node = (id: string) => svg.querySelector(`g.node[data-id="${id}"]`)!;
const own = (g: Element, cls: string) => g.querySelector(`:scope > text.${cls}`)?.textContent ?? null;

beforeAll(async () => {
  conv = seffToElk(keyed(upload()));
  layout = await new ELK().layout(conv.graph);
  svg = draw(renderGraph(layout, conv, true));
});

describe('the drawn SEFF', () => {
  it('has one g.node per action with its id, kind and status', () => {
    const nodes = Array.from(svg.querySelectorAll('g.node'));
    expect(nodes).toHaveLength(19);
    expect(nodes.filter((g) => g.getAttribute('data-kind') === 'LoopAction')).toHaveLength(2);
    expect(nodes.filter((g) => g.getAttribute('data-kind') === 'StartAction')).toHaveLength(5);
    expect(node('_fs_partition').getAttribute('data-status')).toBe('final');
    expect(node('_fs_file_loop').getAttribute('data-status')).toBe('preliminary');
    expect(node('_fs_count_rejection').getAttribute('data-status')).toBe('unmeasured');
  });

  it('shows each action’s name and law, the result before the model’s specification', () => {
    expect(own(node('_fs_partition'), 'name')).toBe('partition files');
    expect(own(node('_fs_partition'), 'law')).toBe('0.0021 * files.NUMBER_OF_ELEMENTS + 0.35');
    expect(own(node('_fs_compress_loop'), 'law')).toBe('files.NUMBER_OF_ELEMENTS - alreadyCompressed.NUMBER_OF_ELEMENTS');
    expect(own(node('_fs_count_rejection'), 'law')).toBe('0');
    expect(node('_fs_partition').querySelector(':scope > title')?.textContent).toContain('R² 0.993');
  });

  it('draws start and stop as circles, actions as boxes, calls with their callee', () => {
    expect(node('_fs_upload_seff_start').querySelector('circle.start')).not.toBeNull();
    expect(node('_fs_upload_seff_stop').querySelectorAll('circle')).toHaveLength(2);
    expect(node('_fs_partition').querySelector(':scope > rect.frame')).not.toBeNull();
    expect(own(node('_fs_hash_call'), 'callee')).toBe('→ IHashing.hash');
  });

  it('nests loop bodies and branch transitions in containers', () => {
    const loop = node('_fs_compress_loop');
    expect(loop.classList.contains('container')).toBe(true);
    expect(loop.querySelector('g.node[data-id="_fs_compress_call"]')).not.toBeNull();
    const transitions = Array.from(node('_fs_accept').querySelectorAll(':scope > g.inner > g.container.body'));
    expect(transitions.map((t) => t.getAttribute('data-id'))).toEqual(['_fs_rejected', '_fs_accepted']);
    expect(transitions.map((t) => t.querySelector(':scope > text.condition')?.textContent)).toEqual(['p = 0.5', 'p = 0.5']);
    expect(transitions[1].querySelector('g.node[data-id="_fs_store_call"]')).not.toBeNull();
  });

  it('draws the successor edges as arrows', () => {
    const edges = Array.from(svg.querySelectorAll('path.edge'));
    expect(edges).toHaveLength(14);
    expect(edges[0].getAttribute('d')).toMatch(/^M[\d.]+ [\d.]+( L[\d.]+ [\d.]+)+$/);
    expect(edges[0].getAttribute('marker-end')).toBe('url(#arrow)');
  });

  it('shows the shares of the predicted time, and none without a prediction', () => {
    expect(own(node('_fs_compress_loop'), 'share')).toBe('61 %');
    expect(own(node('_fs_partition'), 'share')).toBe('4.0 %');
    expect(node('_fs_compress_loop').querySelector(':scope > rect.heat')).not.toBeNull();
    const none = draw(renderGraph(layout, conv, false));
    expect(none.querySelectorAll('text.share, rect.heat, rect.tint')).toHaveLength(0);
    svg = draw(renderGraph(layout, conv, true));
  });

  it('escapes the model’s texts', () => {
    expect(esc('a < b && "c"')).toBe('a &#60; b &#38;&#38; &#34;c&#34;');
    const g = upload();
    g.flow.nodes[1].name = '<script>x</script>';
    const c = seffToElk(keyed(g));
    const s = draw(renderGraph(layout, c, true));
    expect(s.querySelector('script')).toBeNull();
    expect(s.querySelector('g.node[data-id="_fs_partition"] > text.name')?.textContent).toBe('<script>x</script>');
    svg = draw(renderGraph(layout, conv, true));
  });
});

describe('the unanalysed model', () => {
  it('shows every action unmeasured with the model’s placeholder laws, and no shares without a total', async () => {
    const c = seffToElk(keyed(uploadAsModelled()));
    const s = draw(renderGraph(await new ELK().layout(c.graph), c, true));
    const statuses = new Set(Array.from(s.querySelectorAll('g.node')).map((g) => g.getAttribute('data-status')));
    expect([...statuses]).toEqual(['unmeasured']);
    expect(s.querySelector('g.node[data-id="_fs_partition"] > text.law')?.textContent).toBe('0');
    expect(s.querySelector('g.node[data-id="_fs_file_loop"] > text.law')?.textContent).toBe('1');
    expect(s.querySelectorAll('text.share')).toHaveLength(0);
    svg = draw(renderGraph(layout, conv, true));
  });
});

describe('patching a node in place', () => {
  it('replaces texts and status and keeps the node, its nested nodes and its highlight', () => {
    const g = upload();
    const loop = g.flow.nodes[3];
    loop.results[0].status = 'Final';
    loop.results[0].expression = 'files.NUMBER_OF_ELEMENTS + 1';
    loop.share = 0.5;
    const tree = keyed(g);
    const next = seffToElk(tree);
    const before = node('_fs_file_loop');
    const inner = before.querySelector(':scope > g.inner');
    before.classList.add('selected');
    const item = next.items.get('_fs_file_loop')!;
    if (item.type !== 'action') throw new Error('not an action');
    patchAction(before, tree.byKey.get('_fs_file_loop')!, boxes(layout).get('_fs_file_loop')!, item, true);
    const after = node('_fs_file_loop');
    expect(after).toBe(before);
    expect(after.querySelector(':scope > g.inner')).toBe(inner);
    expect(after.getAttribute('data-status')).toBe('final');
    expect(after.classList.contains('selected')).toBe(true);
    expect(own(after, 'law')).toBe('files.NUMBER_OF_ELEMENTS + 1');
    expect(own(after, 'share')).toBe('50 %');
    expect(after.querySelectorAll(':scope > text.law')).toHaveLength(1);
    expect(after.querySelector('g.node[data-id="_fs_hash_call"]')).not.toBeNull();
  });
});

describe('diagram webview HTML', () => {
  it('allows only the nonce script and holds the diagram, the inputs and the menu', () => {
    const html = diagramHtml({ cspSource: 'vscode-resource:', nonce: 'N0nce', scriptUri: 'vscode-resource:/dist/diagram.js', title: 'Beagle SEFF: <x>' });
    const csp = /Content-Security-Policy" content="([^"]*)"/.exec(html)![1];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'nonce-N0nce'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(html.match(/<script/g)).toHaveLength(1);
    for (const id of ['diagram', 'viewport', 'content', 'inputs', 'menu', 'fit', 'prediction', 'arrow']) expect(html).toContain(`id="${id}"`);
    for (const a of ['analyse', 'results', 'link']) expect(html).toContain(`data-action="${a}"`);
    expect(html).toContain('Beagle SEFF: &#60;x&#62;');
  });
});
