//! `beagle validate --write-calibration` on a real model (MediaStore's repository, whose demands
//! are laws and distributions in work units): the factor multiplies each listed action's demands,
//! carried into the law's constant where it has one, and nothing else in the file changes.

use beagle_analysis::validation::{Calibration, ServiceValidation};
use beagle_job::validating::validate::ValidationReport;
use beagle_job::write_calibration;
use std::path::{Path, PathBuf};

const GET_FILES: &str = "_vwTL0L0LEeSAHuL4ItXOLQ";
const JNDI: &str = "_O_Z-4MG8EeSIWsmXhQZfeA";

fn mediastore_copy() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pcm/mediastore/MediaStore.repository");
    let to = dir.path().join("MediaStore.repository");
    std::fs::copy(from, &to).unwrap();
    (dir, to)
}

fn report(path: &Path, factor: f64, not_writable: Option<&str>) -> ValidationReport {
    ValidationReport {
        services: vec![ServiceValidation {
            repository: path.display().to_string(),
            service: "MediaStore.getFiles".into(),
            seff: "_seff".into(),
            points: 8,
            median_relative_error: 0.2,
            max_relative_error: 0.3,
            rows: Vec::new(),
            problems: Vec::new(),
            notes: Vec::new(),
            unmodelled: None,
            calibration: Some(Calibration {
                distortion: 1.4,
                factor,
                points: 8,
                actions: vec![GET_FILES.into(), JNDI.into()],
                not_writable: not_writable.map(str::to_string),
            }),
        }],
        notes: Vec::new(),
        baseline: Vec::new(),
        scaled: Vec::new(),
    }
}

#[test]
fn the_factor_multiplies_the_listed_demands_and_nothing_else_changes() {
    let (_dir, path) = mediastore_copy();
    let before = std::fs::read_to_string(&path).unwrap();
    let lines = write_calibration(&report(&path, 0.5, None)).unwrap();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].contains("MediaStore.getFiles") && lines[0].contains("× 0.500"),
        "{lines:?}"
    );
    let after = std::fs::read_to_string(&path).unwrap();
    // The law's constant takes the factor (4 significant digits: the factor is known to a few
    // per cent); the distribution is multiplied whole.
    let get_files = (after.lines())
        .find(|l| l.contains("Parameteric") && l.contains("audioRequest.Count.VALUE"))
        .unwrap_or_default();
    assert!(
        get_files.contains(r#"specification="audioRequest.Count.VALUE * 37590000.0""#),
        "get files: {get_files}"
    );
    assert!(!after.contains("audioRequest.Count.VALUE*75182981.91"));
    assert!(
        after.contains(r#"specification="0.5 * DoublePDF[(248240.0;"#),
        "the JNDI overhead"
    );
    // Only those attributes changed: the rest of the file keeps its bytes.
    let changed_lines: Vec<(&str, &str)> = before.lines().zip(after.lines()).filter(|(a, b)| a != b).collect();
    assert_eq!(before.lines().count(), after.lines().count());
    assert!(
        changed_lines
            .iter()
            .all(|(a, _)| a.contains("specification_ParametericResourceDemand")),
        "{changed_lines:?}"
    );
    // Every demand of both actions (get files has two), and no other.
    let demands_of = |text: &str| text.matches("specification_ParametericResourceDemand").count();
    assert_eq!(demands_of(&before), demands_of(&after));
    assert!(
        (2..=4).contains(&changed_lines.len()),
        "the two actions' demands: {}",
        changed_lines.len()
    );
}

#[test]
fn a_factor_that_would_change_another_services_prediction_is_not_written() {
    let (_dir, path) = mediastore_copy();
    let before = std::fs::read(&path).unwrap();
    let lines = write_calibration(&report(
        &path,
        0.5,
        Some("a SEFF of Cache calls one of its callees too"),
    ))
    .unwrap();
    assert!(lines[0].contains("not calibrated: a SEFF of Cache"), "{lines:?}");
    assert_eq!(std::fs::read(&path).unwrap(), before, "the file is untouched");
}
