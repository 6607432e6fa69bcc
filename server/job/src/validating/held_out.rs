//! Validation of a workspace of measurements (events, Kieker, OpenTelemetry): split before the
//! analysis, a seeded share of the entry executions, with everything they called, is held out;
//! the rest is analysed into a copy of the repositories (under `.beagle/validate/`, the user's
//! files are not touched), and each held-out service point is compared with the prediction of
//! that copy.

use crate::analysing::analyse::{analyse, model_elements};
use crate::error::JobError;
use crate::measuring::files::read_whole;
use crate::observer::{Event, Observer, Quiet};
use crate::request::{Request, Settings};
use crate::validation::{compare, read_models, ValidateOptions, ValidationReport};
use crate::workspace::{Source, Workspace};
use beagle_analysis::validation::{hold_out, measured_totals};
use beagle_analysis::{Control, Scope};
use beagle_measure::FileError;
use std::path::{Path, PathBuf};

/// The folder of the analysed copy.
pub const VALIDATE_DIR: &str = "validate";

fn copy_into(file: &Path, dir: &Path) -> Result<PathBuf, JobError> {
    let name = file.file_name().ok_or_else(|| FileError::new(file, "not a file"))?;
    let to = dir.join(name);
    std::fs::copy(file, &to).map_err(|source| JobError::Uncopyable {
        from: file.to_path_buf(),
        to: to.clone(),
        source,
    })?;
    Ok(to)
}

pub(crate) fn held_out(
    ws: &Workspace,
    source: &Source,
    options: &ValidateOptions,
    observer: &mut dyn Observer,
    control: &Control,
) -> Result<ValidationReport, JobError> {
    let model = model_elements(&ws.repositories);
    let whole = read_whole(source, &model)?;
    let split = hold_out(&whole.events, options.share, options.seed);
    if split.held_out_entries == 0 {
        return Err(JobError::TooFewToHoldOut {
            entries: split.training_entries,
            share: options.share,
        });
    }
    // The analysed copy: the repositories (and the system) beside the training events.
    let dir = ws.root.join(beagle_analysis::store::STORE_DIR).join(VALIDATE_DIR);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|source| JobError::Uncreatable {
        path: dir.clone(),
        source,
    })?;
    let mut repositories = Vec::new();
    for r in &ws.repositories {
        repositories.push(copy_into(r, &dir)?);
    }
    let system = ws.system().map(|s| copy_into(&s, &dir)).transpose()?;
    let training = dir.join("training.events");
    let mut out =
        std::io::BufWriter::new(
            std::fs::File::create(&training).map_err(|source| JobError::Uncreatable {
                path: training.clone(),
                source,
            })?,
        );
    beagle_measure::events_format::write_events(&mut out, &split.training)
        .and_then(|()| std::io::Write::flush(&mut out))
        .map_err(|source| JobError::Unwritable {
            path: training.clone(),
            source,
        })?;
    drop(out);
    let copy = Workspace {
        root: dir.clone(),
        repositories: repositories.clone(),
        source: Some(Source::Events(training)),
        seed: Some(options.seed),
        budget_s: None,
        spread: ws.spread,
        system: system.clone(),
        // The workspace's own allocation and resource environment (read, never written): the
        // copy's demands are converted as `--write` converts the workspace's.
        deployment: crate::workspace::DeploymentConfig {
            allocation: ws.allocation(),
            resource_environment: ws.resource_environment(),
            ..ws.deployment.clone()
        },
    };
    let request = Request {
        workspace: copy,
        scope: Scope::Repository,
        settings: Settings {
            seed: options.seed,
            budget_ms: options.budget_ms,
            gp: options.gp,
            fresh: true,
            write: true,
            ..Settings::default()
        },
    };
    // Quietly: the copy's results are not the workspace's (an editor would show them).
    observer.on(Event::Stage("validating: analysing the measurements not held out"));
    // The analysis alone: `request` does not ask for a validation (`Settings::default()`).
    let analysed = analyse(&request, &mut Quiet, control)?;
    if analysed.aborted() || control.cancel.is_cancelled() {
        return Err(JobError::Aborted);
    }
    let measured = measured_totals(&split.held_out, 1e6);
    let models = read_models(&repositories)?;
    let rates = crate::predicting::rates::rates(ws, None, &[])?;
    let services = compare(
        &ws.root,
        &ws.repositories,
        &models,
        system.as_deref(),
        rates.as_ref(),
        &measured,
        true,
    )?;
    let mut notes = whole.notes;
    notes.push(format!(
        "held out {} of {} entry executions (share {}, seed {}); the laws were fitted to the other {} into {}",
        split.held_out_entries,
        split.held_out_entries + split.training_entries,
        options.share,
        options.seed,
        split.training_entries,
        dir.display()
    ));
    Ok(ValidationReport {
        services,
        notes,
        baseline: Vec::new(),
        scaled: Vec::new(),
    })
}
