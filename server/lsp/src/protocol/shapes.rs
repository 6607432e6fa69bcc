//! The shapes of the commands' arguments and results and of the `beagle/status` notification:
//! one field naming convention (camelCase), serde for the wire, ts-rs for the extension's
//! TypeScript (`vscode-extension/src/protocol.generated.ts`, checked by a test). The core's
//! types stay as they are (the store keeps some of them); these are converted from them here.

use beagle_analysis::ProposalEvidence;
use beagle_ide::{ElementResult, PointRow, ResultStatus};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use ts_rs::TS;

/// The answer of an analyse command: the job is queued, the outcome comes later.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct QueuedJob {
    pub queued: bool,
    pub job: u64,
    /// Jobs ahead of it (running or waiting).
    pub ahead: usize,
    pub label: String,
}

/// `beagle.analyseWorkspace`'s answer: one job per `beagle.toml`, and why others were not queued.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct QueuedJobs {
    pub queued: Vec<QueuedJob>,
    pub problems: Vec<String>,
}

/// `beagle.pause`, `beagle.resume`, `beagle.abort`: the queue afterwards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ControlAnswer {
    pub running: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub job: Option<u64>,
    pub paused: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Applied {
    pub applied: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Discarded {
    pub discarded: bool,
}

/// `beagle.linkToCode`: the link proposed for the element, appended to the link file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LinkProposal {
    pub applied: bool,
    pub file: String,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RunningJob {
    pub id: u64,
    pub label: String,
    pub paused: bool,
    pub percentage: u32,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WaitingJob {
    pub id: u64,
    pub label: String,
}

/// What one input file (a log, a trace) gave the last analysis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct InputFileReport {
    pub file: String,
    pub records: usize,
    pub executions: usize,
    /// Damaged lines skipped, and the first few of them (line, why).
    pub skipped: usize,
    pub skipped_lines: Vec<(usize, String)>,
    /// Records of other probes, by class.
    pub unknown: BTreeMap<String, usize>,
    /// Operations or spans no element maps to.
    pub unmapped: BTreeMap<String, usize>,
    /// Why the file was not read at all.
    pub unreadable: Option<String>,
}

/// An element of the analysed scope nothing measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UnmeasuredElement {
    pub element: String,
    pub name: String,
    pub file: String,
    pub line: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct InputsReport {
    pub files: Vec<InputFileReport>,
    pub unmeasured: Vec<UnmeasuredElement>,
}

impl From<&beagle_job::InputsReport> for InputsReport {
    fn from(r: &beagle_job::InputsReport) -> InputsReport {
        InputsReport {
            files: r
                .files
                .iter()
                .map(|f| InputFileReport {
                    file: f.file.display().to_string(),
                    records: f.records,
                    executions: f.executions,
                    skipped: f.skipped,
                    skipped_lines: f.skipped_lines.clone(),
                    unknown: f.unknown.clone(),
                    unmapped: f.unmapped.clone(),
                    unreadable: f.unreadable.clone(),
                })
                .collect(),
            unmeasured: r
                .unmeasured
                .iter()
                .map(|u| UnmeasuredElement {
                    element: u.element.clone(),
                    name: u.name.clone(),
                    file: u.file.clone(),
                    line: u.line,
                })
                .collect(),
        }
    }
}

/// A repository's results held by the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RepositoryStatus {
    pub repository: String,
    pub stage: String,
    pub results: usize,
    pub headline: String,
}

/// `beagle.status`'s result, and the `beagle/status` notification (without `results`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    pub running: Option<RunningJob>,
    pub queued: Vec<WaitingJob>,
    /// How the last job ended.
    pub last: Option<String>,
    /// What the last job's measurements were made of.
    pub inputs: Option<InputsReport>,
    /// Paused with nothing running: the next job starts paused.
    pub paused: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub results: Option<Vec<RepositoryStatus>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ElementKind {
    Repository,
    Component,
    Seff,
    Action,
    Other,
}

/// `beagle.elementAt`'s result (null when the position is in no element).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ElementAt {
    pub kind: ElementKind,
    /// The PCM type of an action (`InternalAction`, `LoopAction`, ...).
    pub action_kind: Option<String>,
    pub id: Option<String>,
    pub name: Option<String>,
    /// The enclosing component's id and name.
    pub component: Option<String>,
    pub component_name: Option<String>,
    /// The id of the SEFF holding an action (the SEFF's own for a SEFF); null elsewhere.
    pub seff: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MeasuredPoint {
    pub parameters: Vec<(String, f64)>,
    /// Observations the statistics are over.
    pub n: usize,
    /// The element's measured runs behind them (more than `n` where an observation stands for
    /// several runs or the point kept a bounded sample).
    pub executions: u64,
    pub median: f64,
    pub q1: f64,
    pub q3: f64,
}

