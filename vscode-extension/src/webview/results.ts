// The results view inside the webview (browser side): Chart.js with the medians as points, the
// Q1..Q3 band, and the fitted expression as a curve over the chosen parameter, the others held at
// editable values. The expression is evaluated by the server (beagle.evaluate) through the
// extension, so the view shows exactly what Beagle computes. Colours follow the VS Code theme.

import {
  Chart,
  Filler,
  Legend,
  LineController,
  LineElement,
  LinearScale,
  PointElement,
  ScatterController,
  Tooltip,
  type ChartDataset,
} from 'chart.js';
import zoomPlugin from 'chartjs-plugin-zoom';
import type { ElementResults, FittedResult, FromWebview, ToWebview } from '../protocol';
import {
  bindings,
  defaultFixed,
  defaultParameter,
  formatNumber,
  gridFor,
  parameterNames,
  pointBindings,
  splitBySlice,
  evidenceRows,
  qualityRows,
  reasonsAndNotes,
  resultLabel,
  tableRows,
  showsExecutions,
  type Values,
} from './model';
import { unmodelledTable } from './unmodelled';

Chart.register(LineController, ScatterController, LineElement, PointElement, LinearScale, Filler, Legend, Tooltip, zoomPlugin);

declare function acquireVsCodeApi(): { postMessage(message: FromWebview): void };
const vscode = acquireVsCodeApi();

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const resultSelect = $<HTMLSelectElement>('result');
const parameterSelect = $<HTMLSelectElement>('parameter');
const fixedBox = $<HTMLDivElement>('fixed');
const quality = $<HTMLTableElement>('quality');
const reasonsList = $<HTMLUListElement>('reasons');
const notesList = $<HTMLUListElement>('notes');
const table = $<HTMLTableElement>('points');
const message = $<HTMLDivElement>('message');
const canvas = $<HTMLCanvasElement>('chart');

let data: ElementResults | null = null;
let fixed: Values = {};
let chart: Chart | null = null;
let nextRequest = 1;
const pending = new Map<number, (r: { values?: (number | null)[]; error?: string }) => void>();

/** Asks the extension to evaluate the expression (it forwards to beagle.evaluate). */
function evaluate(expression: string, b: Values[]): Promise<{ values?: (number | null)[]; error?: string }> {
  if (b.length === 0) return Promise.resolve({ values: [] });
  const requestId = nextRequest++;
  return new Promise((resolve) => {
    pending.set(requestId, resolve);
    vscode.postMessage({ type: 'evaluate', requestId, expression, bindings: b });
  });
}

function css(name: string, fallback: string): string {
  const v = getComputedStyle(document.body).getPropertyValue(name).trim();
  return v || fallback;
}

