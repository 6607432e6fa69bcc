//! One analysis job, from a workspace to expressions: where the measurements come from
//! ([`workspace`]: `beagle.toml`), reading or measuring them ([`measuring`]), analysing every
//! repository with the analysis core and keeping everything in the store (`analysing`, run by
//! [`job`]), the units demands are written in and what else goes into the model ([`writing`]),
//! predicting services ([`predicting`]), validating the analysed model ([`validating`]), what
//! `beagle link` and the link quick fix give ([`linking`]), and the results as plain rows and
//! diagnostics ([`report`]). [`config_check`] checks a `beagle.toml` as configuration.
//!
//! A folder per stage, and modules depend one way (`tests/architecture/module_cycles.py`):
//! [`job`] on top runs the analysis and then a validation; the stages below it go validating,
//! linking, predicting, analysing, writing, measuring, each using only those after it; what they
//! share sits below them all (`deployment`, `workspace`, `request`, `context`, `output`,
//! `validation`, `observer`, `report`, `atomic`, `error`). A folder's `mod.rs` only declares its
//! files, and modules name the file that defines what they use, so that the check sees every
//! dependency.
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
