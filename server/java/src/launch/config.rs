//! `beagle.toml`'s Java tables: where the sources are, how to run the system, and over which
//! parameters (see the manual's "Measuring a Java system", `docs/src/java.md`).
//!
//! ```toml
//! [java]
//! sources = ["src"]            # source roots
//! classpath = []               # extra jars or folders
//! warmup = 10                  # runs of main per JVM whose measurements are dropped ...
//! warmup_ms = 2000             # ... and at least this long (JIT compilation)
//! repetitions = 3              # measured runs of main per parameter point
//! timeout = 120                # seconds per JVM; the whole process group is killed after it
//! points = 12                  # parameter points of the quick first pass
//! refine = 8                   # points added by the second pass
//! replicates = 6               # quick-pass points measured again in a fresh JVM (the noise)
//! points_per_jvm = 1           # parameter points measured in one JVM (one start, one warm-up)
//! encoding = "iso-8859-1"      # of the sources (default: UTF-8, non-UTF-8 files as windows-1252)
//! exclude = ["src/legacy/**"]  # files left out of the copy and the compilation (globs)
//! release = 8                  # javac --release: the Java version the code is written for
//! automatic_links = true       # link elements the link file does not name by their names
//! count = true                 # also count the work per section (bytecode, JDK calls, arrays)
//! platform = "here.toml"       # the measuring machine's profile (`beagle calibrate`): fits R
//! [[launch]]
//! name = "upload"
//! main = "app.Driver"          # or: command = ["mvn", "-q", "exec:java", "-Dexec.args={args}"]
//! args = ["--files", "{files}"]
//! jvm_args = ["-Xmx1g"]        # options of the JVM (`main` launches)
//! cwd = "work"                 # working directory (default: a scratch folder under .beagle/)
//! env = { APP_MODE = "bench" } # environment variables
//! [launch.parameters]
//! files = { from = 1, to = 40 }           # a range: Beagle picks the points
//! compressed = { values = [true, false] } # numbers, booleans or strings
//! ```

use beagle_measure::FileError;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A launch parameter: a range Beagle picks points from, or the values to use.
#[derive(Clone, Debug, PartialEq)]
pub enum ParameterSpec {
    /// `integer`: both bounds are integers, so are the points. `log`: points spread evenly over
    /// the logarithm (sizes spanning orders of magnitude: as many points between 1 and 10 KB as
    /// between 10 and 100 KB).
    Range {
        from: f64,
        to: f64,
        integer: bool,
        log: bool,
    },
    Values(Vec<PointValue>),
}

/// One value of a launch parameter.
#[derive(Clone, Debug, PartialEq, PartialOrd)]
pub enum PointValue {
    Number(f64),
    Bool(bool),
    Text(String),
}

impl std::fmt::Display for PointValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PointValue::Number(x) if x.fract() == 0.0 && x.abs() < 1e15 => write!(f, "{}", *x as i64),
            PointValue::Number(x) => write!(f, "{x}"),
            PointValue::Bool(b) => write!(f, "{b}"),
            PointValue::Text(s) => f.write_str(s),
        }
    }
}

/// How a launch starts the system.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A main class, run by Beagle's launcher in one JVM per point (warm-up and repetitions inside).
    Main(String),
    /// A command (`{classpath}` and `{args}` are substituted); one process per repetition.
    Command(Vec<String>),
}

/// One `[[launch]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    pub name: String,
    pub target: Target,
    /// Arguments with `{parameter}` placeholders.
    pub args: Vec<String>,
    pub parameters: BTreeMap<String, ParameterSpec>,
    pub env: BTreeMap<String, String>,
    pub jvm_args: Vec<String>,
    /// `cwd`: the working directory of the launched processes (resolved against the folder of
    /// `beagle.toml`); `None`: a scratch folder per point under `.beagle/`, so that what the
    /// system writes never lands in the user's folders.
    pub cwd: Option<PathBuf>,
}