impl From<&PointRow> for MeasuredPoint {
    fn from(p: &PointRow) -> MeasuredPoint {
        MeasuredPoint {
            parameters: p.parameters.clone(),
            n: p.n,
            executions: p.executions,
            median: p.median,
            q1: p.q1,
            q3: p.q3,
        }
    }
}

/// A 95 % interval of a fitted constant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConstantInterval {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// What the measurements support. Errors are relative (a share, 0.05 = 5 %) when `relative`,
/// else absolute; unknown values are absent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Evidence {
    pub points: usize,
    pub observations: usize,
    /// Fewest and median repetitions per point.
    pub repetitions: (usize, usize),
    /// Runs (Java: launch points) the points came from, when fewer than the points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub runs: Option<usize>,
    pub max_constants: usize,
    pub constants: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub dependency_p: Option<f64>,
    pub relative: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub noise: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub holdout_error: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub constant_holdout_error: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub better_than_constant_p: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub band: Option<f64>,
    /// 95 % intervals of the fitted constants, in the expression's order.
    pub intervals: Vec<ConstantInterval>,
    /// [kept, dropped] inputs that always had proportional values.
    pub equivalent: Vec<(String, String)>,
    pub is_final: bool,
    pub reasons: Vec<String>,
    pub notes: Vec<String>,
}

impl From<&ProposalEvidence> for Evidence {
    fn from(e: &ProposalEvidence) -> Evidence {
        Evidence {
            points: e.points,
            observations: e.observations,
            repetitions: e.repetitions,
            runs: e.runs,
            max_constants: e.max_constants,
            constants: e.constants,
            dependency_p: e.dependency_p,
            relative: e.relative,
            noise: e.noise,
            holdout_error: e.holdout_error,
            constant_holdout_error: e.constant_holdout_error,
            better_than_constant_p: e.better_than_constant_p,
            band: e.band,
            intervals: e
                .intervals
                .iter()
                .map(|i| ConstantInterval {
                    value: i.value,
                    low: i.low,
                    high: i.high,
                })
                .collect(),
            equivalent: e.equivalent.clone(),
            is_final: e.is_final,
            reasons: e.reasons.clone(),
            notes: e.notes.clone(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub enum FitStatus {
    Preliminary,
    Final,
}

/// One fitted expression about an element, with the measurements behind it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FittedResult {
    pub element: String,
    pub action: String,
    pub action_name: Option<String>,
    /// What is measured, for people: `CPU demand`, `loop iterations`, `branch -> large`.
    pub what: String,
    /// StoEx.
    pub expression: String,
    /// For a branch transition the inputs decide: when it is taken (StoEx).
    pub guard: Option<String>,
    pub status: FitStatus,
    pub r2: Option<f64>,
    pub relative_error: Option<f64>,
    pub samples: u64,
    /// Per input: the smallest and largest value measured.
    pub parameter_ranges: Vec<(String, f64, f64)>,
    pub points: Vec<MeasuredPoint>,
    /// Why the result is preliminary (empty when final).
    pub reasons: Vec<String>,
    pub evidence: Option<Evidence>,
    /// A demand's law (`expression` is in ms) in the work units it is written in, and on which
    /// container: `in work units: 7.5E7 CPU units on AppServer at 1E9/s`; or why it is not
    /// written. Absent without a resource environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub work_units: Option<String>,
}

impl FittedResult {
    pub fn of(r: &ElementResult, action_name: Option<String>) -> FittedResult {
        FittedResult {
            element: r.element.clone(),
            action: r.action.clone(),
            action_name,
            what: r.what.clone(),
            expression: r.expression.clone(),
            guard: r.guard.clone(),
            status: match r.status {
                ResultStatus::Preliminary => FitStatus::Preliminary,
                ResultStatus::Final => FitStatus::Final,
            },
            r2: r.r2,
            relative_error: r.relative_error,
            samples: r.samples as u64,
            parameter_ranges: r.parameter_ranges.clone(),
            points: r.points.iter().map(MeasuredPoint::from).collect(),
            reasons: r.reasons.clone(),
            evidence: r.evidence.as_ref().map(Evidence::from),
            work_units: None,
        }
    }
}

/// `beagle.elementResults`'s result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ElementResults {
    pub repository: String,
    pub stage: Option<String>,
    /// The analysis's one-line summary, when the repository has results.
    pub headline: Option<String>,
    pub name: Option<String>,
    pub results: Vec<FittedResult>,
    /// The unmodelled time of each SEFF inside the element (the SEFF itself, a component's or
    /// the repository's SEFFs) that its last validation found one for.
    #[serde(default)]
    pub unmodelled: Vec<UnmodelledTime>,
}

/// A SEFF's unmodelled time at its last validation: the measured total less the model's
/// prediction of its parts, as a share of the measured time and as a law over the inputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UnmodelledTime {
    pub seff: String,
    /// `Component.operation`.
    pub service: String,
    /// Median over the validation's points of (measured − predicted) / measured (0.23 = 23 %);
    /// negative where the model predicts more than measured.
    pub share: f64,
    pub points: usize,
    /// Per call, over the service's inputs (StoEx, ms).
    pub law: String,
    pub status: FitStatus,
    /// Why the law is preliminary (empty when final).
    pub reasons: Vec<String>,
    /// Whether the model predicts more than measured (a negative share, once rounded): then
    /// there is no unmodelled time, and `label` says so.
    pub overpredicted: bool,
    /// For a badge: `unmodelled 23 %`, or `the model predicts 6 % more than measured`.
    pub label: String,
    /// The whole line with the law and its status, for a tooltip.
    pub detail: String,
    /// The law at the diagram's inputs (ms per call): in `SeffGraph` only, where it evaluates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub at_inputs_ms: Option<f64>,
}

impl From<&beagle_ide::UnmodelledTime> for UnmodelledTime {
    fn from(u: &beagle_ide::UnmodelledTime) -> UnmodelledTime {
        UnmodelledTime {
            seff: u.seff.clone(),
            service: u.service.clone(),
            share: u.share,
            points: u.points,
            law: u.law.clone(),
            status: match u.status {
                ResultStatus::Preliminary => FitStatus::Preliminary,
                ResultStatus::Final => FitStatus::Final,
            },
            reasons: u.reasons.clone(),
            overpredicted: u.overpredicted,
            label: u.label.clone(),
            detail: u.detail.clone(),
            at_inputs_ms: None,
        }
    }
}

/// `beagle.evaluate`'s argument: an expression and the points to evaluate it at.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EvaluateRequest {
    pub expression: String,
    #[serde(default)]
    pub bindings: Vec<BTreeMap<String, f64>>,
}

