// The diagram view inside the webview (browser side): a SEFF or a repository's components,
// converted to ELK's input graph here, laid out here when the SEFF is made of chains
// (diagram/chainLayout.ts: ELK's picture in a millisecond) and otherwise by ELK in the
// extension's layout thread (diagram/layoutWorker.ts), and drawn as SVG by diagram/svg.ts.
// Updates whose structure is unchanged patch the changed nodes in place; others are laid out
// again and swapped in at once, keeping the pan and zoom. Timings go to the extension's log and
// into the DOM (body data-layout-ms, data-nodes, ...) for the tests and the benchmark.

import type { ElkNode } from 'elkjs/lib/elk-api';
import { chainLayout } from '../diagram/chainLayout';
import { repositoryToElk, seffToElk, type Converted } from '../diagram/elkGraph';
import { keyed, planUpdate, type DiagramTree } from '../diagram/seffModel';
import { boxes, patchAction, renderGraph, type Box } from '../diagram/svg';
import type { DiagramAction, FromDiagram, GraphInput, GraphPrediction, RepositoryGraph, SeffGraph, ToDiagram, UnmodelledTime } from '../protocol';
import { PanZoom } from './panZoom';
import { unmodelledBadge } from './unmodelled';

declare function acquireVsCodeApi(): { postMessage(message: FromDiagram): void };
const vscode = acquireVsCodeApi();

type LaidOut = Extract<ToDiagram, { type: 'laidOut' }>;
const layoutsAsked = new Map<number, { resolve: (l: LaidOut) => void; reject: (e: Error) => void }>();
let lastLayoutId = 0;
/** ELK's layout of `graph`, from the extension. */
function layOut(graph: ElkNode): Promise<LaidOut> {
  const id = ++lastLayoutId;
  return new Promise((resolve, reject) => {
    layoutsAsked.set(id, { resolve, reject });
    vscode.postMessage({ type: 'layout', id, graph });
  });
}

const $ = <T extends Element>(id: string) => document.getElementById(id) as unknown as T;
const svg = $<SVGSVGElement>('diagram');
const viewport = $<SVGGElement>('viewport');
const content = $<SVGGElement>('content');
const menu = $<HTMLDivElement>('menu');
const inputsBox = $<HTMLDivElement>('inputs');
const message = $<HTMLDivElement>('message');
const panZoom = new PanZoom(svg, viewport);

interface Shown {
  mode: 'seff' | 'repository';
  uri: string;
  structure: string;
  tree: DiagramTree | null;
  conv: Converted;
  layout: ElkNode;
  boxes: Map<string, Box>;
  showShares: boolean;
}
let shown: Shown | null = null;
let selected: string | null = null;
let layouts = 0;
let patches = 0;

function showMessage(text: string) {
  message.textContent = text;
  message.hidden = text === '';
}

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(2) : v.toPrecision(2));

function fillPrediction(p: GraphPrediction | null) {
  const el = $<HTMLSpanElement>('prediction');
  const problems = $<HTMLUListElement>('problems');
  const system = p?.system ? p.system.split(/[\\/]/).pop() : null;
  el.textContent = p ? `predicted ${ms(p.totalMs)} ms per call${p.complete ? '' : ' (incomplete)'}${system ? ` through ${system}` : ''}` : '';
  el.title = p?.system ?? '';
  el.dataset.totalMs = p ? String(p.totalMs) : '';
  el.dataset.complete = p ? String(p.complete) : '';
  problems.replaceChildren(
    ...(p?.problems ?? []).map((t) => {
      const li = document.createElement('li');
      li.textContent = t;
      return li;
    }),
  );
  problems.hidden = !p || p.problems.length === 0;
}

/** The SEFF's unmodelled time at its last validation, beside the predicted total. */
function fillUnmodelled(u: UnmodelledTime | null | undefined) {
  const el = $<HTMLSpanElement>('unmodelled');
  const badge = unmodelledBadge(u);
  el.textContent = badge?.text ?? '';
  el.title = badge?.title ?? '';
  el.dataset.overpredicted = badge ? String(badge.overpredicted) : '';
  el.dataset.status = badge?.status ?? '';
  el.hidden = badge === null;
}

/** One number field per input of the service; rebuilt only when the inputs differ, and a field
 * being edited keeps what is typed in it. */
