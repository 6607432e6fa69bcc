//! What the probe tests share: one Java source compiled with the probe runtime.

use beagle_java::probe::{classes_dir, compile_probe};
use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

/// Compiles the probe into `dir/probe` and `source` (as `dir/<file>`) against it into `dir/app`;
/// the class path of both.
pub fn compile_with_probe(dir: &Path, file: &str, source: &str) -> OsString {
    let probe = dir.join("probe");
    compile_probe(&probe).unwrap();
    let src = dir.join(file);
    std::fs::write(&src, source).unwrap();
    let app = dir.join("app");
    let classpath = std::env::join_paths([classes_dir(&probe), app.clone()]).unwrap();
    let out = Command::new("javac")
        .args(["--release", "17", "-encoding", "UTF-8", "-cp"])
        .arg(&classpath)
        .arg("-d")
        .arg(&app)
        .arg(&src)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    classpath
}
