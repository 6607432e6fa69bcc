//! `beagle validate` of a Java workspace: the system is run at fresh parameter points (seeded,
//! inside the launch ranges, away from the points the analysis measured), each service
//! execution's thread CPU time from entry to exit is measured (callees on the thread included:
//! the probe's EXIT carries it when `-Dbeagle.serviceCpu=true`), and each service point (the
//! mean over its executions) is compared with the prediction of the repository as it is now —
//! what the analysis wrote, or what the user wrote by hand.

use crate::context::Context;
use crate::error::JobError;
use crate::java::{prepare_workspace, PreparedWorkspace};
use crate::observer::{Event, Observer};
use crate::report::Report;
use crate::request::Settings;
use crate::validation::{compare, ValidateOptions, ValidationReport};
use crate::workspace::{Source, Workspace};
use beagle_analysis::predict::Bindings;
use beagle_analysis::validation::points_of;
use beagle_analysis::{Control, MeasurementEvent, Scope, Store};
use beagle_java::launch::{coarse_points, describe, fresh_points, run_point};
use beagle_java::probe::decode::{decode_file, DecodeOptions};

/// Validates a Java workspace (see the module documentation).
/// `models`: the workspace's repositories as they are to be validated (as on disk, or with an
/// analysis's results written in).
pub(crate) fn validate(
    ws: &Workspace,
    models: &[beagle_pcm::ModelFile],
    options: &ValidateOptions,
    observer: &mut dyn Observer,
    control: &Control,
) -> Result<ValidationReport, JobError> {
    let Some(Source::Java { config, links }) = &ws.source else {
        return Err(JobError::NotJava);
    };
    let settings = Settings {
        seed: options.seed,
        ..Settings::default()
    };
    let mut report = Report::default();
    let PreparedWorkspace { prepared, work, .. } = {
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
            &mut cx,
        )?
    };
    let mut notes: Vec<String> = report
        .diagnostics
        .iter()
        .filter(|d| d.severity != beagle_pcm::Severity::Info)
        .map(|d| d.message.clone())
        .collect();
    let mut executions: Vec<(String, Bindings, f64)> = Vec::new();
    for launch in &config.launches {
        // The analysis's first pass at the same seed; its later points are chosen from its
        // measurements and not known here, but a fresh hypercube of continuous ranges meets
        // them with probability 0.
        let used = coarse_points(launch, config.workload.points, options.seed);
        let points = fresh_points(launch, options.points, options.seed, &used);
        // The probe measures each execution's thread CPU time in these runs only.
        let mut measuring = launch.clone();
        measuring.jvm_args.push("-Dbeagle.serviceCpu=true".into());
        measuring.env.insert("BEAGLE_SERVICE_CPU".into(), "true".into());
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
            let out = match run_point(
                &config.java,
                &prepared.classpath,
                &measuring,
                point,
                &config.workload,
                &dir,
            ) {
                Ok(out) => out,
                Err(e) if e.is_fatal() => return Err(e.into()),
                Err(e) => {
                    notes.push(format!("{e}: point left out"));
                    continue;
                }
            };
            let decode = DecodeOptions {
                run: format!("validate-{}-{i}", launch.name),
                warmup: 1,
                service_times: true,
            };
            let (events, summary) =
                decode_file(&out.events, &prepared.table, &decode).map_err(JobError::unreadable(&out.events))?;
            let _ = std::fs::remove_file(&out.events);
            for e in events {
                if let MeasurementEvent::ServiceCall {
                    execution,
                    service,
                    parameters,
                    ..
                } = e
                {
                    if let Some(ns) = summary.service_cpu_ns.get(&execution) {
                        executions.push((service, parameters, *ns as f64 / 1e6));
                    }
                }
            }
        }
        notes.push(format!(
            "{}: {} fresh points (seed {}), each run {} times after warm-up; measured: each service execution's thread CPU time, entry to exit",
            launch.name,
            points.len(),
            options.seed,
            config.workload.repetitions
        ));
    }
    let measured = points_of(executions);
    let system = ws.system();
    let services = compare(&ws.root, &ws.repositories, models, system.as_deref(), &measured)?;
    Ok(ValidationReport { services, notes })
}
