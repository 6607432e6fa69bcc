//! Measuring one parameter point: run it, decode what the probes wrote, turn the events into
//! results per element, and remove outliers from the timings.

use crate::launch::{describe, run_batch, run_point, JavaConfig, Launch, Point, RunError, RunOutput};
use crate::prepare::Prepared;
use crate::probe::decode::Decoded;
use crate::sections::SectionTable;
use beagle_analysis::blackboard::ElementKind;
use beagle_analysis::{
    remove_outliers, EventDigest, EventsSummary, MeasurableElement, MeasurementResult, ResultOptions, SummaryBuilder,
};
use std::path::{Path, PathBuf};
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

/// The digest of one point's events. It knows every transition of each probed branch: a point's
/// JVM runs only some of them (a workload of small files never takes the large-file transition),
/// and the decisions it measured are observations of the others too (not taken). Without that,
/// the results of the points merged, each transition would be fitted over only the points where
/// it ran, and a branch decided by the inputs would publish 1 for both of its transitions. It
/// also knows the SEFF of each element, where the table says ([`SectionTable::services`]).
pub fn digest_for(table: &SectionTable, options: ResultOptions) -> EventDigest {
    EventDigest::new(options)
        .with_transitions(table.transitions())
        .with_services(table.services.clone())
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
    Ok(measurement_of(prepared, launch, point, &out, run_tag))
}

/// Runs `launch` at each of `points` in one JVM ([`run_batch`]; point `i`'s files under
/// `dirs[i]`, the JVM's under `dir`) and returns their results in the same order. A failure is the
/// batch's: measure the points one by one ([`measure_point`]) to tell which fails.
pub fn measure_batch(
    config: &JavaConfig,
    prepared: &Prepared,
    launch: &Launch,
    points: &[Point],
    dirs: &[PathBuf],
    dir: &Path,
    run_tags: &[String],
) -> Result<Vec<PointMeasurement>, RunError> {
    let outs = run_batch(
        &config.java,
        &prepared.classpath,
        launch,
        points,
        dirs,
        &config.workload,
        dir,
    )?;
    Ok(points
        .iter()
        .zip(&outs)
        .zip(run_tags)
        .map(|((point, out), tag)| measurement_of(prepared, launch, point, out, tag))
        .collect())
}

