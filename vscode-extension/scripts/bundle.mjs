// Bundles the extension (Node, CommonJS, `vscode` provided by the host), its layout thread (Node,
// with ELK: elkjs's bundled build, run in a worker_threads worker) and the two webview scripts
// (browser, IIFE, their libraries inside: the webview's CSP allows no remote content): the
// results view with Chart.js and its zoom plugin, the diagram view (no ELK: it asks the
// extension for layouts).
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
  esbuild.build({ ...common, minify: true, sourcemap: false, entryPoints: ['src/diagram/layoutWorker.ts'], outfile: 'dist/layoutWorker.js', platform: 'node', format: 'cjs', target: 'node18' }),
  esbuild.build({ ...webview, entryPoints: ['src/webview/diagram.ts'], outfile: 'dist/diagram.js' }),
]);
