//! `beagle validate` of a Java workspace: the system is run at fresh parameter points (seeded,
//! inside the launch ranges, away from the points the analysis measured), each service
//! execution's time from entry to exit is measured (callees on the thread included), and each
//! service point (the mean over its executions) is compared with the prediction of the
//! repository as it is now — what the analysis wrote, or what the user wrote by hand.
//!
//! What is measured is the *plain* build: the sources with probes only at the services' entries
//! and exits (and their parameters), each execution's time net of those probes' calibrated cost
//! (thread CPU time when outermost on its thread, else the wall clock less time not running). The
//! instrumented build the analysis measures with runs at the same points too: where its totals,
//! also net of every probe, differ from the plain ones beyond the noise, the probes changed what
//! the JIT made of the code (inlining, escape analysis), and the report says so per SEFF.

use crate::context::Context;
use crate::error::JobError;
use crate::measuring::java::{prepare_workspace, Build, PreparedWorkspace};
use crate::observer::{Event, Observer};
use crate::report::Report;
use crate::request::Settings;
use crate::validating::calibration::{distortion, distortion_note, factor, point_key, scope, PointKey};
use crate::validation::{compare, ValidateOptions, ValidationReport};
use crate::workspace::{Source, Workspace};
use beagle_analysis::predict::{Bindings, Predictor};
use beagle_analysis::validation::{points_of, Measured, ServiceValidation};
use beagle_analysis::{Control, MeasurementEvent, Scope, Store};
use beagle_java::launch::{coarse_points, describe, fresh_points, run_point};
use beagle_java::launch::{JavaConfig, Launch, Point, RunError};
use beagle_java::prepare::Prepared;
use beagle_java::probe::decode::{decode_file, DecodeOptions};
use std::collections::HashMap;
use std::path::Path;

/// Models predicted beside the one validated, on the same runs: the model as measured, and by
/// another rule for the platform.
pub(crate) struct Beside<'a> {
    pub naive: &'a [beagle_pcm::ModelFile],
    pub scaled: &'a [beagle_pcm::ModelFile],
}

/// Validates a Java workspace (see the module documentation).
/// `models`: the workspace's repositories as they are to be validated (as on disk, or with an
/// analysis's results written in).
pub(crate) fn validate(
    ws: &Workspace,
    models: &[beagle_pcm::ModelFile],
    beside: Option<Beside>,
    options: &ValidateOptions,
    observer: &mut dyn Observer,
    control: &Control,
) -> Result<ValidationReport, JobError> {
    let Some(Source::Java { config, links }) = &ws.source else {
        return Err(JobError::NotJava);
    };
    // Runs that stand for another platform: its JVM options on every launch. The instrumented
    // build is then not run: the probes' distortion is a question of the measuring platform.
    let elsewhere = !options.jvm_args.is_empty() || options.platform.is_some();
    let mut config = config.clone();
    for launch in &mut config.launches {
        launch.jvm_args.extend(options.jvm_args.iter().cloned());
    }
    let config = &config;
    let settings = Settings {
        seed: options.seed,
        ..Settings::default()
    };
    let mut report = Report::default();
    let PreparedWorkspace {
        prepared, plain, work, ..
    } = {
        let mut store = Store::open(&ws.root)?;
        let mut cx = Context {
            settings: &settings,
            store: &mut store,
            observer: &mut *observer,
            control,
            report: &mut report,
        };
        prepare_workspace(
            &ws.root,
            &ws.repositories,
            config,
            links.as_deref(),
            &Scope::Repository,
            Build::AlsoPlain,
            &mut cx,
        )?
    };
    let plain = plain.expect("asked for the plain build");
    let mut notes: Vec<String> = report
        .diagnostics
        .iter()
        .filter(|d| d.severity != beagle_pcm::Severity::Info)
        .map(|d| d.message.clone())
        .collect();
    // (service, inputs, ms) of every execution, in the plain build and in the instrumented one.
    let mut executions: Vec<(String, Bindings, f64)> = Vec::new();
    let mut instrumented: Vec<(String, Bindings, f64)> = Vec::new();
    for launch in &config.launches {
        // The analysis's first pass at the same seed; its later points are chosen from its
        // measurements and not known here, but a fresh hypercube of continuous ranges meets
        // them with probability 0.
        let used = coarse_points(launch, config.workload.points, options.seed);
        let points = fresh_points(launch, options.points, options.seed, &used);
        for (i, point) in points.iter().enumerate() {
            if control.cancel.is_cancelled() {
                return Err(JobError::Aborted);
            }
            observer.on(Event::Stage(&format!(
                "validating: {} at {} ({}/{})",
                launch.name,
                describe(point),
                i + 1,
                points.len()
            )));
            let dir = work.join("validate").join(&launch.name).join(i.to_string());
            let run = |build: &Prepared, name: &str| {
                run_build(
                    config,
                    build,
                    launch,
                    point,
                    &dir.join(name),
                    &format!("validate-{}-{i}-{name}", launch.name),
                )
            };
            match run(&plain, "plain")? {
                Ok(mut e) => executions.append(&mut e),
                Err(e) if e.is_fatal() => return Err(e.into()),
                Err(e) => {
                    notes.push(format!("{e}: point left out"));
                    continue;
                }
            }
            if elsewhere {
                continue;
            }
            match run(&prepared, "instrumented")? {
                Ok(mut e) => instrumented.append(&mut e),
                Err(e) if e.is_fatal() => return Err(e.into()),
                Err(e) => notes.push(format!("{e}: the instrumented build left out at this point")),
            }
        }
        notes.push(format!(
            "{}: {} fresh points (seed {}), each run {} times after warm-up; measured: each service execution's time, entry to exit, in the plain build (probes only at the services' entries and exits, net of their calibrated cost: thread CPU time when outermost on its thread, else the wall clock less time not running)",
            launch.name,
            points.len(),
            options.seed,
            config.workload.repetitions
        ));
    }
    let measured = points_of(executions);
    let system = ws.system();
    let rates = crate::predicting::rates::rates(ws, None, &[])?;
    let mut services = compare(
        &ws.root,
        &ws.repositories,
        models,
        system.as_deref(),
        rates.as_ref(),
        &measured,
        !elsewhere,
    )?;
    let compare_with = |models: &[beagle_pcm::ModelFile]| {
        compare(
            &ws.root,
            &ws.repositories,
            models,
            system.as_deref(),
            rates.as_ref(),
            &measured,
            false,
        )
    };
    let (baseline, scaled) = match beside {
        Some(b) => (compare_with(b.naive)?, compare_with(b.scaled)?),
        None => (Vec::new(), Vec::new()),
    };
    // The instrumented build's total at each (service, inputs), looked up once per plain point:
    // a nested service has a point per distinct argument (hotloop's checksum: thousands).
    let instrumented: HashMap<PointKey, f64> = points_of(instrumented)
        .into_iter()
        .map(|m| (point_key(&m.service, &m.inputs), m.total_ms))
        .collect();
    calibrate(
        ws,
        models,
        system.as_deref(),
        rates.as_ref(),
        &mut services,
        &measured,
        &instrumented,
    )?;
    if !options.jvm_args.is_empty() {
        notes.push(format!("every launch ran with {}", options.jvm_args.join(" ")));
    }
    Ok(ValidationReport {
        services,
        notes,
        baseline,
        scaled,
    })
}