/// How much to measure.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    pub warmup: u32,
    pub warmup_ms: u64,
    pub repetitions: u32,
    pub timeout_s: f64,
    pub points: usize,
    pub refine: usize,
    /// Quick-pass points measured once more, each in a JVM of its own: the spread between JVMs
    /// (JIT decisions, heap layout) is the noise a law must predict within; repetitions inside
    /// one JVM are not independent and understate it.
    pub replicates: usize,
    /// Parameter points of a pass measured in one JVM (a `main` launch): the JVM start and the
    /// warm-up (2 s by default) are paid once for them, and the JIT compiles for their mix of
    /// inputs, as a server's JIT does for its requests. 1: a JVM per point.
    pub points_per_jvm: usize,
}

impl Default for Workload {
    fn default() -> Self {
        // JIT warm, as the program runs in production (issue 35): with 3 runs and 300 ms the
        // file-share upload's JVMs ran 15-20 % slower than the same code warmed for 2 s (the
        // yardstick of benchmarks/validate), and every law carried it.
        Workload {
            warmup: 10,
            warmup_ms: 2000,
            repetitions: 3,
            timeout_s: 120.0,
            points: 12,
            refine: 8,
            replicates: 6,
            points_per_jvm: 1,
        }
    }
}

/// The Java tool's configuration, paths resolved against the folder of `beagle.toml`.
#[derive(Clone, Debug, PartialEq)]
pub struct JavaConfig {
    pub root: PathBuf,
    pub sources: Vec<PathBuf>,
    pub classpath: Vec<PathBuf>,
    pub java: PathBuf,
    pub javac: PathBuf,
    pub workload: Workload,
    pub launches: Vec<Launch>,
    /// Use automatic links (proposed, with confidence) for elements without a link.
    pub automatic_links: bool,
    /// `[java] encoding` of the sources; `None`: UTF-8, files that are not read as windows-1252
    /// ([`crate::encoding`]).
    pub encoding: Option<&'static encoding_rs::Encoding>,
    /// `[java] exclude`: files left out of the copy and the compilation.
    pub exclude: crate::exclude::Exclude,
    /// `[java] release`: javac's `--release` (the Java version the code is written for).
    pub release: Option<u32>,
    /// `[java] count`: after the timing runs, counting runs at the measured points (issue 39).
    pub count: bool,
    /// `[java] platform`: the measuring machine's profile (`beagle calibrate`), from which the
    /// counts' platform factor R is fitted.
    pub platform: Option<PathBuf>,
    /// `[runner]`: where the measured JVMs run (issue 40).
    pub runner: super::runner::Runner,
}

