//! What the command-line tests share: the repository root, running `beagle`, reading `--json`.

#![allow(dead_code)] // Each test file uses its part.

pub mod shared;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Whether a JDK's javac is on the PATH: the tests that measure Java skip without one.
pub fn javac_available() -> bool {
    Command::new("javac").arg("-version").output().is_ok()
}

/// A law's value with its variables (`name.CHARACTERISATION`) set; panics naming the law.
pub fn eval_law(stoex: &str, vars: &[(&str, f64)]) -> f64 {
    let e = beagle_stoex::parse(stoex).unwrap_or_else(|err| panic!("{stoex}: {err:?}"));
    beagle_stoex::eval_number(&e, &|n| vars.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
        .unwrap_or_else(|err| panic!("{stoex}: {err:?}"))
}

/// `beagle analyse --json .` on a fresh copy of `fixtures/<fixture>`, which must succeed: its
/// report.
pub fn analyse_fixture_copy(fixture: &str) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("fixtures").join(fixture), dir.path());
    let out = beagle_in(dir.path(), &["analyse", "--json", "."]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    json(&out)
}

/// The messages of a report's diagnostics, in order.
pub fn diagnostic_messages(report: &serde_json::Value) -> Vec<&str> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["message"].as_str())
        .collect()
}

/// Share of points a final timing's 95 % band must hold once a window's level is taken out (fewer
/// than 95 %: the points are a handful, and their medians carry noise of their own).
pub const WITHIN_BAND: f64 = 0.75;

/// How far the level of a timing may lie between two windows of JVMs on a shared machine, either
/// way: memory-bound or bookkeeping actions shift as a whole between windows minutes apart (a CI
/// run measured the analysis's `frame` 30 % above every one of 104 fresh points, all within ±3 %
/// of each other once scaled; `partition` 1.5× above), which no evidence of one window can carry.
/// A law off by more than twice is wrong, whatever the window.
pub const WINDOW_LEVEL: f64 = 2.0;

/// The same for actions of a few microseconds (a law whose median prediction at the points
/// compared is below [`FEW_MICROSECONDS`] ms), whose cost follows the JVM's state more than its
/// inputs: `partition` shifted 1.5x between windows on the shared CI machine, and 2.08x in a
/// local CI run (12 of 12 fresh points within its band once scaled); `small_write` (a median
/// prediction of 10.1 µs, law `1.8E-7 * record.BYTESIZE + 0.00026`) 2.16x beside a CPU hog on
/// the other core (`scripts/under-load.sh`, 102 of 102 fresh points within its band once scaled).
/// The threshold was 10 µs until that run: a cliff just under it.
pub const WINDOW_LEVEL_FEW_MICROSECONDS: f64 = 2.5;
pub const FEW_MICROSECONDS: f64 = 0.03;

/// The window level for a timing whose median prediction is `typical` ms.
pub fn window_level_for(typical: f64) -> f64 {
    if typical < FEW_MICROSECONDS {
        WINDOW_LEVEL_FEW_MICROSECONDS
    } else {
        WINDOW_LEVEL
    }
}

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `beagle ARGS` run in `dir`.
pub fn beagle_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_beagle"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("beagle runs")
}

/// The JSON on stdout; a panic shows stdout and stderr.
pub fn json(o: &Output) -> serde_json::Value {
    let text = String::from_utf8_lossy(&o.stdout);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}\n{}", String::from_utf8_lossy(&o.stderr)))
}

/// `[java]` keys for a short timing analysis, the first pass only (no refinement, no replicate
/// JVMs, a short warm-up, two repetitions): for tests of what an analysis reads, links or counts,
/// not of how its timings end.
pub const QUICK_JAVA_KEYS: &str = "refine = 0\nreplicates = 0\nwarmup = 2\nwarmup_ms = 300\nrepetitions = 2\n";

/// Adds `keys` (TOML lines, each ending in a newline) at the top of the `[java]` table of the
/// workspace at `dir`, whose `beagle.toml` must have one and must not set any of them already.
pub fn add_java_keys(dir: &Path, keys: &str) {
    let path = dir.join("beagle.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("[java]\n"), "{}: no [java] table: {text}", path.display());
    let key_of = |line: &str| line.split('=').next().map(|k| k.trim().to_string());
    let set: Vec<String> = text.lines().filter(|l| l.contains('=')).filter_map(key_of).collect();
    for key in keys.lines().filter_map(key_of) {
        assert!(!set.contains(&key), "{} sets `{key}` already: {text}", path.display());
    }
    std::fs::write(&path, text.replacen("[java]\n", &format!("[java]\n{keys}"), 1)).unwrap();
}

/// Copies the folder `from` into `to` (created), leaving out a store (`.beagle`) and what an
/// example wrote (`out`).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            if entry.file_name() != ".beagle" && entry.file_name() != "out" {
                copy_dir(&entry.path(), &target);
            }
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
