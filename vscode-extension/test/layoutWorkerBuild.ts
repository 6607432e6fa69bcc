// The layout thread's script as the extension ships it (scripts/bundle.mjs builds the same entry
// into dist/layoutWorker.js), built into a temporary folder for the tests that start real threads.

import * as esbuild from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let built: string | null = null;

export async function layoutWorkerFile(): Promise<string> {
  if (built) return built;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'beagle-layout-worker-'));
  const outfile = path.join(dir, 'layoutWorker.js');
  await esbuild.build({
    entryPoints: [fileURLToPath(new URL('../src/diagram/layoutWorker.ts', import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    logLevel: 'warning',
  });
  built = outfile;
  return outfile;
}