#[derive(Deserialize)]
struct File {
    java: Option<JavaTable>,
    #[serde(default)]
    launch: Vec<LaunchTable>,
    runner: Option<super::runner::RunnerTable>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JavaTable {
    sources: Vec<PathBuf>,
    #[serde(default)]
    classpath: Vec<PathBuf>,
    java: Option<PathBuf>,
    javac: Option<PathBuf>,
    warmup: Option<u32>,
    warmup_ms: Option<u64>,
    repetitions: Option<u32>,
    timeout: Option<f64>,
    points: Option<usize>,
    refine: Option<usize>,
    replicates: Option<usize>,
    points_per_jvm: Option<usize>,
    automatic_links: Option<bool>,
    encoding: Option<String>,
    #[serde(default)]
    exclude: Vec<String>,
    release: Option<u32>,
    count: Option<bool>,
    platform: Option<PathBuf>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LaunchTable {
    name: String,
    main: Option<String>,
    command: Option<Vec<String>>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    parameters: BTreeMap<String, ParameterTable>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    #[serde(default)]
    jvm_args: Vec<String>,
    cwd: Option<PathBuf>,
}

#[derive(Deserialize)]
#[serde(untagged, deny_unknown_fields)]
enum ParameterTable {
    Range {
        from: f64,
        to: f64,
        #[serde(default)]
        scale: Scale,
    },
    Values {
        values: Vec<toml::Value>,
    },
}

/// How points spread over a range: `scale = "linear"` (the default) or `"log"`.
#[derive(Deserialize, Default, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Scale {
    #[default]
    Linear,
    Log,
}

/// Reads the Java tables of `beagle.toml` (`None` when there is no `[java]` table).
pub fn read_java_config(toml_path: &Path, text: &str) -> Result<Option<JavaConfig>, FileError> {
    let file: File = toml::from_str(text).map_err(|e| FileError::toml(toml_path, text, &e))?;
    java_config(toml_path, file).map_err(|message| FileError::new(toml_path, message))
}

/// Whether the source root `source` (as written in `beagle.toml`) lies outside the workspace
/// `root`: `..` past it, or an absolute path elsewhere (symbolic links resolved where they exist).
fn lies_outside(root: &Path, source: &Path) -> bool {
    let root = if root.as_os_str().is_empty() {
        Path::new(".")
    } else {
        root
    };
    let joined = root.join(source);
    if let (Ok(real_root), Ok(real)) = (root.canonicalize(), joined.canonicalize()) {
        return !real.starts_with(real_root);
    }
    // Not there (yet): by its components.
    let mut depth: i64 = 0;
    for c in source.components() {
        match c {
            std::path::Component::ParentDir => depth -= 1,
            std::path::Component::Normal(_) => depth += 1,
            std::path::Component::RootDir | std::path::Component::Prefix(_) => return !joined.starts_with(root),
            std::path::Component::CurDir => {}
        }
        if depth < 0 {
            return true;
        }
    }
    false
}

/// The configuration of a parsed `beagle.toml`; errors are messages about that file.
fn java_config(toml_path: &Path, file: File) -> Result<Option<JavaConfig>, String> {
    let Some(java) = file.java else {
        if !file.launch.is_empty() {
            return Err("[[launch]] needs a [java] table with the source roots".to_string());
        }
        if file.runner.is_some() {
            return Err("[runner] says where Java launches run: it needs a [java] table".to_string());
        }
        return Ok(None);
    };
    let root = toml_path.parent().map(Path::to_path_buf).unwrap_or_default();
    let defaults = Workload::default();
    let workload = Workload {
        warmup: java.warmup.unwrap_or(defaults.warmup),
        warmup_ms: java.warmup_ms.unwrap_or(defaults.warmup_ms),
        repetitions: java.repetitions.unwrap_or(defaults.repetitions),
        timeout_s: java.timeout.unwrap_or(defaults.timeout_s),
        points: java.points.unwrap_or(defaults.points),
        refine: java.refine.unwrap_or(defaults.refine),
        replicates: java.replicates.unwrap_or(defaults.replicates),
        points_per_jvm: java.points_per_jvm.unwrap_or(defaults.points_per_jvm),
    };
    if workload.points_per_jvm == 0 {
        return Err("[java] points_per_jvm must be at least 1".to_string());
    }
    if workload.repetitions == 0 {
        return Err("[java] repetitions must be at least 1".to_string());
    }
    if !(workload.timeout_s > 0.0 && workload.timeout_s.is_finite()) {
        return Err("[java] timeout must be a positive number of seconds".to_string());
    }
    if java.sources.is_empty() {
        return Err("[java] sources names no source root".to_string());
    }
    // Links, instrumentation and the copies measured are workspace-relative: a root outside the
    // workspace would be read by nothing, silently.
    for source in &java.sources {
        if lies_outside(&root, source) {
            return Err(format!(
                "[java] sources: `{}` lies outside the workspace ({}); Beagle reads only sources inside the folder of beagle.toml: move beagle.toml to a folder that holds both model and code",
                source.display(),
                root.display()
            ));
        }
    }
    if file.launch.is_empty() {
        return Err("[java] needs at least one [[launch]] to run the system".to_string());
    }
    let encoding = match &java.encoding {
        None => None,
        Some(label) => Some(crate::encoding::by_label(label).ok_or_else(|| {
            format!(
                "[java] encoding = \"{label}\" is not an encoding (e.g. \"utf-8\", \"iso-8859-1\", \"windows-1252\")"
            )
        })?),
    };
    let mut launches = Vec::new();
    for l in file.launch {
        launches.push(launch(l, &root)?);
    }
    let mut names: Vec<&str> = launches.iter().map(|l| l.name.as_str()).collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("two launches are named `{}`", w[0]));
    }
    Ok(Some(JavaConfig {
        sources: java.sources.iter().map(|p| root.join(p)).collect(),
        classpath: java.classpath.iter().map(|p| root.join(p)).collect(),
        java: java.java.unwrap_or_else(|| "java".into()),
        javac: java.javac.unwrap_or_else(|| "javac".into()),
        workload,
        launches,
        automatic_links: java.automatic_links.unwrap_or(true),
        encoding,
        exclude: crate::exclude::Exclude::new(&java.exclude).map_err(|e| format!("[java] {e}"))?,
        release: java.release,
        count: java.count.unwrap_or(false),
        platform: java.platform.map(|p| root.join(p)),
        runner: super::runner::runner(file.runner.unwrap_or_default(), &root).map_err(|e| e.to_string())?,
        root,
    }))
}

