//! What both ways of validating share ([`crate::validating::java`] for Java workspaces,
//! [`crate::validating::held_out`] for measurement workspaces): how to validate
//! ([`ValidateOptions`]), what comes out ([`ValidationReport`]), and the comparison of measured
//! services with the model's predictions ([`compare`]). Below both, so that neither depends on
//! the other or on [`crate::validating::validate`], which chooses between them; and below the
//! stages altogether, because a job's output carries the report and `crate::writing` writes what
//! it found.

use crate::error::JobError;
use beagle_analysis::predict::rates::Rates;
use beagle_analysis::predict::Predictor;
use beagle_analysis::validation::{validate_service, ServiceValidation};
use beagle_pcm::model::system::assembly;
use beagle_pcm::ModelFile;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// How to validate.
#[derive(Clone, Debug)]
pub struct ValidateOptions {
    /// Share of the entry executions held out (measurement workspaces).
    pub share: f64,
    /// Fresh parameter points per launch (Java workspaces).
    pub points: usize,
    /// Seed of the choice of what is held out (and of the analysis).
    pub seed: u64,
    /// The analysis of the rest: genetic programming on or off, time budget.
    pub gp: bool,
    pub budget_ms: Option<u64>,
    /// Java: options appended to every launch's JVM options (the runs stand for another
    /// platform: `-Xint`, `-XX:TieredStopAtLevel=1`, ...).
    pub jvm_args: Vec<String>,
    /// Java: predict for this platform from the analysis's counts (`beagle predict
    /// --platform`); the model as measured is then the baseline beside it.
    pub platform: Option<beagle_java::platform::Profile>,
}

impl Default for ValidateOptions {
    fn default() -> Self {
        ValidateOptions {
            share: 0.2,
            points: 8,
            seed: 1,
            gp: true,
            budget_ms: None,
            jvm_args: Vec::new(),
            platform: None,
        }
    }
}

/// What `beagle validate --json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct ValidationReport {
    pub services: Vec<ServiceValidation>,
    /// How the points were obtained (held-out share, seed, where the fitted copy is).
    pub notes: Vec<String>,
    /// With a platform: the model as measured (its milliseconds unchanged), on the same runs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub baseline: Vec<ServiceValidation>,
    /// With a platform: the prediction by `predicting::platform::Rule::Scaled` (R scales all of a
    /// counted action's time), on the same runs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scaled: Vec<ServiceValidation>,
}

/// Each measured service beside the prediction of the model (of the repositories, in order)
/// that has its SEFF; each validation names `repositories[i]`, the user's file, also where
/// `models` are analysed copies. The validations are kept in the store of `root` (for the
/// editor's hover and lens). With `rates` (a deployment), the predictions are the time of each
/// demand's work units on its container, as the measured times are.
pub(crate) fn compare(
    root: &Path,
    repositories: &[PathBuf],
    models: &[ModelFile],
    system: Option<&Path>,
    rates: Option<&Rates>,
    measured: &[beagle_analysis::validation::Measured],
    keep: bool,
) -> Result<Vec<ServiceValidation>, JobError> {
    let system_file = system
        .map(|p| ModelFile::read(p).map_err(JobError::unreadable(p)))
        .transpose()?;
    let assembly = system_file.as_ref().and_then(assembly);
    let mut services = Vec::new();
    for (path, file) in repositories.iter().zip(models) {
        let Some(predictor) = Predictor::bound(file, assembly.as_ref(), rates) else {
            continue;
        };
        let key = path
            .canonicalize()
            .unwrap_or_else(|_| path.clone())
            .display()
            .to_string();
        for (seff, name) in predictor.services() {
            if let Some(mut v) = validate_service(&name, &seff, measured, |inputs| predictor.predict(&seff, inputs)) {
                v.repository = key.clone();
                v.unmodelled = beagle_analysis::unmodelled::unmodelled(&v);
                services.push(v);
            }
        }
    }
    if !keep {
        return Ok(services);
    }
    let mut store = beagle_analysis::Store::open(root)?;
    for v in &services {
        store.save_validation(&v.repository, v)?;
    }
    Ok(services)
}

/// The repositories as they are on disk.
pub(crate) fn read_models(repositories: &[PathBuf]) -> Result<Vec<ModelFile>, JobError> {
    repositories
        .iter()
        .map(|p| ModelFile::read(p).map_err(JobError::unreadable(p)))
        .collect()
}
