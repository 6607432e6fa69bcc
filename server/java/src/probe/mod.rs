//! The Java probe runtime: its sources (`crate::PROBE_SOURCES`) compiled with javac into a folder
//! that instrumented programs put on their class path, and the decoder of the binary events the
//! probes write (`decode`).

pub mod decode;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The file in `out_dir` that records which sources `out_dir/classes` was compiled from.
const STAMP: &str = "stamp";

#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("cannot run javac (is a JDK 17 or newer on the PATH?): {0}")]
    NoJavac(std::io::Error),
    #[error("javac failed on the probe runtime:\n{0}")]
    Javac(String),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ProbeError + '_ {
    move |source| ProbeError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The hash of the probe sources (names and contents): the classes are current when the stamp
/// holds it, so an unchanged probe is not compiled again on every analysis.
fn sources_hash(sources: &[(&str, &str)]) -> String {
    let mut h = blake3::Hasher::new();
    h.update(b"javac --release 17\0");
    for (name, text) in sources {
        h.update(&(name.len() as u64).to_le_bytes());
        h.update(name.as_bytes());
        h.update(&(text.len() as u64).to_le_bytes());
        h.update(text.as_bytes());
    }
    h.finalize().to_hex().to_string()
}

/// The folder of compiled probe classes under `out_dir` (the class path entry).
pub fn classes_dir(out_dir: &Path) -> PathBuf {
    out_dir.join("classes")
}

/// Writes the probe sources to `out_dir/src` and compiles them into `out_dir/classes` with
/// `javac --release 17`, unless the stamp says that was done for these very sources. The stamp is
/// written last, so an interrupted compilation is redone.
pub fn compile_probe(out_dir: &Path) -> Result<(), ProbeError> {
    compile_sources(out_dir, crate::PROBE_SOURCES)
}

/// [`compile_probe`] of any sources (the tests compile broken ones).
fn compile_sources(out_dir: &Path, sources: &[(&str, &str)]) -> Result<(), ProbeError> {
    let hash = sources_hash(sources);
    let stamp = out_dir.join(STAMP);
    let classes = classes_dir(out_dir);
    if classes.is_dir() && std::fs::read_to_string(&stamp).is_ok_and(|s| s.trim() == hash) {
        return Ok(());
    }
    let src = out_dir.join("src");
    let mut files = Vec::new();
    for (name, text) in sources {
        let path = src.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
        std::fs::write(&path, text).map_err(io(&path))?;
        files.push(path);
    }
    // Stale classes of a former probe version must not survive next to the new ones.
    if classes.exists() {
        std::fs::remove_dir_all(&classes).map_err(io(&classes))?;
    }
    std::fs::create_dir_all(&classes).map_err(io(&classes))?;
    let _ = std::fs::remove_file(&stamp);
    let output = Command::new("javac")
        .args(["--release", "17", "-encoding", "UTF-8", "-d"])
        .arg(&classes)
        .args(&files)
        .output()
        .map_err(ProbeError::NoJavac)?;
    if !output.status.success() {
        let mut message = String::from_utf8_lossy(&output.stderr).trim().to_string();
        if message.is_empty() {
            message = format!("javac exited with {}", output.status);
        }
        return Err(ProbeError::Javac(message));
    }
    std::fs::write(&stamp, &hash).map_err(io(&stamp))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn javac_available() -> bool {
        Command::new("javac").arg("-version").output().is_ok()
    }

    #[test]
    fn compiles_once_then_trusts_the_stamp() {
        if !javac_available() {
            eprintln!("skipped: no javac");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        compile_probe(dir.path()).unwrap();
        let class = classes_dir(dir.path()).join("beagle/probe/Probe.class");
        assert!(class.is_file());
        assert!(dir.path().join("src/beagle/probe/Launcher.java").is_file());
        // A marker in the classes folder survives only if the second call skips javac.
        let marker = classes_dir(dir.path()).join("marker");
        std::fs::write(&marker, "x").unwrap();
        compile_probe(dir.path()).unwrap();
        assert!(marker.exists());
        // A stamp of other sources forces a fresh compilation (which clears the folder).
        std::fs::write(dir.path().join(STAMP), "other").unwrap();
        compile_probe(dir.path()).unwrap();
        assert!(!marker.exists());
        assert!(class.is_file());
    }

    #[test]
    fn a_compile_error_is_javacs_message() {
        if !javac_available() {
            eprintln!("skipped: no javac");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let broken = [(
            "beagle/probe/Probe.java",
            "package beagle.probe; class Probe { int x = ; }",
        )];
        let err = compile_sources(dir.path(), &broken).unwrap_err().to_string();
        assert!(err.starts_with("javac failed"), "{err}");
        assert!(err.contains("Probe.java:1: error"), "{err}");
        assert!(!dir.path().join(STAMP).exists());
        // Fixed sources compile in the same folder.
        compile_sources(dir.path(), crate::PROBE_SOURCES).unwrap();
        assert!(dir.path().join(STAMP).exists());
    }
}
