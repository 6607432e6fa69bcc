//! The runners of `[runner]` on real engines (issue 40): JVMs over a real sshd on loopback and as
//! job arrays on a real single-node Slurm cluster (`tests/services/runners.sh`, started by
//! `.ci/run`). The faults are made from outside, as they happen: a Slurm task cancelled with
//! `scancel` mid-run, a JVM that exits 1, the ssh connection dropped by killing its sshd process.
//! Each time the JVM runs again (or, for the connection, is waited for again), and every JVM that
//! had ended is reported once, its files intact.
//!
//! Without the services these tests skip, unless `BEAGLE_E2E_REQUIRE_RUNNERS=1` (CI) says they
//! must run.

use beagle_java::launch::job::{CP, DIR};
use beagle_java::launch::runner::{Slurm, Ssh};
use beagle_java::launch::{Classpath, Executor, JvmJob, RunFailure, Runner, Update};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// One test at a time: they share the sshd's user, its work folder and Slurm's one node (and the
/// cancel test finds its task by the array's name).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

fn required() -> bool {
    std::env::var("BEAGLE_E2E_REQUIRE_RUNNERS").as_deref() == Ok("1")
}

fn key() -> PathBuf {
    std::env::var_os("BEAGLE_TEST_SSH_KEY").map_or_else(|| PathBuf::from("/tmp/beagle-ssh-key"), PathBuf::from)
}

/// The remote work folder of one test (each copies its classes afresh).
fn remote_work(test: &str) -> String {
    format!("beagle-test-work/{test}-{}", std::process::id())
}

fn ssh_config(work_dir: &str) -> Ssh {
    Ssh {
        host: "127.0.0.1".into(),
        user: Some("beagletest".into()),
        port: Some(2222),
        identity: Some(key()),
        work_dir: work_dir.into(),
        java: "java".into(),
        retries: 2,
    }
}

