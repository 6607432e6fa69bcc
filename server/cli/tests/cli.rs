//! The `beagle` binary as a user runs it: output, JSON shape and exit codes.

use std::path::Path;
use std::process::{Command, Output};

fn beagle(args: &[&str]) -> Output {
    // Run from the repository root so that paths in the output are the relative ones given.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    Command::new(env!("CARGO_BIN_EXE_beagle"))
        .args(args)
        .current_dir(root)
        .output()
        .expect("beagle runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn check_json_reports_every_fixture() {
    let out = beagle(&["check", "--json", "fixtures/pcm"]);
    // Family.repository is a hand-made, unfinished model: its errors make the exit status 1.
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let reports: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(reports.len(), 18);
    let ms = reports
        .iter()
        .find(|r| r["file"] == "fixtures/pcm/mediastore/MediaStore.repository")
        .unwrap();
    assert_eq!(ms["pcm_version"], "5.2");
    assert_eq!(ms["components"], 6);
    assert_eq!(ms["seffs"], 11);
    assert_eq!(ms["actions"]["InternalAction"], 12);
    assert_eq!(ms["actions"]["ExternalCallAction"], 9);
    assert_eq!(ms["specifications"], 41);
    assert_eq!(ms["diagnostics"].as_array().unwrap().len(), 0);
    let family = reports
        .iter()
        .find(|r| r["file"].as_str().unwrap().ends_with("Family.repository"))
        .unwrap();
    let first = &family["diagnostics"][0];
    for key in ["severity", "line", "column", "element", "message"] {
        assert!(first.get(key).is_some(), "{key} in {first}");
    }
    insta::assert_snapshot!(text);
}

#[test]
fn check_exit_status_and_text() {
    let out = beagle(&[
        "check",
        "fixtures/pcm/mediastore/MediaStore.repository",
        "fixtures/pcm/minimum-example",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    insta::assert_snapshot!(stdout(&out));
    let out = beagle(&["check", "fixtures/pcm/nope.repository"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("cannot read the file"));
}

#[test]
fn stoex_parse_prints_canonical_form_or_column() {
    let out = beagle(&["stoex", "parse", "files.NUMBER_OF_ELEMENTS*2.1E5+1400"]);
    assert!(out.status.success());
    insta::assert_snapshot!("canonical", stdout(&out));
    let out = beagle(&["stoex", "parse", "a.VALUE + (2 *"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("error: column 15:"), "{err}");
}

#[test]
fn stoex_eval_with_variables() {
    let out = beagle(&[
        "stoex",
        "eval",
        "files.NUMBER_OF_ELEMENTS * 2.1E5 + 1400",
        "--var",
        "files.NUMBER_OF_ELEMENTS=3",
    ]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).trim().parse::<f64>().unwrap(), 631400.0);
    let out = beagle(&[
        "stoex",
        "eval",
        "n.VALUE > 2 ? IntPMF[(1;0.5)(3;0.5)] : 0",
        "--var",
        "n.VALUE=5",
    ]);
    assert_eq!(stdout(&out).trim().parse::<f64>().unwrap(), 2.0);
    let out = beagle(&["stoex", "eval", "x.VALUE + 1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr).unwrap().contains("x.VALUE"));
}