fn launch(l: LaunchTable, root: &Path) -> Result<Launch, String> {
    let at = format!("launch `{}`", l.name);
    let target = match (l.main, l.command) {
        (Some(m), None) => Target::Main(m),
        (None, Some(c)) if !c.is_empty() => Target::Command(c),
        (None, Some(_)) => return Err(format!("{at}: command is empty")),
        (Some(_), Some(_)) => return Err(format!("{at}: give main or command, not both")),
        (None, None) => return Err(format!("{at}: give main (a class) or command")),
    };
    let mut parameters = BTreeMap::new();
    for (name, p) in l.parameters {
        let spec = match p {
            ParameterTable::Range { from, to, scale } => {
                if !(from.is_finite() && to.is_finite() && from <= to) {
                    return Err(format!("{at}: parameter `{name}`: the range needs from <= to"));
                }
                let log = scale == Scale::Log;
                if log && from <= 0.0 {
                    return Err(format!(
                        "{at}: parameter `{name}`: a log scale needs from > 0 (it is {from})"
                    ));
                }
                ParameterSpec::Range {
                    from,
                    to,
                    integer: from.fract() == 0.0 && to.fract() == 0.0,
                    log,
                }
            }
            ParameterTable::Values { values } => {
                if values.is_empty() {
                    return Err(format!("{at}: parameter `{name}` has no values"));
                }
                let vs = values
                    .into_iter()
                    .map(|v| match v {
                        toml::Value::Integer(i) => Ok(PointValue::Number(i as f64)),
                        toml::Value::Float(x) => Ok(PointValue::Number(x)),
                        toml::Value::Boolean(b) => Ok(PointValue::Bool(b)),
                        toml::Value::String(s) => Ok(PointValue::Text(s)),
                        other => Err(format!(
                            "{at}: parameter `{name}`: values are numbers, booleans or strings, not {}",
                            other.type_str()
                        )),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                ParameterSpec::Values(vs)
            }
        };
        parameters.insert(name, spec);
    }
    let mut texts: Vec<&str> = l.args.iter().map(String::as_str).collect();
    if let Target::Command(c) = &target {
        texts.extend(c.iter().map(String::as_str));
    }
    for text in &texts {
        for name in placeholders(text) {
            if !parameters.contains_key(name) && name != "classpath" && name != "args" {
                return Err(format!(
                    "{at}: `{{{name}}}` in `{text}` is not a parameter (declared: {})",
                    parameters.keys().cloned().collect::<Vec<_>>().join(", ")
                ));
            }
        }
    }
    Ok(Launch {
        name: l.name,
        target,
        args: l.args,
        parameters,
        env: l.env,
        jvm_args: l.jvm_args,
        cwd: l.cwd.map(|c| root.join(c)),
    })
}

/// The `{name}` placeholders of a text.
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                out.push(&after[..close]);
                rest = &after[close + 1..];
            }
            None => break,
        }
    }
    out
}