/// Whether the sshd of `tests/services/runners.sh` answers (or a skip, said on stderr).
fn sshd_up() -> bool {
    let up = Command::new("ssh")
        .args([
            "-p",
            "2222",
            "-o",
            "BatchMode=yes",
            "-o",
            "StrictHostKeyChecking=accept-new",
            "-i",
        ])
        .arg(key())
        .args(["beagletest@127.0.0.1", "true"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(up || !required(), "the test sshd (tests/services/runners.sh) is not up");
    if !up {
        eprintln!("skipped: no sshd on 127.0.0.1:2222 (run tests/services/runners.sh as root)");
    }
    up
}

fn slurm_up() -> bool {
    let up = Command::new("sinfo")
        .args(["-h", "-o", "%T"])
        .output()
        .is_ok_and(|o| o.status.success() && !o.stdout.is_empty());
    assert!(
        up || !required(),
        "the test Slurm cluster (tests/services/runners.sh) is not up"
    );
    if !up {
        eprintln!("skipped: no Slurm cluster here (run tests/services/runners.sh as root)");
    }
    up
}

/// `Sleeper OUT MS MARKER LOG`: sleeps, writes OUT; with a MARKER path that does not exist yet, it
/// creates it and exits 1 instead (a JVM that fails once). Every run appends a line to LOG.
const SLEEPER: &str = r#"
import java.nio.file.*;
public class Sleeper {
    public static void main(String[] a) throws Exception {
        Files.writeString(Path.of(a[3]), "run\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        if (!a[2].equals("-")) {
            Path marker = Path.of(a[2]);
            if (!Files.exists(marker)) { Files.writeString(marker, "failed once"); System.exit(1); }
        }
        Thread.sleep(Long.parseLong(a[1]));
        Files.writeString(Path.of(a[0]), "measured " + a[1] + "\n");
    }
}
"#;

/// The compiled Sleeper, in a folder readable by the test user.
fn classes(dir: &Path) -> Classpath {
    let src = dir.join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("Sleeper.java"), SLEEPER).unwrap();
    let out = dir.join("classes");
    let status = Command::new("javac")
        .arg("-d")
        .arg(&out)
        .arg(src.join("Sleeper.java"))
        .status()
        .unwrap();
    assert!(status.success());
    Classpath { entries: vec![out] }
}

/// A shared scratch folder in /tmp that the test user can write (the remote side's logs). In
/// `/tmp` itself, not under `std::env::temp_dir()`: `TMPDIR` may point into a folder of this user
/// that `beagletest`, whose JVMs write here over ssh, cannot enter.
fn shared(name: &str) -> PathBuf {
    let d = Path::new("/tmp").join(format!("beagle-runner-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::set_permissions(&d, std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
    d
}

fn job(here: &Path, n: usize, ms: u64, marker: Option<&Path>, log: &Path) -> JvmJob {
    JvmJob {
        launch: "sleeper".into(),
        points: vec![format!("n={n}")],
        dir: here.join(format!("job-{n}")),
        args: vec![
            "-cp".into(),
            CP.into(),
            "Sleeper".into(),
            format!("{DIR}/events.bin"),
            ms.to_string(),
            marker.map_or("-".into(), |m| m.display().to_string()),
            log.display().to_string(),
        ],
        env: Default::default(),
        cwd: None,
        files: vec![],
        events: vec!["events.bin".into()],
        timeout: Duration::from_secs(90),
    }
}

/// What `run_all` reported.
#[derive(Default, Debug)]
struct Seen {
    running: Vec<usize>,
    retried: Vec<(usize, RunFailure)>,
    done: Vec<(usize, bool)>,
    notes: Vec<String>,
    /// The most JVMs running at once (started and not yet ended).
    most_running: usize,
}

fn run(executor: &Executor, jobs: &[JvmJob], mut also: impl FnMut(&Update)) -> Seen {
    let mut seen = Seen::default();
    // Every end (a retry or done) follows a start of its own, however short the JVM: the
    // editor's count of those running is starts minus ends.
    let mut started = std::collections::BTreeSet::new();
    executor.run_all(jobs, &|| false, &mut |u| {
        also(&u);
        match &u {
            Update::Running(i) => assert!(started.insert(*i), "job {i} started twice without ending"),
            Update::Retrying { job: i, .. } | Update::Done(i, _) => {
                assert!(started.remove(i), "job {i} ended without being reported running")
            }
            Update::Note(_) => {}
        }
        seen.most_running = seen.most_running.max(started.len());
        match u {
            Update::Running(i) => seen.running.push(i),
            Update::Retrying { job, error, .. } => seen.retried.push((job, error.failure)),
            Update::Done(i, r) => {
                if let Err(e) = &r {
                    eprintln!("job {i}: {e}");
                }
                seen.done.push((i, r.is_ok()))
            }
            Update::Note(n) => seen.notes.push(n),
        }
    });
    seen
}

fn measured(job: &JvmJob) -> String {
    std::fs::read_to_string(job.dir.join("events.bin")).unwrap_or_default()
}

fn lines(p: &Path) -> usize {
    std::fs::read_to_string(p).unwrap_or_default().lines().count()
}

#[test]
fn ssh_runs_jvms_there_brings_their_files_back_and_retries_a_failing_one() {
    let _one = serial();
    if !sshd_up() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let cp = classes(d.path());
    let remote = shared("ssh");
    let runner = Runner::Ssh(ssh_config(&remote_work("ssh")));
    let executor = Executor::open(&runner, Path::new("java"), &cp).unwrap();
    assert!(
        executor.notes[0].contains("1 class path entries copied"),
        "{:?}",
        executor.notes
    );
    let log = remote.join("runs.log");
    let jobs = vec![
        job(d.path(), 0, 200, None, &log),
        job(d.path(), 1, 200, Some(&remote.join("fail-once")), &log),
        job(d.path(), 2, 200, None, &log),
    ];
    let seen = run(&executor, &jobs, |_| {});
    assert_eq!(seen.retried.len(), 1, "{seen:?}");
    assert_eq!(seen.retried[0].0, 1);
    assert!(
        matches!(seen.retried[0].1, RunFailure::Exit { code: Some(1), .. }),
        "{seen:?}"
    );
    let mut done = seen.done.clone();
    done.sort();
    assert_eq!(
        done,
        [(0, true), (1, true), (2, true)],
        "each JVM reported once, measured"
    );
    for j in &jobs {
        assert_eq!(measured(j), "measured 200\n", "{}", j.dir.display());
    }
    assert_eq!(lines(&log), 4, "three JVMs and the one that failed");
    // The classes are there already: a second analysis copies nothing.
    let again = Executor::open(&runner, Path::new("java"), &cp).unwrap();
    assert!(
        again.notes[0].contains("0 class path entries copied"),
        "{:?}",
        again.notes
    );
}

/// Polls `done` every 50 ms until it holds, for at most `secs` seconds (then panics, naming `what`).
fn wait_until(secs: u64, what: &str, done: impl Fn() -> bool) {
    let until = Instant::now() + Duration::from_secs(secs);
    while !done() {
        assert!(Instant::now() < until, "not within {secs} s: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Whether the test user's shell on the host runs the wait for an exit code of a JVM under the
/// remote work folder `work` (the ssh session that dropping the connection cuts). Its own user
/// only: the ssh client here names the same command.
fn waiting_on_the_host(work: &str) -> bool {
    Command::new("pgrep")
        .args(["-u", "beagletest", "-f", &format!("while .*{work}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn a_dropped_ssh_connection_resumes_where_it_was() {
    let _one = serial();
    if !sshd_up() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let cp = classes(d.path());
    let remote = shared("drop");
    let work = remote_work("drop");
    let executor = Executor::open(&Runner::Ssh(ssh_config(&work)), Path::new("java"), &cp).unwrap();
    let log = remote.join("runs.log");
    // Long enough that the connection is dropped while the JVM runs, however slowly the host
    // starts it and answers the wait's connection: seconds of slack on a busy machine.
    let jobs = vec![job(d.path(), 0, 6000, None, &log)];
    let mut dropped = false;
    let started = Instant::now();
    let seen = run(&executor, &jobs, |u| {
        if let (Update::Running(_), false) = (u, dropped) {
            dropped = true;
            // Once the JVM is detached on the other side and its exit code waited for there (the
            // event, not a guess of how long that takes), its connection goes.
            wait_until(30, "the host waits for the JVM's exit code", || {
                waiting_on_the_host(&work)
            });
            let killed = Command::new("pkill")
                .args(["-KILL", "-f", "^sshd: beagletest"])
                .status()
                .unwrap();
            assert!(killed.success(), "an sshd session of beagletest to drop");
        }
    });
    assert!(
        seen.notes.iter().any(|n| n.contains("connection lost")),
        "the drop was seen: {seen:?}"
    );
    assert!(seen.notes.iter().any(|n| n.contains("connection back")), "{seen:?}");
    assert!(seen.retried.is_empty(), "resumed, not run again: {seen:?}");
    assert_eq!(seen.done, [(0, true)]);
    assert_eq!(measured(&jobs[0]), "measured 6000\n");
    assert_eq!(lines(&log), 1, "the JVM ran once");
    // Resumed at once: the JVM's 6 s and a reconnection, not a wait for the job's timeout (90 s).
    assert!(started.elapsed() < Duration::from_secs(60));
}

fn slurm_config(work_dir: &Path, max_parallel: usize) -> Slurm {
    Slurm {
        partition: None,
        exclusive: true,
        cpus_per_task: None,
        time_limit: None,
        max_parallel,
        sbatch_args: vec![],
        work_dir: work_dir.to_path_buf(),
        java: "java".into(),
        retries: 2,
        login: None,
    }
}

/// A Slurm executor whose tasks share the node, one CPU each (room for two on the test node).
fn slurm_one_cpu_per_task(name: &str, max_parallel: usize, cp: &Classpath) -> (Executor, PathBuf) {
    let remote = shared(name);
    let mut slurm = slurm_config(&remote.join("work"), max_parallel);
    slurm.exclusive = false;
    slurm.cpus_per_task = Some(1);
    let executor = Executor::open(&Runner::Slurm(slurm), Path::new("java"), cp).unwrap();
    (executor, remote)
}

#[test]
fn a_slurm_task_cancelled_from_outside_or_exiting_1_runs_again_and_nothing_measured_is_lost() {
    let _one = serial();
    if !slurm_up() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let cp = classes(d.path());
    let remote = shared("slurm");
    let runner = Runner::Slurm(slurm_config(&remote.join("work"), 1));
    let executor = Executor::open(&runner, Path::new("java"), &cp).unwrap();
    let log = remote.join("runs.log");
    let jobs = vec![
        job(d.path(), 0, 300, None, &log),
        job(d.path(), 1, 3000, None, &log),
        job(d.path(), 2, 300, Some(&remote.join("fail-once")), &log),
    ];
    let mut cancelled = false;
    let seen = run(&executor, &jobs, |u| {
        // Job 1 (task 1 of the array) is cancelled once it runs, as an administrator would: the
        // task squeue lists running (reported running from squeue's RUNNING; polled all the same,
        // in case the listing lags the poll that saw it).
        if let (Update::Running(1), false) = (u, cancelled) {
            cancelled = true;
            let running = || {
                let tasks = Command::new("squeue")
                    .args(["-h", "-r", "--name=beagle", "-t", "RUNNING", "-o", "%i"])
                    .output()
                    .unwrap();
                String::from_utf8_lossy(&tasks.stdout).trim().to_string()
            };
            wait_until(30, "a task listed running", || !running().is_empty());
            let task = running();
            assert!(task.ends_with("_1"), "the running task is job 1's: {task:?}");
            assert!(Command::new("scancel").arg(&task).status().unwrap().success());
        }
    });
    let mut retried: Vec<usize> = seen.retried.iter().map(|(i, _)| *i).collect();
    retried.sort();
    assert_eq!(retried, [1, 2], "{seen:?}");
    for (i, failure) in &seen.retried {
        match i {
            1 => assert!(
                matches!(failure, RunFailure::Lost(why) if why.contains("without an exit code")),
                "{failure:?}"
            ),
            _ => assert!(matches!(failure, RunFailure::Exit { code: Some(1), .. }), "{failure:?}"),
        }
    }
    let mut done = seen.done.clone();
    done.sort();
    assert_eq!(done, [(0, true), (1, true), (2, true)], "{seen:?}");
    for j in &jobs {
        assert_eq!(
            measured(j),
            format!("measured {}\n", if j.points[0] == "n=1" { 3000 } else { 300 })
        );
    }
    // Job 0 ran once: what had been measured was kept, not measured again.
    assert_eq!(seen.running.iter().filter(|&&i| i == 0).count(), 1, "{seen:?}");
}

#[test]
fn a_slurm_task_shorter_than_a_poll_is_still_reported_running_before_its_end() {
    let _one = serial();
    if !slurm_up() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let cp = classes(d.path());
    let (executor, remote) = slurm_one_cpu_per_task("short", 2, &cp);
    let log = remote.join("runs.log");
    // JVMs of a few hundred milliseconds: most start and end between two polls of squeue.
    let jobs: Vec<JvmJob> = (0..4).map(|n| job(d.path(), n, 0, None, &log)).collect();
    let seen = run(&executor, &jobs, |_| {});
    let (mut running, mut done) = (seen.running.clone(), seen.done.clone());
    running.sort();
    done.sort();
    assert_eq!(running, [0, 1, 2, 3], "each announced once: {seen:?}");
    assert_eq!(done, [(0, true), (1, true), (2, true), (3, true)], "{seen:?}");
}

#[test]
fn slurm_keeps_max_parallel_tasks_in_flight() {
    let _one = serial();
    if !slurm_up() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let cp = classes(d.path());
    let (executor, remote) = slurm_one_cpu_per_task("parallel", 2, &cp);
    let log = remote.join("runs.log");
    let jobs: Vec<JvmJob> = (0..4).map(|n| job(d.path(), n, 1500, None, &log)).collect();
    let seen = run(&executor, &jobs, |_| {});
    assert_eq!(seen.done.len(), 4);
    assert!(seen.done.iter().all(|(_, ok)| *ok), "{seen:?}");
    assert_eq!(
        seen.most_running, 2,
        "max_parallel at once, never more (2 CPUs, 1 per task)"
    );
}

#[test]
fn a_slurm_retry_waits_for_room_so_max_parallel_holds_over_all_arrays() {
    let _one = serial();
    if !slurm_up() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let cp = classes(d.path());
    // Room for two tasks on the node, but max_parallel 1: only Beagle's throttle keeps one.
    let (executor, remote) = slurm_one_cpu_per_task("retry-room", 1, &cp);
    let log = remote.join("runs.log");
    // Job 0 fails at once and is retried while job 1 (3 s) has the one place.
    let jobs = vec![
        job(d.path(), 0, 300, Some(&remote.join("fail-once")), &log),
        job(d.path(), 1, 3000, None, &log),
    ];
    let seen = run(&executor, &jobs, |_| {});
    let mut done = seen.done.clone();
    done.sort();
    assert_eq!(done, [(0, true), (1, true)], "{seen:?}");
    assert_eq!(seen.retried.len(), 1, "{seen:?}");
    assert_eq!(seen.most_running, 1, "the retry's array waited for job 1: {seen:?}");
}

/// Whether a Sleeper JVM of this test still runs (its unique sleep time names it).
fn sleeper_alive(ms: u64) -> bool {
    Command::new("pgrep")
        .args(["-f", &format!("Sleeper .* {ms} ")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs one long JVM (`ms` of about a minute) and aborts once it runs (its process is there: the
/// event, not a guess of how long a busy machine takes to start it): the call returns within
/// seconds of the abort, and the JVM is gone well before it would have ended by itself.
fn abort_kills(executor: &Executor, d: &Path, ms: u64, log: &Path) {
    assert!(ms >= 60_000, "a JVM that outlives the waits below");
    let jobs = vec![job(d, 0, ms, None, log)];
    let running = std::cell::Cell::new(false);
    // When the JVM was last looked for (pgrep at most every 200 ms), and when the abort was said.
    let looked = std::cell::Cell::new(None::<Instant>);
    let aborted = std::cell::Cell::new(None::<Instant>);
    let started = Instant::now();
    let mut done = Vec::new();
    executor.run_all(
        &jobs,
        &|| {
            if aborted.get().is_some() {
                return true;
            }
            if !running.get() || looked.get().is_some_and(|t| t.elapsed() < Duration::from_millis(200)) {
                return false;
            }
            looked.set(Some(Instant::now()));
            if sleeper_alive(ms) {
                aborted.set(Some(Instant::now()));
            }
            aborted.get().is_some()
        },
        &mut |u| match u {
            Update::Running(_) => running.set(true),
            Update::Done(i, r) => done.push((i, r.is_ok())),
            _ => {}
        },
    );
    let aborted = aborted.get().unwrap_or_else(|| {
        panic!(
            "the JVM never ran (or ended first) in {:?}; done: {done:?}",
            started.elapsed()
        )
    });
    assert!(
        aborted.elapsed() < Duration::from_secs(30),
        "returned {:?} after the abort, not within seconds (the JVM sleeps {ms} ms)",
        aborted.elapsed()
    );
    assert!(done.is_empty(), "an aborted JVM is not reported measured: {done:?}");
    // Killed: gone within seconds of the abort (a Slurm task's processes are signalled by its
    // node's daemon a moment after scancel). Looked for until 40 s after the abort at most: by
    // itself the JVM would run on for 20 s more.
    let left = Duration::from_secs(40).saturating_sub(aborted.elapsed());
    wait_until(left.as_secs(), "the aborted JVM killed", || !sleeper_alive(ms));
}

#[test]
fn an_abort_kills_the_remote_jvm() {
    let _one = serial();
    if !sshd_up() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let cp = classes(d.path());
    let remote = shared("abort-ssh");
    let work = remote_work("abort");
    let executor = Executor::open(&Runner::Ssh(ssh_config(&work)), Path::new("java"), &cp).unwrap();
    abort_kills(&executor, d.path(), 60_017, &remote.join("runs.log"));
    // Nothing of the run is left on the host: not the JVM, nor a shell waiting for its exit code
    // (sshd does not end a command whose client went away).
    let left = || {
        let out = Command::new("pgrep").args(["-a", "-f", &work]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let until = Instant::now() + Duration::from_secs(10);
    while !left().is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(left(), "", "processes of the aborted run left on the host");
}

#[test]
fn an_abort_cancels_the_slurm_jobs() {
    let _one = serial();
    if !slurm_up() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let cp = classes(d.path());
    let remote = shared("abort-slurm");
    let executor = Executor::open(
        &Runner::Slurm(slurm_config(&remote.join("work"), 1)),
        Path::new("java"),
        &cp,
    )
    .unwrap();
    abort_kills(&executor, d.path(), 60_023, &remote.join("runs.log"));
    // Cancelled jobs are "completing" for a moment, then gone.
    let queued = || {
        let out = Command::new("squeue")
            .args(["-h", "--name=beagle", "-o", "%i %T"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let left = queued();
    assert!(left.lines().all(|l| l.ends_with("COMPLETING")), "scancel left: {left}");
    let until = Instant::now() + Duration::from_secs(30);
    while !queued().is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(queued(), "", "the cancelled array left the queue");
}
