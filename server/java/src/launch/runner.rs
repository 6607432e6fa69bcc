//! `[runner]` of `beagle.toml` (issue 40): where the measured JVMs run. `local` (the default) is
//! this machine; `ssh` a quiet reference machine, the prepared classes copied there once per
//! analysis, content-addressed; `slurm` a cluster, a batch of points one job array. Credentials
//! are never part of it: ssh takes the agent or the path of an identity file.
//!
//! ```toml
//! [runner]
//! kind = "ssh"                  # "local" | "ssh" | "slurm"
//! host = "bench.example.org"    # ssh: the machine (and slurm: the login node, if not here)
//! user = "beagle"
//! port = 22
//! identity = "~/.ssh/bench_ed25519"
//! work_dir = "/var/tmp/beagle"  # on the remote machine (slurm: a folder every node sees)
//! java = "/usr/lib/jvm/java-17/bin/java"
//! retries = 2                   # a point whose run fails, times out or loses its node
//! # slurm only:
//! partition = "bench"
//! exclusive = true              # a node to each task (the default)
//! cpus_per_task = 2
//! time_limit = "00:10:00"
//! max_parallel = 4              # points in flight at once
//! sbatch_args = ["--constraint=skylake"]
//! ```

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Where the measured JVMs run.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Runner {
    #[default]
    Local,
    Ssh(Ssh),
    Slurm(Slurm),
}

/// A machine reached with the system's `ssh` (folders go there and back as `tar` streams through it).
#[derive(Clone, Debug, PartialEq)]
pub struct Ssh {
    pub host: String,
    pub user: Option<String>,
    pub port: Option<u16>,
    /// The path of an identity file (never its contents); `None`: the ssh agent and ssh's config.
    pub identity: Option<PathBuf>,
    /// The folder on the remote machine the classes and the points' folders go to.
    pub work_dir: String,
    /// The remote `java`.
    pub java: String,
    pub retries: u32,
}

/// A Slurm cluster reached with `sbatch`, `squeue`, `sacct` and `scancel` (here, or on `login`
/// over ssh).
#[derive(Clone, Debug, PartialEq)]
pub struct Slurm {
    pub partition: Option<String>,
    pub exclusive: bool,
    pub cpus_per_task: Option<u32>,
    pub time_limit: Option<String>,
    pub max_parallel: usize,
    pub sbatch_args: Vec<String>,
    /// A folder every node sees (the points' folders and the classes).
    pub work_dir: PathBuf,
    pub java: String,
    pub retries: u32,
    /// The login node to submit from, when the cluster is not reachable here.
    pub login: Option<Ssh>,
}

impl Runner {
    /// Points the judge may keep in flight at once.
    pub fn max_parallel(&self) -> usize {
        match self {
            Runner::Local | Runner::Ssh(_) => 1,
            Runner::Slurm(s) => s.max_parallel,
        }
    }

    /// Tries of a failed JVM after the first (a crash, a timeout, a lost node).
    pub fn retries(&self) -> u32 {
        match self {
            Runner::Local => 0,
            Runner::Ssh(s) => s.retries,
            Runner::Slurm(s) => s.retries,
        }
    }

    /// A name for status lines ("3 of 12 points running on slurm").
    pub fn name(&self) -> String {
        match self {
            Runner::Local => "this machine".into(),
            Runner::Ssh(s) => format!("ssh {}", s.host),
            Runner::Slurm(s) => match &s.partition {
                Some(p) => format!("slurm (partition {p})"),
                None => "slurm".into(),
            },
        }
    }
}

/// Why a `[runner]` table (or `initializationOptions.runner`) gives no runner.
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    /// The JSON is not a `[runner]` table: an unknown key, a value of the wrong type.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// `kind` is none of the three.
    #[error("[runner] kind = \"{0}\" is not a runner (\"local\", \"ssh\" or \"slurm\")")]
    Kind(String),
    /// `key` belongs to the runners `of` (`kind = "slurm"`, say), not to `kind`.
    #[error("[runner] {key} is a key of {of}, not of kind = \"{kind}\"")]
    Misplaced {
        key: &'static str,
        of: &'static str,
        kind: String,
    },
    /// An ssh runner (`kind`: `ssh`) without a host.
    #[error("[runner] kind = \"{kind}\" needs host (the machine to run on)")]
    NoHost { kind: String },
    #[error("[runner] max_parallel must be at least 1")]
    NoParallel,
    /// `time_limit` is not in a form `sbatch --time` takes.
    #[error("[runner] time_limit = \"{0}\" is not a Slurm time (minutes, \"MM:SS\", \"HH:MM:SS\" or \"D-HH:MM:SS\")")]
    TimeLimit(String),
}

