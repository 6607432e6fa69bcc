//! The calibration suite (`calibrate/beagle/calibrate/*.java`): built with javac against ASM (the
//! suite generates its instruction benchmarks with ASM inside the JVM it measures, so that the
//! bytecode is exactly what a counting run counts and the verifier checks it), run in a JVM with
//! the options being calibrated, its output lines read as they come.

use crate::count::agent::{asm_jars, io, sources_stamp, AgentError};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What the suite measured, as it reported it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SuiteOutput {
    /// `java.vm.name`, `java.runtime.version`, `java.vm.info`.
    pub vm_name: String,
    pub runtime_version: String,
    pub vm_info: String,
    pub clock_resolution_ns: f64,
    /// ns per instruction by opcode class: compiled, interpreted.
    pub jit: BTreeMap<String, f64>,
    pub interpreted: BTreeMap<String, f64>,
    /// Per (kind, key): (size, ns per call) points; kind is `method` or `array`.
    pub points: BTreeMap<(String, String), Vec<(f64, f64)>>,
    pub notes: Vec<String>,
}

/// The suite's progress: steps done of all, and what was just measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress<'a> {
    pub done: u64,
    pub total: u64,
    pub label: &'a str,
}

#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    #[error(transparent)]
    Build(#[from] AgentError),
    #[error("cannot run `{java}`: {source}")]
    NoJava { java: String, source: std::io::Error },
    #[error("the calibration JVM failed ({status}):\n{stderr}")]
    Failed { status: String, stderr: String },
    #[error("the calibration JVM wrote a line Beagle does not read: `{0}`")]
    BadLine(String),
}

fn stamp_of(asm: &[PathBuf]) -> String {
    sources_stamp(crate::SUITE_SOURCES.iter(), asm)
}

/// The suite's class path: `out_dir/suite-<hash>` (the sources' and jars' hash; compiled unless
/// there) and the ASM jars. A build goes to a folder of its own and is renamed into place whole,
/// and a built folder is never changed: calibrations running at once (two users of one temporary
/// folder, another version of the suite) never see each other's half-written classes.
pub fn build_suite(out_dir: &Path, asm: &Path) -> Result<Vec<PathBuf>, AgentError> {
    let jars = asm_jars(asm)?;
    let hash = stamp_of(&jars);
    let classes = out_dir.join(format!("suite-{}", &hash[..16]));
    let mut cp = vec![classes.clone()];
    cp.extend(jars.iter().cloned());
    if classes.is_dir() {
        return Ok(cp);
    }
    let building = out_dir.join(format!("suite-{}.{}.tmp", &hash[..16], std::process::id()));
    if building.exists() {
        std::fs::remove_dir_all(&building).map_err(io(&building))?;
    }
    let src = building.join("src");
    let built = building.join("classes");
    std::fs::create_dir_all(&built).map_err(io(&built))?;
    let mut files = Vec::new();
    for (name, text) in crate::SUITE_SOURCES {
        let path = src.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
        std::fs::write(&path, text).map_err(io(&path))?;
        files.push(path);
    }
    let jar_path = std::env::join_paths(&jars).map_err(|e| AgentError::Failed {
        tool: "javac",
        message: e.to_string(),
    })?;
    let output = Command::new("javac")
        .args(["--release", "17", "-encoding", "UTF-8", "-nowarn", "-cp"])
        .arg(&jar_path)
        .arg("-d")
        .arg(&built)
        .args(&files)
        .output()
        .map_err(|source| AgentError::NoTool { tool: "javac", source })?;
    if !output.status.success() {
        let _ = std::fs::remove_dir_all(&building);
        return Err(AgentError::Failed {
            tool: "javac",
            message: String::from_utf8_lossy(&output.stderr).trim().to_string(),
        });
    }
    // Another calibration may have put the same classes there first: theirs are as good.
    if std::fs::rename(&built, &classes).is_err() && !classes.is_dir() {
        return Err(AgentError::Failed {
            tool: "javac",
            message: format!("cannot move the compiled suite to {}", classes.display()),
        });
    }
    let _ = std::fs::remove_dir_all(&building);
    Ok(cp)
}

/// The options the suite's JVM gets besides the user's: compilation in the foreground (so that
/// a benchmark is compiled when its warm-up ends, not at some point of its samples) and the
/// interpreted benchmarks kept from the JIT. Neither changes the code the JIT makes.
pub const SUITE_JVM_OPTIONS: [&str; 3] = [
    "-Xbatch",
    "-XX:CompileCommand=quiet",
    "-XX:CompileCommand=exclude,beagle.calibrate.gen.Interp*::*",
];

