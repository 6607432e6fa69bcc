//! What a job gives back ([`JobOutput`]): plain data, built by the analysis ([`crate::analysing`])
//! and completed by the validation ([`crate::job::run`]).

use crate::report::{Report, ResultRow};
use crate::validation::ValidationReport;
use beagle_analysis::{Blackboard, DemandUnits, FinalExpression, MeasurableElement, MeasurementResult};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// How the measurements went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeasuredSummary {
    pub events: usize,
    pub executions: usize,
    /// Taken from the store, not read or measured again.
    pub cached: bool,
    /// The store key of the measurements; the store holds their raw results under it.
    pub key: String,
}

/// What one repository's analysis produced.
#[derive(Clone, Debug)]
pub struct Analysed {
    pub path: PathBuf,
    /// The text that was analysed (results are written against it).
    pub original: Vec<u8>,
    pub rows: Vec<ResultRow>,
    pub headline: String,
    /// Element id -> the element and its final expression (reused ones included).
    pub finals: BTreeMap<String, (MeasurableElement, FinalExpression)>,
    /// The unit each demand is written in (from the deployment when the job ran).
    pub units: DemandUnits,
    /// The blackboard as the analysis left it.
    pub blackboard: Blackboard,
    pub aborted: bool,
}

/// The outcome of a job.
#[derive(Clone, Debug)]
pub struct JobOutput {
    pub measured: MeasuredSummary,
    /// Per element, every observation (timings not reduced to medians): what hovers tabulate.
    pub raw: BTreeMap<String, MeasurementResult>,
    pub repositories: Vec<Analysed>,
    pub report: Report,
    /// The model validated on measurements it was not fitted to ([`Settings::validate`](crate::Settings::validate)).
    pub validation: Option<ValidationReport>,
}

impl JobOutput {
    pub fn aborted(&self) -> bool {
        self.repositories.iter().any(|a| a.aborted)
    }
}