/// `[runner]` as written.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct RunnerTable {
    kind: Option<String>,
    host: Option<String>,
    user: Option<String>,
    port: Option<u16>,
    identity: Option<PathBuf>,
    work_dir: Option<String>,
    java: Option<String>,
    retries: Option<u32>,
    partition: Option<String>,
    exclusive: Option<bool>,
    cpus_per_task: Option<u32>,
    time_limit: Option<String>,
    max_parallel: Option<usize>,
    #[serde(default)]
    sbatch_args: Vec<String>,
}

/// The runner of `[runner]` given as JSON (the language server's `initializationOptions.runner`),
/// with the same keys and checks.
pub fn from_json(value: &serde_json::Value, root: &Path) -> Result<Runner, RunnerError> {
    let table: RunnerTable = serde_json::from_value(value.clone())?;
    runner(table, root)
}

/// Default retries of a point whose run failed on a remote runner.
pub const RETRIES: u32 = 2;

/// The runner of a parsed `[runner]` table; `root` is the folder of `beagle.toml` (a relative
/// identity or Slurm work folder is resolved against it).
pub(crate) fn runner(t: RunnerTable, root: &Path) -> Result<Runner, RunnerError> {
    let kind = t.kind.as_deref().unwrap_or("local");
    let slurm_only = [
        ("partition", t.partition.is_some()),
        ("exclusive", t.exclusive.is_some()),
        ("cpus_per_task", t.cpus_per_task.is_some()),
        ("time_limit", t.time_limit.is_some()),
        ("max_parallel", t.max_parallel.is_some()),
        ("sbatch_args", !t.sbatch_args.is_empty()),
    ];
    let remote_only = [
        ("host", t.host.is_some()),
        ("user", t.user.is_some()),
        ("port", t.port.is_some()),
        ("identity", t.identity.is_some()),
        ("work_dir", t.work_dir.is_some()),
        ("java", t.java.is_some()),
        ("retries", t.retries.is_some()),
    ];
    let misplaced = |keys: &[(&'static str, bool)], of: &'static str| -> Result<(), RunnerError> {
        match keys.iter().find(|(_, set)| *set) {
            Some(&(key, _)) => Err(RunnerError::Misplaced {
                key,
                of,
                kind: kind.to_string(),
            }),
            None => Ok(()),
        }
    };
    let ssh = |t: &RunnerTable| -> Result<Ssh, RunnerError> {
        let host = (t.host.clone())
            .filter(|h| !h.trim().is_empty())
            .ok_or_else(|| RunnerError::NoHost { kind: kind.to_string() })?;
        Ok(Ssh {
            host,
            user: t.user.clone(),
            port: t.port,
            identity: t.identity.as_ref().map(|p| expand_home(p, root)),
            work_dir: t.work_dir.clone().unwrap_or_else(|| "beagle-work".into()),
            java: t.java.clone().unwrap_or_else(|| "java".into()),
            retries: t.retries.unwrap_or(RETRIES),
        })
    };
    match kind {
        "local" => {
            misplaced(&remote_only, "kind = \"ssh\" or \"slurm\"")?;
            misplaced(&slurm_only, "kind = \"slurm\"")?;
            Ok(Runner::Local)
        }
        "ssh" => {
            misplaced(&slurm_only, "kind = \"slurm\"")?;
            Ok(Runner::Ssh(ssh(&t)?))
        }
        "slurm" => {
            let max_parallel = t.max_parallel.unwrap_or(4);
            if max_parallel == 0 {
                return Err(RunnerError::NoParallel);
            }
            if let Some(limit) = &t.time_limit {
                if !is_slurm_time(limit) {
                    return Err(RunnerError::TimeLimit(limit.clone()));
                }
            }
            let login = t.host.is_some().then(|| ssh(&t)).transpose()?;
            Ok(Runner::Slurm(Slurm {
                partition: t.partition,
                exclusive: t.exclusive.unwrap_or(true),
                cpus_per_task: t.cpus_per_task,
                time_limit: t.time_limit,
                max_parallel,
                sbatch_args: t.sbatch_args,
                work_dir: root.join(t.work_dir.as_deref().unwrap_or(".beagle/slurm")),
                java: t.java.unwrap_or_else(|| "java".into()),
                retries: t.retries.unwrap_or(RETRIES),
                login,
            }))
        }
        other => Err(RunnerError::Kind(other.to_string())),
    }
}

/// `~/x` under the home folder; a relative path under `root`.
fn expand_home(p: &Path, root: &Path) -> PathBuf {
    match p.strip_prefix("~") {
        Ok(rest) => std::env::var_os("HOME").map_or_else(|| p.to_path_buf(), |h| PathBuf::from(h).join(rest)),
        Err(_) => root.join(p),
    }
}

/// Slurm's `--time` forms: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS.
fn is_slurm_time(s: &str) -> bool {
    let numbers = |t: &str, max: usize| {
        let parts: Vec<&str> = t.split(':').collect();
        parts.len() <= max
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    match s.split_once('-') {
        Some((days, rest)) => numbers(days, 1) && numbers(rest, 3),
        None => numbers(s, 3),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runner of `text` as `[runner]`, or its error's message.
    fn parse(text: &str) -> Result<Runner, String> {
        let t: RunnerTable = toml::from_str(text).map_err(|e| e.to_string())?;
        runner(t, Path::new("/ws")).map_err(|e| e.to_string())
    }

    #[test]
    fn local_is_the_default_and_takes_no_remote_keys() {
        assert_eq!(parse("").unwrap(), Runner::Local);
        assert_eq!(parse("kind = \"local\"").unwrap(), Runner::Local);
        let e = parse("kind = \"local\"\nhost = \"x\"").unwrap_err();
        assert!(e.contains("host") && e.contains("not of kind = \"local\""), "{e}");
    }

    #[test]
    fn ssh_needs_a_host_and_resolves_its_identity() {
        let r = parse("kind = \"ssh\"\nhost = \"bench\"\nuser = \"b\"\nport = 2222\nidentity = \"keys/id\"").unwrap();
        let Runner::Ssh(s) = r else { panic!("{r:?}") };
        assert_eq!((s.host.as_str(), s.port, s.retries), ("bench", Some(2222), RETRIES));
        assert_eq!(s.identity, Some(PathBuf::from("/ws/keys/id")));
        let e = parse("kind = \"ssh\"").unwrap_err();
        assert!(e.contains("needs host"), "{e}");
        let e = parse("kind = \"ssh\"\nhost = \"b\"\npartition = \"p\"").unwrap_err();
        assert!(e.contains("partition"), "{e}");
    }

    #[test]
    fn slurm_defaults_and_checks() {
        let Runner::Slurm(s) = parse("kind = \"slurm\"\npartition = \"debug\"\ntime_limit = \"00:10:00\"").unwrap()
        else {
            panic!()
        };
        assert!(s.exclusive && s.max_parallel == 4 && s.login.is_none());
        assert_eq!(s.work_dir, PathBuf::from("/ws/.beagle/slurm"));
        assert!(parse("kind = \"slurm\"\nmax_parallel = 0")
            .unwrap_err()
            .contains("at least 1"));
        assert!(parse("kind = \"slurm\"\ntime_limit = \"ten minutes\"")
            .unwrap_err()
            .contains("Slurm time"));
        assert!(parse("kind = \"cloud\"").unwrap_err().contains("not a runner"));
        assert!(
            parse("kind = \"slurm\"\npassword = \"x\"").is_err(),
            "unknown keys are errors"
        );
        for ok in ["10", "05:00", "1:00:00", "2-00", "2-12:00:00"] {
            assert!(is_slurm_time(ok), "{ok}");
        }
        for bad in ["", "1:2:3:4", "a", "2-", "-1"] {
            assert!(!is_slurm_time(bad), "{bad}");
        }
    }

    /// `initializationOptions.runner`: the same checks and words as `[runner]`, each error saying
    /// what it is about.
    #[test]
    fn a_json_runner_says_what_is_wrong_with_it() {
        let json = |v: serde_json::Value| from_json(&v, Path::new("/ws"));
        let r = json(serde_json::json!({"kind": "ssh", "host": "bench"})).unwrap();
        assert_eq!(r.name(), "ssh bench");
        let e = json(serde_json::json!({"kind": "cloud"})).unwrap_err();
        assert!(matches!(&e, RunnerError::Kind(k) if k == "cloud"), "{e:?}");
        assert_eq!(
            e.to_string(),
            "[runner] kind = \"cloud\" is not a runner (\"local\", \"ssh\" or \"slurm\")"
        );
        let e = json(serde_json::json!({"kind": "slurm", "max_parallel": 0})).unwrap_err();
        assert_eq!(e.to_string(), "[runner] max_parallel must be at least 1");
        let e = json(serde_json::json!({"kind": "local", "partition": "p"})).unwrap_err();
        assert!(
            matches!(&e, RunnerError::Misplaced { key: "partition", kind, .. } if kind == "local"),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "[runner] partition is a key of kind = \"slurm\", not of kind = \"local\""
        );
        let e = json(serde_json::json!({"kind": "ssh", "port": "twenty-two"})).unwrap_err();
        assert!(matches!(e, RunnerError::Json(_)), "{e:?}");
        assert!(e.to_string().contains("port") || e.to_string().contains("u16"), "{e}");
    }
}
