//! Beagle's analysis core (issue 4, being built): the blackboard with layered views, the analysis
//! loop, the measurement controller, the final judge and the result store. Plain data and
//! synchronous functions; the CLI and the language server drive it.
//!
//! [`events`] is the contract with the measurement tools: every tool (Kieker import, the Beagle
//! events format, the Java tool) delivers time-ordered [`events::MeasurementEvent`]s keyed by PCM
//! ids. [`results`] turns them into [`MeasurementResult`]s on the [`Blackboard`]; tools see the
//! blackboard only through the layered [`views`].

pub mod blackboard;
pub mod events;
pub mod results;
pub mod views;

pub use blackboard::{
    Blackboard, ElementKind, FinalExpression, FitnessFunction, MeasurableElement, MeasurementResult, Observation,
    ProposedExpression, Status, StopRules,
};
pub use events::{MeasurementEvent, Parameters};
pub use results::{elements_of, results_from_events, ResultOptions};
pub use views::{FinalJudgeView, MeasurementResultAnalyserView, MeasurementToolView, ProposedExpressionAnalyserView};
