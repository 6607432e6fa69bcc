// The diagram webview's HTML: the header (title, predicted time, the SEFF's unmodelled time,
// inputs), the SVG the diagram script draws into, and the node context menu. The same CSP as the
// results view: only our bundled script (with a fresh nonce) and our style. Pure so the CSP is
// unit-tested.

import { esc } from './escape';
import { webviewCsp } from './resultsHtml';

export function diagramHtml(opts: { cspSource: string; nonce: string; scriptUri: string; title: string }): string {
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
  :root {
    --final: var(--vscode-testing-iconPassed, #73c991);
    --preliminary: var(--vscode-editorWarning-foreground, #cca700);
    --unmeasured: var(--vscode-disabledForeground, #8b8b8b);
    --heat: var(--vscode-charts-red, #f14c4c);
    --line: var(--vscode-editorLineNumber-foreground, #858585);
  }
  html, body { height: 100%; margin: 0; }
  [hidden] { display: none !important; }
  body { display: flex; flex-direction: column; color: var(--vscode-foreground);
         background: var(--vscode-editor-background); font-family: var(--vscode-font-family);
         font-size: var(--vscode-font-size); overflow: hidden; }
  header { padding: 6px 12px; border-bottom: 1px solid var(--vscode-panel-border, #8884); }
  h1 { font-size: 1.15em; font-weight: 600; margin: 0 12px 0 0; display: inline; }
  .row { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin: 2px 0; }
  #prediction { color: var(--vscode-descriptionForeground); }
  #unmodelled { border: 1px solid var(--heat); border-radius: 8px; padding: 0 8px; cursor: help; }
  #unmodelled[data-overpredicted=true] { border-color: var(--unmeasured); font-style: italic; }
  #unmodelled[data-status=preliminary] { border-style: dashed; }
  text.unmodelled { fill: var(--heat); }
  text.unmodelled[data-overpredicted=true] { fill: var(--vscode-descriptionForeground); font-style: italic; }
  #problems { color: var(--vscode-editorWarning-foreground, #cca700); margin: 2px 0; padding-left: 18px; }
  #message { color: var(--vscode-errorForeground); }
  input, button { font-family: inherit; font-size: inherit; }
  input { color: var(--vscode-input-foreground); background: var(--vscode-input-background);
          border: 1px solid var(--vscode-input-border, var(--vscode-panel-border)); padding: 1px 4px; width: 7em; }
  .hint { color: var(--vscode-descriptionForeground); margin-left: 4px; }
  button { color: var(--vscode-button-secondaryForeground, var(--vscode-button-foreground));
           background: var(--vscode-button-secondaryBackground, var(--vscode-button-background));
           border: none; padding: 2px 10px; cursor: pointer; }
  .legend { color: var(--vscode-descriptionForeground); display: flex; gap: 10px; align-items: center; }
  .swatch { display: inline-block; width: 10px; height: 10px; border: 2px solid; border-radius: 3px; margin-right: 3px; vertical-align: middle; }
  .swatch.final { border-color: var(--final); } .swatch.preliminary { border-color: var(--preliminary); }
  .swatch.unmeasured { border-color: var(--unmeasured); } .swatch.heat { background: var(--heat); border-color: var(--heat); }
  #diagram { flex: 1; width: 100%; min-height: 0; cursor: grab; user-select: none; touch-action: none; }
  #diagram.dragging { cursor: grabbing; }
  text { fill: var(--vscode-foreground); font-size: 12px; font-family: var(--vscode-font-family); }
  text.name { font-weight: 600; }
  text.law { font-family: var(--vscode-editor-font-family, monospace); fill: var(--vscode-descriptionForeground); }
  .node[data-status=final] > text.law, .node[data-status=preliminary] > text.law { fill: var(--vscode-foreground); }
  text.share { font-weight: 600; fill: var(--heat); }
  text.callee, text.seff { fill: var(--vscode-textLink-foreground); cursor: pointer; }
  text.callee:hover, text.seff:hover { text-decoration: underline; }
  text.condition, text.type, text.roles { fill: var(--vscode-descriptionForeground); font-style: italic; }
  .node, .component { cursor: pointer; }
  .frame { fill: var(--vscode-editorWidget-background, #252526); stroke: var(--unmeasured); stroke-width: 1.5; }
  .node[data-status=final] > .frame { stroke: var(--final); stroke-width: 2; }
  .node[data-status=preliminary] > .frame { stroke: var(--preliminary); stroke-width: 2; }
  .node[data-kind=ExternalCallAction] > .frame { stroke-dasharray: 7 3; }
  .node.container > .frame { fill: var(--vscode-editor-background); }
  .container.body > .frame { fill: none; stroke: var(--vscode-panel-border, #8886); stroke-dasharray: 3 3; stroke-width: 1; }
  .component > .frame { stroke: var(--vscode-foreground); stroke-width: 1; }
  .tint, .heat { fill: var(--heat); pointer-events: none; }
  .start, .stop { fill: var(--vscode-foreground); }
  .stop-ring { fill: none; stroke: var(--vscode-foreground); stroke-width: 1.5; }
  .edge { fill: none; stroke: var(--line); stroke-width: 1.2; }
  .arrowhead { fill: var(--line); }
  .node.selected[data-status] > .frame, .node.selected > .start, .node.selected > .stop-ring, .component.selected > .frame
    { stroke: var(--vscode-focusBorder, #007fd4); stroke-width: 3; }
  #menu { position: fixed; z-index: 10; display: flex; flex-direction: column; padding: 4px 0; min-width: 180px;
          background: var(--vscode-menu-background, var(--vscode-editorWidget-background));
          color: var(--vscode-menu-foreground, var(--vscode-foreground));
          border: 1px solid var(--vscode-menu-border, var(--vscode-panel-border, #8886)); box-shadow: 0 2px 8px #0006; }
  #menu button { background: none; color: inherit; text-align: left; padding: 4px 16px; }
  #menu button:hover, #menu button:focus { background: var(--vscode-menu-selectionBackground, var(--vscode-list-activeSelectionBackground));
          color: var(--vscode-menu-selectionForeground, var(--vscode-list-activeSelectionForeground)); outline: none; }
</style>
</head>
<body>
<header>
  <div class="row"><h1 id="title">${esc(opts.title)}</h1><span id="prediction"></span><span id="unmodelled" hidden></span>
    <button id="fit" type="button" title="Show the whole diagram">Fit</button>
    <span class="legend" id="legend"><span><span class="swatch final"></span>final</span><span><span class="swatch preliminary"></span>preliminary</span><span><span class="swatch unmeasured"></span>unmeasured</span><span><span class="swatch heat"></span>share of the predicted time</span></span>
  </div>
  <ul id="problems" hidden></ul>
  <div id="inputs" class="row" hidden></div>
  <div id="message" hidden></div>
</header>
<svg id="diagram" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Diagram">
  <defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path class="arrowhead" d="M0 0 L10 5 L0 10 z"/></marker></defs>
  <g id="viewport"><g id="content"></g></g>
</svg>
<div id="menu" role="menu" hidden>
  <button type="button" role="menuitem" data-action="analyse">Analyse this action</button>
  <button type="button" role="menuitem" data-action="results">Show results</button>
  <button type="button" role="menuitem" data-action="link">Link to code</button>
</div>
<script nonce="${n}" src="${scriptUri}"></script>
</body>
</html>`;
}
