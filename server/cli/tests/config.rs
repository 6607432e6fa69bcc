//! Mistakes in `beagle.toml` on the command line (issue 41): `beagle check beagle.toml` checks
//! the configuration (not XML), and every command that reads a workspace warns about a table it
//! does not know, with file and line, and goes on.

mod common;

use common::{beagle_in, copy_dir, root};
use std::path::Path;

/// The events example (fast: no JVM) with `extra` appended to its `beagle.toml`.
fn events_workspace(dir: &Path, extra: &str) -> std::path::PathBuf {
    let ws = dir.join("events");
    copy_dir(&root().join("fixtures/events-example"), &ws);
    let toml = ws.join("beagle.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("{text}{extra}")).unwrap();
    ws
}

fn line_of(path: &Path, needle: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn check_reads_beagle_toml_as_configuration_with_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = events_workspace(tmp.path(), "\n[runer]\nkind = \"ssh\"\n");
    let toml = ws.join("beagle.toml");
    let out = beagle_in(tmp.path(), &["check", toml.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = line_of(&toml, "[runer]");
    let want = format!(
        "{}:{line}:1: warning[unknown-table]: unknown table `[runer]`",
        toml.display()
    );
    assert!(stdout.contains(&want), "{stdout}");
    assert!(stdout.contains("did you mean `[runner]`?"), "{stdout}");
    assert!(!stdout.contains("text outside the root element"), "{stdout}");
    assert!(stdout.contains("configuration: 0 errors, 1 warnings"), "{stdout}");
    // Warnings only: the file is usable.
    assert!(out.status.success(), "{stdout}");
}

#[test]
fn check_fails_on_a_key_a_table_does_not_have_and_a_missing_file() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = events_workspace(tmp.path(), "");
    let toml = ws.join("beagle.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("seed = 1", "seed = 1\nbudgett = 5")).unwrap();
    let out = beagle_in(tmp.path(), &["check", "--json", toml.to_str().unwrap()]);
    assert!(!out.status.success());
    let report = common::json(&out);
    assert_eq!(report["kind"], "configuration");
    let d = &report["diagnostics"][0];
    assert_eq!(
        (d["severity"].as_str(), d["code"].as_str()),
        (Some("error"), Some("beagle-toml"))
    );
    assert_eq!(d["line"].as_u64(), Some(line_of(&toml, "budgett") as u64), "{report}");
    assert!(d["message"].as_str().unwrap().contains("budgett"), "{report}");

    std::fs::write(&toml, text.replace("upload.events", "gone.events")).unwrap();
    let out = beagle_in(tmp.path(), &["check", toml.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    let line = line_of(&toml, "gone.events");
    assert!(
        stdout.contains(&format!(":{line}:1: error[missing-file]: `gone.events` does not exist")),
        "{stdout}"
    );
}

#[test]
fn a_folder_given_to_check_has_its_beagle_toml_checked_too() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = events_workspace(tmp.path(), "\n[Java]\nsources = [\"src\"]\n");
    let out = beagle_in(tmp.path(), &["check", ws.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("unknown table `[Java]`") && stdout.contains("did you mean `[java]`?"),
        "{stdout}"
    );
    assert!(stdout.contains("FileShare.repository: PCM"), "{stdout}");
}

#[test]
fn analyse_warns_about_an_unknown_table_with_file_and_line_and_analyses() {
    let tmp = tempfile::tempdir().unwrap();
    let ws = events_workspace(tmp.path(), "\n[runer]\nkind = \"ssh\"\n");
    let toml = ws.join("beagle.toml");
    let out = beagle_in(tmp.path(), &["analyse", ws.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = line_of(&toml, "[runer]");
    let want = format!("warning: {}:{line}: unknown table `[runer]`", toml.display());
    assert!(stderr.contains(&want), "{stderr}");
    assert!(out.status.success(), "{stderr}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("resource_demand CPU"),
        "the rest is analysed"
    );
}

#[test]
fn every_bundled_workspace_checks_clean_given_relative_to_the_folder_it_is_run_in() {
    // As a user types it from the repository root: a relative path (a relative folder joined
    // twice once named `fixtures/fileshare/fixtures/fileshare/src` missing).
    for ws in ["fileshare", "strategies", "hotloop", "events-example"] {
        let toml = format!("fixtures/{ws}/beagle.toml");
        let out = beagle_in(&root(), &["check", &toml]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("configuration: 0 errors, 0 warnings"),
            "{stdout}"
        );
    }
}
