//! The counting agent's jar: `crate::AGENT_SOURCES` compiled with javac against ASM (Debian's
//! `libasm-java`) and the probe runtime's classes, packaged with `jar` and a manifest naming its
//! premain class and the ASM jars it loads.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The ASM jars the agent needs, in the folder [`asm_dir`] says.
const ASM_JARS: [&str; 2] = ["asm.jar", "asm-tree.jar"];

#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    #[error(
        "counting needs ASM, but {missing} is not in {dir}: install Debian's libasm-java \
         (apt-get install libasm-java), or set BEAGLE_ASM_DIR to a folder with asm.jar and asm-tree.jar"
    )]
    NoAsm { dir: PathBuf, missing: String },
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("cannot run {tool} (is a JDK 17 or newer on the PATH?): {source}")]
    NoTool { tool: &'static str, source: std::io::Error },
    #[error("{tool} failed on the counting agent:\n{message}")]
    Failed { tool: &'static str, message: String },
}

/// Where the ASM jars are: `BEAGLE_ASM_DIR`, else Debian's `/usr/share/java`.
pub fn asm_dir() -> PathBuf {
    std::env::var_os("BEAGLE_ASM_DIR").map_or_else(|| PathBuf::from("/usr/share/java"), PathBuf::from)
}

/// The ASM jars in `dir`, or the error that names the package to install.
pub fn asm_jars(dir: &Path) -> Result<Vec<PathBuf>, AgentError> {
    ASM_JARS
        .iter()
        .map(|name| {
            let jar = dir.join(name);
            if jar.is_file() {
                Ok(jar)
            } else {
                Err(AgentError::NoAsm {
                    dir: dir.to_path_buf(),
                    missing: (*name).to_string(),
                })
            }
        })
        .collect()
}

pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> AgentError + '_ {
    move |source| AgentError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The sources' and the jars' hash: an unchanged agent is not built again.
fn stamp_of(asm: &[PathBuf]) -> String {
    sources_stamp(crate::AGENT_SOURCES.iter().chain(crate::PROBE_SOURCES), asm)
}

/// The hash of embedded Java sources and the jars they compile against: a build made from them
/// (the agent, the calibration suite) is current while it is the same.
pub(crate) fn sources_stamp<'a>(sources: impl Iterator<Item = &'a (&'a str, &'a str)>, asm: &[PathBuf]) -> String {
    let mut h = blake3::Hasher::new();
    for (name, text) in sources {
        h.update(name.as_bytes());
        h.update(&(text.len() as u64).to_le_bytes());
        h.update(text.as_bytes());
    }
    for jar in asm {
        h.update(jar.to_string_lossy().as_bytes());
    }
    h.finalize().to_hex().to_string()
}

fn run(tool: &'static str, cmd: &mut Command) -> Result<(), AgentError> {
    let output = cmd.output().map_err(|source| AgentError::NoTool { tool, source })?;
    if output.status.success() {
        return Ok(());
    }
    let mut message = String::from_utf8_lossy(&output.stderr).trim().to_string();
    if message.is_empty() {
        message = format!("{tool} exited with {}", output.status);
    }
    Err(AgentError::Failed { tool, message })
}

/// Builds `out_dir/beagle-count.jar` (unless current) from the agent's sources, compiled against
/// the probe classes in `probe_classes` and the ASM jars in `asm`; returns the jar's path.
pub fn build_agent(out_dir: &Path, probe_classes: &Path, asm: &Path) -> Result<PathBuf, AgentError> {
    let jars = asm_jars(asm)?;
    let jar = out_dir.join("beagle-count.jar");
    let stamp = out_dir.join("agent-stamp");
    let hash = stamp_of(&jars);
    if jar.is_file() && std::fs::read_to_string(&stamp).is_ok_and(|s| s.trim() == hash) {
        return Ok(jar);
    }
    let src = out_dir.join("agent-src");
    let classes = out_dir.join("agent-classes");
    let _ = std::fs::remove_file(&stamp);
    if classes.exists() {
        std::fs::remove_dir_all(&classes).map_err(io(&classes))?;
    }
    std::fs::create_dir_all(&classes).map_err(io(&classes))?;
    let mut files = Vec::new();
    for (name, text) in crate::AGENT_SOURCES {
        let path = src.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
        std::fs::write(&path, text).map_err(io(&path))?;
        files.push(path);
    }
    let mut cp = vec![probe_classes.to_path_buf()];
    cp.extend(jars.iter().cloned());
    let cp = std::env::join_paths(&cp).map_err(|e| AgentError::Failed {
        tool: "javac",
        message: e.to_string(),
    })?;
    run(
        "javac",
        Command::new("javac")
            .args(["--release", "17", "-encoding", "UTF-8", "-nowarn", "-cp"])
            .arg(&cp)
            .arg("-d")
            .arg(&classes)
            .args(&files),
    )?;
    // The agent loads ASM from the jars' absolute file URLs (Class-Path of the agent's manifest).
    let urls: Vec<String> = jars.iter().map(|j| format!("file:{}", absolute(j).display())).collect();
    let manifest = out_dir.join("agent-manifest.txt");
    let text = format!("Premain-Class: beagle.count.Agent\nClass-Path: {}\n", urls.join(" "));
    std::fs::write(&manifest, text).map_err(io(&manifest))?;
    run(
        "jar",
        Command::new("jar")
            .arg("--create")
            .arg("--file")
            .arg(&jar)
            .arg("--manifest")
            .arg(&manifest)
            .arg("-C")
            .arg(&classes)
            .arg("."),
    )?;
    std::fs::write(&stamp, &hash).map_err(io(&stamp))?;
    Ok(jar)
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_asm_names_the_package() {
        let dir = tempfile::tempdir().unwrap();
        let err = build_agent(dir.path(), dir.path(), &dir.path().join("no-asm")).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, AgentError::NoAsm { .. }), "{text}");
        assert!(text.contains("libasm-java"), "{text}");
        assert!(text.contains("asm.jar"), "{text}");
    }
}