/** A CSS colour with an alpha, for the band: theme colours come as #rrggbb (or #rrggbbaa). */
function withAlpha(colour: string, alpha: number): string {
  const m = /^#([0-9a-f]{6})/i.exec(colour);
  if (!m) return colour;
  const n = parseInt(m[1], 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

function theme() {
  return {
    fg: css('--vscode-editor-foreground', '#cccccc'),
    grid: css('--vscode-editorWidget-border', css('--vscode-panel-border', '#80808040')),
    points: css('--vscode-charts-blue', '#3794ff'),
    band: css('--vscode-charts-blue', '#3794ff'),
    curve: css('--vscode-charts-orange', '#d18616'),
    font: css('--vscode-font-family', 'sans-serif'),
  };
}

function current(): FittedResult | null {
  if (!data || data.results.length === 0) return null;
  return data.results[Number(resultSelect.value) || 0] ?? data.results[0];
}

function showMessage(text: string) {
  message.textContent = text;
  message.hidden = text === '';
}

/** A row per SEFF with an unmodelled time (an older server sends none). */
function fillUnmodelled(d: ElementResults) {
  const list = d.unmodelled ?? [];
  $<HTMLTableElement>('unmodelled-table').innerHTML = unmodelledTable(list);
  $<HTMLElement>('unmodelled').hidden = list.length === 0;
}

function fillResults(d: ElementResults) {
  resultSelect.replaceChildren(
    ...d.results.map((r, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = resultLabel(r);
      return o;
    }),
  );
  resultSelect.disabled = d.results.length <= 1;
}

function fillParameters(r: FittedResult) {
  const names = parameterNames(r);
  parameterSelect.replaceChildren(
    ...names.map((n) => {
      const o = document.createElement('option');
      o.value = n;
      o.textContent = n;
      return o;
    }),
  );
  parameterSelect.value = defaultParameter(r);
  parameterSelect.disabled = names.length <= 1;
}

/** Inputs for the parameters held fixed; editing one redraws the curve and the slice. */
function fillFixed(r: FittedResult, chosen: string) {
  fixed = defaultFixed(r, chosen);
  fixedBox.replaceChildren(
    ...Object.entries(fixed).map(([name, value]) => {
      const label = document.createElement('label');
      label.textContent = `${name} = `;
      const input = document.createElement('input');
      input.type = 'number';
      input.step = 'any';
      input.value = String(value);
      input.dataset.parameter = name;
      input.addEventListener('change', () => {
        const v = Number(input.value);
        if (input.value.trim() !== '' && Number.isFinite(v)) {
          fixed[name] = v;
          void draw();
        }
      });
      label.append(input);
      return label;
    }),
  );
  fixedBox.hidden = Object.keys(fixed).length === 0;
}

function fillList(list: HTMLUListElement, items: string[]) {
  list.replaceChildren(
    ...items.map((text) => {
      const li = document.createElement('li');
      li.textContent = text;
      return li;
    }),
  );
  list.hidden = items.length === 0;
}

function fillQuality(r: FittedResult) {
  const { reasons, notes } = reasonsAndNotes(r);
  fillList(reasonsList, reasons);
  fillList(notesList, notes);
  quality.replaceChildren(
    ...[...qualityRows(r), ...evidenceRows(r)].map(([k, v]) => {
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.textContent = k;
      const td = document.createElement('td');
      td.textContent = v;
      if (k === 'Expression') td.className = 'expression';
      tr.append(th, td);
      return tr;
    }),
  );
}

function fillTable(r: FittedResult, fitted: (number | null)[] | null) {
  const names = parameterNames(r);
  const executions = showsExecutions(r);
  const head = document.createElement('tr');
  for (const h of [...names, 'n', ...(executions ? ['executions'] : []), 'median', 'Q1', 'Q3', 'fitted']) {
    const th = document.createElement('th');
    th.textContent = h;
    head.append(th);
  }
  const rows = tableRows(r, fitted).map((row) => {
    const tr = document.createElement('tr');
    const counts = executions ? [row.n, row.executions] : [row.n];
    for (const v of [...row.parameters, ...counts, row.median, row.q1, row.q3, row.fitted]) {
      const td = document.createElement('td');
      td.textContent = formatNumber(v);
      tr.append(td);
    }
    return tr;
  });
  const thead = document.createElement('thead');
  thead.append(head);
  const tbody = document.createElement('tbody');
  tbody.append(...rows);
  table.replaceChildren(thead, tbody);
}

let drawing = 0;

/** Draws the chart and the table for the selected result, parameter and fixed values. */
async function draw() {
  const r = current();
  const ticket = ++drawing;
  if (!r) {
    showMessage('No results yet: analyse the element first.');
    chart?.destroy();
    chart = null;
    quality.replaceChildren();
    fillList(reasonsList, []);
    fillList(notesList, []);
    table.replaceChildren();
    return;
  }
  const chosen = parameterSelect.value || parameterNames(r)[0] || '';
  const xs = chosen ? gridFor(r, chosen) : [0];
  const curveBindings = chosen ? bindings(xs, chosen, fixed) : [{}];
  const atPoints = pointBindings(r);
  // One request for the curve and the table's fitted column.
  const answer = await evaluate(r.expression, [...curveBindings, ...atPoints]);
  if (ticket !== drawing) return; // a newer draw started meanwhile
  const values = answer.values ?? null;
  showMessage(answer.error ? `The expression could not be evaluated: ${answer.error}` : '');
  const curve = values ? values.slice(0, curveBindings.length) : [];
  const fittedAtPoints = values ? values.slice(curveBindings.length) : null;
  fillTable(r, fittedAtPoints);

  const { on: slice, off } = splitBySlice(r, chosen, fixed);
  if (slice.length === 0 && r.points.length > 0 && !answer.error) {
    showMessage('No measured point has exactly these fixed values: the faded points were measured at other values of them.');
  }
  const t = theme();
  const datasets: ChartDataset<'line' | 'scatter', { x: number; y: number | null }[]>[] = [
    {
      type: 'line',
      label: 'Q1',
      data: slice.map((p) => ({ x: p.x, y: p.q1 })),
      borderColor: withAlpha(t.band, 0.4),
      borderWidth: 1,
      pointRadius: 0,
      fill: false,
    },
    {
      type: 'line',
      label: 'Q1–Q3',
      data: slice.map((p) => ({ x: p.x, y: p.q3 })),
      borderColor: withAlpha(t.band, 0.4),
      backgroundColor: withAlpha(t.band, 0.2),
      borderWidth: 1,
      pointRadius: 0,
      fill: '-1', // the band between Q1 (the dataset before) and Q3
    },
    {
      type: 'scatter',
      label: 'median',
      data: slice.map((p) => ({ x: p.x, y: p.median })),
      borderColor: t.points,
      backgroundColor: t.points,
      pointRadius: 4,
    },
    {
      type: 'scatter',
      // Short legend labels: a long one is wider than a narrow panel, and Chart.js centres it,
      // cutting both ends. The details are in the tooltip and in #quality.
      label: 'median, others differ',
      data: off.map((p) => ({ x: p.x, y: p.median })),
      borderColor: withAlpha(t.points, 0.35),
      backgroundColor: withAlpha(t.points, 0.15),
      pointRadius: 3,
      hidden: off.length === 0,
    },
    {
      type: 'line',
      label: 'fitted',
      data: xs.map((x, i) => ({ x, y: curve[i] ?? null })),
      borderColor: t.curve,
      backgroundColor: t.curve,
      borderWidth: 2,
      pointRadius: 0,
      spanGaps: false,
      fill: false,
    },
  ];
  const scale = (title: string) => ({
    type: 'linear' as const,
    title: { display: true, text: title, color: t.fg },
    ticks: { color: t.fg },
    grid: { color: t.grid },
  });
  if (chart) chart.destroy();
  chart = new Chart(canvas, {
    type: 'scatter',
    data: { datasets: datasets as ChartDataset<'scatter', { x: number; y: number | null }[]>[] },
    options: {
      animation: false,
      maintainAspectRatio: false,
      font: { family: t.font },
      scales: { x: scale(chosen || '(no parameters)'), y: scale(r.what) },
      plugins: {
        legend: { labels: { color: t.fg, filter: (item, d) => item.text !== 'Q1' && (d.datasets[item.datasetIndex ?? 0]?.data.length ?? 0) > 0 } },
        tooltip: { callbacks: { label: (c) => `${c.dataset.label}: (${formatNumber(c.parsed.x)}, ${formatNumber(c.parsed.y)})` } },
        zoom: {
          zoom: { wheel: { enabled: true }, pinch: { enabled: true }, mode: 'xy' },
          pan: { enabled: true, mode: 'xy' },
        },
      },
    },
  });
}

function selectResult() {
  const r = current();
  if (!r) return void draw();
  fillParameters(r);
  fillFixed(r, parameterSelect.value);
  fillQuality(r);
  void draw();
}

resultSelect.addEventListener('change', selectResult);
parameterSelect.addEventListener('change', () => {
  const r = current();
  if (!r) return;
  fillFixed(r, parameterSelect.value);
  void draw();
});
$<HTMLButtonElement>('reset-zoom').addEventListener('click', () => chart?.resetZoom());

window.addEventListener('message', (event: MessageEvent<ToWebview>) => {
  const m = event.data;
  if (m.type === 'results') {
    data = m.data;
    $<HTMLHeadingElement>('title').textContent = m.title;
    fillResults(m.data);
    fillUnmodelled(m.data);
    selectResult();
  } else if (m.type === 'evaluated') {
    pending.get(m.requestId)?.({ values: m.values, error: m.error });
    pending.delete(m.requestId);
  }
});

// A theme change switches the body's class; redraw so the chart takes the new colours.
new MutationObserver(() => void draw()).observe(document.body, { attributes: true, attributeFilter: ['class'] });

vscode.postMessage({ type: 'ready' });
