// The results webview's HTML: no remote content, a CSP that allows only our bundled script
// (with a fresh nonce) and our inline style. Pure so the CSP is unit-tested.

import { esc } from './escape';

export function nonce(random: () => number = Math.random): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < 32; i++) s += chars[Math.floor(random() * chars.length)];
  return s;
}

/** Beagle's webviews' Content-Security-Policy: nothing remote, only the webview's own images,
 * styles and fonts, the script and inline style carrying `nonce`. */
export function webviewCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

export function resultsHtml(opts: { cspSource: string; nonce: string; scriptUri: string; title: string }): string {
  const { cspSource, nonce: n, scriptUri } = opts;
  const csp = webviewCsp(cspSource, n);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${esc(opts.title)}</title>
<style nonce="${n}">
  body { color: var(--vscode-foreground); background: var(--vscode-editor-background);
         font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); padding: 0 16px 16px; }
  h1 { font-size: 1.3em; font-weight: 600; }
  .controls { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin-bottom: 8px; }
  select, input, button { font-family: inherit; font-size: inherit; }
  select, input { color: var(--vscode-input-foreground); background: var(--vscode-input-background);
                  border: 1px solid var(--vscode-input-border, var(--vscode-panel-border)); padding: 2px 4px; }
  select { color: var(--vscode-dropdown-foreground); background: var(--vscode-dropdown-background);
           border-color: var(--vscode-dropdown-border, var(--vscode-panel-border)); }
  input[type=number] { width: 8em; }
  button { color: var(--vscode-button-foreground); background: var(--vscode-button-background);
           border: none; padding: 4px 10px; cursor: pointer; }
  button:hover { background: var(--vscode-button-hoverBackground); }
  #fixed { display: flex; flex-wrap: wrap; gap: 12px; }
  .chart-box { position: relative; height: 420px; margin: 8px 0 16px; }
  #message { color: var(--vscode-descriptionForeground); margin: 4px 0; }
  table { border-collapse: collapse; margin: 8px 0 16px; }
  th, td { border: 1px solid var(--vscode-panel-border, #8884); padding: 2px 8px; text-align: right; }
  th { background: var(--vscode-editorWidget-background); }
  #quality th { text-align: left; }
  #quality td { text-align: left; }
  td.expression { font-family: var(--vscode-editor-font-family); }
  ul.reasons { color: var(--vscode-editorWarning-foreground, #b58900); margin: 4px 0; }
  ul.reasons li::before { content: "preliminary: "; font-weight: bold; }
  ul.notes { color: var(--vscode-descriptionForeground); margin: 4px 0 12px; }
  #unmodelled-table td { text-align: left; }
  #unmodelled-table tr[data-overpredicted=true] td.share { font-style: italic; }
  #unmodelled-table tr[data-status=preliminary] td.status { color: var(--vscode-editorWarning-foreground, #b58900); }
  .hint { color: var(--vscode-descriptionForeground); margin: 4px 0; }
</style>
</head>
<body>
<h1 id="title">${esc(opts.title)}</h1>
<section id="unmodelled" hidden>
<h2>Unmodelled time</h2>
<p class="hint">Per SEFF at its last validation: the measured total less the model's prediction of its parts.</p>
<table id="unmodelled-table"></table>
</section>
<div class="controls">
  <label>Result <select id="result"></select></label>
  <label>Parameter <select id="parameter"></select></label>
  <button id="reset-zoom" type="button" title="Undo zoom and pan">Reset zoom</button>
</div>
<div class="controls" id="fixed" hidden></div>
<div id="message" hidden></div>
<div class="chart-box"><canvas id="chart" aria-label="Measured medians, quartile band and fitted curve"></canvas></div>
<h2>Quality</h2>
<ul id="reasons" class="reasons" aria-label="Why preliminary" hidden></ul>
<table id="quality"></table>
<ul id="notes" class="notes" aria-label="Notes" hidden></ul>
<h2>Measured points</h2>
<table id="points"></table>
<script nonce="${n}" src="${scriptUri}"></script>
</body>
</html>`;
}
