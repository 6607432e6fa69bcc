//! Measuring one parameter point: run it, decode what the probes wrote, turn the events into
//! results per element, and remove outliers from the timings.

use crate::launch::{describe, run_point, JavaConfig, Launch, Point, RunError};
use crate::prepare::Prepared;
use crate::probe::decode::Decoded;
use beagle_analysis::blackboard::ElementKind;
use beagle_analysis::{
    remove_outliers, EventDigest, EventsSummary, MeasurableElement, MeasurementResult, ResultOptions, SummaryBuilder,
};
use std::path::Path;
use std::time::Duration;

/// What one point's runs measured.
#[derive(Clone, Debug)]
pub struct PointMeasurement {
    pub launch: String,
    pub point: Point,
    pub results: Vec<(MeasurableElement, MeasurementResult)>,
    /// What the decoded events (after dropping the warm-up) held.
    pub summary: EventsSummary,
    /// Timings removed as outliers.
    pub outliers: usize,
    pub wall: Duration,
    /// What the decoder could not use.
    pub notes: Vec<String>,
}

/// The store key of a point's measurement: the code, the launch, the point and the workload.
pub fn point_key(prepared: &Prepared, config: &JavaConfig, launch: &Launch, point: &Point) -> String {
    beagle_analysis::content_key(&[
        b"beagle-java-point",
        env!("CARGO_PKG_VERSION").as_bytes(),
        prepared.code_key.as_bytes(),
        format!("{launch:?}").as_bytes(),
        describe(point).as_bytes(),
        format!("{:?}", config.workload).as_bytes(),
    ])
}

/// Runs `launch` at `point` (files under `dir`) and returns its results.
pub fn measure_point(
    config: &JavaConfig,
    prepared: &Prepared,
    launch: &Launch,
    point: &Point,
    dir: &Path,
    run_tag: &str,
) -> Result<PointMeasurement, RunError> {
    let out = run_point(&config.java, &prepared.classpath, launch, point, &config.workload, dir)?;
    let options = crate::probe::decode::DecodeOptions {
        warmup: 1,
        run: run_tag.to_string(),
    };
    // One observation per timed section (or per total the probe wrote for a section in a loop):
    // outliers (a GC pause in one section) are removed per point before the JVM's medians are
    // taken (`beagle-job`'s `merge`).
    let result_options = ResultOptions {
        per_iteration: true,
        ..ResultOptions::default()
    };
    // Streamed: a service that loops 100,000 times per call writes millions of records.
    let mut digest = EventDigest::new(result_options);
    let mut summary = SummaryBuilder::default();
    let mut decoded = 0usize;
    let sink = |d: Decoded| match d {
        Decoded::Event(e) => {
            decoded += 1;
            summary.add(&e);
            digest.add(&e);
        }
        Decoded::Ended(execution) => digest.end(&execution),
    };
    // No file: the probes never ran (reported below as recording nothing).
    let s = crate::probe::decode::decode_file_into(&out.events, &prepared.table, &options, sink).unwrap_or_default();
    // Decoded, the records are in the results (and the store keeps those): the file of a service
    // looping 100,000 times per call is tens of MB per point, and would fill `.beagle/`.
    let _ = std::fs::remove_file(&out.events);
    let at = format!("launch `{}` at {}", launch.name, describe(point));
    let mut notes = Vec::new();
    // Records outside a service are worth a note of their own only when something was measured;
    // else the note below says it all.
    let outside = if decoded == 0 { 0 } else { s.outside };
    for (n, what) in [
        (
            outside,
            "records made outside any linked SEFF method (their code ran, but not inside a measured service)",
        ),
        (
            s.unknown_sections + s.unknown_types + s.invalid,
            "records the decoder could not use",
        ),
        (s.orphans, "records of executions never entered"),
        (s.truncated_bytes, "bytes of a truncated last record"),
    ] {
        if n > 0 {
            notes.push(format!("{at}: {n} {what}"));
        }
    }
    let mut results = digest.finish();
    let mut outliers = 0;
    for (element, result) in &mut results {
        if matches!(element.kind, ElementKind::ResourceDemand { .. }) {
            outliers += remove_outliers(result);
        }
    }
    if decoded == 0 {
        notes.push(if s.outside > 0 {
            format!(
                "{at}: nothing measured: instrumented code ran {} times, but never inside a linked SEFF method, so no run of a service was seen (are the SEFFs linked to the methods the launch calls?)",
                s.outside
            )
        } else {
            format!(
                "{at}: nothing measured: no instrumented code ran (the launch never reaches the linked code, or it runs a class of the same name from elsewhere on its classpath)"
            )
        });
    }
    Ok(PointMeasurement {
        launch: launch.name.clone(),
        point: point.clone(),
        results,
        summary: summary.finish(),
        outliers,
        wall: out.wall,
        notes,
    })
}
