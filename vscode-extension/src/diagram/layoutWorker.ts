// The layout thread (a worker_threads worker in the extension host; bundled to
// dist/layoutWorker.js): ELK lays out here what chainLayout.ts cannot (the repository overview,
// SEFFs whose behaviours are not chains). Here rather than in each diagram's webview because:
// - one thread lives as long as the window, so ELK's code (Java compiled to JavaScript, which
//   V8 optimises only after several layouts) is loaded and warmed once for every diagram, and
//   the webview's script is 30 kB instead of 1.6 MB;
// - off the extension host's main thread, a long layout blocks no other extension.
// Requests and warm-up layouts run one at a time, in arrival order; a warm-up layout is queued
// only after the previous one ended, so a request waits for at most one of them.

import ELK from 'elkjs/lib/elk.bundled.js';
import { parentPort } from 'node:worker_threads';
import { seffToElk } from './elkGraph';
import type { FromLayoutThread, ToLayoutThread } from './layoutMessages';
import { keyed } from './seffModel';
import { warmUpSeff } from './warmUp';

const port = parentPort;
if (!port) throw new Error('layoutWorker.js runs as a worker thread');
const elk = new ELK();
const send = (m: FromLayoutThread) => port.postMessage(m);

let queue: Promise<void> = Promise.resolve();
const enqueue = (job: () => Promise<void>) => {
  queue = queue.then(job, job);
};

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0];

function layout(id: number, graph: Parameters<typeof elk.layout>[0]) {
  enqueue(async () => {
    const t0 = performance.now();
    try {
      const laidOut = await elk.layout(graph);
      send({ type: 'laidOut', id, layout: laidOut, ms: performance.now() - t0 });
    } catch (e) {
      send({ type: 'failed', id, message: errorText(e) });
    }
  });
}

let warming = false;
/** Lays out a made-up SEFF of 60 actions with every shape a SEFF has (warmUp.ts) `runs` times,
 * or until `budgetMs` of layout time is spent. */
function warmUp(runs: number, budgetMs: number) {
  if (warming) return;
  warming = true;
  let done = 0;
  let total = 0;
  const step = () =>
    enqueue(async () => {
      const t0 = performance.now();
      await elk.layout(seffToElk(keyed(warmUpSeff(2))).graph).catch(() => undefined);
      const ms = performance.now() - t0;
      done++;
      total += ms;
      const finished = done >= runs || total >= budgetMs;
      send({ type: 'warmingUp', runs: done, lastMs: ms, totalMs: total, done: finished });
      // The next run goes behind any request that came meanwhile.
      if (!finished) setImmediate(step);
    });
  step();
}

port.on('message', (m: ToLayoutThread) => {
  if (m.type === 'layout') layout(m.id, m.graph);
  else if (m.type === 'warmUp') warmUp(m.runs, m.budgetMs);
});
