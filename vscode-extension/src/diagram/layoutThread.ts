// The extension's side of the layout thread (layoutWorker.ts): starts it, warms it, sends it
// graphs and answers each with its layout. It restarts the thread when it died, gives up on a
// layout that takes longer than `timeoutMs` (the thread is stopped and started afresh), and keeps
// the last layouts by their input (reopening a diagram, or undoing an edit, lays out nothing).
// Node only (no `vscode`): the unit tests run it as it is.

import type { ElkNode } from 'elkjs/lib/elk-api';
import { Worker } from 'node:worker_threads';
import type { FromLayoutThread, ToLayoutThread } from './layoutMessages';

export interface LaidOut {
  layout: ElkNode;
  /** ELK's time in the thread (0 when cached). */
  ms: number;
  cached: boolean;
  /** Warm-up layouts the thread had done when this one was asked for. */
  warmUpRuns: number;
}

/** What the diagram panels need: a graph laid out. */
export interface DiagramLayouts {
  layout(graph: ElkNode): Promise<LaidOut>;
}

export interface LayoutThreadOptions {
  /** Warm-up layouts of a 60-action SEFF, and the most layout time they may take. */
  warmUpRuns?: number;
  warmUpBudgetMs?: number;
  timeoutMs?: number;
  cacheSize?: number;
  log?: (line: string) => void;
}

interface Pending {
  resolve: (l: LaidOut) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
  warmUpRuns: number;
}

export class LayoutThread implements DiagramLayouts {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private readonly cache = new Map<string, ElkNode>();
  private nextId = 0;
  private warmUpRuns = 0;
  private disposed = false;
  private readonly options: Required<Omit<LayoutThreadOptions, 'timeoutMs'>>;
  /** How long one layout may take before the thread is stopped and started afresh. */
  timeoutMs: number;

  constructor(
    private readonly workerFile: string,
    options: LayoutThreadOptions = {},
  ) {
    const { timeoutMs = 60_000, ...rest } = options;
    this.timeoutMs = timeoutMs;
    this.options = { warmUpRuns: 4, warmUpBudgetMs: 5_000, cacheSize: 24, log: () => {}, ...rest };
  }

  /** Starts the thread and has it warm ELK up in the background. */
  warmUp(): void {
    this.post({ type: 'warmUp', runs: this.options.warmUpRuns, budgetMs: this.options.warmUpBudgetMs });
  }

  /** The warm-up layouts done so far. */
  get warmedUpRuns(): number {
    return this.warmUpRuns;
  }

  layout(graph: ElkNode): Promise<LaidOut> {
    if (this.disposed) return Promise.reject(new Error('the layout thread has stopped'));
    const key = JSON.stringify(graph);
    const hit = this.cache.get(key);
    if (hit) {
      // Most recently used last.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return Promise.resolve({ layout: structuredClone(hit), ms: 0, cached: true, warmUpRuns: this.warmUpRuns });
    }
    const id = ++this.nextId;
    return new Promise<LaidOut>((resolve, reject) => {
      const limit = this.timeoutMs;
      const timer = setTimeout(() => this.restart(`ELK did not finish a layout in ${limit / 1000} s`), limit);
      this.pending.set(id, {
        resolve: (l) => {
          this.remember(key, l.layout);
          resolve(l);
        },
        reject,
        timer,
        warmUpRuns: this.warmUpRuns,
      });
      this.post({ type: 'layout', id, graph });
    });
  }

  dispose(): void {
    this.disposed = true;
    this.fail('the layout thread has stopped');
    void this.worker?.terminate();
    this.worker = null;
  }

  private post(m: ToLayoutThread): void {
    if (this.disposed) return;
    this.thread().postMessage(m);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerFile);
    worker.on('message', (m: FromLayoutThread) => this.receive(m));
    worker.on('error', (e) => {
      if (this.worker === worker) this.restart(`the layout thread failed: ${e.message}`);
    });
    worker.on('exit', (code) => {
      if (this.worker === worker && !this.disposed) this.restart(`the layout thread exited (code ${code})`);
    });
    // The thread alone must not keep a process (the tests', a CLI's) alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private receive(m: FromLayoutThread): void {
    if (m.type === 'warmingUp') {
      this.warmUpRuns = m.runs;
      if (m.done) this.options.log(`Layout thread warmed up: ${m.runs} layouts of 60 actions in ${(m.totalMs / 1000).toFixed(1)} s, the last in ${m.lastMs.toFixed(0)} ms`);
      return;
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.type === 'laidOut') p.resolve({ layout: m.layout, ms: m.ms, cached: false, warmUpRuns: p.warmUpRuns });
    else p.reject(new Error(`ELK could not lay the diagram out: ${m.message}`));
  }

  /** Fails what is waiting and drops the thread; the next request starts a new one. */
  private restart(why: string): void {
    this.options.log(`Layout thread: ${why}; it starts again on the next diagram.`);
    this.fail(why);
    const worker = this.worker;
    this.worker = null;
    this.warmUpRuns = 0;
    void worker?.terminate();
  }

  private fail(why: string): void {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(new Error(why));
    }
    this.pending.clear();
  }

  private remember(key: string, layout: ElkNode): void {
    this.cache.set(key, structuredClone(layout));
    while (this.cache.size > this.options.cacheSize) this.cache.delete(this.cache.keys().next().value as string);
  }
}