/// `text` with `{name}` replaced by the values.
pub fn substitute(text: &str, values: &BTreeMap<String, String>) -> String {
    let mut out = text.to_string();
    for (k, v) in values {
        out = out.replace(&format!("{{{k}}}"), v);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Option<JavaConfig>, String> {
        read_java_config(Path::new("ws/beagle.toml"), text).map_err(|e| e.to_string())
    }

    const GOOD: &str = r#"
[model]
repository = "m.repository"
[java]
sources = ["src"]
repetitions = 5
[[launch]]
name = "upload"
main = "app.Driver"
args = ["--files", "{files}", "--size", "{size}", "--mode", "{mode}"]
[launch.parameters]
files = { from = 1, to = 40 }
size = { values = [1000, 2.5e4] }
mode = { values = [true, "fast"] }
"#;

    #[test]
    fn a_source_root_outside_the_workspace_is_an_error() {
        for outside in ["../code/src", "src/../../elsewhere", "/usr/share/java"] {
            let text = GOOD.replace("sources = [\"src\"]", &format!("sources = [\"{outside}\"]"));
            let e = read(&text).unwrap_err().to_string();
            assert!(
                e.contains(&format!("[java] sources: `{outside}` lies outside the workspace")),
                "{e}"
            );
        }
        let inside = GOOD.replace("sources = [\"src\"]", "sources = [\"src/../lib\"]");
        assert!(read(&inside).is_ok());
    }

    #[test]
    fn reads_sources_launches_and_parameters() {
        let c = read(GOOD).unwrap().unwrap();
        assert_eq!(c.sources, vec![PathBuf::from("ws/src")]);
        assert_eq!(c.workload.repetitions, 5);
        assert_eq!(c.workload.warmup, Workload::default().warmup);
        let l = &c.launches[0];
        assert_eq!(l.target, Target::Main("app.Driver".into()));
        assert_eq!(
            l.parameters["files"],
            ParameterSpec::Range {
                from: 1.0,
                to: 40.0,
                integer: true,
                log: false
            }
        );
        assert_eq!(
            l.parameters["size"],
            ParameterSpec::Values(vec![PointValue::Number(1000.0), PointValue::Number(25000.0)])
        );
        assert_eq!(
            l.parameters["mode"],
            ParameterSpec::Values(vec![PointValue::Bool(true), PointValue::Text("fast".into())])
        );
    }

    #[test]
    fn no_java_table_is_no_java_tool() {
        assert_eq!(read("[model]\nrepository = \"m.repository\"\n").unwrap(), None);
    }

    #[test]
    fn mistakes_are_named() {
        let undeclared = GOOD.replace("\"{mode}\"", "\"{speed}\"");
        let e = read(&undeclared).unwrap_err();
        assert!(e.contains("launch `upload`") && e.contains("`{speed}`"), "{e}");
        let both = GOOD.replace("main = \"app.Driver\"", "main = \"a.B\"\ncommand = [\"x\"]");
        assert!(read(&both).unwrap_err().contains("not both"));
        let neither = GOOD.replace("main = \"app.Driver\"", "");
        assert!(read(&neither).unwrap_err().contains("give main"));
        let backwards = GOOD.replace("from = 1, to = 40", "from = 40, to = 1");
        assert!(read(&backwards).unwrap_err().contains("from <= to"));
        let table = GOOD.replace("values = [1000, 2.5e4]", "values = [{a = 1}]");
        assert!(read(&table).unwrap_err().contains("not table"));
        let typo = GOOD.replace("repetitions = 5", "repetition = 5");
        let e = read(&typo).unwrap_err();
        assert!(e.contains("beagle.toml") && e.contains("repetition"), "{e}");
        let no_launch = "[java]\nsources = [\"src\"]\n";
        assert!(read(no_launch).unwrap_err().contains("at least one [[launch]]"));
        let log_from_zero = GOOD.replace("from = 1, to = 40", "from = 0, to = 40, scale = \"log\"");
        assert!(read(&log_from_zero).unwrap_err().contains("log scale needs from > 0"));
        let bad_scale = GOOD.replace("from = 1, to = 40", "from = 1, to = 40, scale = \"ln\"");
        assert!(read(&bad_scale).unwrap_err().contains("beagle.toml"));
    }

    #[test]
    fn a_range_may_spread_its_points_over_the_logarithm() {
        let text = GOOD.replace("from = 1, to = 40", "from = 1000, to = 400000, scale = \"log\"");
        let c = read(&text).unwrap().unwrap();
        assert_eq!(
            c.launches[0].parameters["files"],
            ParameterSpec::Range {
                from: 1000.0,
                to: 400000.0,
                integer: true,
                log: true
            }
        );
    }

    #[test]
    fn placeholders_and_substitution() {
        assert_eq!(placeholders("--a={x},{y}"), vec!["x", "y"]);
        let v: BTreeMap<String, String> = [("x".to_string(), "1".to_string())].into();
        assert_eq!(substitute("--a={x}", &v), "--a=1");
        assert_eq!(PointValue::Number(40.0).to_string(), "40");
        assert_eq!(PointValue::Number(0.5).to_string(), "0.5");
    }
}
