//! What the command-line tests share: the repository root, running `beagle`, reading `--json`.

#![allow(dead_code)] // Each test file uses its part.

pub mod shared;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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

/// Copies the folder `from` into `to` (created), leaving out a store (`.beagle`).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            if entry.file_name() != ".beagle" {
                copy_dir(&entry.path(), &target);
            }
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
