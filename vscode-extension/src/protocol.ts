// The shapes and names of the Beagle language server's commands and notifications, as the
// contract (README.md, "Server protocol") fixes them. No `vscode` import: the webview and the
// unit tests use these types too.

/** Server command ids. vscode-languageclient registers these itself from the server's
 * executeCommandProvider, so the extension uses its own `beagle.vscode.*` ids. */
export const ServerCommand = {
  analyseRepository: 'beagle.analyseRepository',
  analyseComponent: 'beagle.analyseComponent',
  analyseAction: 'beagle.analyseAction',
  analyseWorkspace: 'beagle.analyseWorkspace',
  pause: 'beagle.pause',
  resume: 'beagle.resume',
  abort: 'beagle.abort',
  applyResults: 'beagle.applyResults',
  discardResults: 'beagle.discardResults',
  status: 'beagle.status',
  linkToCode: 'beagle.linkToCode',
  elementAt: 'beagle.elementAt',
  elementResults: 'beagle.elementResults',
  evaluate: 'beagle.evaluate',
} as const;

export const STATUS_NOTIFICATION = 'beagle/status';

export interface RunningJob {
  id: number | string;
  label: string;
  paused: boolean;
  percentage: number | null;
  message: string | null;
}

/** `beagle.status`'s result; the `beagle/status` notification has the same shape without `results`. */
export interface StatusPayload {
  running: RunningJob | null;
  queued: { id: number | string; label: string }[];
  last: string | null;
  paused: boolean;
  results?: { repository: string; stage: string | null; results: number; headline: string }[];
}

/** The answer of an analyse command: the job is queued, the outcome comes later. */
export interface QueuedJob {
  queued: boolean;
  job: number | string;
  ahead: number;
  label: string;
}

export type ElementKind = 'repository' | 'component' | 'seff' | 'action' | 'other';

/** `beagle.elementAt`'s result (or null when the position is in no element). */
export interface ElementAt {
  kind: ElementKind;
  actionKind: string | null;
  id: string | null;
  name: string | null;
  component: string | null;
  componentName: string | null;
}

export interface MeasuredPoint {
  parameters: [string, number][];
  /** Observations the statistics are over. */
  n: number;
  /** The element's measured runs behind them (more than `n` where an observation stands for
   * several runs or the point kept a bounded sample); absent from older servers. */
  executions?: number;
  median: number;
  q1: number;
  q3: number;
}

/** What the measurements support (the server's `ProposalEvidence`; optional fields are absent
 * when unknown). Errors are relative (a share, 0.05 = 5 %) when `relative`, else absolute. */
export interface Evidence {
  points: number;
  observations: number;
  /** Fewest and median repetitions per point. */
  repetitions: [number, number];
  /** Runs (Java: launch points) the points came from, when fewer than the points. */
  runs?: number;
  max_constants: number;
  constants: number;
  dependency_p?: number;
  relative: boolean;
  noise?: number;
  holdout_error?: number;
  constant_holdout_error?: number;
  better_than_constant_p?: number;
  band?: number;
  /** 95 % intervals of the fitted constants, in the expression's order. */
  intervals?: { value: number; low: number; high: number }[];
  /** [kept, dropped] inputs that always had proportional values. */
  equivalent?: [string, string][];
  is_final: boolean;
  reasons?: string[];
  notes?: string[];
}

export interface FittedResult {
  element: string;
  action: string;
  actionName: string | null;
  what: string;
  expression: string;
  guard: string | null;
  status: 'Preliminary' | 'Final';
  r2: number | null;
  relative_error: number | null;
  samples: number;
  parameter_ranges: [string, number, number][];
  points: MeasuredPoint[];
  /** Why the result is preliminary (absent or empty when final). */
  reasons?: string[];
  evidence?: Evidence | null;
}

/** `beagle.elementResults`'s result. */
export interface ElementResults {
  repository: string;
  stage: string | null;
  /** The analysis's one-line summary, when the repository has results. */
  headline?: string | null;
  name: string | null;
  results: FittedResult[];
}

/** `beagle.evaluate`'s argument and result. */
export interface EvaluateRequest {
  expression: string;
  bindings: Record<string, number>[];
}
export interface EvaluateResult {
  values: (number | null)[];
}

/** Messages between the results webview and the extension. */
export type ToWebview =
  | { type: 'results'; title: string; data: ElementResults }
  | { type: 'evaluated'; requestId: number; values: (number | null)[]; error?: undefined }
  | { type: 'evaluated'; requestId: number; values?: undefined; error: string };

export type FromWebview =
  | { type: 'ready' }
  | { type: 'evaluate'; requestId: number; expression: string; bindings: Record<string, number>[] };
