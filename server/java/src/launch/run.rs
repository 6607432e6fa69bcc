//! Running one parameter point of a launch: one JVM through Beagle's launcher (warm-up and
//! repetitions inside), or, for a `command`, one process per run; or several points of a main
//! launch in one JVM ([`run_batch`]). Every process gets its own
//! process group and a timeout; on timeout the whole group is killed (a build tool's child JVM
//! too). Errors name the launch and the point, and keep stderr's last lines.

use super::config::{substitute, Launch, Target, Workload};
use super::failure::{RunError, RunFailure};
use super::job::{absolute, arguments, JvmJob, EVENTS, WARMUP_EVENTS};
use super::points::{describe, Point};
use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Where the compiled, instrumented system is.
#[derive(Clone, Debug)]
pub struct Classpath {
    /// Instrumented classes, probe runtime, the user's extra entries.
    pub entries: Vec<PathBuf>,
}

impl Classpath {
    pub fn joined(&self) -> String {
        self.entries
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(":")
    }
}

/// What one point's runs left: the events file the probes wrote.
#[derive(Clone, Debug)]
pub struct RunOutput {
    pub events: PathBuf,
    pub wall: Duration,
}

/// The last `n` lines of a file (what a crash printed last).
pub(crate) fn tail(path: &Path, n: usize) -> String {
    let text = std::fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Waits for the child, killing its process group after `timeout`.
fn wait(child: &mut std::process::Child, timeout: Duration) -> Result<ExitStatus, RunFailure> {
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(status),
            Ok(None) => {}
            Err(e) => return Err(RunFailure::Spawn(e.to_string())),
        }
        if start.elapsed() >= timeout {
            kill_group(child.id());
            let _ = child.wait();
            return Err(RunFailure::Timeout {
                seconds: timeout.as_secs_f64(),
            });
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// SIGKILL to the process group the child leads (it was spawned with `process_group(0)`).
fn kill_group(pid: u32) {
    if let Ok(pid) = i32::try_from(pid) {
        // SAFETY: kill(2) with a negative pid signals the group; no memory is involved.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

/// One process, its output in `dir`, killed with its group after the timeout.
fn run_process(mut cmd: Command, dir: &Path, timeout: Duration) -> Result<(), RunFailure> {
    let stdout = std::fs::File::create(dir.join("stdout.txt")).map_err(|e| RunFailure::Spawn(e.to_string()))?;
    let stderr_path = dir.join("stderr.txt");
    let stderr = std::fs::File::create(&stderr_path).map_err(|e| RunFailure::Spawn(e.to_string()))?;
    cmd.stdin(Stdio::null()).stdout(stdout).stderr(stderr).process_group(0);
    let program = cmd.get_program().to_string_lossy().into_owned();
    let mut child = cmd.spawn().map_err(|e| RunFailure::Spawn(format!("{program}: {e}")))?;
    let status = wait(&mut child, timeout)?;
    if status.success() {
        return Ok(());
    }
    let stderr = tail(&stderr_path, 20);
    if status.code() == Some(3) && stderr.contains("beagle: ") {
        return Err(RunFailure::MainNotFound { stderr });
    }
    Err(RunFailure::Exit {
        code: status.code(),
        stderr,
    })
}

/// Where a JVM or process runs: its folder (emptied), the class path, and its working folder.
struct Folders {
    dir: PathBuf,
    classpath: Classpath,
    cwd: PathBuf,
}

/// Empties and creates `dir`, makes the class path absolute, and creates the working folder:
/// the launch's `cwd`, else a scratch folder in `dir`, so that what the system under test writes
/// (logs, uploads, temporary files) never lands in the folder `beagle` was started from.
fn folders(own_cwd: Option<&Path>, classpath: &Classpath, dir: &Path) -> Result<Folders, RunFailure> {
    let create = |p: &Path| std::fs::create_dir_all(p).map_err(|e| RunFailure::Spawn(format!("{}: {e}", p.display())));
    let _ = std::fs::remove_dir_all(dir);
    create(dir)?;
    let dir = absolute(dir);
    let cwd = match own_cwd {
        Some(c) => absolute(c),
        None => dir.join("cwd"),
    };
    create(&cwd)?;
    Ok(Folders {
        classpath: Classpath {
            entries: classpath.entries.iter().map(|p| absolute(p)).collect(),
        },
        dir,
        cwd,
    })
}

/// Runs `launch` at `point` with the workload's warm-up and repetitions, the probes writing into
/// `dir/events.bin` (the folder is emptied first).
pub fn run_point(
    java: &Path,
    classpath: &Classpath,
    launch: &Launch,
    point: &Point,
    workload: &Workload,
    dir: &Path,
) -> Result<RunOutput, RunError> {
    let error = |failure| RunError {
        launch: launch.name.clone(),
        point: describe(point),
        failure,
    };
    let Folders { dir, classpath, cwd } = folders(launch.cwd.as_deref(), classpath, dir).map_err(error)?;
    let (dir, classpath) = (&dir, &classpath);
    let events = dir.join(EVENTS);
    let args = arguments(launch, point);
    let timeout = Duration::from_secs_f64(workload.timeout_s);
    let start = Instant::now();
    match &launch.target {
        Target::Main(_) => {
            let job = super::job::point_job(launch, point, workload, dir).expect("a main launch");
            run_local(java, classpath, &job).map_err(error)?;
        }
        Target::Command(command) => {
            let mut values: BTreeMap<String, String> = point.iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
            values.insert("classpath".into(), classpath.joined());
            values.insert("args".into(), args.join(" "));
            let words: Vec<String> = command.iter().map(|w| substitute(w, &values)).collect();
            let runs = (0..workload.warmup).map(|_| 0).chain(1..=workload.repetitions);
            // A program named by a relative path (`./run.sh`) means the one it named before the
            // working directory changed.
            let program = if words[0].contains('/') {
                absolute(Path::new(&words[0]))
            } else {
                PathBuf::from(&words[0])
            };
            for iteration in runs {
                let mut cmd = Command::new(&program);
                cmd.args(&words[1..])
                    .env("BEAGLE_EVENTS", &events)
                    .env("BEAGLE_ITERATION", iteration.to_string())
                    .envs(&launch.env)
                    .current_dir(&cwd);
                run_process(cmd, dir, timeout).map_err(error)?;
            }
        }
    }
    Ok(RunOutput {
        events,
        wall: start.elapsed(),
    })
}

/// Whether `points` of `launch` can share a JVM ([`run_batch`]): a main launch (a `command` runs
/// its own processes), and arguments the batch file can carry (no tab or line break in them).
pub fn can_batch(launch: &Launch, points: &[Point]) -> bool {
    matches!(launch.target, Target::Main(_))
        && points
            .iter()
            .all(|p| arguments(launch, p).iter().all(|a| !a.contains(['\t', '\n', '\r'])))
}

/// Runs `launch` at each of `points` in one JVM (see `Launcher.java`, `--batch`): one JVM start
/// and one warm-up for them all, then the repetitions round the points, each point's records in
/// `dirs[i]/events.bin` (those folders are emptied first). The JVM's own files (stdout, stderr,
/// the warm-up's records, its working folder) go to `dir`. A failure is the batch's: the caller
/// measures its points one by one to find which point fails ([`run_point`]).
pub fn run_batch(
    java: &Path,
    classpath: &Classpath,
    launch: &Launch,
    points: &[Point],
    dirs: &[PathBuf],
    workload: &Workload,
    dir: &Path,
) -> Result<Vec<RunOutput>, RunError> {
    let error = |failure| RunError {
        launch: launch.name.clone(),
        point: points.iter().map(describe).collect::<Vec<_>>().join("; "),
        failure,
    };
    let Some(job) = super::job::batch_job(launch, points, workload, dir) else {
        return Err(error(RunFailure::Spawn(
            "a `command` launch runs one point per process".into(),
        )));
    };
    let start = Instant::now();
    let result = run_local(java, classpath, &job);
    let _ = std::fs::remove_file(job.dir.join(WARMUP_EVENTS));
    result.map_err(error)?;
    let wall = start.elapsed() / points.len().max(1) as u32;
    move_events(&job, dirs).map_err(error)?;
    Ok(dirs
        .iter()
        .map(|d| RunOutput {
            events: absolute(d).join(EVENTS),
            wall,
        })
        .collect())
}

/// Moves a batch JVM's events files to the points' folders (`dirs[i]/events.bin`, each emptied
/// first); a file the JVM never wrote (its point never ran a probe) stays missing.
pub fn move_events(job: &JvmJob, dirs: &[PathBuf]) -> Result<(), RunFailure> {
    // The warm-up's records (dropped by the decoder anyway) are not kept.
    let _ = std::fs::remove_file(job.dir.join(WARMUP_EVENTS));
    for (from, to) in job.events_here().iter().zip(dirs) {
        let _ = std::fs::remove_dir_all(to);
        std::fs::create_dir_all(to).map_err(|e| RunFailure::Spawn(format!("{}: {e}", to.display())))?;
        if from.exists() {
            std::fs::rename(from, to.join(EVENTS))
                .map_err(|e| RunFailure::Spawn(format!("{}: {e}", from.display())))?;
        }
    }
    Ok(())
}

/// Runs `job` here: its folder emptied and its files written, `java` in the launch's working
/// folder (else `DIR/cwd`), in a process group killed after the job's timeout.
pub fn run_local(java: &Path, classpath: &Classpath, job: &JvmJob) -> Result<(), RunFailure> {
    let Folders { dir, classpath, cwd } = folders(job.cwd.as_deref(), classpath, &job.dir)?;
    let (d, cp) = (dir.display().to_string(), classpath.joined());
    for (name, contents) in &job.files {
        let path = dir.join(name);
        std::fs::write(&path, JvmJob::resolve(contents, &d, &cp))
            .map_err(|e| RunFailure::Spawn(format!("{}: {e}", path.display())))?;
    }
    let mut cmd = Command::new(java);
    cmd.args(job.args.iter().map(|a| JvmJob::resolve(a, &d, &cp)))
        .envs(&job.env)
        .current_dir(&cwd);
    run_process(cmd, &dir, job.timeout)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::config::PointValue;

    fn launch(command: Vec<&str>) -> Launch {
        Launch {
            name: "sleepy".into(),
            target: Target::Command(command.into_iter().map(String::from).collect()),
            args: vec!["{n}".into()],
            parameters: Default::default(),
            env: Default::default(),
            jvm_args: vec![],
            cwd: None,
        }
    }

    fn point() -> Point {
        [("n".to_string(), PointValue::Number(3.0))].into()
    }

    fn workload(timeout_s: f64) -> Workload {
        Workload {
            warmup: 0,
            repetitions: 1,
            timeout_s,
            ..Workload::default()
        }
    }

    #[test]
    fn a_timeout_kills_the_whole_process_group() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("grandchild.pid");
        // The shell starts a grandchild that would outlive a kill of the shell alone.
        let script = format!("sleep 30 & echo $! > {}; wait", marker.display());
        let l = launch(vec!["sh", "-c", &script]);
        let start = Instant::now();
        let e = run_point(
            Path::new("java"),
            &Classpath { entries: vec![] },
            &l,
            &point(),
            &workload(0.5),
            &dir.path().join("run"),
        )
        .unwrap_err();
        assert!(start.elapsed() < Duration::from_secs(10));
        assert_eq!(e.failure, RunFailure::Timeout { seconds: 0.5 });
        assert_eq!(
            e.to_string(),
            "launch `sleepy` at n=3: timed out after 0.5 s; its process group was killed"
        );
        let pid: i32 = std::fs::read_to_string(&marker).unwrap().trim().parse().unwrap();
        // The grandchild is gone (or a zombie about to be reaped by init): signal 0 fails or it is
        // a zombie. A killed process ends when the kernel next runs it, which a busy machine may
        // delay: looked for until then (10 s at most), where a survivor would sleep on for 30 s.
        let gone = || {
            // SAFETY: signal 0 only checks that the process exists; nothing is sent.
            let alive = unsafe { libc::kill(pid, 0) } == 0;
            let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| s.contains(") Z "));
            !alive || zombie
        };
        let until = Instant::now() + Duration::from_secs(10);
        while !gone() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(gone(), "grandchild {pid} survived");
    }

    #[test]
    fn a_failing_run_names_launch_point_and_stderr() {
        let dir = tempfile::tempdir().unwrap();
        let l = launch(vec!["sh", "-c", "echo working; echo 'boom: bad size' >&2; exit 4"]);
        let e = run_point(
            Path::new("java"),
            &Classpath { entries: vec![] },
            &l,
            &point(),
            &workload(10.0),
            &dir.path().join("r"),
        )
        .unwrap_err();
        assert_eq!(
            e.failure,
            RunFailure::Exit {
                code: Some(4),
                stderr: "boom: bad size".into()
            }
        );
        assert!(e.to_string().starts_with("launch `sleepy` at n=3: exited with code 4"));
        assert!(!e.is_fatal());
        let missing = launch(vec!["/no/such/program"]);
        let e = run_point(
            Path::new("java"),
            &Classpath { entries: vec![] },
            &missing,
            &point(),
            &workload(10.0),
            &dir.path().join("m"),
        )
        .unwrap_err();
        assert!(e.is_fatal() && e.to_string().contains("/no/such/program"), "{e}");
    }

    #[test]
    fn command_launches_get_placeholders_and_the_probe_environment() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("seen.txt");
        let script = format!("echo \"$BEAGLE_ITERATION {{n}} {{classpath}}\" >> {}", out.display());
        let l = launch(vec!["sh", "-c", &script]);
        let w = Workload {
            warmup: 1,
            repetitions: 2,
            ..workload(10.0)
        };
        let cp = Classpath {
            entries: vec!["a".into(), "b".into()],
        };
        run_point(Path::new("java"), &cp, &l, &point(), &w, &dir.path().join("r")).unwrap();
        // Classpath entries become absolute: the process runs in a folder of its own.
        let here = std::env::current_dir().unwrap();
        let cp = format!("{}:{}", here.join("a").display(), here.join("b").display());
        assert_eq!(
            std::fs::read_to_string(out).unwrap(),
            format!("0 3 {cp}\n1 3 {cp}\n2 3 {cp}\n")
        );
    }

    #[test]
    fn what_the_system_writes_lands_in_a_scratch_folder_or_the_launch_cwd() {
        let dir = tempfile::tempdir().unwrap();
        let before: Vec<_> = std::fs::read_dir(".")
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        let l = launch(vec!["sh", "-c", "echo {n} > written.txt"]);
        run_point(
            Path::new("java"),
            &Classpath { entries: vec![] },
            &l,
            &point(),
            &workload(10.0),
            &dir.path().join("r"),
        )
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("r/cwd/written.txt")).unwrap(),
            "3\n"
        );
        let after: Vec<_> = std::fs::read_dir(".")
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(before, after, "the folder beagle runs in is left alone");
        let own = dir.path().join("mine");
        std::fs::create_dir_all(&own).unwrap();
        let l = Launch {
            cwd: Some(own.clone()),
            ..l
        };
        run_point(
            Path::new("java"),
            &Classpath { entries: vec![] },
            &l,
            &point(),
            &workload(10.0),
            &dir.path().join("r"),
        )
        .unwrap();
        assert!(own.join("written.txt").is_file());
    }
}
