//! One JVM to run, wherever it runs: Beagle's launcher at one point or a batch of points, all it
//! writes in one folder. Paths in its arguments are written with [`DIR`] and [`CP`], which each
//! runner replaces with where that folder and the classes are on its machine; a remote runner
//! brings the folder back when the JVM ends.

use super::config::substitute;
use super::config::{Launch, Target, Workload};
use super::failure::{RunError, RunFailure};
use super::host::quote;
use super::points::{describe, Point};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Stands for the JVM's folder in [`JvmJob::args`] and [`JvmJob::files`].
pub const DIR: &str = "\u{1}DIR\u{1}";
/// Stands for the class path in [`JvmJob::args`].
pub const CP: &str = "\u{1}CP\u{1}";

/// What a JVM wrote: the probes' events per point, each in its own file of the JVM's folder.
pub const EVENTS: &str = "events.bin";
/// What a batch JVM's warm-up wrote (dropped).
pub const WARMUP_EVENTS: &str = "warmup-events.bin";

/// One JVM of a `main` launch.
#[derive(Clone, Debug)]
pub struct JvmJob {
    pub launch: String,
    /// The point, or the points of a batch (for errors and status lines).
    pub points: Vec<String>,
    /// Here: the folder the JVM's files are in (emptied first) or come back to.
    pub dir: PathBuf,
    /// `java`'s arguments.
    pub args: Vec<String>,
    pub env: BTreeMap<String, String>,
    /// The launch's working folder, on this machine only; else `DIR/cwd`.
    pub cwd: Option<PathBuf>,
    /// Files written into the folder before the JVM starts (name, contents).
    pub files: Vec<(String, String)>,
    /// The events files the JVM writes, one per point, relative to the folder.
    pub events: Vec<String>,
    pub timeout: Duration,
}

impl JvmJob {
    /// A failure of this JVM, naming its launch and point(s).
    pub fn error(&self, failure: RunFailure) -> RunError {
        RunError {
            launch: self.launch.clone(),
            point: self.points.join("; "),
            failure,
        }
    }

    /// `s` with the folder and class path of a machine.
    pub fn resolve(s: &str, dir: &str, classpath: &str) -> String {
        s.replace(DIR, dir).replace(CP, classpath)
    }

    /// The events files here, in the order of the points.
    pub fn events_here(&self) -> Vec<PathBuf> {
        self.events.iter().map(|e| self.dir.join(e)).collect()
    }

    /// The shell script that runs the JVM in `dir` on another machine: it writes the job's files,
    /// runs `java` with the timeout (`timeout`: TERM, then KILL 5 s later; `--foreground` keeps
    /// the JVM in the script's process group, which Slurm tracks and an abort kills), and at the end writes the exit code to `dir/rc` (renamed into place: whoever sees
    /// `rc` sees it whole). Its own process id goes to `dir/pid` (the group to kill on abort).
    pub fn script(&self, java: &str, dir: &str, classpath: &str) -> String {
        let d = quote(dir);
        let mut s = String::from("#!/bin/sh\n# Written by Beagle: one JVM of a measurement.\n");
        s += &format!("echo $$ > {d}/pid\nmkdir -p {d}/cwd && cd {d}/cwd || exit 97\n");
        for (name, contents) in &self.files {
            let contents = Self::resolve(contents, dir, classpath);
            s += &format!("printf %s {} > {d}/{}\n", quote(&contents), quote(name));
        }
        for (k, v) in &self.env {
            s += &format!("export {k}={}\n", quote(v));
        }
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| quote(&Self::resolve(a, dir, classpath)))
            .collect();
        s += &format!(
            "timeout --foreground -k 5 {} {} {} > {d}/stdout.txt 2> {d}/stderr.txt\n",
            self.timeout.as_secs_f64().ceil().max(1.0),
            quote(java),
            args.join(" ")
        );
        s += &format!("echo $? > {d}/rc.part && mv {d}/rc.part {d}/rc\n");
        s
    }
}

