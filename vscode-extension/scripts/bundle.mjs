// Bundles the extension (Node, CommonJS, `vscode` provided by the host) and the results
// webview script (browser, IIFE, with Chart.js and the zoom plugin inside: the webview's CSP
// allows no remote content).
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const common = { bundle: true, minify: production, sourcemap: !production, logLevel: 'info' };

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
  esbuild.build({
    ...common,
    entryPoints: ['src/webview/results.ts'],
    outfile: 'dist/results.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2020',
  }),
]);