/// Every kept execution of a run: (service, inputs, ms).
type Executions = Vec<(String, Bindings, f64)>;

/// Runs one build of the system at `point`: every kept execution; a run that failed inside
/// (timeout, crash) or, outside, an events file that cannot be read.
fn run_build(
    config: &JavaConfig,
    build: &Prepared,
    launch: &Launch,
    point: &Point,
    dir: &Path,
    tag: &str,
) -> Result<Result<Executions, RunError>, JobError> {
    let out = match run_point(&config.java, &build.classpath, launch, point, &config.workload, dir) {
        Ok(out) => out,
        Err(e) => return Ok(Err(e)),
    };
    let decode = DecodeOptions {
        run: tag.to_string(),
        warmup: 1,
        service_times: true,
        count_keys: Default::default(),
    };
    let (events, summary) =
        decode_file(&out.events, &build.table, &decode).map_err(JobError::unreadable(&out.events))?;
    let _ = std::fs::remove_file(&out.events);
    Ok(Ok(events
        .into_iter()
        .filter_map(|e| match e {
            MeasurementEvent::ServiceCall {
                execution,
                service,
                parameters,
                ..
            } => (summary.service_cpu_ns.get(&execution)).map(|ns| (service, parameters, *ns as f64 / 1e6)),
            _ => None,
        })
        .collect()))
}

/// Says each SEFF's distortion, and calibrates each outermost SEFF whose measurement is distorted
/// and whose prediction is off the plain totals (`crate::validating::calibration`); the
/// validations are kept again with what was added.
fn calibrate(
    ws: &Workspace,
    models: &[beagle_pcm::ModelFile],
    system: Option<&Path>,
    rates: Option<&beagle_analysis::predict::rates::Rates>,
    services: &mut [ServiceValidation],
    plain: &[Measured],
    instrumented: &HashMap<PointKey, f64>,
) -> Result<(), JobError> {
    let system_file = system
        .map(|p| beagle_pcm::ModelFile::read(p).map_err(JobError::unreadable(p)))
        .transpose()?;
    let assembly = system_file.as_ref().and_then(beagle_pcm::model::system::assembly);
    for s in services.iter_mut() {
        let Some(d) = distortion(&s.seff, plain, instrumented) else {
            continue;
        };
        s.notes.push(distortion_note(d));
        let Some(file) = (models.iter()).find(|m| {
            (m.repository.as_ref()).is_some_and(|r| r.seffs().any(|(_, x)| x.id.as_deref() == Some(s.seff.as_str())))
        }) else {
            continue;
        };
        if file.seff_is_called(&s.seff) {
            continue;
        }
        let Some(mut c) = factor(s, d.1) else { continue };
        let (Some(repo), Some(predictor)) = (
            file.repository.as_ref(),
            Predictor::bound(file, assembly.as_ref(), rates),
        ) else {
            continue;
        };
        scope(&mut c, &predictor, repo, s);
        s.notes.push(c.describe());
        s.calibration = Some(c);
    }
    let mut store = beagle_analysis::Store::open(&ws.root)?;
    for v in services
        .iter()
        .filter(|v| v.calibration.is_some() || !v.notes.is_empty())
    {
        store.save_validation(&v.repository, v)?;
    }
    Ok(())
}