/// `beagle.evaluate`'s result: the value per binding (null where undefined or not finite).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EvaluateResult {
    pub values: Vec<Option<f64>>,
}

/// How an external call reached the SEFF it runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CallRoute {
    pub call: String,
    pub seff: String,
    /// Where the binding comes from: `repository: ...` or `system <name>: ...`.
    pub via: String,
}

/// A part of the service that was not predicted, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PredictionProblem {
    pub element: String,
    pub message: String,
}

/// `beagle.predict`'s result: the service's expected demand at the inputs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Prediction {
    pub seff: String,
    pub inputs: BTreeMap<String, f64>,
    /// Resource type id → expected demand (ms), the callees' included.
    pub demands: BTreeMap<String, f64>,
    /// Internal action id → resource type id → its share of `demands`.
    pub actions: BTreeMap<String, BTreeMap<String, f64>>,
    pub calls: Vec<CallRoute>,
    pub problems: Vec<PredictionProblem>,
    pub notes: Vec<String>,
    /// Over all resource types (ms).
    pub total: f64,
    /// The `.system` that bound the calls, if any.
    pub system: Option<String>,
}

impl Prediction {
    pub fn of(p: &beagle_analysis::predict::Prediction, system: Option<String>) -> Prediction {
        Prediction {
            seff: p.seff.clone(),
            inputs: p.inputs.iter().map(|(k, v)| (k.clone(), *v)).collect(),
            demands: p.demands.clone(),
            actions: p.actions.clone(),
            calls: p
                .calls
                .iter()
                .map(|c| CallRoute {
                    call: c.call.clone(),
                    seff: c.seff.clone(),
                    via: c.via.clone(),
                })
                .collect(),
            problems: p
                .problems
                .iter()
                .map(|q| PredictionProblem {
                    element: q.element.clone(),
                    message: q.message.clone(),
                })
                .collect(),
            notes: p.notes.clone(),
            total: p.total(),
            system,
        }
    }
}

/// `[uri, id]` or `[{uri, id}]`: the element a command is about.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Target {
    pub uri: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id: Option<String>,
}
