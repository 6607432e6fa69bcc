//! One analysis job, from a workspace to expressions: where the measurements come from
//! ([`workspace`]: `beagle.toml`), reading or measuring them ([`measurements`], [`java`]),
//! analysing every repository with the analysis core and keeping everything in the store
//! ([`job`]), and the results as plain rows and diagnostics ([`report`]).
//!
//! The CLI (`beagle analyse`) and the language server both run jobs through [`job::run`]; neither
//! prints from here: progress arrives at an [`Observer`], pause and abort through a
//! [`beagle_analysis::Control`]. Synchronous: the language server runs a job on its own thread.

pub mod atomic;
mod error;
pub mod java;
mod java_validate;
pub mod job;
pub mod measurements;
pub mod observer;
pub mod predict;
pub mod report;
pub mod validate;
pub mod workspace;

pub use error::JobError;
pub use job::{run, Analysed, JobOutput, MeasuredSummary, Request, Settings};
pub use observer::{Event, Observer, Pass, Quiet};
pub use report::{Diagnostic, InputsReport, Report, ResultRow, Unmeasured};
pub use workspace::{resolve, Source, Workspace};