/// Runs the suite in `java` with the user's `jvm_args`, reporting progress as lines come.
pub fn run_suite(
    java: &str,
    class_path: &[PathBuf],
    jvm_args: &[String],
    quick: bool,
    on_progress: &mut dyn FnMut(Progress<'_>),
) -> Result<SuiteOutput, SuiteError> {
    let cp = std::env::join_paths(class_path).map_err(|e| SuiteError::Failed {
        status: "not started".into(),
        stderr: e.to_string(),
    })?;
    let mut cmd = Command::new(java);
    cmd.args(SUITE_JVM_OPTIONS).args(jvm_args).arg("-cp").arg(cp);
    cmd.arg("beagle.calibrate.Suite");
    if quick {
        cmd.arg("--quick");
    }
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| SuiteError::NoJava {
            java: java.to_string(),
            source,
        })?;
    // stderr is read on its own thread: a JVM that fills the pipe would otherwise block.
    let stderr = child.stderr.take().map(|mut e| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = std::io::Read::read_to_string(&mut e, &mut s);
            s
        })
    });
    let mut out = SuiteOutput::default();
    let mut total = 0;
    let mut bad = None;
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            match read_line(&line, &mut out, &mut total) {
                Ok(Some((done, label))) => on_progress(Progress { done, total, label }),
                Ok(None) => {}
                Err(e) => bad = bad.or(Some(e)),
            }
        }
    }
    let status = child.wait().map_err(|source| SuiteError::NoJava {
        java: java.to_string(),
        source,
    })?;
    let stderr = stderr.and_then(|h| h.join().ok()).unwrap_or_default();
    if !status.success() || out.jit.is_empty() {
        return Err(SuiteError::Failed {
            status: status.to_string(),
            stderr: stderr.trim().to_string(),
        });
    }
    match bad {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

fn number(s: Option<&str>, line: &str) -> Result<f64, SuiteError> {
    s.and_then(|s| s.trim().parse::<f64>().ok())
        .ok_or_else(|| SuiteError::BadLine(line.to_string()))
}

/// Reads one line into `out`; a progress line returns its step and label.
fn read_line<'a>(line: &'a str, out: &mut SuiteOutput, total: &mut u64) -> Result<Option<(u64, &'a str)>, SuiteError> {
    let mut f = line.split('\t');
    let bad = || SuiteError::BadLine(line.to_string());
    match f.next().unwrap_or("") {
        "jvm" => {
            out.vm_name = f.next().unwrap_or("").to_string();
            out.runtime_version = f.next().unwrap_or("").to_string();
            out.vm_info = f.next().unwrap_or("").to_string();
        }
        "steps" => *total = number(f.next(), line)? as u64,
        "progress" => {
            let done = number(f.next(), line)? as u64;
            return Ok(Some((done, f.next().unwrap_or(""))));
        }
        "clock" => out.clock_resolution_ns = number(f.next(), line)?,
        "instr" => {
            let mode = f.next().ok_or_else(bad)?;
            let class = f.next().ok_or_else(bad)?.to_string();
            let ns = number(f.next(), line)?;
            match mode {
                "jit" => out.jit.insert(class, ns),
                "interpreted" => out.interpreted.insert(class, ns),
                _ => return Err(bad()),
            };
        }
        "point" => {
            let kind = f.next().ok_or_else(bad)?.to_string();
            let key = f.next().ok_or_else(bad)?.to_string();
            let size = number(f.next(), line)?;
            let ns = number(f.next(), line)?;
            out.points.entry((kind, key)).or_default().push((size, ns));
        }
        "note" => out.notes.push(f.next().unwrap_or("").to_string()),
        "sink" | "" => {}
        _ => return Err(bad()),
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suites_lines_are_read() {
        let mut out = SuiteOutput::default();
        let mut total = 0;
        let lines = "jvm\tOpenJDK 64-Bit Server VM\t17.0.15\tmixed mode\nsteps\t3\nprogress\t1\tclock\n\
                     clock\t28.0\ninstr\tjit\tint-arith\t0.25\ninstr\tinterpreted\tint-arith\t0.5\n\
                     point\tmethod\tjava/util/Arrays.fill([II)V\t64\t6.5\nnote\tsomething\nsink\t1";
        let mut progress = Vec::new();
        for l in lines.lines() {
            if let Some((d, label)) = read_line(l, &mut out, &mut total).unwrap() {
                progress.push((d, label.to_string()));
            }
        }
        assert_eq!(total, 3);
        assert_eq!(progress, vec![(1, "clock".to_string())]);
        assert_eq!(out.vm_name, "OpenJDK 64-Bit Server VM");
        assert_eq!(out.clock_resolution_ns, 28.0);
        assert_eq!(out.jit["int-arith"], 0.25);
        assert_eq!(out.interpreted["int-arith"], 0.5);
        assert_eq!(
            out.points[&("method".to_string(), "java/util/Arrays.fill([II)V".to_string())],
            vec![(64.0, 6.5)]
        );
        assert_eq!(out.notes, vec!["something"]);
        assert!(read_line("bogus\t1", &mut out, &mut total).is_err());
    }

    /// The suite's copy of the opcode mapping is the counting agent's: a timing is of what a
    /// counting run counts under the class's name.
    #[test]
    fn the_suites_opcode_classes_are_the_agents() {
        fn mapping(text: &str) -> &str {
            let start = text.find("static int of(int op)").unwrap();
            let end = text[start..].find("\n    }\n").unwrap();
            &text[start..start + end]
        }
        let agent = crate::AGENT_SOURCES
            .iter()
            .find(|(n, _)| n.ends_with("OpcodeClasses.java"))
            .unwrap()
            .1;
        let suite = crate::SUITE_SOURCES
            .iter()
            .find(|(n, _)| n.ends_with("OpcodeClasses.java"))
            .unwrap()
            .1;
        assert_eq!(mapping(agent), mapping(suite));
        let counts = include_str!("../../probe/beagle/probe/Counts.java");
        let names = |t: &str| {
            let s = t.find("\"const\"").unwrap();
            let e = t[s..].find("};").unwrap();
            t[s..s + e].split_whitespace().collect::<String>()
        };
        assert_eq!(names(counts), names(suite));
    }
}
