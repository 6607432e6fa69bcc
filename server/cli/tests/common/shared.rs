//! Analyses shared by the tests of one test run. Several tests ask the same question of the same
//! analysis (the bundled example analysed with its own seed, say): each measured it on its own,
//! minutes of JVMs for the same report. Here the first test to ask runs it, the others wait for
//! it and read its report. What a test asserts does not depend on which test came first: they
//! all read one analysis, as if each had run it.
//!
//! Shared between processes (nextest runs a test per process) by a lock file beside the result;
//! one run's results are never another's (the run's id from nextest, else this process's id,
//! which `cargo test` shares among a binary's tests).

use std::fs::{File, OpenOptions};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

/// The folder of this test run's shared results, made when missing (runs older than a day are
/// removed: each keeps the workspaces it analysed).
fn run_dir() -> PathBuf {
    let run = std::env::var("NEXTEST_RUN_ID").unwrap_or_else(|_| format!("pid-{}", std::process::id()));
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("shared-analyses");
    let dir = base.join(run);
    if !dir.exists() {
        std::fs::create_dir_all(&dir).unwrap();
        let day = std::time::Duration::from_secs(24 * 3600);
        for old in std::fs::read_dir(&base).into_iter().flatten().flatten() {
            let age = old
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok());
            if age.is_some_and(|a| a > day) {
                std::fs::remove_dir_all(old.path()).ok();
            }
        }
    }
    dir
}

/// Held while one test computes a result, so that the others wait for it (flock(2): released
/// when the file closes, also when the test panics).
struct Lock(File);

impl Lock {
    fn take(path: &Path) -> Lock {
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .unwrap();
        // SAFETY: flock on a descriptor this function owns; no memory is passed.
        let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) };
        assert_eq!(rc, 0, "flock {}: {}", path.display(), std::io::Error::last_os_error());
        Lock(file)
    }
}

/// The JSON report `make` gives for the folder `name` of this run (the folder is `make`'s to
/// fill: a workspace it copies there and analyses), computed by the first caller of this run
/// and read by the others; with the folder, which later callers may read but must not change.
pub fn shared_report(name: &str, make: impl FnOnce(&Path) -> serde_json::Value) -> (PathBuf, serde_json::Value) {
    let run = run_dir();
    let _lock = Lock::take(&run.join(format!("{name}.lock")));
    let dir = run.join(name);
    let report = run.join(format!("{name}.json"));
    if let Ok(text) = std::fs::read_to_string(&report) {
        eprintln!(
            "shared analysis {name}: the report of an earlier test of this run ({})",
            report.display()
        );
        return (dir, serde_json::from_str(&text).unwrap());
    }
    // A test that failed while making it left a partial folder: start again.
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    let value = make(&dir);
    // Written whole, then renamed: a reader never sees half a report.
    let partial = run.join(format!("{name}.json.partial"));
    std::fs::write(&partial, serde_json::to_string(&value).unwrap()).unwrap();
    std::fs::rename(&partial, &report).unwrap();
    (dir, value)
}

/// The bundled example analysed as the README's main job does (its own seed 1), with `--json`
/// and `--write`, shared by the tests of one run that read that analysis: `java.rs`'s fresh-point,
/// seed and validation tests and `runners.rs`'s local run (the runners' laws are compared with
/// it). The analysed workspace, its model written, and the report.
///
/// Where the main job has just measured the fixture in place (`tests/run.sh` runs it before the
/// Rust tests), its store comes along: the analysis then fits the main job's own measurements
/// (their keys are the code's, the launch's, the point's and the workload's, so a store of other
/// code or settings is simply not used) instead of timing the same JVMs again, a minute of the
/// measuring chain (issue 48). Without it, the analysis measures.
pub fn analysed_fileshare() -> (PathBuf, serde_json::Value) {
    shared_report("fileshare-seed-1", |dir| {
        let fixture = super::root().join("fixtures/fileshare");
        super::copy_dir(&fixture, dir);
        let store = fixture.join(".beagle/beagle.sqlite");
        if store.is_file() {
            std::fs::create_dir_all(dir.join(".beagle")).unwrap();
            // With its write-ahead log, where the main job left one (SQLite folds it in on close).
            for file in ["beagle.sqlite", "beagle.sqlite-wal"] {
                let from = fixture.join(".beagle").join(file);
                if from.is_file() {
                    std::fs::copy(&from, dir.join(".beagle").join(file)).unwrap();
                }
            }
            eprintln!(
                "shared analysis fileshare-seed-1: with the measurements of the main job's store ({})",
                store.display()
            );
        }
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_beagle"))
            .args(["analyse", dir.to_str().unwrap(), "--json", "--seed", "1", "--write"])
            .output()
            .expect("beagle runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        super::json(&out)
    })
}

/// Offers `report` as this run's shared result `name`, where no test has made it yet: the runner
/// test's analyses over ssh (seed 2) and on Slurm (seed 3) are analyses of the bundled example
/// with those seeds, the JVMs on this machine, which `java.rs`'s three-seed test would otherwise
/// run again (issue 48: 100 s of the measuring chain). A report already there is kept.
pub fn offer_report(name: &str, report: &serde_json::Value) {
    let run = run_dir();
    let _lock = Lock::take(&run.join(format!("{name}.lock")));
    let path = run.join(format!("{name}.json"));
    if path.exists() {
        return;
    }
    let partial = run.join(format!("{name}.json.partial"));
    std::fs::write(&partial, serde_json::to_string(report).unwrap()).unwrap();
    std::fs::rename(&partial, &path).unwrap();
}

/// The bundled example analysed with `seed` (`--json`), shared as above: made here unless the
/// runner test offered its own first.
pub fn analysed_fileshare_with_seed(seed: u64) -> serde_json::Value {
    shared_report(&format!("fileshare-seed-{seed}"), |dir| {
        super::copy_dir(&super::root().join("fixtures/fileshare"), dir);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_beagle"))
            .args(["analyse", dir.to_str().unwrap(), "--json", "--seed", &seed.to_string()])
            .output()
            .expect("beagle runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        super::json(&out)
    })
    .1
}
