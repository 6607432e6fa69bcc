//! Why a job (or a validation) could not give results. Each variant carries what it is about (the
//! file, the repository, the store's own error) so that callers can place it; its Display is the
//! line `beagle` prints after `error: ` and the language server shows.

use beagle_analysis::{ScopeError, StoreError, WriteBackError};
use beagle_java::launch::RunError;
use beagle_java::links::LinkError;
use beagle_java::prepare::PrepareError;
use beagle_measure::{events_format::EventsError, FileError, KiekerError};
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// A problem with an input file (`beagle.toml`, an operation mapping, measurements, a model
    /// file that is not a repository), at its line when known.
    #[error(transparent)]
    File(#[from] FileError),
    #[error("{}: cannot read: {source}", path.display())]
    Unreadable { path: PathBuf, source: std::io::Error },
    #[error("{}: cannot create: {source}", path.display())]
    Uncreatable { path: PathBuf, source: std::io::Error },
    #[error("{}: cannot write: {source}", path.display())]
    Unwritable { path: PathBuf, source: std::io::Error },
    #[error("{}: cannot copy to {}: {source}", from.display(), to.display())]
    Uncopyable {
        from: PathBuf,
        to: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Rates(#[from] RatesError),
    #[error(transparent)]
    Events(#[from] EventsError),
    #[error(transparent)]
    Kieker(#[from] KiekerError),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// The link file as a whole cannot be read (single bad links are diagnostics).
    #[error(transparent)]
    Links(#[from] LinkError),
    #[error(transparent)]
    Prepare(#[from] PrepareError),
    /// A launch failure every point would share.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The scope names nothing in `repository`.
    #[error("{}: {source}", repository.display())]
    Scope { repository: PathBuf, source: ScopeError },
    /// No repository has an element in the scope: why, per repository.
    #[error("{}", scope_errors(.0))]
    NothingInScope(Vec<(PathBuf, ScopeError)>),
    #[error("{}: {source}", repository.display())]
    WriteBack {
        repository: PathBuf,
        source: WriteBackError,
    },
    #[error(transparent)]
    Replace(#[from] crate::atomic::ReplaceError),
    /// An edit of a repository could not be made (nothing of that file is written).
    #[error("{}: {message}", path.display())]
    Edit { path: PathBuf, message: String },
    /// A checkpoint could not be stored: the analysis does not go on unsaved.
    #[error("{}: the analysis stopped: {source}", repository.display())]
    Stopped { repository: PathBuf, source: StoreError },
    #[error("no measurements: give --events FILE, --kieker DIR or --otel FILE, or name them in beagle.toml's [measurements] (or [java] to measure the code)")]
    NoMeasurements,
    #[error(
        "no measurements to validate on: give --events FILE, --kieker DIR or --otel FILE, or name them in beagle.toml"
    )]
    NothingToValidate,
    #[error("the Java tool measures through its own driver, not from files")]
    JavaNotFromFiles,
    #[error("not a Java workspace")]
    NotJava,
    /// The counting agent could not be built or run (`[java] count`).
    #[error("counting: {0}")]
    Counting(String),
    /// The prediction for another platform could not be made (`--platform`).
    #[error("the platform: {0}")]
    Platform(String),
    /// Not one SEFF element is linked to code; `links`: the link file, if one is named;
    /// `reasons`: what the linking said, per link and SEFF (printed with the error: a failed job
    /// prints no report).
    #[error("{}", nothing_linked(links.as_deref(), *automatic, reasons))]
    NothingLinked {
        links: Option<PathBuf>,
        automatic: bool,
        reasons: Vec<String>,
    },
    /// No point measured; `reasons`: every error and warning the run had (the report with them is
    /// not printed when the job fails).
    #[error("{}", no_point_measured(reasons))]
    NoPointMeasured { reasons: Vec<String> },
    #[error("{entries} entry executions: too few to hold {:.0} % of them out", share * 100.0)]
    TooFewToHoldOut { entries: usize, share: f64 },
    #[error("aborted while measuring (the points measured so far are stored)")]
    AbortedWhileMeasuring,
    #[error("aborted")]
    Aborted,
    /// `[model] measured_on` names no resource container: no demand could be converted with it.
    #[error("{}", measured_on(name, environment.as_deref(), containers))]
    MeasuredOn {
        name: String,
        /// The resource environment searched; `None` when the workspace has none.
        environment: Option<PathBuf>,
        /// Its containers' names (or ids).
        containers: Vec<String>,
    },
}

/// Why the rates a prediction converts with cannot be had as asked
/// (`crate::predicting::rates`). Here, beside [`JobError`], which carries it (the validations
/// predict), so that the errors every stage shares depend on no stage.
#[derive(Debug, thiserror::Error)]
pub enum RatesError {
    /// A file of the deployment cannot be read, or the allocation is none.
    #[error(transparent)]
    Deployment(#[from] crate::deployment::DeploymentError),
    #[error("--on {0}: there is no resource environment (no allocation, or it names none) to move anything in")]
    NoEnvironment(String),
    #[error("--on {given}: no resource container `{container}`; the resource environment has {known}")]
    NoContainer {
        given: String,
        container: String,
        known: String,
    },
    #[error("--on {given}: no component `{component}` in the system")]
    NoComponent { given: String, component: String },
}

/// Reasons listed under a "nothing to measure" error, at most.
const MOST_REASONS: usize = 20;

fn no_point_measured(reasons: &[String]) -> String {
    let mut out = "no parameter point could be measured".to_string();
    for r in reasons.iter().take(MOST_REASONS) {
        out.push_str("\n  ");
        out.push_str(r);
    }
    if reasons.len() > MOST_REASONS {
        out.push_str(&format!("\n  ... and {} more", reasons.len() - MOST_REASONS));
    }
    out
}

fn nothing_linked(links: Option<&std::path::Path>, automatic: bool, reasons: &[String]) -> String {
    let mut out = format!(
        "nothing to measure: no SEFF element is linked to code ({}; automatic linking found no class and method for any SEFF{}).",
        links.map_or("no link file".to_string(), |p| format!("{} gave no usable link", p.display())),
        if automatic { "" } else { ", and is off" }
    );
    if reasons.is_empty() {
        out.push_str(" The model has no SEFF the linking could look at.");
    } else {
        out.push_str(" Why, per link and SEFF:");
        for r in reasons.iter().take(MOST_REASONS) {
            out.push_str("\n  ");
            out.push_str(r);
        }
        if reasons.len() > MOST_REASONS {
            out.push_str(&format!("\n  ... and {} more", reasons.len() - MOST_REASONS));
        }
    }
    out.push_str(
        "\nWhat to do: `beagle link --suggest` prints every candidate link with its confidence, as a link \
         file to review and name under [model] `links`; or fix the links named above, or name the \
         components like their classes.",
    );
    out
}

fn measured_on(name: &str, environment: Option<&std::path::Path>, containers: &[String]) -> String {
    match environment {
        None => format!(
            "beagle.toml: [model] measured_on = \"{name}\" names a resource container, but the workspace has no \
             resource environment (name it under [model] resource_environment, or put it beside the system)"
        ),
        Some(path) => format!(
            "beagle.toml: [model] measured_on = \"{name}\" names no resource container of {} (its containers: {})",
            path.display(),
            if containers.is_empty() {
                "none".to_string()
            } else {
                containers.join(", ")
            }
        ),
    }
}

fn scope_errors(errors: &[(PathBuf, ScopeError)]) -> String {
    let lines: Vec<String> = errors.iter().map(|(p, e)| format!("{}: {e}", p.display())).collect();
    lines.join("\n")
}

impl JobError {
    pub(crate) fn unreadable(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> JobError + '_ {
        move |source| JobError::Unreadable {
            path: path.to_path_buf(),
            source,
        }
    }
}
