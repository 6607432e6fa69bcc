//! `beagle validate`: does the model, as a whole, predict its services on measurements it was
//! not fitted to? ([`beagle_analysis::validation`])
//!
//! A Java workspace is run at fresh points ([`crate::java_validate`]). A workspace of
//! measurements (events, Kieker, OpenTelemetry) is split before the analysis: a
//! seeded share of the entry executions, with everything they called, is held out; the rest is
//! analysed into a copy of the repositories (under `.beagle/validate/`, the user's files are not
//! touched), and each held-out service point is compared with the prediction of that copy.

use crate::error::JobError;
use crate::job::{Request, Settings};
use crate::measurements::read_whole;
use crate::observer::Observer;
use crate::workspace::{Source, Workspace};
use beagle_analysis::predict::Predictor;
use beagle_analysis::validation::{hold_out, measured_totals, validate_service, ServiceValidation};
use beagle_analysis::{Control, Scope};
use beagle_measure::FileError;
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
}

impl Default for ValidateOptions {
    fn default() -> Self {
        ValidateOptions {
            share: 0.2,
            points: 8,
            seed: 1,
            gp: true,
            budget_ms: None,
        }
    }
}

/// What `beagle validate --json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct ValidationReport {
    pub services: Vec<ServiceValidation>,
    /// How the points were obtained (held-out share, seed, where the fitted copy is).
    pub notes: Vec<String>,
}

/// The folder of the analysed copy.
pub const VALIDATE_DIR: &str = "validate";

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
            crate::java_validate::validate(ws, &models, options, observer, &Control::new())
        }
        Some(source) => held_out(ws, source, options, observer, &Control::new()),
    }
}

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
    let model = crate::job::model_elements(&ws.repositories);
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
    observer.on(crate::Event::Stage(
        "validating: analysing the measurements not held out",
    ));
    let analysed = crate::run(&request, &mut crate::Quiet, control)?;
    if analysed.aborted() || control.cancel.is_cancelled() {
        return Err(JobError::Aborted);
    }
    let measured = measured_totals(&split.held_out, 1e6);
    let models = read_models(&repositories)?;
    let services = compare(&ws.root, &ws.repositories, &models, system.as_deref(), &measured)?;
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
    Ok(ValidationReport { services, notes })
}

/// Each measured service beside the prediction of the model (of the repositories, in order)
/// that has its SEFF; each validation names `repositories[i]`, the user's file, also where
/// `models` are analysed copies. The validations are kept in the store of `root` (for the
/// editor's hover and lens).
pub(crate) fn compare(
    root: &Path,
    repositories: &[PathBuf],
    models: &[ModelFile],
    system: Option<&Path>,
    measured: &[beagle_analysis::validation::Measured],
) -> Result<Vec<ServiceValidation>, JobError> {
    let system_file = system
        .map(|p| ModelFile::read(p).map_err(JobError::unreadable(p)))
        .transpose()?;
    let assembly = system_file.as_ref().and_then(assembly);
    let mut services = Vec::new();
    for (path, file) in repositories.iter().zip(models) {
        let Some(predictor) = Predictor::new(file) else {
            continue;
        };
        let predictor = match &assembly {
            Some(a) => predictor.with_system(a),
            None => predictor,
        };
        let key = path
            .canonicalize()
            .unwrap_or_else(|_| path.clone())
            .display()
            .to_string();
        for (seff, name) in predictor.services() {
            if let Some(mut v) = validate_service(&name, &seff, measured, |inputs| predictor.predict(&seff, inputs)) {
                v.repository = key.clone();
                services.push(v);
            }
        }
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

/// The repositories with a job's results written in (in memory; the files are not touched):
/// what `beagle analyse --validate` validates, written or not.
pub fn analysed_models(output: &crate::JobOutput) -> Result<Vec<ModelFile>, JobError> {
    output
        .repositories
        .iter()
        .map(|a| {
            let file = ModelFile::from_bytes(a.path.clone(), a.original.clone());
            let written = beagle_analysis::write_back(&file, a.finals.values().map(|(e, fe)| (e, fe)), true).map_err(
                |source| JobError::WriteBack {
                    repository: a.path.clone(),
                    source,
                },
            )?;
            Ok(ModelFile::parse(a.path.clone(), written.text))
        })
        .collect()
}
