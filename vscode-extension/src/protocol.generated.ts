// Generated from server/lsp/src/protocol (ts-rs): do not edit. `BEAGLE_UPDATE_PROTOCOL=1
// cargo test -p beagle-lsp generated_typescript` writes it again; the test fails when it is stale.

/** Server command ids (`workspace/executeCommand`). */
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
  predict: 'beagle.predict',
  seffGraph: 'beagle.seffGraph',
  repositoryGraph: 'beagle.repositoryGraph',
} as const;

export const STATUS_NOTIFICATION = 'beagle/status';

export type Target = { uri: string, id?: string, };

export type QueuedJob = { queued: boolean, job: number, 
/**
 * Jobs ahead of it (running or waiting).
 */
ahead: number, label: string, };

export type QueuedJobs = { queued: Array<QueuedJob>, problems: Array<string>, };

export type ControlAnswer = { running: boolean, job?: number, paused: boolean, };

export type Applied = { applied: boolean, };

export type Discarded = { discarded: boolean, };

export type LinkProposal = { applied: boolean, file: string, text: string, };

export type RunningJob = { id: number, label: string, paused: boolean, percentage: number, message: string, };

export type WaitingJob = { id: number, label: string, };

export type InputFileReport = { file: string, records: number, executions: number, 
/**
 * Damaged lines skipped, and the first few of them (line, why).
 */
skipped: number, skippedLines: Array<[number, string]>, 
/**
 * Records of other probes, by class.
 */
unknown: { [key in string]: number }, 
/**
 * Operations or spans no element maps to.
 */
unmapped: { [key in string]: number }, 
/**
 * Why the file was not read at all.
 */
unreadable: string | null, };

export type UnmeasuredElement = { element: string, name: string, file: string, line: number | null, };

export type InputsReport = { files: Array<InputFileReport>, unmeasured: Array<UnmeasuredElement>, };

export type RepositoryStatus = { repository: string, stage: string, results: number, headline: string, };

export type Status = { running: RunningJob | null, queued: Array<WaitingJob>, 
/**
 * How the last job ended.
 */
last: string | null, 
/**
 * What the last job's measurements were made of.
 */
inputs: InputsReport | null, 
/**
 * Paused with nothing running: the next job starts paused.
 */
paused: boolean, results?: Array<RepositoryStatus>, };

export type ElementKind = "repository" | "component" | "seff" | "action" | "other";

export type ElementAt = { kind: ElementKind, 
/**
 * The PCM type of an action (`InternalAction`, `LoopAction`, ...).
 */
actionKind: string | null, id: string | null, name: string | null, 
/**
 * The enclosing component's id and name.
 */
component: string | null, componentName: string | null, 
/**
 * The id of the SEFF holding an action (the SEFF's own for a SEFF); null elsewhere.
 */
seff: string | null, };

export type MeasuredPoint = { parameters: Array<[string, number]>, 
/**
 * Observations the statistics are over.
 */
n: number, 
/**
 * The element's measured runs behind them (more than `n` where an observation stands for
 * several runs or the point kept a bounded sample).
 */
executions: number, median: number, q1: number, q3: number, };

export type ConstantInterval = { value: number, low: number, high: number, };

export type Evidence = { points: number, observations: number, 
/**
 * Fewest and median repetitions per point.
 */
repetitions: [number, number], 
/**
 * Runs (Java: launch points) the points came from, when fewer than the points.
 */
runs?: number, maxConstants: number, constants: number, dependencyP?: number, relative: boolean, noise?: number, holdoutError?: number, constantHoldoutError?: number, betterThanConstantP?: number, band?: number, 
/**
 * 95 % intervals of the fitted constants, in the expression's order.
 */
intervals: Array<ConstantInterval>, 
/**
 * [kept, dropped] inputs that always had proportional values.
 */
equivalent: Array<[string, string]>, isFinal: boolean, reasons: Array<string>, notes: Array<string>, };

