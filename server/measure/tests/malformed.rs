//! Malformed Kieker logs: a damaged line is skipped with a problem naming the file, the 1-based
//! line and the field, and the rest is read; a log with nothing usable is an error naming its
//! first problem.

use beagle_measure::kieker::{read_log, KiekerError, LineError, SkippedLine};
use std::path::PathBuf;

fn log_dir(name: &str, map: Option<&str>, dat: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("beagle-measure-bad-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    if let Some(map) = map {
        std::fs::write(dir.join("kieker.map"), map).unwrap();
    }
    std::fs::write(dir.join("bad.dat"), dat).unwrap();
    dir
}

const MAP: &str = "$0=kieker.common.record.misc.KiekerMetadataRecord\n\
    $1=tools.vitruv.applications.pcmjava.modelrefinement.parameters.monitoring.records.ServiceCallRecord\n";
const GOOD: &str = "$1;405;s-1;e-1;_Seff1;{\"n_VALUE\":1,};<not set>;<not set>;0;400;<not set>\n";

fn error(name: &str, map: Option<&str>, dat: &str) -> (KiekerError, String, PathBuf) {
    let dir = log_dir(name, map, dat);
    let e = read_log(&dir).unwrap_err();
    let message = e.to_string();
    (e, message, dir)
}

/// The one skipped line of a log whose other lines are good (all of them kept), and its message.
fn skipped(name: &str, dat: &str, good: usize) -> (SkippedLine, String, PathBuf) {
    let dir = log_dir(name, Some(MAP), dat);
    let mut log = read_log(&dir).unwrap();
    assert_eq!(log.records.len(), good, "the good lines are read");
    assert_eq!(log.skipped.len(), 1, "{:?}", log.skipped);
    let s = log.skipped.remove(0);
    let message = s.to_string();
    (s, message, dir)
}

#[test]
fn bad_number_names_file_line_and_field() {
    let bad = "$1;405;s-1;e-1;_Seff1;{};<not set>;<not set>;0;x;<not set>\n";
    let (e, message, dir) = skipped("number", &format!("{GOOD}{GOOD}{bad}"), 2);
    assert_eq!(
        message,
        format!(
            "{}:3: field 9 (exitTime) of ServiceCallRecord: not a non-negative integer: \"x\"",
            dir.join("bad.dat").display()
        )
    );
    assert!(matches!(
        e,
        SkippedLine {
            line: 3,
            problem: LineError::Field { index: 9, .. },
            ..
        }
    ));
    // Alone in its log, the same line is an error with the same words.
    let (_, alone, _) = error("number-alone", Some(MAP), bad);
    assert!(
        alone.ends_with(":1: field 9 (exitTime) of ServiceCallRecord: not a non-negative integer: \"x\""),
        "{alone}"
    );
}

#[test]
fn bad_parameters_are_a_field_error() {
    let bad = "$1;405;s-1;e-1;_Seff1;{\"n\":};<not set>;<not set>;0;1;<not set>\n";
    let (_, message, _) = error("params", Some(MAP), bad);
    assert!(
        message.contains("bad.dat:1: field 5 (parameters) of ServiceCallRecord: not a parameter object"),
        "{message}"
    );
}

#[test]
fn unknown_record_id() {
    let (e, message, _) = skipped("id", &format!("{GOOD}$7;1;2\n"), 1);
    assert!(
        message.contains("bad.dat:2: record id $7 is not in kieker.map"),
        "{message}"
    );
    assert!(matches!(
        e,
        SkippedLine {
            line: 2,
            problem: LineError::UnknownId(7),
            ..
        }
    ));
}

#[test]
fn truncated_line() {
    let (_, message, _) = skipped("truncated", &format!("{GOOD}$1;405;s-1;e-1;_Se"), 1);
    assert!(
        message.contains("bad.dat:2: ServiceCallRecord: expected 10 fields after `$n`, found 4"),
        "{message}"
    );
}

#[test]
fn line_without_record_id() {
    let (_, message, _) = error("noid", Some(MAP), "hello;world\n");
    assert!(
        message.contains("bad.dat:1: expected a record `$<n>;<loggingTimestamp>;...`"),
        "{message}"
    );
}

#[test]
fn missing_map() {
    let (e, message, dir) = error("nomap", None, GOOD);
    assert!(matches!(e, KiekerError::MissingMap { .. }));
    assert_eq!(
        message,
        format!("{}: no kieker.map (not a Kieker text log directory)", dir.display())
    );
}

#[test]
fn bad_map_line() {
    let (_, message, _) = error("badmap", Some("$0=kieker.X\nnonsense\n"), GOOD);
    assert!(
        message.contains("kieker.map:2: expected `$<n>=<record class name>`"),
        "{message}"
    );
}

#[test]
fn both_cipm_layouts_of_service_call_records_are_read_and_named() {
    // The 2018 layout (no returnValue), the 2019 one (an assembly id before the times: as long
    // as the latest, told apart by where the times are) and the latest, in one log.
    let old = "$1;405;s-1;e-2;_Seff1;{\"n_VALUE\":2,};<not set>;<not set>;500;900\n";
    let assembly = "$1;405;s-1;e-3;_Seff1;{\"n.VALUE\":3};<not set>;<not set>;_Assembly1;600;950\n";
    let dir = log_dir("layouts", Some(MAP), &format!("{GOOD}{old}{assembly}"));
    let log = read_log(&dir).unwrap();
    assert!(log.skipped.is_empty(), "{:?}", log.skipped);
    assert_eq!(log.records.len(), 3);
    assert_eq!(
        log.layouts.keys().map(String::as_str).collect::<Vec<_>>(),
        [
            "ServiceCallRecord (CIPM 2018: without returnValue)",
            "ServiceCallRecord (CIPM 2019: with assemblyId)",
            "ServiceCallRecord (with returnValue)"
        ]
    );
    let times: Vec<(u64, u64, Option<&str>)> = log
        .records
        .iter()
        .map(|r| match &r.record {
            beagle_measure::KiekerRecord::ServiceCall(c) => (c.entry_time, c.exit_time, c.return_value.as_deref()),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(times, [(0, 400, Some("<not set>")), (500, 900, None), (600, 950, None)]);
}
