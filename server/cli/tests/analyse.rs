//! `beagle analyse` as a user runs it: the bundled events example recovers its documented laws,
//! `--write` changes exactly the analysed specifications, the store resumes an analysis whose
//! process was killed, and bad input is named.

mod common;

use common::{json, root};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn beagle(dir: &Path, args: &[&str]) -> Output {
    common::beagle_in(dir, args)
}

/// A private copy of the events example (the store and `--write` change the folder).
fn example_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for f in ["FileShare.repository", "upload.events", "beagle.toml"] {
        std::fs::copy(root().join("fixtures/events-example").join(f), dir.path().join(f)).unwrap();
    }
    dir
}

const CPU: &str = "_oro4gG3fEdy4YaaT-RYrLQ";

/// The laws `fixtures/events-example/README.md` documents, as Beagle prints them.
fn documented() -> Vec<(String, &'static str, &'static str)> {
    vec![
        (
            format!("_fs_prepare/{CPU}"),
            "0.05 * files.NUMBER_OF_ELEMENTS + 0.8",
            "final",
        ),
        ("_fs_per_file".into(), "files.NUMBER_OF_ELEMENTS", "final"),
        (
            "_fs_compress_if_large/_fs_large".into(),
            "size.VALUE > 210000 ? 1 : 0",
            "final",
        ),
        (
            "_fs_compress_if_large/_fs_small".into(),
            "size.VALUE <= 210000 ? 1 : 0",
            "final",
        ),
        (format!("_fs_compress/{CPU}"), "2.0E-5 * size.VALUE + 0.3", "final"),
        (format!("_fs_hash/{CPU}"), "5.0E-6 * size.VALUE + 0.1", "final"),
        (
            "_fs_store_file/bytes.VALUE".into(),
            "size.VALUE > 210000 ? 0.4 * size.VALUE : size.VALUE",
            "final",
        ),
        ("_fs_notify/_fs_send_mail".into(), "0.3", "preliminary"),
        ("_fs_notify/_fs_no_mail".into(), "0.7", "preliminary"),
        (format!("_fs_mail/{CPU}"), "0.25", "final"),
        (
            "_fs_write/_BIjHoQ3KEdyouMqirZIhzQ".into(),
            "4.0E-6 * bytes.VALUE + 0.05",
            "final",
        ),
    ]
}