export type FitStatus = "Preliminary" | "Final";

export type FittedResult = { element: string, action: string, actionName: string | null, 
/**
 * What is measured, for people: `CPU demand`, `loop iterations`, `branch -> large`.
 */
what: string, 
/**
 * StoEx.
 */
expression: string, 
/**
 * For a branch transition the inputs decide: when it is taken (StoEx).
 */
guard: string | null, status: FitStatus, r2: number | null, relativeError: number | null, samples: number, 
/**
 * Per input: the smallest and largest value measured.
 */
parameterRanges: Array<[string, number, number]>, points: Array<MeasuredPoint>, 
/**
 * Why the result is preliminary (empty when final).
 */
reasons: Array<string>, evidence: Evidence | null, 
/**
 * A demand's law (`expression` is in ms) in the work units it is written in, and on which
 * container: `in work units: 7.5E7 CPU units on AppServer at 1E9/s`; or why it is not
 * written. Absent without a resource environment.
 */
workUnits?: string, };

export type UnmodelledTime = { seff: string, 
/**
 * `Component.operation`.
 */
service: string, 
/**
 * Median over the validation's points of (measured − predicted) / measured (0.23 = 23 %);
 * negative where the model predicts more than measured.
 */
share: number, points: number, 
/**
 * Per call, over the service's inputs (StoEx, ms).
 */
law: string, status: FitStatus, 
/**
 * Why the law is preliminary (empty when final).
 */
reasons: Array<string>, 
/**
 * Whether the model predicts more than measured (a negative share, once rounded): then
 * there is no unmodelled time, and `label` says so.
 */
overpredicted: boolean, 
/**
 * For a badge: `unmodelled 23 %`, or `the model predicts 6 % more than measured`.
 */
label: string, 
/**
 * The whole line with the law and its status, for a tooltip.
 */
detail: string, 
/**
 * The law at the diagram's inputs (ms per call): in `SeffGraph` only, where it evaluates.
 */
atInputsMs?: number, };

export type ElementResults = { repository: string, stage: string | null, 
/**
 * The analysis's one-line summary, when the repository has results.
 */
headline: string | null, name: string | null, results: Array<FittedResult>, 
/**
 * The unmodelled time of each SEFF inside the element (the SEFF itself, a component's or
 * the repository's SEFFs) that its last validation found one for.
 */
unmodelled: Array<UnmodelledTime>, };

export type EvaluateRequest = { expression: string, bindings: Array<{ [key in string]: number }>, };

export type EvaluateResult = { values: Array<number | null>, };

export type CallRoute = { call: string, seff: string, 
/**
 * Where the binding comes from: `repository: ...` or `system <name>: ...`.
 */
via: string, };

export type PredictionProblem = { element: string, message: string, };

export type Prediction = { seff: string, inputs: { [key in string]: number }, 
/**
 * Resource type id → expected demand (ms), the callees' included.
 */
demands: { [key in string]: number }, 
/**
 * Internal action id → resource type id → its share of `demands`.
 */
actions: { [key in string]: { [key in string]: number } }, calls: Array<CallRoute>, problems: Array<PredictionProblem>, notes: Array<string>, 
/**
 * Over all resource types (ms).
 */
total: number, 
/**
 * The `.system` that bound the calls, if any.
 */
system: string | null, };

export type TextPosition = { line: number, character: number, };

export type TextRange = { start: TextPosition, end: TextPosition, };

export type GraphInput = { 
/**
 * `files.NUMBER_OF_ELEMENTS`.
 */
name: string, value: number, min: number | null, max: number | null, };

export type GraphPrediction = { 
/**
 * Over all resource types, callees included (ms per service execution).
 */
totalMs: number, 
/**
 * Whether every part of the service was predicted (`problems` says what was not).
 */
complete: boolean, problems: Array<string>, 
/**
 * The `.system` that bound the calls, if any.
 */
system: string | null, };

