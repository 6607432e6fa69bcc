// Bundles the extension (Node, CommonJS, `vscode` provided by the host) and the two webview
// scripts (browser, IIFE, their libraries inside: the webview's CSP allows no remote content):
// the results view with Chart.js and its zoom plugin, the diagram view with ELK (elkjs's
// bundled build: the layout runs in the webview's own thread, no worker script to allow).
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const common = { bundle: true, minify: production, sourcemap: !production, logLevel: 'info' };
const webview = { ...common, platform: 'browser', format: 'iife', target: 'es2020' };

await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    external: ['vscode'],
  }),
  esbuild.build({ ...webview, entryPoints: ['src/webview/results.ts'], outfile: 'dist/results.js' }),
  // Minified always: most of it is ELK (already minified, 1.6 MB; reformatted it doubles).
  esbuild.build({ ...webview, minify: true, entryPoints: ['src/webview/diagram.ts'], outfile: 'dist/diagram.js' }),
]);