/// The failure an exit code and the end of the error output mean. 124 and 137 are `timeout`'s
/// (the JVM outlived its time, then the KILL after it); 3 with `beagle: ` is the launcher not
/// finding main, which every point would share.
pub fn failure_of(code: Option<i32>, stderr: String, timeout: Duration, remote: bool) -> RunFailure {
    match code {
        Some(124 | 137) if remote => RunFailure::Timeout {
            seconds: timeout.as_secs_f64(),
        },
        Some(3) if stderr.contains("beagle: ") => RunFailure::MainNotFound { stderr },
        code => RunFailure::Exit { code, stderr },
    }
}

/// The launch's arguments at `point`, checked: the batch file carries them tab-separated.
fn launcher_args(workload: &Workload, main: &str) -> Vec<String> {
    vec![
        workload.warmup.to_string(),
        workload.warmup_ms.to_string(),
        workload.repetitions.to_string(),
        main.to_string(),
    ]
}

/// Touches every page of the heap at start. A young JVM's first writes to a page fault it in
/// (a 195 KB clone took 48 faults, one per page): one measuring JVM in eight on a laptop-like
/// schedule, and most instrumented ones, ran a whole point's byte-copying sections 4-6 times
/// slower than a warm server does, and those slow JVMs raised the published means (a small
/// write scaled x3.2, the upload over-predicted by 53 %; with it x1.2 and 2 %). The launch's own
/// options come after it, so `-XX:-AlwaysPreTouch` there turns it off.
pub const PRETOUCH: &str = "-XX:+AlwaysPreTouch";

fn java_args(launch: &Launch, events: &str) -> Vec<String> {
    let mut args = vec![PRETOUCH.to_string()];
    args.extend(launch.jvm_args.iter().cloned());
    args.push(format!("-Dbeagle.events={DIR}/{events}"));
    args.extend(["-cp".to_string(), CP.to_string(), "beagle.probe.Launcher".to_string()]);
    args
}

/// The JVM measuring `launch` at `point`, its files in `dir`. `None` for a `command` launch
/// (its runs are processes of its own: [`super::run_point`]).
pub fn point_job(launch: &Launch, point: &Point, workload: &Workload, dir: &Path) -> Option<JvmJob> {
    let Target::Main(main) = &launch.target else {
        return None;
    };
    let mut args = java_args(launch, EVENTS);
    args.extend(launcher_args(workload, main));
    args.extend(arguments(launch, point));
    Some(JvmJob {
        launch: launch.name.clone(),
        points: vec![describe(point)],
        dir: absolute(dir),
        args,
        env: launch.env.clone(),
        cwd: launch.cwd.as_deref().map(absolute),
        files: vec![],
        events: vec![EVENTS.into()],
        timeout: Duration::from_secs_f64(workload.timeout_s),
    })
}

/// The JVM measuring `launch` at each of `points` (`Launcher --batch`): one start and one warm-up,
/// then the repetitions round the points, point `i`'s records in `DIR/events-i.bin`. Each point
/// has the time a point alone would have. `None` for a `command` launch.
pub fn batch_job(launch: &Launch, points: &[Point], workload: &Workload, dir: &Path) -> Option<JvmJob> {
    let Target::Main(main) = &launch.target else {
        return None;
    };
    let mut lines = String::new();
    let mut events = Vec::new();
    for (i, point) in points.iter().enumerate() {
        let file = format!("events-{i}.bin");
        lines.push_str(&format!("{DIR}/{file}"));
        for a in arguments(launch, point) {
            lines.push('\t');
            lines.push_str(&a);
        }
        lines.push('\n');
        events.push(file);
    }
    // The warm-up's records (iteration 0, dropped by the decoder anyway) go to a file of their own.
    let mut args = java_args(launch, WARMUP_EVENTS);
    args.extend(["--batch".to_string(), format!("{DIR}/points.tsv")]);
    args.extend(launcher_args(workload, main));
    Some(JvmJob {
        launch: launch.name.clone(),
        points: points.iter().map(describe).collect(),
        dir: absolute(dir),
        args,
        env: launch.env.clone(),
        cwd: launch.cwd.as_deref().map(absolute),
        files: vec![("points.tsv".into(), lines)],
        events,
        timeout: Duration::from_secs_f64(workload.timeout_s * points.len().max(1) as f64),
    })
}