function fillInputs(inputs: GraphInput[]) {
  const names = inputs.map((i) => i.name).join('\n');
  if (inputsBox.dataset.names !== names) {
    inputsBox.dataset.names = names;
    inputsBox.replaceChildren(
      ...inputs.map((i) => {
        const label = document.createElement('label');
        label.append(`${i.name} = `);
        const input = document.createElement('input');
        input.type = 'number';
        input.step = 'any';
        input.dataset.input = i.name;
        const range = i.min !== null && i.max !== null ? `measured ${ms(i.min)} … ${ms(i.max)}` : 'not measured';
        input.title = range;
        label.title = range;
        input.addEventListener('change', sendInputs);
        label.append(input);
        const hint = document.createElement('span');
        hint.className = 'hint';
        hint.textContent = i.min !== null && i.max !== null ? `(${ms(i.min)} … ${ms(i.max)})` : '';
        label.append(hint);
        return label;
      }),
    );
  }
  for (const i of inputs) {
    const input = inputsBox.querySelector<HTMLInputElement>(`input[data-input="${CSS.escape(i.name)}"]`);
    if (input && document.activeElement !== input) input.value = String(i.value);
  }
  inputsBox.hidden = inputs.length === 0;
}

function sendInputs() {
  const values: Record<string, number> = {};
  for (const input of Array.from(inputsBox.querySelectorAll<HTMLInputElement>('input[data-input]'))) {
    const v = Number(input.value);
    if (input.value.trim() !== '' && Number.isFinite(v)) values[input.dataset.input!] = v;
  }
  vscode.postMessage({ type: 'inputs', values });
}

function setTitle(title: string) {
  $<HTMLHeadingElement>('title').textContent = title;
}

function highlight(key: string | null) {
  selected = key;
  for (const g of Array.from(content.querySelectorAll('.selected'))) g.classList.remove('selected');
  if (key) content.querySelector(`[data-key="${CSS.escape(key)}"]`)?.classList.add('selected');
}

function report(t0: number, relayout: boolean) {
  const elapsed = performance.now() - t0;
  const nodes = shown ? (shown.mode === 'seff' ? shown.conv.actions : shown.conv.items.size) : 0;
  const data = document.body.dataset;
  if (relayout) {
    layouts++;
    data.layoutMs = elapsed.toFixed(1);
    data.layouts = String(layouts);
  } else {
    patches++;
    data.patchMs = elapsed.toFixed(1);
    data.patches = String(patches);
  }
  data.nodes = String(nodes);
  vscode.postMessage({ type: 'timing', layoutMs: Number(elapsed.toFixed(1)), nodes, relayout });
}

async function relayout(next: Omit<Shown, 'layout' | 'boxes'>, t0: number) {
  const first = shown === null || shown.mode !== next.mode || shown.uri !== next.uri;
  const t1 = performance.now();
  // A SEFF of chains (any well-formed one) is laid out here, as ELK would; anything else by ELK.
  const chains = next.mode === 'seff' ? chainLayout(next.conv) : null;
  const laidOut = chains ? null : await layOut(next.conv.graph);
  const layout = chains ?? laidOut!.layout;
  const t2 = performance.now();
  content.innerHTML = renderGraph(layout, next.conv, next.showShares); // swapped in one go
  // Where the time went: the conversion, the layout (for ELK: asked and answered, its own time
  // in the thread, 0 when the extension had it cached), and the SVG's markup and parsing.
  const data = document.body.dataset;
  data.engine = chains ? 'chains' : 'elk';
  data.convertMs = (t1 - t0).toFixed(1);
  data.layoutOnlyMs = (t2 - t1).toFixed(1);
  data.threadMs = laidOut ? laidOut.ms.toFixed(1) : '';
  data.hostMs = laidOut ? laidOut.hostMs.toFixed(1) : '';
  data.cached = laidOut ? String(laidOut.cached) : '';
  data.warmUpRuns = laidOut ? String(laidOut.warmUpRuns) : '';
  data.drawMs = (performance.now() - t2).toFixed(1);
  shown = { ...next, layout, boxes: boxes(layout) };
  highlight(selected);
  // A first view readable without zooming: a SEFF at 60 % at least (read from the top); the
  // overview, a map of a few boxes, whole down to 20 %.
  if (first) panZoom.fit(layout.width ?? 0, layout.height ?? 0, next.mode === 'seff' ? 0.6 : 0.2);
  report(t0, true);
}

async function drawSeff(graph: SeffGraph, title: string) {
  const t0 = performance.now();
  setTitle(title);
  fillPrediction(graph.prediction);
  fillUnmodelled(graph.unmodelled);
  fillInputs(graph.inputs);
  const tree = keyed(graph);
  const conv = seffToElk(tree);
  const showShares = graph.prediction !== null;
  const next = { mode: 'seff' as const, uri: graph.uri, structure: conv.structure, tree, conv, showShares };
  const previous = shown && shown.mode === 'seff' && shown.uri === graph.uri && shown.tree ? { structure: shown.structure, tree: shown.tree } : null;
  const plan = planUpdate(previous, next);
  if (plan.kind === 'relayout' || !shown) return relayout(next, t0);
  const keys = shown.showShares === showShares ? plan.changed : [...tree.byKey.keys()];
  for (const key of keys) {
    const g = content.querySelector(`g[data-key="${CSS.escape(key)}"]`);
    const item = conv.items.get(key);
    const box = shown.boxes.get(key);
    const d = tree.byKey.get(key);
    if (g && item?.type === 'action' && box && d) patchAction(g, d, box, item, showShares);
  }
  shown = { ...shown, ...next };
  report(t0, false);
}