/// Decodes what the probes wrote at `point` into its results.
pub fn measurement_of(
    prepared: &Prepared,
    launch: &Launch,
    point: &Point,
    out: &RunOutput,
    run_tag: &str,
) -> PointMeasurement {
    let options = crate::probe::decode::DecodeOptions {
        warmup: 1,
        service_times: false,
        run: run_tag.to_string(),
        count_keys: Default::default(),
    };
    // One observation per timed section (or per total the probe wrote for a section in a loop):
    // outliers (a GC pause in one section) are removed per point before the JVM's medians are
    // taken (`beagle-job`'s `merge`).
    let result_options = ResultOptions {
        per_iteration: true,
        ..ResultOptions::default()
    };
    // Streamed: a service that loops 100,000 times per call writes millions of records.
    let mut digest = digest_for(&prepared.table, result_options);
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
    if let Some(note) = disturbed_note(&s) {
        notes.push(format!("{at}: {note}"));
    }
    for note in digest.notes() {
        notes.push(format!("{at}: {note}"));
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
    let mut summary = summary.finish();
    summary.probe_costs = s.probe_costs;
    PointMeasurement {
        launch: launch.name.clone(),
        point: point.clone(),
        results,
        summary,
        outliers,
        wall: out.wall,
        notes,
    }
}

/// What the launcher's windows met (`Windows.java`): runs another process slowed, measured again,
/// or kept when measuring again ran out.
fn disturbed_note(s: &crate::probe::decode::DecodeSummary) -> Option<String> {
    if s.disturbed_again == 0 && s.disturbed_kept == 0 {
        return None;
    }
    let mut note = format!(
        "disturbed: another process slowed the machine while it measured (a reference work up to {} % slower than usual); ",
        s.disturbed_worst_percent
    );
    note += &match (s.disturbed_again, s.disturbed_kept) {
        (again, 0) => format!("{again} window(s) of runs measured again"),
        (0, kept) => format!("{kept} window(s) of runs kept as measured (measuring again ran out)"),
        (again, kept) => {
            format!("{again} window(s) of runs measured again, {kept} kept as measured (measuring again ran out)")
        }
    };
    Some(note)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sections::Section;
    use beagle_analysis::MeasurementEvent;

    fn call(execution: &str, service: &str, size: f64) -> MeasurementEvent {
        MeasurementEvent::ServiceCall {
            execution: execution.into(),
            service: service.into(),
            caller_execution: None,
            call: None,
            parameters: [("size.VALUE".to_string(), size)].into(),
            entry_ns: 0,
            exit_ns: 0,
        }
    }

    fn branch(execution: &str, transition: &str) -> MeasurementEvent {
        MeasurementEvent::Branch {
            execution: execution.into(),
            branch: "_size".into(),
            transition: Some(transition.into()),
        }
    }

    /// The sections of `Storage.store`: its branch on the file size, and a demand.
    fn table() -> SectionTable {
        let mut table = SectionTable::default();
        table.add(Section::Service {
            service: "_store".into(),
        });
        for t in ["_large", "_small"] {
            table.add(Section::Transition {
                branch: "_size".into(),
                transition: t.into(),
            });
        }
        table.add(Section::Demand {
            action: "_frame".into(),
            resource: "CPU".into(),
            cpu: true,
        });
        table
    }

    #[test]
    fn a_point_that_took_one_transition_observes_the_other_as_not_taken() {
        // A launch point of small files only: the large transition never ran in its JVM.
        let options = ResultOptions {
            per_iteration: true,
            ..ResultOptions::default()
        };
        let mut digest = digest_for(&table(), options);
        for (i, size) in [10.0, 20.0].into_iter().enumerate() {
            let e = format!("p:{i}");
            digest.add(&call(&e, "_store", size));
            digest.add(&branch(&e, "_small"));
            digest.end(&e);
        }
        let results = digest.finish();
        let values = |id: &str| -> Vec<f64> {
            let (_, r) = results.iter().find(|(e, _)| e.id == id).expect(id);
            r.observations.iter().map(|o| o.value).collect()
        };
        assert_eq!(values("_size/_small"), [1.0, 1.0]);
        assert_eq!(values("_size/_large"), [0.0, 0.0]);
    }

    #[test]
    fn records_made_in_another_seffs_execution_are_not_the_elements() {
        // `_frame` belongs to `_store`; its code is a helper that `_upload` runs as well.
        let mut table = table();
        table.services.insert("_frame".into(), "_store".into());
        table.services.insert("_size".into(), "_store".into());
        let mut digest = digest_for(&table, ResultOptions::default());
        digest.add(&call("p:1", "_upload", 5.0));
        for e in ["p:1", "p:1"] {
            digest.add(&MeasurementEvent::ResourceDemand {
                execution: e.into(),
                action: "_frame".into(),
                resource: "CPU".into(),
                start_ns: 0,
                stop_ns: 1_000_000,
            });
        }
        digest.add(&branch("p:1", "_small"));
        digest.end("p:1");
        assert_eq!(
            digest.notes(),
            [
                "_frame/_oro4gG3fEdy4YaaT-RYrLQ: 2 observations were made in executions of SEFF _upload, not of \
                 its own SEFF _store: not used",
                "_size: 1 observations were made in executions of SEFF _upload, not of its own SEFF _store: not used",
            ]
        );
        // `_store` never ran: nothing of it is measured.
        assert!(digest.finish().is_empty());
    }

    #[test]
    fn a_disturbed_run_says_what_was_measured_again_and_what_was_kept() {
        use crate::probe::decode::DecodeSummary;
        assert_eq!(disturbed_note(&DecodeSummary::default()), None);
        let again = DecodeSummary {
            disturbed_again: 3,
            disturbed_worst_percent: 85,
            ..DecodeSummary::default()
        };
        let note = disturbed_note(&again).unwrap();
        assert!(note.contains("up to 85 % slower"), "{note}");
        assert!(note.ends_with("3 window(s) of runs measured again"), "{note}");
        let both = DecodeSummary {
            disturbed_kept: 1,
            ..again
        };
        assert!(disturbed_note(&both)
            .unwrap()
            .ends_with("3 window(s) of runs measured again, 1 kept as measured (measuring again ran out)"));
    }
}
