// Draws a laid-out graph as SVG markup in Palladio's vocabulary: start as a filled circle, stop
// as a circle in a ring, actions as rounded boxes (external calls with their own border and the
// called signature), loops, branches and forks as frames around their behaviours, successor
// edges as arrows. Markup strings, because one string set with innerHTML is the fastest way to
// put a thousand nodes into a document, and strings are tested without a DOM. The DOM contract
// (ids, classes, data attributes) is documented in tests/vscode/README.md.

import type { ElkEdgeSection, ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import { HEAT_H, HIDDEN, LINE_H, PAD, cut, isStart, isStop, textLines, type Converted, type Item } from './elkGraph';
import { esc } from '../escape';
import { lawDetail, shareText, statusOf, type DiagramNode } from './seffModel';

export { esc };

const n = (v: number | undefined) => Math.round((v ?? 0) * 10) / 10;
const BASE = 12; // text baseline below a line's top (12 px font)

/** A box laid out at `width` x `height` (its frame's size). */
export interface Box {
  width: number;
  height: number;
}

function text(cls: string, x: number, y: number, s: string, extra = ''): string {
  return `<text class="${cls}" x="${n(x)}" y="${n(y)}"${extra}>${esc(s)}</text>`;
}

/** A node's own markup (frame, texts, share), without the nested behaviours: what a patch
 * replaces when only the texts or colours of the node changed. */
export function actionMarkup(d: DiagramNode, box: Box, headerHeight: number, container: boolean, showShares: boolean): string {
  const node = d.node;
  const { width: w, height: h } = box;
  const round = (isStart(node.kind) || isStop(node.kind)) && !container;
  const lines = textLines(d, container);
  const detail = lawDetail(node);
  const share = showShares && !round ? node.share : null;
  const pct = shareText(share);
  const title = [`${node.kind}${node.name ? ` ${node.name}` : ''}`, detail, pct ? `${pct} of the service's predicted time` : '']
    .filter((s) => s !== '')
    .join('\n');
  const parts = [`<title>${esc(title)}</title>`];
  if (isStart(node.kind) && !container) {
    parts.push(`<circle class="start" cx="${n(w / 2)}" cy="${n(h / 2)}" r="${n(w / 2 - 1)}"/>`);
  } else if (isStop(node.kind) && !container) {
    parts.push(`<circle class="stop-ring" cx="${n(w / 2)}" cy="${n(h / 2)}" r="${n(w / 2 - 1)}"/>`);
    parts.push(`<circle class="stop" cx="${n(w / 2)}" cy="${n(h / 2)}" r="${n(w / 2 - 6)}"/>`);
  } else {
    parts.push(`<rect class="frame" width="${n(w)}" height="${n(h)}" rx="${container ? 4 : 8}"/>`);
    if (share !== null && share > 0) {
      // A tint proportional to the share, over the header only for a container (its body has
      // its own tints), and a bar under the texts as long as the share.
      const opacity = Math.min(0.45, 0.05 + 0.4 * share);
      parts.push(`<rect class="tint" width="${n(w)}" height="${n(container ? headerHeight : h)}" rx="${container ? 4 : 8}" fill-opacity="${n(opacity * 100) / 100}"/>`);
    }
  }
  // The texts stay in the DOM for start and stop too (empty there), and an empty law too, so
  // every node has them; the lines shown are those elkGraph sized the box for.
  const x = PAD;
  const y = PAD + BASE;
  const hidden = round ? ' visibility="hidden"' : '';
  parts.push(text('name', x, y, cut(lines.name), hidden));
  parts.push(text('law', x, y + LINE_H, cut(lines.law), hidden));
  if (pct) parts.push(text('share', w - PAD, y, pct, ' text-anchor="end"'));
  if (lines.callee) {
    const link = node.call && node.call.providers.length > 0 ? ' role="link"' : '';
    parts.push(text('callee', x, y + (lines.law ? 2 : 1) * LINE_H, cut(lines.callee), link));
  }
  if (share !== null && share > 0) {
    const top = (container ? headerHeight : h) - HEAT_H - 2;
    parts.push(`<rect class="heat" x="${PAD / 2}" y="${n(top)}" width="${n(Math.max(1, (w - PAD) * Math.min(1, share)))}" height="${HEAT_H}" rx="2"/>`);
  }
  return parts.join('');
}

function actionAttributes(d: DiagramNode): string {
  const id = d.node.id ? ` data-id="${esc(d.node.id)}"` : '';
  return `${id} data-key="${esc(d.key)}" data-kind="${esc(d.node.kind)}" data-status="${statusOf(d.node)}"`;
}

function sectionPath(s: ElkEdgeSection): string {
  const pts = [s.startPoint, ...(s.bendPoints ?? []), s.endPoint];
  return pts.map((p, i) => `${i === 0 ? 'M' : 'L'}${n(p.x)} ${n(p.y)}`).join(' ');
}

function edgesMarkup(node: ElkNode, titles?: Map<string, string>): string {
  return (node.edges ?? [])
    .map((e) => {
      const edge = e as ElkExtendedEdge;
      if (edge.id.includes(HIDDEN)) return '';
      const d = (edge.sections ?? []).map(sectionPath).join(' ');
      if (!d) return '';
      const title = titles?.get(edge.id);
      const from = esc(edge.sources[0] ?? '');
      const to = esc(edge.targets[0] ?? '');
      const inner = title ? `<title>${esc(title)}</title>` : '';
      return `<path class="edge" data-from="${from}" data-to="${to}" d="${d}" marker-end="url(#arrow)">${inner}</path>`;
    })
    .join('');
}

const at = (node: ElkNode) => ` transform="translate(${n(node.x)} ${n(node.y)})"`;

function nodeMarkup(node: ElkNode, conv: Converted, showShares: boolean): string {
  const item = conv.items.get(node.id);
  const box: Box = { width: node.width ?? 0, height: node.height ?? 0 };
  if (!item) return '';
  if (item.type === 'action') {
    const cls = item.container ? 'node container' : 'node';
    const own = actionMarkup(item.d, box, item.headerHeight, item.container, showShares);
    const inner = item.container ? `<g class="inner">${innerMarkup(node, conv, showShares)}</g>` : '';
    return `<g class="${cls}"${actionAttributes(item.d)}${at(node)}>${own}${inner}</g>`;
  }
  if (item.type === 'body') {
    const id = item.b.body.id ? ` data-id="${esc(item.b.body.id)}"` : '';
    const own =
      `<title>${esc(item.b.body.name ? `${item.b.body.name}: ${item.label}` : item.label)}</title>` +
      `<rect class="frame" width="${n(box.width)}" height="${n(box.height)}" rx="4"/>` +
      text('condition', PAD, PAD + BASE - 2, cut(item.label));
    return `<g class="container body"${id} data-key="${esc(item.b.key)}"${at(node)}>${own}<g class="inner">${innerMarkup(node, conv, showShares)}</g></g>`;
  }
  return componentMarkup(item, node, box);
}

function innerMarkup(node: ElkNode, conv: Converted, showShares: boolean): string {
  return edgesMarkup(node, conv.edgeTitles) + (node.children ?? []).map((c) => nodeMarkup(c, conv, showShares)).join('');
}

function componentMarkup(item: Extract<Item, { type: 'component' }>, node: ElkNode, box: Box): string {
  const c = item.c;
  const id = c.id ? ` data-id="${esc(c.id)}"` : '';
  const lines = item.lines
    .map((l, i) => {
      const y = PAD + BASE + i * LINE_H;
      if (l.kind === 'seff') {
        const seff = l.seff ? ` data-seff="${esc(l.seff)}" role="link"` : '';
        return text('seff', PAD, y, cut(l.text), seff);
      }
      if (l.kind === 'unmodelled') {
        // The law and its status in the tooltip; the line itself is no link (the SEFF's is).
        const seff = l.seff ? ` data-seff="${esc(l.seff)}"` : '';
        // SVG collapses the text's leading spaces: the indent is an offset.
        return `<text class="unmodelled" x="${n(PAD + 14)}" y="${n(y)}"${seff} data-overpredicted="${l.overpredicted}"><title>${esc(l.detail)}</title>${esc(cut(l.text).trimStart())}</text>`;
      }
      return text(l.kind, PAD, y, cut(l.text));
    })
    .join('');
  return (
    `<g class="component"${id} data-key="${esc(item.key)}" data-kind="${esc(c.kind)}"${at(node)}>` +
    `<title>${esc(`${c.kind} ${c.name ?? ''}`)}</title>` +
    `<rect class="frame" width="${n(box.width)}" height="${n(box.height)}" rx="6"/>${lines}</g>`
  );
}

/** The whole laid-out graph (SEFF or repository) as the content of the diagram's viewport. */
export function renderGraph(layout: ElkNode, conv: Converted, showShares: boolean): string {
  return innerMarkup(layout, conv, showShares);
}

/** Laid-out frame sizes by key, for patching nodes without a new layout. */
export function boxes(layout: ElkNode, out = new Map<string, Box>()): Map<string, Box> {
  for (const c of layout.children ?? []) {
    out.set(c.id, { width: c.width ?? 0, height: c.height ?? 0 });
    boxes(c, out);
  }
  return out;
}

/** Replaces a drawn action's own markup and status in place (its nested behaviours, in
 * `g.inner`, stay as they are): no relayout, no flicker. */
export function patchAction(g: Element, d: DiagramNode, box: Box, item: Extract<Item, { type: 'action' }>, showShares: boolean): void {
  g.setAttribute('data-status', statusOf(d.node));
  const inner = g.querySelector(':scope > g.inner');
  for (const child of Array.from(g.children)) if (child !== inner) child.remove();
  const markup = actionMarkup(d, box, item.headerHeight, item.container, showShares);
  // Parsed inside an <svg> start tag, so the elements are SVG ones and `<rect/>` closes itself
  // (insertAdjacentHTML on an SVG element does that in browsers, not in every DOM).
  const template = g.ownerDocument.createElement('template');
  template.innerHTML = `<svg xmlns="http://www.w3.org/2000/svg">${markup}</svg>`;
  const parsed = template.content.firstElementChild;
  for (const child of Array.from(parsed?.childNodes ?? [])) g.insertBefore(g.ownerDocument.importNode(child, true), inner);
}