async function drawRepository(graph: RepositoryGraph, title: string) {
  const t0 = performance.now();
  setTitle(title);
  $<HTMLSpanElement>('legend').hidden = true; // no laws, statuses or shares in the overview
  fillPrediction(null);
  fillUnmodelled(null); // each SEFF's is on its line in the overview
  fillInputs([]);
  const conv = repositoryToElk(graph);
  if (shown && shown.mode === 'repository' && shown.structure === conv.structure && shown.uri === graph.uri) {
    // The same boxes: only texts may differ (a SEFF's count of results); drawn again on the
    // old layout, no new one.
    content.innerHTML = renderGraph(shown.layout, conv, false);
    shown = { ...shown, conv };
    highlight(selected);
    return report(t0, false);
  }
  await relayout({ mode: 'repository', uri: graph.uri, structure: conv.structure, tree: null, conv, showShares: false }, t0);
}

// Messages are handled one at a time, and only the newest waiting graph is drawn.
let waiting: ToDiagram | null = null;
let busy = false;
async function drain() {
  if (busy) return;
  busy = true;
  try {
    while (waiting) {
      const m = waiting;
      waiting = null;
      try {
        showMessage('');
        if (m.type === 'seff') await drawSeff(m.graph, m.title);
        else if (m.type === 'repository') await drawRepository(m.graph, m.title);
      } catch (e) {
        showMessage(`The diagram could not be drawn: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  } finally {
    busy = false;
  }
}

window.addEventListener('message', (event: MessageEvent<ToDiagram>) => {
  const m = event.data;
  if (m.type === 'seff' || m.type === 'repository') {
    waiting = m;
    void drain();
  } else if (m.type === 'highlight') {
    highlight(m.key);
  } else if (m.type === 'error') {
    showMessage(m.message);
  } else if (m.type === 'laidOut' || m.type === 'layoutFailed') {
    const asked = layoutsAsked.get(m.id);
    layoutsAsked.delete(m.id);
    if (m.type === 'laidOut') asked?.resolve(m);
    else asked?.reject(new Error(m.message));
  }
});

// --- clicks and the context menu ------------------------------------------------------------

const keyOf = (el: Element | null) => el?.closest('[data-key]')?.getAttribute('data-key') ?? null;

svg.addEventListener('click', (e) => {
  hideMenu();
  const target = e.target as Element;
  const seff = target.closest('text.seff');
  if (seff && shown?.mode === 'repository') {
    const id = seff.getAttribute('data-seff');
    if (id) vscode.postMessage({ type: 'openSeff', uri: shown.uri, seff: id });
    return;
  }
  const callee = target.closest('text.callee');
  const key = keyOf(target.closest('g.node, g.component'));
  if (callee && key) {
    vscode.postMessage({ type: 'openCallee', key });
    return;
  }
  if (key) {
    highlight(key);
    vscode.postMessage({ type: 'select', key });
  }
});

let menuKey: string | null = null;
function hideMenu() {
  menu.hidden = true;
  menuKey = null;
}

svg.addEventListener('contextmenu', (e) => {
  const key = shown?.mode === 'seff' ? keyOf((e.target as Element).closest('g.node')) : null;
  e.preventDefault();
  if (!key) return hideMenu();
  menuKey = key;
  highlight(key);
  menu.hidden = false;
  // Inside the window, also near its right and bottom edges.
  const x = Math.min(e.clientX, window.innerWidth - menu.offsetWidth - 4);
  const y = Math.min(e.clientY, window.innerHeight - menu.offsetHeight - 4);
  menu.style.left = `${Math.max(0, x)}px`;
  menu.style.top = `${Math.max(0, y)}px`;
  menu.querySelector<HTMLButtonElement>('button')?.focus();
});

menu.addEventListener('click', (e) => {
  const action = (e.target as Element).closest('button')?.getAttribute('data-action') as DiagramAction | null;
  if (action && menuKey) vscode.postMessage({ type: 'action', action, key: menuKey });
  hideMenu();
});
window.addEventListener('keydown', (e) => {
  if (e.key === 'Escape') hideMenu();
});
window.addEventListener('blur', hideMenu);

$<HTMLButtonElement>('fit').addEventListener('click', () => {
  if (shown) panZoom.fit(shown.layout.width ?? 0, shown.layout.height ?? 0);
});

vscode.postMessage({ type: 'ready' });
