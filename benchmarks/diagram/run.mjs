// The SEFF diagram's layout benchmark: generated SEFFs of 20, 200 and 1000 actions laid out by
// the extension's own code (graph -> ELK conversion; the chain layout the webview uses for SEFFs
// made of chains; ELK layered with INCLUDE_CHILDREN, which the extension uses for anything else;
// SVG markup) and, in the same run, by the named peer dagre (@dagrejs/dagre) on the same graphs,
// flattened into dagre's compound graph. Medians after a warm-up. Writes results/layout.txt and
// RESULTS.md. Run `npm ci` in vscode-extension first:  node benchmarks/diagram/run.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSeff, repositoryXml, seffGraph } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const ext = path.join(root, 'vscode-extension');
const fromExt = createRequire(path.join(ext, 'package.json'));
const SIZES = (process.env.SIZES ?? '20,200,1000').split(',').map(Number);
const WARMUP = Number(process.env.WARMUP ?? 3);
const RUNS = (n) => Number(process.env.RUNS ?? (n <= 20 ? 25 : n <= 200 ? 11 : 5));
const SEED = Number(process.env.SEED ?? 6); // a seed whose 20-action SEFF has a loop and a branch too
const BEAGLE = process.env.BEAGLE_BIN ?? path.join(root, 'target/release/beagle');

let esbuild, ELK, dagre;
try {
  esbuild = fromExt('esbuild');
  ELK = fromExt('elkjs/lib/elk.bundled.js');
  dagre = await import(fromExt.resolve('@dagrejs/dagre')).then((m) => m.default ?? m);
} catch (e) {
  console.error(`benchmarks/diagram: run npm ci in vscode-extension first (${e.message.split('\n')[0]})`);
  process.exit(1);
}
const version = (name) => JSON.parse(fs.readFileSync(path.join(path.dirname(fromExt.resolve(`${name}/package.json`)), 'package.json'), 'utf8')).version;

