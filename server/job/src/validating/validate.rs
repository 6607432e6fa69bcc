//! `beagle validate`: does the model, as a whole, predict its services on measurements it was
//! not fitted to? ([`beagle_analysis::validation`])
//!
//! A Java workspace is run at fresh points ([`crate::validating::java`]). A workspace of
//! measurements (events, Kieker, OpenTelemetry) is split before the analysis: a
//! seeded share of the entry executions, with everything they called, is held out; the rest is
//! analysed into a copy of the repositories (under `.beagle/validate/`, the user's files are not
//! touched), and each held-out service point is compared with the prediction of that copy
//! ([`crate::validating::held_out`]).
//!
//! This module only chooses between the two; what they share is in [`crate::validation`].

use crate::error::JobError;
use crate::observer::Observer;
use crate::output::JobOutput;
use crate::predicting::platform::Rule;
use crate::validating::held_out::held_out;
use crate::validating::java;
use crate::validation::read_models;
use crate::workspace::{Source, Workspace};
use beagle_analysis::Control;
use beagle_pcm::ModelFile;

// Defined below this module (both ways of validating use them), named here too:
// `beagle_job::validating::validate::ValidateOptions` and the others.
pub use crate::validating::held_out::VALIDATE_DIR;
pub use crate::validation::{ValidateOptions, ValidationReport};

/// Validates the workspace's services (see the module documentation).
pub fn validate(
    ws: &Workspace,
    options: &ValidateOptions,
    observer: &mut dyn Observer,
) -> Result<ValidationReport, JobError> {
    match &ws.source {
        None => Err(JobError::NothingToValidate),
        Some(Source::Java { .. }) => {
            let models = read_models(&ws.repositories)?;
            let Some(profile) = &options.platform else {
                return java::validate(ws, &models, None, options, observer, &Control::new());
            };
            let files: Vec<_> = ws.repositories.iter().cloned().zip(models.iter().cloned()).collect();
            let rewrite = |rule| {
                crate::predicting::platform::rewrite(ws, &files, profile, rule)
                    .map_err(|e| JobError::Platform(e.to_string()))
            };
            let rewritten = rewrite(Rule::Split)?;
            let models_of = |r: &crate::predicting::platform::Rewritten| -> Vec<ModelFile> {
                r.files.iter().map(|(_, f)| f.clone()).collect()
            };
            let on_platform = models_of(&rewritten);
            let scaled = models_of(&rewrite(Rule::Scaled)?);
            let beside = java::Beside {
                naive: &models,
                scaled: &scaled,
            };
            let mut report = java::validate(ws, &on_platform, Some(beside), options, observer, &Control::new())?;
            report.notes.extend(rewritten.notes.iter().cloned());
            report.notes.push(format!(
                "predicted for platform {}: {} from their counts{}{}",
                profile.platform.name,
                if rewritten.counted.is_empty() {
                    "no action".to_string()
                } else {
                    (rewritten.counted.iter())
                        .map(|c| {
                            format!(
                                "{} (R = {:.3}: counted work × {:.3}, unexplained × {:.3})",
                                c.name, c.r, c.counted_factor, c.unexplained_factor
                            )
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                },
                (rewritten.not_moved.iter())
                    .map(|(n, why)| format!("; {n} as measured ({why})"))
                    .collect::<String>(),
                if rewritten.uncalibrated.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; no timing (costed as an invoke): {}",
                        rewritten.uncalibrated.join(", ")
                    )
                }
            ));
            Ok(report)
        }
        Some(source) => held_out(ws, source, options, observer, &Control::new()),
    }
}

/// The repositories with a job's results written in (in memory; the files are not touched):
/// what `beagle analyse --validate` validates, written or not: demands in the units `--write`
/// writes, so that the model validated is the model written.
pub fn analysed_models(output: &JobOutput) -> Result<Vec<ModelFile>, JobError> {
    output
        .repositories
        .iter()
        .map(|a| {
            let file = ModelFile::from_bytes(a.path.clone(), a.original.clone());
            let written = beagle_analysis::write_back(&file, a.finals.values().map(|(e, fe)| (e, fe)), true, &a.units)
                .map_err(|source| JobError::WriteBack {
                    repository: a.path.clone(),
                    source,
                })?;
            Ok(ModelFile::parse(a.path.clone(), written.text))
        })
        .collect()
}