/// The launch's arguments at `point`.
pub fn arguments(launch: &Launch, point: &Point) -> Vec<String> {
    let values: BTreeMap<String, String> = point.iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
    launch.args.iter().map(|a| substitute(a, &values)).collect()
}

/// The processes run in another folder: every path they are given must be absolute.
pub(crate) fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::config::PointValue;
    use crate::launch::host::Host;

    fn launch() -> Launch {
        Launch {
            name: "upload".into(),
            target: Target::Main("app.Main".into()),
            args: vec!["--files".into(), "{files}".into()],
            parameters: Default::default(),
            env: [("MODE".to_string(), "it's bench".to_string())].into(),
            jvm_args: vec!["-Xmx64m".into()],
            cwd: None,
        }
    }

    fn point(n: f64) -> Point {
        [("files".to_string(), PointValue::Number(n))].into()
    }

    #[test]
    fn a_script_runs_its_jvm_in_its_folder_and_leaves_the_exit_code() {
        let d = tempfile::tempdir().unwrap();
        let w = Workload::default();
        let job = batch_job(&launch(), &[point(1.0), point(2.0)], &w, &d.path().join("here")).unwrap();
        // `sh` stands in for java: it prints its arguments, the batch file and the environment.
        let fake_java = d.path().join("java");
        std::fs::write(
            &fake_java,
            "#!/bin/sh\necho \"$@\"; cat ../points.tsv; echo \"$MODE\"; pwd; exit 7\n",
        )
        .unwrap();
        std::fs::set_permissions(&fake_java, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        let there = d.path().join("there").display().to_string();
        std::fs::create_dir_all(&there).unwrap();
        let script = job.script(&fake_java.display().to_string(), &there, "/cp/a:/cp/b");
        let ran = Host::Here.run(&script, b"").unwrap();
        assert!(ran.ok(), "{}", ran.stderr);
        let read = |f: &str| std::fs::read_to_string(format!("{there}/{f}")).unwrap();
        assert_eq!(read("rc"), "7\n");
        let out = read("stdout.txt");
        assert!(out.starts_with(&format!(
            "-XX:+AlwaysPreTouch -Xmx64m -Dbeagle.events={there}/warmup-events.bin -cp /cp/a:/cp/b beagle.probe.Launcher --batch {there}/points.tsv 10 2000 3 app.Main\n"
        )), "{out}");
        assert!(out.contains(&format!("{there}/events-1.bin\t--files\t2\n")), "{out}");
        assert!(
            out.contains("it's bench\n") && out.contains(&format!("{there}/cwd\n")),
            "{out}"
        );
        assert!(read("pid").trim().parse::<u32>().is_ok());
        assert_eq!(
            job.events_here(),
            [d.path().join("here/events-0.bin"), d.path().join("here/events-1.bin")]
        );
    }

    #[test]
    fn exit_codes_mean_what_timeout_and_the_launcher_say() {
        let t = Duration::from_secs(3);
        assert_eq!(
            failure_of(Some(124), String::new(), t, true),
            RunFailure::Timeout { seconds: 3.0 }
        );
        assert!(matches!(
            failure_of(Some(3), "beagle: no class app.X".into(), t, true),
            RunFailure::MainNotFound { .. }
        ));
        assert_eq!(
            failure_of(Some(1), "boom".into(), t, true),
            RunFailure::Exit {
                code: Some(1),
                stderr: "boom".into()
            }
        );
    }
}