// The extension's own modules, bundled from its sources (the code the webview runs).
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'beagle-diagram-bench-'));
await esbuild.build({
  stdin: {
    contents: "export { keyed } from './src/diagram/seffModel'; export { seffToElk } from './src/diagram/elkGraph'; export { renderGraph } from './src/diagram/svg'; export { chainLayout } from './src/diagram/chainLayout';",
    resolveDir: ext,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  outfile: path.join(tmp, 'diagram.cjs'),
  logLevel: 'warning',
});
const { keyed, seffToElk, renderGraph, chainLayout } = createRequire(import.meta.url)(path.join(tmp, 'diagram.cjs'));

/** The graph as the language server builds it from a generated .repository (`beagle graph`),
 * or null with the reason when that binary or command is not there. */
function serverGraph(gen) {
  if (!fs.existsSync(BEAGLE)) return { graph: null, why: `no ${path.relative(root, BEAGLE)}` };
  try {
    execFileSync(BEAGLE, ['graph', '--help'], { stdio: 'ignore' });
  } catch {
    return { graph: null, why: `${path.relative(root, BEAGLE)} has no graph command` };
  }
  const file = path.join(tmp, `generated-${gen.actions}.repository`);
  fs.writeFileSync(file, repositoryXml(gen));
  try {
    const out = execFileSync(BEAGLE, ['graph', file, '--seff', '_g_seff'], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
    return { graph: JSON.parse(out.toString('utf8')), why: null };
  } catch (e) {
    return { graph: null, why: `beagle graph failed: ${String(e.stderr ?? e.message).split('\n')[0]}` };
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const elk = new ELK();
async function elkOnce(graph) {
  const t0 = performance.now();
  const conv = seffToElk(keyed(graph));
  const t1 = performance.now();
  const layout = await elk.layout(conv.graph);
  const t2 = performance.now();
  const svg = renderGraph(layout, conv, graph.prediction !== null);
  const t3 = performance.now();
  return { convert: t1 - t0, layout: t2 - t1, render: t3 - t2, total: t3 - t0, size: `${Math.round(layout.width)}x${Math.round(layout.height)}`, svg };
}

/** The webview's path for a SEFF made of chains: conversion, chainLayout, SVG markup. */
function chainsOnce(graph) {
  const t0 = performance.now();
  const conv = seffToElk(keyed(graph));
  const t1 = performance.now();
  const layout = chainLayout(conv);
  const t2 = performance.now();
  if (!layout) throw new Error('the generated SEFF is not made of chains');
  const svg = renderGraph(layout, conv, graph.prediction !== null);
  const t3 = performance.now();
  return { convert: t1 - t0, layout: t2 - t1, render: t3 - t2, total: t3 - t0, size: `${Math.round(layout.width)}x${Math.round(layout.height)}`, svg };
}

/** The same graph for dagre: every ELK node a dagre node, compound ones as dagre's compound
 * parents (sized by dagre around their children). dagre draws no edge to a compound node, so an
 * edge into a loop or branch goes to the start actions inside it, one out of it from its stops.
 * The ELK-only helpers (a branch's invisible entry node, its ports and edges; ids with a NUL)
 * are left out. */
const helper = (id) => id.includes('\u0000');
function dagreGraph(conv) {
  const g = new dagre.graphlib.Graph({ compound: true });
  g.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 28, marginx: 12, marginy: 12 });
  g.setDefaultEdgeLabel(() => ({}));
  const byId = new Map();
  const add = (n, parent) => {
    for (const c of n.children ?? []) {
      if (helper(c.id)) continue;
      byId.set(c.id, c);
      g.setNode(c.id, c.children?.length ? {} : { width: c.width, height: c.height });
      if (parent) g.setParent(c.id, parent);
      add(c, c.id);
    }
  };
  add(conv.graph, null);
  const ends = (n, side) => {
    if (!n.children?.length) return [n.id];
    const edges = (n.edges ?? []).filter((e) => !helper(e.id));
    const kids = n.children.filter((c) => !helper(c.id));
    const free = edges.length ? kids.filter((c) => !edges.some((e) => (side === 'in' ? e.targets[0] : e.sources[0]) === c.id)) : kids;
    return free.flatMap((c) => ends(c, side));
  };
  let edges = 0;
  const link = (n) => {
    for (const e of n.edges ?? []) {
      if (helper(e.id)) continue;
      for (const s of ends(byId.get(e.sources[0]), 'out')) for (const t of ends(byId.get(e.targets[0]), 'in')) (g.setEdge(s, t), edges++);
    }
    for (const c of n.children ?? []) link(c);
  };
  link(conv.graph);
  return { g, edges };
}

function dagreOnce(graph) {
  const t0 = performance.now();
  const { g, edges } = dagreGraph(seffToElk(keyed(graph)));
  const t1 = performance.now();
  dagre.layout(g);
  const t2 = performance.now();
  const { width, height } = g.graph();
  return { convert: t1 - t0, layout: t2 - t1, total: t2 - t0, size: `${Math.round(width)}x${Math.round(height)}`, edges };
}

async function measure(f, n) {
  for (let i = 0; i < WARMUP; i++) await f();
  const runs = [];
  for (let i = 0; i < RUNS(n); i++) runs.push(await f());
  const pick = (k) => median(runs.map((r) => r[k]));
  return { runs: runs.length, convert: pick('convert'), layout: pick('layout'), render: runs[0].render === undefined ? null : pick('render'), total: pick('total'), last: runs.at(-1) };
}

/** CPU time of the whole machine from /proc/stat: how busy both cores were while we measured
 * (about 50 % is one core: this benchmark alone; more means another program shared them). */
const cpuTimes = () => {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: f[3] + (f[4] ?? 0), total: f.reduce((a, b) => a + b, 0) };
  } catch {
    return null;
  }
};
const cpuBefore = cpuTimes();

const rows = [];
const sources = [];
for (const n of SIZES) {
  const gen = generateSeff(n, SEED);
  const fromServer = serverGraph(gen);
  const graph = fromServer.graph ?? seffGraph(gen);
  sources.push(fromServer.graph ? `${n}: beagle graph on a generated .repository` : `${n}: SeffGraph JSON generated directly (${fromServer.why})`);
  const e = await measure(() => elkOnce(graph), n);
  const c = await measure(() => chainsOnce(graph), n);
  const d = await measure(() => dagreOnce(graph), n);
  // The chain layout must draw what ELK draws: the same SVG, character for character.
  const same = c.last.svg === e.last.svg;
  if (!same) console.error(`${n} actions: the chain layout's SVG differs from ELK's`);
  const counts = gen.counts;
  rows.push({
    actions: n,
    loops: counts.LoopAction,
    branches: counts.BranchAction,
    calls: counts.ExternalCallAction,
    depth: gen.depth,
    runs: e.runs,
    elk: e,
    chains: c,
    same,
    dagre: d,
    ratio: e.layout / d.layout,
    chainsOverElk: c.total / e.total,
  });
  console.log(`${n} actions: ELK layout ${e.layout.toFixed(1)} ms (convert ${e.convert.toFixed(1)}, SVG ${e.render.toFixed(1)}, total ${e.total.toFixed(1)}), chains total ${c.total.toFixed(2)} ms (layout ${c.layout.toFixed(2)}; ${same ? 'the same SVG as ELK' : 'NOT the same SVG as ELK'}), dagre layout ${d.layout.toFixed(1)} ms; ELK/dagre ${(e.layout / d.layout).toFixed(2)}x, chains/ELK total ${(c.total / e.total).toFixed(4)}x`);
}
fs.rmSync(tmp, { recursive: true, force: true });
const cpuAfter = cpuTimes();
const busy = cpuBefore && cpuAfter ? `${Math.round(100 * (1 - (cpuAfter.idle - cpuBefore.idle) / (cpuAfter.total - cpuBefore.total)))} %` : 'unknown';

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const machine = `${cpu}, ${os.cpus().length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node.js ${process.version}`;
const versions = `elkjs ${version('elkjs')}, @dagrejs/dagre ${version('@dagrejs/dagre')}`;
const date = new Date().toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
const f = (v) => (v === null ? '' : v.toFixed(1));
const f2 = (v) => v.toFixed(2);
const txt = [
  `# benchmarks/diagram/run.mjs, ${date}`,
  `# ${machine}; ${versions}; seed ${SEED}; warm-up ${WARMUP}, then the median of the runs; times in ms; machine CPU busy during the run: ${busy}`,
  ...sources.map((s) => `# graph ${s}`),
  'actions loops branches calls depth runs elk_convert elk_layout elk_svg elk_total elk_drawing chains_layout chains_total chains_same_svg dagre_convert dagre_layout dagre_drawing elk_over_dagre chains_over_elk',
  ...rows.map((r) =>
    [r.actions, r.loops, r.branches, r.calls, r.depth, r.runs, f(r.elk.convert), f(r.elk.layout), f(r.elk.render), f(r.elk.total), r.elk.last.size, f2(r.chains.layout), f2(r.chains.total), r.same, f(r.dagre.convert), f(r.dagre.layout), r.dagre.last.size, r.ratio.toFixed(2), r.chainsOverElk.toFixed(4)].join(' '),
  ),
  '',
].join('\n');
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results/layout.txt'), txt);

