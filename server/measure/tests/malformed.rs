//! Malformed Kieker logs give errors naming the file, the 1-based line and the field; nothing
//! half-read is returned.

use beagle_measure::kieker::{read_log, KiekerError, LineError};
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

#[test]
fn bad_number_names_file_line_and_field() {
    let bad = "$1;405;s-1;e-1;_Seff1;{};<not set>;<not set>;0;x;<not set>\n";
    let (e, message, dir) = error("number", Some(MAP), &format!("{GOOD}{GOOD}{bad}"));
    assert_eq!(
        message,
        format!(
            "{}:3: field 9 (exitTime) of ServiceCallRecord: not a non-negative integer: \"x\"",
            dir.join("bad.dat").display()
        )
    );
    assert!(matches!(
        e,
        KiekerError::Line {
            line: 3,
            problem: LineError::Field { index: 9, .. },
            ..
        }
    ));
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
    let (e, message, _) = error("id", Some(MAP), &format!("{GOOD}$7;1;2\n"));
    assert!(
        message.contains("bad.dat:2: record id $7 is not in kieker.map"),
        "{message}"
    );
    assert!(matches!(
        e,
        KiekerError::Line {
            line: 2,
            problem: LineError::UnknownId(7),
            ..
        }
    ));
}

#[test]
fn truncated_line() {
    let (_, message, _) = error("truncated", Some(MAP), &format!("{GOOD}$1;405;s-1;e-1;_Se"));
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
