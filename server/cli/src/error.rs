//! Why a command gave up (exit status 2): a flag given wrongly, or a library's error. `main`
//! prints it after `error: `.

use beagle_fit::{CsvError, FitError};
use beagle_job::predicting::predict::PredictError;
use beagle_job::JobError;
use beagle_measure::FileError;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// `beagle.toml`, or the path given for the workspace.
    #[error(transparent)]
    Workspace(#[from] FileError),
    #[error(transparent)]
    Job(#[from] JobError),
    #[error(transparent)]
    Predict(#[from] PredictError),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// A platform profile (`--platform`).
    #[error(transparent)]
    Profile(#[from] beagle_java::platform::ProfileError),
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    #[error("--mapping goes with --kieker or --otel")]
    MappingWithoutSource,
    #[error("--budget must be a positive number of seconds")]
    Budget,
    #[error("--hold-out {0}: give a share between 0 and 1")]
    HoldOut(f64),
    #[error("--time-limit must be positive and --threads at least 1")]
    FitLimits,
    /// `--var` of `beagle stoex eval`, as given.
    #[error("`--var {0}`: expected NAME.CHARACTERISATION=VALUE")]
    VarSyntax(String),
    #[error("`--var {var}`: `{value}` is not a number")]
    VarValue { var: String, value: String },
    #[error("cannot read folder {}: {source}", path.display())]
    Folder { path: PathBuf, source: std::io::Error },
    #[error("cannot read {}: {source}", path.display())]
    Unreadable { path: PathBuf, source: std::io::Error },
    #[error("{}: {source}", path.display())]
    Csv { path: PathBuf, source: CsvError },
    #[error("{}: {source}", path.display())]
    Fit { path: PathBuf, source: FitError },
    /// The language server's own steps (the diagram's graph is the server's answer).
    #[error(transparent)]
    Server(#[from] beagle_lsp::error::ServerError),
}