const at200 = rows.find((r) => r.actions === 200);
const md = [
  '# SEFF diagram layout: results',
  '',
  `Produced by \`node benchmarks/diagram/run.mjs\` (README.md says what is measured); the raw numbers are in \`results/layout.txt\`.`,
  '',
  `- Date: ${date}`,
  `- Machine: ${machine}`,
  `- Libraries: ${versions} (the versions in vscode-extension/package-lock.json)`,
  `- Graphs: ${sources.join('; ')}`,
  `- Runs: ${WARMUP} warm-up runs, then the median of ${rows.map((r) => `${r.runs} (${r.actions})`).join(', ')} runs`,
  `- Machine load: both cores ${busy} busy during the run (about 50 % is this benchmark alone on one core; more means another program shared the machine)`,
  '',
  'ELK: the extension\'s conversion (keyed + seffToElk), `elk.layout` (layered, top to bottom, INCLUDE_CHILDREN), and the SVG markup (renderGraph). **Chains**: the same conversion, `chainLayout` (what the webview uses for a SEFF made of chains: every well-formed one), and the SVG markup; "same SVG" says whether its markup equals ELK\'s character for character. dagre: the same ELK input flattened into a dagre compound graph, then `dagre.layout` (TB). **ELK / dagre** divides the layout times (above 1.00x ELK is slower); **chains / ELK** divides the totals.',
  '',
  '| actions | loops | branches | calls | depth | ELK convert | ELK layout | SVG markup | **ELK total** | chains layout | **chains total** | same SVG | dagre layout | **ELK / dagre layout** | **chains / ELK total** |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.actions} | ${r.loops} | ${r.branches} | ${r.calls} | ${r.depth} | ${f(r.elk.convert)} ms | ${f(r.elk.layout)} ms | ${f(r.elk.render)} ms | **${f(r.elk.total)} ms** | ${f2(r.chains.layout)} ms | **${f2(r.chains.total)} ms** | ${r.same ? 'yes' : '**no**'} | ${f(r.dagre.layout)} ms | **${r.ratio.toFixed(2)}x** | **${r.chainsOverElk.toFixed(4)}x** |`),
  '',
  at200
    ? `**Goal: a 200-action SEFF laid out and drawn in < 500 ms.** In Node.js after warm-up: ${f2(at200.chains.total)} ms through the chain layout, ${f(at200.elk.total)} ms through ELK (conversion, layout and SVG markup). What a user waits for in VS Code is below (\`results/vscode.txt\`).`
    : '',
  '',
].join('\n');
// The section on VS Code is written by hand from results/vscode.txt: kept as it is.
const resultsFile = path.join(here, 'RESULTS.md');
const previous = fs.existsSync(resultsFile) ? fs.readFileSync(resultsFile, 'utf8') : '';
const kept = previous.indexOf('\n## In VS Code');
fs.writeFileSync(resultsFile, kept >= 0 ? md + previous.slice(kept) : md);
console.log(`wrote ${path.relative(root, path.join(here, 'results/layout.txt'))} and RESULTS.md`);
