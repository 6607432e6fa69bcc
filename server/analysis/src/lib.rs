//! Beagle's analysis core: the blackboard with layered views, the analysis loop, the analysers,
//! the final judge, the result store, write-back, and the whole-service prediction and its
//! validation. Plain data and synchronous functions; the job crate drives it for the CLI and the
//! language server.
//!
//! [`events`] is the contract with the measurement tools: every tool (Kieker import, the Beagle
//! events format, the Java tool) delivers time-ordered [`events::MeasurementEvent`]s keyed by PCM
//! ids. [`results`] turns them into [`MeasurementResult`]s on the [`Blackboard`]; tools see the
//! blackboard only through the layered [`views`]; [`analysis_loop::analyse`] runs the
//! [`analysers`] and the [`judge`]; [`store`] keeps measurements, runs and results in
//! `.beagle/` so an analysis resumes and re-analysis reuses what did not change.

pub mod analysers;
pub mod analysis_loop;
pub mod blackboard;
pub mod branches;
pub mod control;
pub mod events;
pub mod inputs;
pub mod judge;
pub mod measurement;
pub mod model;
pub mod point_sample;
pub mod point_stats;
mod point_tally;
pub mod predict;
pub mod probe_cost;
pub mod results;
pub mod section_counts;
pub mod store;
pub mod undeclared;
pub mod units;
pub mod unmodelled;
pub mod untaken;
pub mod validation;
pub mod views;
pub mod write_back;

pub use analysers::{
    AveragingAnalyser, ConstantAnalyser, FitAnalyser, MeasurementResultAnalyser, ProposedExpressionAnalyser,
};
pub use analysis_loop::{analyse, analyse_with_checkpoints, Outcome, Phase, Progress, Tools};
pub use blackboard::{
    Blackboard, ElementKind, FinalExpression, FitnessFunction, Interval, MeasurableElement, MeasurementResult,
    Observation, ProposalEvidence, ProposedExpression, Status, StopRules, UndeclaredInput, Want,
};
pub use control::{CancelToken, Control};
pub use events::{MeasurementEvent, Parameters};
pub use inputs::InputFile;
pub use judge::{FinalJudge, FinishReason, StepKind};
pub use measurement::{EventsTool, MeasurementTool, RecordedResults};
pub use model::{scope_elements, ModelScope, Scope, ScopeError, Service};
pub use point_sample::{PointTally, KEPT_PER_POINT};
pub use point_stats::{means, medians, point_stats, remove_outliers, PointStats};
pub use probe_cost::ProbeCost;
pub use results::{elements_of, results_from_events, EventDigest, ResultOptions};
pub use store::{
    content_key, file_key, EventsSummary, FinishedRun, ResumableRun, RunDescription, RunId, RunRow, RunStatus, Store,
    StoreError, StoredMeasurement, SummaryBuilder,
};
pub use units::{Conversion, DemandUnit, DemandUnits};
pub use views::{FinalJudgeView, MeasurementResultAnalyserView, MeasurementToolView, ProposedExpressionAnalyserView};
pub use write_back::{compose, write_back, Applied, WriteBack, WriteBackError};