#[test]
fn the_events_example_recovers_its_documented_expressions() {
    let dir = example_copy();
    let out = beagle(dir.path(), &["analyse", ".", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), documented().len(), "{report:#}");
    for (element, expression, status) in documented() {
        let r = results
            .iter()
            .find(|r| r["element"] == element.as_str())
            .unwrap_or_else(|| panic!("no result for {element}"));
        assert_eq!(r["expression"], expression, "{element}");
        assert_eq!(r["status"], status, "{element}");
    }
    let write = results
        .iter()
        .find(|r| r["element"] == "_fs_write/_BIjHoQ3KEdyouMqirZIhzQ")
        .unwrap();
    assert_eq!(write["kind"], "resource_demand");
    assert_eq!(write["resource"], "HDD");
    assert_eq!(write["samples"], 404);
    assert!(write["r2"].as_f64().unwrap() > 0.9999);
    assert_eq!(write["relative_error"].as_f64().unwrap(), 0.0);
    let kinds: std::collections::BTreeSet<&str> = results.iter().map(|r| r["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        ["branch", "call_parameter", "loop", "resource_demand"]
            .into_iter()
            .collect()
    );
    // The example has no resource environment: its demands are in milliseconds, said once.
    let diagnostics = report["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["severity"], "info");
    assert!(diagnostics[0]["message"]
        .as_str()
        .unwrap()
        .starts_with("demands are in milliseconds: the workspace has no resource environment"));
    assert!(results.iter().all(|r| r.get("work_units").is_none()));
}

#[test]
fn write_changes_exactly_the_analysed_specifications() {
    let dir = example_copy();
    let path = dir.path().join("FileShare.repository");
    let before = std::fs::read_to_string(&path).unwrap();
    let out = beagle(dir.path(), &["analyse", ".", "--write", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let after = std::fs::read_to_string(&path).unwrap();
    let diff = similar::TextDiff::from_lines(&before, &after)
        .unified_diff()
        .context_radius(0)
        .header("FileShare.repository", "FileShare.repository (written)")
        .to_string();
    insta::assert_snapshot!(diff);
    // The written file is a sound model, and writing again changes nothing.
    let check = beagle(dir.path(), &["check", "FileShare.repository"]);
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let again = beagle(dir.path(), &["analyse", ".", "--write", "--fresh", "--json"]);
    assert_eq!(again.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), after);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn a_second_run_takes_measurements_and_results_from_the_store() {
    let dir = example_copy();
    let first = beagle(dir.path(), &["analyse", "."]);
    assert_eq!(first.status.code(), Some(0));
    let text = String::from_utf8_lossy(&first.stdout).to_string();
    assert!(
        text.starts_with("measurements: 2015 events, 444 service executions\n"),
        "{text}"
    );
    let second = beagle(dir.path(), &["analyse", "."]);
    let text2 = String::from_utf8_lossy(&second.stdout).to_string();
    assert!(text2.contains("(from the store)"), "{text2}");
    assert!(text2.contains("taken from the store"), "{text2}");
    // A component of the same measurements: its final results are reused, not recomputed.
    let storage = beagle(dir.path(), &["analyse", ".", "--component", "Storage"]);
    let text3 = String::from_utf8_lossy(&storage.stdout).to_string();
    assert!(text3.contains("0 elements analysed"), "{text3}");
    assert!(
        text3.contains("4.0E-6 * bytes.VALUE + 0.05") && text3.contains("(cached)"),
        "{text3}"
    );
    // Changed measurements are measurements again.
    let mut events = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.path().join("upload.events"))
        .unwrap();
    writeln!(events, "# one more line").unwrap();
    let third = beagle(dir.path(), &["analyse", "."]);
    let text4 = String::from_utf8_lossy(&third.stdout).to_string();
    assert!(!text4.contains("from the store"), "{text4}");
}

/// Noisy laws, so that the genetic programming searches for a while on every element.
fn slow_events(path: &Path) {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for i in 0..400 {
        let files: u64 = rng.random_range(1..=50);
        let size: u64 = rng.random_range(1..=500) * 1000;
        let noise = |rng: &mut ChaCha8Rng| 1.0 + rng.random_range(-0.1..0.1);
        let prepare = (0.3 * (files as f64).powf(1.5) + 2.0) * noise(&mut rng);
        let hash = (1e-5 * size as f64 * (files as f64).ln_1p() + 0.5) * noise(&mut rng);
        let write = (3e-6 * size as f64 + 0.02 * files as f64 + 1.0) * noise(&mut rng);
        writeln!(f, r#"{{"event":"service_call","execution":"u{i}","service":"_fs_upload_seff","parameters":{{"files.NUMBER_OF_ELEMENTS":{files},"size.VALUE":{size}}},"entry_ns":0,"exit_ns":1}}"#).unwrap();
        for (action, ms) in [("_fs_prepare", prepare), ("_fs_hash", hash), ("_fs_mail", write)] {
            let ns = (ms * 1e6) as u64;
            writeln!(f, r#"{{"event":"resource_demand","execution":"u{i}","action":"{action}","resource":"CPU","start_ns":0,"stop_ns":{ns}}}"#).unwrap();
        }
    }
}

#[test]
fn an_analysis_killed_mid_way_resumes_from_its_last_step() {
    let dir = example_copy();
    slow_events(&dir.path().join("slow.events"));
    let args = [
        "analyse",
        "FileShare.repository",
        "--events",
        "slow.events",
        "--threads",
        "1",
        "--verbose",
        "--json",
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_beagle"))
        .args(args)
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Kill (SIGKILL: no chance to clean up) once three steps are checkpointed.
    let step_of = |line: &str| -> Option<u64> {
        let step = line.strip_prefix("step ")?.split(':').next()?;
        Some(step.parse().unwrap())
    };
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut killed_after = None;
    for line in lines.by_ref() {
        if let Some(step) = step_of(&line.unwrap()) {
            if step >= 3 {
                child.kill().unwrap();
                killed_after = Some(step);
                break;
            }
        }
    }
    child.wait().unwrap();
    // The child may have gone on while this test read its line (a busy machine can leave this
    // process unscheduled for a step or more): the last step it printed before it died is what
    // it was killed after, whatever the timing.
    for line in lines {
        if let Some(step) = line.ok().as_deref().and_then(step_of) {
            killed_after = killed_after.max(Some(step));
        }
    }
    let killed_after = killed_after.expect("the analysis took at least three steps");
    let out = beagle(dir.path(), &args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let resumed = stderr
        .lines()
        .find_map(|l| {
            l.split_once("resuming run 1 from step ")
                .map(|(_, s)| s.trim().parse::<u64>().unwrap())
        })
        .unwrap_or_else(|| panic!("the second run resumes: {stderr}"));
    // At most the step in progress was lost (`step N:` is printed just before N is checkpointed).
    assert!(
        resumed + 1 >= killed_after && resumed <= killed_after,
        "killed after {killed_after}, resumed at {resumed}"
    );
    assert!(
        !stderr.contains("step 1:"),
        "the measurement step is not redone: {stderr}"
    );
    let report = json(&out);
    assert_eq!(report["results"].as_array().unwrap().len(), 3, "{report:#}");
    // One run in the store, finished; the measurements were stored once.
    let db = rusqlite::Connection::open(dir.path().join(".beagle/beagle.sqlite")).unwrap();
    let runs: Vec<(i64, String)> = db
        .prepare("SELECT id, status FROM runs")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(runs, vec![(1, "finished".to_string())]);
    let measurements: i64 = db
        .query_row("SELECT count(*) FROM measurements", [], |r| r.get(0))
        .unwrap();
    assert_eq!(measurements, 1);
}

#[test]
fn bad_input_is_named() {
    let dir = example_copy();
    let out = beagle(dir.path(), &["analyse", ".", "--component", "Nope"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("FileShare.repository: no component named or with id `Nope` (components: FileShare, Storage)"),
        "{err}"
    );
    let out = beagle(dir.path(), &["analyse", ".", "--action", "_fs_upload_start"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("`_fs_upload_start` is a StartAction"));
    std::fs::write(dir.path().join("bad.events"), "# fine\n{\"event\":\"loop\"}\n").unwrap();
    let out = beagle(dir.path(), &["analyse", ".", "--events", "bad.events"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.events:2: not a measurement event"));
    let out = beagle(dir.path(), &["analyse", "FileShare.repository"]);
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("no measurements: give --events FILE, --kieker DIR or --otel FILE"));
    std::fs::write(
        dir.path().join("unknown.events"),
        "{\"event\":\"loop\",\"execution\":\"e\",\"loop_id\":\"_nowhere\",\"count\":3}\n",
    )
    .unwrap();
    let out = beagle(dir.path(), &["analyse", ".", "--events", "unknown.events", "--json"]);
    let report = json(&out);
    let messages: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert!(messages.iter().any(|m| m.contains("`_nowhere`")), "{messages:?}");
    assert!(
        messages
            .iter()
            .any(|m| m.contains("_fs_prepare") && m.contains("no measurement tool measured it")),
        "{messages:?}"
    );
}

#[test]
fn kieker_logs_through_an_operation_mapping() {
    let dir = example_copy();
    std::fs::write(
        dir.path().join("operations.toml"),
        "[operations]\n\
         \"public static void kieker.examples.monitoring.aspectj.BookstoreStarter.main(java.lang.String[])\" = { seff = \"_fs_upload_seff\" }\n\
         \"private static int kieker.examples.monitoring.aspectj.BookstoreStarter.extractNumRequestsFromArgs(java.lang.String[])\" = { action = \"_fs_prepare\" }\n",
    )
    .unwrap();
    let log = root().join("fixtures/kieker/trace-events/kieker-20141008-101258768-UTC");
    let out = beagle(
        dir.path(),
        &[
            "analyse",
            "FileShare.repository",
            "--kieker",
            log.to_str().unwrap(),
            "--mapping",
            "operations.toml",
            "--json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{report:#}");
    assert_eq!(results[0]["element"], format!("_fs_prepare/{CPU}"));
    // One execution, 1412763178853429518 - 1412763178851719086 ns (After minus Before event time).
    assert_eq!(results[0]["samples"], 1);
    assert_eq!(results[0]["expression"], "1.710432");
    let notes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] == "info")
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert!(
        notes
            .iter()
            .any(|m| m.contains("Bookstore.searchBook()") && m.contains("mapping does not name it")),
        "{notes:?}"
    );
    // Per file: the unmapped operations, and the one execution of the mapped SEFF.
    let files = report["inputs"]["files"].as_array().unwrap();
    let unmapped: u64 = files
        .iter()
        .filter_map(|f| f["unmapped"].as_object())
        .flat_map(|u| u.iter())
        .filter(|(op, _)| op.contains("Bookstore.searchBook()"))
        .map(|(_, n)| n.as_u64().unwrap())
        .sum();
    assert!(unmapped > 0, "{files:?}");
    let executions: u64 = files.iter().map(|f| f["executions"].as_u64().unwrap()).sum();
    assert_eq!(executions, 1, "{files:?}");
    // Every other element of the model got no measurements, and says where it is.
    let unmeasured = report["inputs"]["unmeasured"].as_array().unwrap();
    let ids: Vec<&str> = unmeasured.iter().map(|u| u["element"].as_str().unwrap()).collect();
    assert!(!ids.contains(&format!("_fs_prepare/{CPU}").as_str()), "{ids:?}");
    assert!(ids.iter().any(|id| id.starts_with("_fs_compress")), "{ids:?}");
    assert!(
        unmeasured.iter().all(|u| u["line"].as_u64().is_some()),
        "{unmeasured:?}"
    );
}

/// Issue 18, point 5: per record file, what was read, skipped (and why), not read at all,
/// the executions, and records of other probes; the same from the store on a second run, and
/// from a log read whole (not streamed).
#[test]
fn each_input_file_says_what_it_gave() {
    let dir = example_copy();
    let log = dir.path().join("log");
    copy_dir(&root().join("fixtures/kieker-cipm/cipm-2018"), &log);
    let map = std::fs::read_to_string(log.join("kieker.map")).unwrap();
    std::fs::write(
        log.join("kieker.map"),
        format!("{map}$42=kieker.common.record.system.MemSwapUsageRecord\n"),
    )
    .unwrap();
    let second = log.join("kieker-20181016-120000000-UTC-002.dat");
    let mut text = std::fs::read_to_string(&second).unwrap();
    let lines = text.lines().count();
    text.push_str("$42;1539691200000000000;host;1;2;3;4;5;6\n$1;12;truncated\nnot a record\n");
    std::fs::write(&second, text).unwrap();
    // gzip by its first bytes, then broken.
    std::fs::write(
        log.join("kieker-20181016-120000000-UTC-006.gz"),
        b"\x1f\x8b\x08\x00broken",
    )
    .unwrap();
    let run = || {
        let out = beagle(
            dir.path(),
            &[
                "analyse",
                "FileShare.repository",
                "--kieker",
                "log",
                "--no-gp",
                "--json",
            ],
        );
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        json(&out)["inputs"].clone()
    };
    let inputs = run();
    let files = inputs["files"].as_array().unwrap();
    let names: Vec<&str> = files
        .iter()
        .map(|f| f["file"].as_str().unwrap().rsplit('/').next().unwrap())
        .collect();
    assert_eq!(names.len(), 6, "{names:?}");
    assert!(names[5].ends_with("006.gz"), "{names:?}");
    let executions: u64 = files.iter().map(|f| f["executions"].as_u64().unwrap()).sum();
    assert_eq!(executions, 444, "{files:?}");
    let damaged = &files[1];
    assert_eq!(damaged["skipped"], 2, "{damaged}");
    let skipped = damaged["skipped_lines"].as_array().unwrap();
    assert_eq!(skipped[0][0], lines + 2, "{damaged}");
    assert!(
        skipped[0][1].as_str().unwrap().contains("ServiceCallRecord"),
        "{damaged}"
    );
    assert_eq!(skipped[1][0], lines + 3, "{damaged}");
    assert_eq!(
        damaged["unknown"]["kieker.common.record.system.MemSwapUsageRecord"], 1,
        "{damaged}"
    );
    assert!(files[5]["unreadable"].as_str().is_some(), "{}", files[5]);
    for clean in [&files[0], &files[2], &files[3]] {
        assert!(
            clean["skipped"] == 0 && clean["records"].as_u64().unwrap() > 0,
            "{clean}"
        );
    }
    // Every element of the events example was measured.
    assert_eq!(inputs["unmeasured"].as_array().map(Vec::len), Some(0), "{inputs:#}");
    // Taken from the store: the same report.
    assert_eq!(run(), inputs);
    // Read whole (the shuffled log): the same counts per file as its records.
    let _ = std::fs::remove_dir_all(dir.path().join(".beagle"));
    let shuffled = root().join("fixtures/kieker-cipm/cipm-coarse-shuffled");
    let out = beagle(
        dir.path(),
        &[
            "analyse",
            "FileShare.repository",
            "--kieker",
            shuffled.to_str().unwrap(),
            "--no-gp",
            "--json",
        ],
    );
    let files = json(&out)["inputs"]["files"].clone();
    let files = files.as_array().unwrap();
    let executions: u64 = files.iter().map(|f| f["executions"].as_u64().unwrap()).sum();
    assert_eq!(executions, 444, "{files:?}");
    for f in files {
        let path = f["file"].as_str().unwrap();
        let lines = std::fs::read_to_string(path).unwrap().lines().count() as u64;
        assert_eq!(f["records"].as_u64().unwrap(), lines, "{f}");
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

/// Issue 18: the events example's uploads as CIPM Kieker logs (`fixtures/kieker-cipm`, built by
/// its make.py): the 2018 layout with Windows line ends, the layout with a return value,
/// shuffled over files with one timestamp per upload, gzip-compressed, and CIPM-Pipeline's later
/// layouts. Each gives the expressions the events file gives.
#[test]
fn every_cipm_layout_and_shape_gives_the_expressions_of_the_events() {
    let dir = example_copy();
    let analyse = |args: &[&str]| -> (Vec<(String, String)>, Vec<String>) {
        let mut all = vec!["analyse", "FileShare.repository", "--json", "--no-gp"];
        all.extend_from_slice(args);
        let out = beagle(dir.path(), &all);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let _ = std::fs::remove_dir_all(dir.path().join(".beagle"));
        let report = json(&out);
        let expressions = report["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["element"].as_str().unwrap().to_string(),
                    r["expression"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let notes = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["message"].as_str().unwrap().to_string())
            .collect();
        (expressions, notes)
    };
    let (events, _) = analyse(&["--events", "upload.events"]);
    assert!(events.len() >= 10, "{events:?}");
    for variant in [
        "cipm-2018",
        "cipm-return-value",
        "cipm-coarse-shuffled",
        "cipm-gzip",
        "cipm-pipeline",
    ] {
        let log = root().join("fixtures/kieker-cipm").join(variant);
        let (expressions, notes) = analyse(&["--kieker", log.to_str().unwrap()]);
        assert_eq!(expressions, events, "{variant}");
        // Logs in Kieker's write order stream, with a few executions open at a time; the
        // shuffled one is read whole.
        let streamed = notes.iter().find(|n| n.contains("streamed from"));
        if variant == "cipm-coarse-shuffled" {
            assert!(streamed.is_none(), "{notes:?}");
            assert!(
                notes.iter().any(|n| n.contains("came after their call's record")),
                "{notes:?}"
            );
        } else {
            let streamed = streamed.unwrap_or_else(|| panic!("{variant}: {notes:?}"));
            assert!(streamed.contains("records of 444 executions"), "{streamed}");
        }
    }
}

/// Issue 18: the OpenTelemetry trace of `tests/otel/app.py` (`fixtures/otel-example`, written by
/// the Python SDK) gives its documented laws: 1 ms + 0.2 ms per item, a loop over the items, the
/// large path above size 1000. (`tests/otel/run.sh` writes the trace afresh with the SDK.)
#[test]
fn an_opentelemetry_trace_gives_the_documented_laws() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["app.repository", "beagle.toml", "traces.jsonl"] {
        std::fs::copy(root().join("fixtures/otel-example").join(f), dir.path().join(f)).unwrap();
    }
    let out = beagle(dir.path(), &["analyse", ".", "--json", "--no-gp"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report = json(&out);
    let x: std::collections::BTreeMap<String, String> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["element"].as_str().unwrap().to_string(),
                r["expression"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let eval = |e: &str, name: &str, v: f64| {
        let parsed = beagle_stoex::parse(e).unwrap();
        beagle_stoex::eval_number(&parsed, &|n| (n == name).then_some(v)).unwrap()
    };
    let demand = &x[&format!("_ot_prepare/{CPU}")];
    for items in [1.0, 10.0, 30.0] {
        let (got, want) = (eval(demand, "items.NUMBER_OF_ELEMENTS", items), 1.0 + 0.2 * items);
        assert!((got - want).abs() <= 0.01 * want, "{demand} at {items}: {got}");
    }
    assert_eq!(eval(&x["_ot_per_item"], "items.NUMBER_OF_ELEMENTS", 17.0), 17.0);
    let large = &x["_ot_size/_ot_large"];
    assert_eq!(eval(large, "size.VALUE", 800.0), 0.0, "{large}");
    assert_eq!(eval(large, "size.VALUE", 1200.0), 1.0, "{large}");
    // The trace file's report: its spans, one execution per upload span, nothing skipped.
    let file = &report["inputs"]["files"][0];
    assert!(file["file"].as_str().unwrap().ends_with("traces.jsonl"), "{file}");
    let (spans, executions) = (file["records"].as_u64().unwrap(), file["executions"].as_u64().unwrap());
    assert!(executions > 0 && spans > executions, "{file}");
    assert_eq!(file["skipped"], 0, "{file}");
}

/// A Java workspace where nothing links (the file-share model over code whose classes have other
/// names, no link file): the run fails before measuring anything, and its error says, per SEFF,
/// why automatic linking found nothing, and what to do.
#[test]
fn a_workspace_where_nothing_links_says_why_per_seff() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("model")).unwrap();
    std::fs::copy(
        root().join("fixtures/fileshare/model/fileshare.repository"),
        dir.path().join("model/fileshare.repository"),
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join("src/app")).unwrap();
    std::fs::write(
        dir.path().join("src/app/Uploader.java"),
        "package app;\npublic class Uploader {\n    public int send(byte[][] files) { return files.length; }\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("beagle.toml"),
        "[model]\nrepository = \"model/fileshare.repository\"\n[java]\nsources = [\"src\"]\n[[launch]]\nname = \"send\"\nmain = \"app.Uploader\"\n",
    )
    .unwrap();
    let out = beagle(dir.path(), &["analyse", "."]);
    assert_eq!(out.status.code(), Some(2), "an error, not a run with failed points");
    let stderr = String::from_utf8_lossy(&out.stderr).replace(&dir.path().display().to_string(), "<workspace>");
    insta::assert_snapshot!(stderr);
}

/// `beagle link --suggest`: the file-share workspace's automatic links as a link file that reads
/// back (every link resolving to the code), each with its confidence; a SEFF without candidate is
/// listed with why.
#[test]
fn suggested_links_are_a_link_file_that_reads_back() {
    let dir = root().join("fixtures/fileshare");
    let out = beagle(&dir, &["link", "--suggest", "."]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut sources = beagle_java::links::Sources::new(&dir);
    let set = beagle_java::links::own::parse(&text, &dir.join("suggested.toml"), &mut sources).unwrap();
    assert!(set.problems.is_empty(), "{:?}", set.problems);
    assert_eq!(set.links.len(), text.matches("[[link]]").count());
    assert_eq!(set.links.len(), text.matches("# automatic, confidence ").count());
    for seff in [
        "_fs_upload_seff",
        "_fs_compress_seff",
        "_fs_hash_seff",
        "_fs_large_write_seff",
    ] {
        assert!(set.links.iter().any(|l| l.element == seff), "{seff} suggested");
    }
    // A workspace whose code has none of the model's classes: every SEFF named, with why.
    let empty = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(empty.path().join("model")).unwrap();
    std::fs::create_dir_all(empty.path().join("src")).unwrap();
    std::fs::copy(
        dir.join("model/fileshare.repository"),
        empty.path().join("model/fileshare.repository"),
    )
    .unwrap();
    std::fs::write(
        empty.path().join("beagle.toml"),
        "[model]\nrepository = \"model/fileshare.repository\"\n[java]\nsources = [\"src\"]\n[[launch]]\nname = \"main\"\nmain = \"app.Main\"\n",
    )
    .unwrap();
    let out = beagle(empty.path(), &["link", "--suggest"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("# _fs_upload_seff: no class named BusinessCore or like interface IUpload (affixes such as I, Impl, Bean, Adapter, Service, Default aside) under the source roots"),
        "{text}"
    );
}
