//! One analysis job, from a workspace to expressions: where the measurements come from
//! ([`workspace`]: `beagle.toml`), reading or measuring them ([`measuring`]),
//! analysing every repository with the analysis core and keeping everything in the store
//! ([`job`]), validating the analysed model ([`validate`]), and the results as plain rows and
//! diagnostics ([`report`]).
//!
//! Modules depend one way (`tests/architecture/module_cycles.py`): [`job`] on top runs the
//! analysis (`analyse`) and then a validation (`java_validate`, `held_out`); what the stages
//! share sits below them (`request`, `context`, `output`, `validation`).
//!
//! The CLI (`beagle analyse`) and the language server both run jobs through [`job::run`]; neither
//! prints from here: progress arrives at an [`Observer`], pause and abort through a
//! [`beagle_analysis::Control`]. Synchronous: the language server runs a job on its own thread.

mod analysing;
pub mod atomic;
pub mod config_check;
mod context;
pub mod deployment;
mod error;
pub mod job;
pub mod linking;
pub mod measuring;
pub mod observer;
mod output;
pub mod predicting;
pub mod report;
mod request;
pub mod validating;
mod validation;
pub mod workspace;
pub mod writing;

pub use error::{JobError, RatesError};
pub use job::{run, Analysed, JobOutput, MeasuredSummary, Request, Settings};
pub use linking::file::{link_file, LinkFile};
pub use linking::proposals::{link_proposals, LinkProposal, LinkProposals};
pub use linking::suggest::suggest_links;
pub use measuring::links::TRUSTED_CONFIDENCE;
pub use observer::{Event, Observer, Pass, Quiet};
pub use report::{Diagnostic, InputsReport, Report, ResultRow, Unmeasured};
pub use workspace::{resolve, DeploymentConfig, Source, Workspace};
pub use writing::calibration::write_calibration;
pub use writing::unmodelled::write_unmodelled;