export type GraphSpec = { 
/**
 * `CPU demand`, `HDD demand`, `iterations`.
 */
what: string, text: string, };

export type GraphResult = { 
/**
 * `CPU demand`, `loop iterations`, `branch`, ...
 */
what: string, expression: string, status: FitStatus, r2: number | null, samples: number, 
/**
 * A demand's law (`expression`, ms) in work units and on which container, or why it is not
 * written (as `FittedResult::work_units`).
 */
workUnits?: string, };

export type GraphProvider = { component: string | null, seff: string | null, uri: string, 
/**
 * The providing SEFF's id attribute.
 */
range: TextRange, };

export type GraphCall = { 
/**
 * `ICompression.compress`.
 */
signature: string, role: string | null, 
/**
 * The SEFFs that describe the called signature, in any file of the workspace.
 */
providers: Array<GraphProvider>, };

export type GraphBody = { id: string | null, name: string | null, 
/**
 * A branch transition's `p = 0.3` or guard; none for loop bodies and forks.
 */
condition: string | null, range: TextRange, flow: GraphFlow, };

export type GraphNode = { id: string | null, name: string | null, 
/**
 * `StartAction`, `StopAction`, `InternalAction`, `ExternalCallAction`, `LoopAction`,
 * `CollectionIteratorAction`, `BranchAction`, `ForkAction`, `SetVariableAction`, ...
 */
kind: string, 
/**
 * The action's name (what the editor selects on a click) and the whole element.
 */
range: TextRange, extent: TextRange, 
/**
 * The model's current specifications (resource demands, iteration count), shortened.
 */
specifications: Array<GraphSpec>, 
/**
 * Beagle's results for this action.
 */
results: Array<GraphResult>, 
/**
 * Loop bodies, branch transitions, fork behaviours.
 */
bodies: Array<GraphBody>, call: GraphCall | null, 
/**
 * Predicted demand of this action per service execution (ms, all resource types; a
 * loop's, branch's or call's includes what runs inside it).
 */
demandMs: number | null, 
/**
 * `demand_ms` over the service's total (0..1).
 */
share: number | null, };

export type GraphFlow = { id: string | null, nodes: Array<GraphNode>, 
/**
 * Successor edges `[from, to]`, indices into `nodes`.
 */
edges: Array<[number, number]>, };

export type SeffGraph = { uri: string, id: string | null, 
/**
 * The signature it describes, qualified by its interface (`IUpload.upload`).
 */
service: string | null, component: string | null, componentId: string | null, 
/**
 * The SEFF's id attribute (what an editor selects) and the whole element.
 */
range: TextRange, extent: TextRange, flow: GraphFlow, 
/**
 * The service's inputs that its prediction depends on, with the values it was computed at.
 */
inputs: Array<GraphInput>, 
/**
 * The service's predicted demand at `inputs`; none when the repository cannot be predicted.
 */
prediction: GraphPrediction | null, 
/**
 * The SEFF's unmodelled time at its last validation (with its law at `inputs`), if found.
 */
unmodelled: UnmodelledTime | null, };

export type RoleNode = { id: string | null, name: string | null, interface: string | null, interfaceId: string | null, };

export type SeffSummary = { id: string | null, service: string | null, range: TextRange, 
/**
 * Actions in it, nested ones included.
 */
actions: number, 
/**
 * Beagle's results about them.
 */
results: number, 
/**
 * Its unmodelled time at its last validation, if found.
 */
unmodelled: UnmodelledTime | null, };

export type ComponentNode = { id: string | null, name: string | null, 
/**
 * `BasicComponent`, `CompositeComponent`, ...
 */
kind: string, range: TextRange, provides: Array<RoleNode>, requires: Array<RoleNode>, seffs: Array<SeffSummary>, };

export type RepositoryGraph = { uri: string, name: string | null, components: Array<ComponentNode>, };
