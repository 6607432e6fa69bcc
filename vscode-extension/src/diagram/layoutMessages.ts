// Messages between the extension host and its layout thread (layoutWorker.ts). Plain data: they
// cross a worker_threads channel (structured clone).

import type { ElkNode } from 'elkjs/lib/elk-api';

export type ToLayoutThread = { type: 'layout'; id: number; graph: ElkNode } | { type: 'warmUp'; runs: number; budgetMs: number };

export type FromLayoutThread =
  | { type: 'laidOut'; id: number; layout: ElkNode; ms: number }
  | { type: 'failed'; id: number; message: string }
  /** After each warm-up layout: how many are done, and how long the last one took. */
  | { type: 'warmingUp'; runs: number; lastMs: number; totalMs: number; done: boolean };
