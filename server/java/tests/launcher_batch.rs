//! Several parameter points in one JVM (`Launcher --batch`, [`run_batch`]): each point's records
//! land in its own events file, with the calibration in force, one execution per repetition, and
//! only that point's inputs; a JVM start and a warm-up are shared.

mod probe_common;

use beagle_analysis::events::MeasurementEvent;
use beagle_java::launch::{
    can_batch, run_batch, Classpath, Launch, Point, PointValue, RunError, RunOutput, Target, Workload,
};
use beagle_java::probe::decode::{decode_file, DecodeOptions};
use beagle_java::sections::{Section, SectionTable};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `Main N`: one execution of `_work` with parameter n = N, looping N times (and from N = 1000 on,
/// sleeping N / 1000 ms); its own argument counted into a file of the working folder, so the test
/// sees the warm-up's runs too.
const MAIN: &str = r#"
import beagle.probe.Probe;
import java.nio.file.*;

public class Main {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        if (n < 0) {
            throw new IllegalArgumentException("negative n");
        }
        long e = Probe.enter(0);
        try {
            Probe.param(e, 0, n);
            long sum = 0;
            for (int i = 0; i < n; i++) sum += i;
            Probe.loop(1, n);
            if (n >= 1000) {
                Thread.sleep(n / 1000); // a long run: n / 1000 ms
            }
        } finally {
            Probe.exit(e);
        }
        Files.writeString(Paths.get("runs.txt"), n + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
"#;

fn table() -> SectionTable {
    let mut t = SectionTable::default();
    assert_eq!(
        t.add(Section::Service {
            service: "_work".into()
        }),
        0
    );
    t.add(Section::Loop {
        loop_id: "_loop".into(),
    });
    t.add_slot("n");
    t
}

fn point(n: f64) -> Point {
    [("n".to_string(), PointValue::Number(n))].into()
}

fn launch(cwd: PathBuf) -> Launch {
    Launch {
        name: "work".into(),
        target: Target::Main("Main".into()),
        args: vec!["{n}".into()],
        parameters: BTreeMap::new(),
        env: BTreeMap::new(),
        jvm_args: vec![],
        cwd: Some(cwd),
    }
}

fn javac_available() -> bool {
    Command::new("javac").arg("-version").output().is_ok()
}

/// `MAIN` compiled with the probe into `dir`, its class path.
fn compiled(dir: &Path) -> Classpath {
    let classpath = probe_common::compile_with_probe(dir, "Main.java", MAIN);
    Classpath {
        entries: std::env::split_paths(&classpath).collect(),
    }
}

/// How the tests decode a point's events: the measured runs, not the warm-up.
fn measured_runs_only() -> DecodeOptions {
    DecodeOptions {
        run: "b".into(),
        warmup: 1,
        service_times: false,
        count_keys: Default::default(),
    }
}

/// The service calls' `n` and the loop counts a point's events file holds, in order.
fn calls_and_loops(events: &[MeasurementEvent]) -> (Vec<f64>, Vec<u64>) {
    let calls = events
        .iter()
        .filter_map(|e| match e {
            MeasurementEvent::ServiceCall { parameters, .. } => Some(parameters["n.VALUE"]),
            _ => None,
        })
        .collect();
    let loops = events
        .iter()
        .filter_map(|e| match e {
            MeasurementEvent::Loop { count, .. } => Some(*count),
            MeasurementEvent::LoopTotal { iterations, .. } => Some(*iterations),
            _ => None,
        })
        .collect();
    (calls, loops)
}

/// A scratch folder with `MAIN` compiled in it, its class path, and the program's working folder.
fn scratch() -> (tempfile::TempDir, Classpath, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let classpath = compiled(dir.path());
    let cwd = dir.path().join("cwd");
    std::fs::create_dir_all(&cwd).unwrap();
    (dir, classpath, cwd)
}

/// `points` in one JVM (`warmup` runs, `repetitions` rounds), point `i`'s files in `dir/p<i>`.
fn batch(
    dir: &Path,
    classpath: &Classpath,
    launch: &Launch,
    points: &[Point],
    warmup: u32,
    repetitions: u32,
) -> (Result<Vec<RunOutput>, RunError>, Vec<PathBuf>) {
    batch_for(dir, classpath, launch, points, (warmup, 0), repetitions)
}

/// [`batch`] with a warm-up of `warmup.0` runs and `warmup.1` ms.
fn batch_for(
    dir: &Path,
    classpath: &Classpath,
    launch: &Launch,
    points: &[Point],
    (warmup, warmup_ms): (u32, u64),
    repetitions: u32,
) -> (Result<Vec<RunOutput>, RunError>, Vec<PathBuf>) {
    let dirs: Vec<PathBuf> = (0..points.len()).map(|i| dir.join(format!("p{i}"))).collect();
    let workload = Workload {
        warmup,
        warmup_ms,
        repetitions,
        timeout_s: 60.0,
        ..Workload::default()
    };
    let result = run_batch(
        Path::new("java"),
        classpath,
        launch,
        points,
        &dirs,
        &workload,
        &dir.join("jvm"),
    );
    (result, dirs)
}

#[test]
fn each_point_of_a_shared_jvm_gets_its_own_events_and_calibration() {
    if !javac_available() {
        eprintln!("skipped: no javac");
        return;
    }
    let (dir, classpath, cwd) = scratch();
    let launch = launch(cwd.clone());
    let points = [point(3.0), point(7.0), point(11.0)];
    assert!(can_batch(&launch, &points));
    let (outs, dirs) = batch(dir.path(), &classpath, &launch, &points, 4, 2);
    let outs = outs.unwrap();
    assert_eq!(outs.len(), 3);
    // One JVM: the warm-up went round the points (at least 4 runs, each point at least once), then
    // two rounds of measured runs, point after point.
    let runs = std::fs::read_to_string(cwd.join("runs.txt")).unwrap();
    let runs: Vec<&str> = runs.lines().collect();
    assert_eq!(
        runs,
        ["3", "7", "11", "3", "3", "7", "11", "3", "7", "11"],
        "four warm-up runs round the points, then two rounds"
    );
    let options = measured_runs_only();
    for (i, (out, n)) in outs.iter().zip([3.0, 7.0, 11.0]).enumerate() {
        assert_eq!(out.events, std::path::absolute(dirs[i].join("events.bin")).unwrap());
        let (events, summary) = decode_file(&out.events, &table(), &options).unwrap();
        assert!(summary.calibrations >= 1, "point {i}: no calibration in its events");
        let (calls, loops) = calls_and_loops(&events);
        assert_eq!(
            calls,
            [n, n],
            "point {i}: one execution per repetition, its own input only"
        );
        assert_eq!(loops, [n as u64, n as u64], "point {i}");
    }
    // The warm-up's records are not left behind.
    assert!(!dir.path().join("jvm/warmup-events.bin").exists());
}

/// Small calls (issue 51, point 4): a warm-up of so many milliseconds gives each point a share of
/// its time, not of its runs, and a small point is led into each measured run by unrecorded runs
/// of its own. Going round the points one run each, a 10 µs upload got one warm-up run per round
/// of the 50 ms ones (its once-per-call code measured before the JIT compiled it), and ran each
/// measured run right after one of them, its caches taken (two to three times its warm cost).
#[test]
fn a_small_point_is_warmed_for_its_share_of_the_time_and_led_into_each_measured_run() {
    if !javac_available() {
        eprintln!("skipped: no javac");
        return;
    }
    let (dir, classpath, cwd) = scratch();
    let launch = launch(cwd.clone());
    // A call of a few µs beside one of 20 ms.
    let points = [point(3.0), point(20_000.0)];
    let (outs, dirs) = batch_for(dir.path(), &classpath, &launch, &points, (4, 400), 2);
    let outs = outs.unwrap();
    let runs = std::fs::read_to_string(cwd.join("runs.txt")).unwrap();
    let runs: Vec<&str> = runs.lines().collect();
    let long: Vec<usize> = (0..runs.len()).filter(|i| runs[*i] == "20000").collect();
    let small = runs.len() - long.len();
    // Round the points, as many small runs as long ones (about 20 of each in 400 ms); by time,
    // hundreds of small runs per turn.
    assert!(
        small >= 10 * long.len(),
        "{small} small runs beside {} long ones",
        long.len()
    );
    // The last measured round: the small point's lead-in runs, then its measured run, then the
    // long point's (which has no lead-in: a 20 ms run warms its own caches).
    let (last, before) = (long[long.len() - 1], long[long.len() - 2]);
    assert_eq!(last, runs.len() - 1, "the long point ends the last round");
    assert!(
        last - before > 2,
        "the small point's measured run was led in: {} runs between the long point's last two",
        last - before - 1
    );
    // Only the measured runs are recorded: one execution per repetition.
    let options = measured_runs_only();
    for (i, (out, n)) in outs.iter().zip([3.0, 20_000.0]).enumerate() {
        assert_eq!(out.events, std::path::absolute(dirs[i].join("events.bin")).unwrap());
        let (events, _) = decode_file(&out.events, &table(), &options).unwrap();
        assert_eq!(calls_and_loops(&events).0, [n, n], "point {i}");
    }
}

/// Every window of runs disturbed (a tolerance below zero: the reference is always "slower than
/// usual"): each is measured again, its first attempts' records dropped, until measuring again
/// runs out; the files then hold one execution per repetition, and say what was measured again.
#[test]
fn a_disturbed_window_is_measured_again_and_only_its_last_attempt_kept() {
    if !javac_available() {
        eprintln!("skipped: no javac");
        return;
    }
    let (dir, classpath, cwd) = scratch();
    let mut launch = launch(cwd.clone());
    launch.jvm_args.extend([
        "-Dbeagle.reference=true".into(),
        "-Dbeagle.referenceTolerance=-1".into(),
    ]);
    let points = [point(3.0), point(7.0), point(11.0)];
    let (outs, _) = batch(dir.path(), &classpath, &launch, &points, 3, 2);
    let outs = outs.unwrap();
    let runs = std::fs::read_to_string(cwd.join("runs.txt")).unwrap();
    let measured = runs.lines().count() - 3;
    assert!(
        measured > 6,
        "two rounds of three points, and windows of them again: {measured} runs"
    );
    let options = measured_runs_only();
    let (mut again, mut kept) = (0, 0);
    for (i, (out, n)) in outs.iter().zip([3.0, 7.0, 11.0]).enumerate() {
        let (events, summary) = decode_file(&out.events, &table(), &options).unwrap();
        again += summary.disturbed_again;
        kept += summary.disturbed_kept;
        let (calls, loops) = calls_and_loops(&events);
        assert_eq!(calls, [n, n], "point {i}: the dropped attempts' executions are gone");
        assert_eq!(loops, [n as u64, n as u64], "point {i}");
        assert!(summary.calibrations >= 1, "point {i}: the calibration was kept");
        assert!(
            summary.disturbed_again + summary.disturbed_kept >= 1,
            "point {i}: {summary:?}"
        );
        assert_eq!(
            summary.invalid + summary.orphans + summary.unknown_types,
            0,
            "{summary:?}"
        );
    }
    // Measured again until that ran out (three attempts a window, as many windows again as
    // there are windows), then kept.
    assert!(again >= 2 && kept >= 1, "measured again {again}, kept {kept}");
}

#[test]
fn a_failing_point_fails_its_batch_naming_every_point() {
    if !javac_available() {
        eprintln!("skipped: no javac");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let classpath = compiled(dir.path());
    let launch = launch(dir.path().to_path_buf());
    let points = [point(2.0), point(-1.0)];
    let e = batch(dir.path(), &classpath, &launch, &points, 1, 1).0.unwrap_err();
    assert_eq!(e.point, "n=2; n=-1");
    assert!(e.to_string().contains("negative n"), "{e}");
    assert_eq!(e.failure_summary(), "exited with code 1");
    // A `command` launch, or arguments a tab-separated line cannot carry, run a JVM per point.
    let mut tabbed = launch.clone();
    tabbed.args = vec!["a\tb".into()];
    assert!(!can_batch(&tabbed, &points));
}
