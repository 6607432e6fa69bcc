use super::*;
use crate::blackboard::{FinalExpression, Observation, ProposedExpression, Status};
use crate::events::{MeasurementEvent, Parameters};

const CPU: &str = "_oro4gG3fEdy4YaaT-RYrLQ";

fn demand() -> MeasurableElement {
    MeasurableElement::new(ElementKind::ResourceDemand {
        action: "_a".into(),
        resource: CPU.into(),
    })
}

fn loop_element() -> MeasurableElement {
    MeasurableElement::new(ElementKind::Loop { loop_id: "_l".into() })
}

fn result(element: &str, values: &[f64]) -> MeasurementResult {
    MeasurementResult {
        element: element.into(),
        observations: values
            .iter()
            .enumerate()
            .map(|(i, v)| Observation {
                run: None,
                parameters: [("n.VALUE".to_string(), i as f64)].into(),
                value: *v,
                executions: 1,
                mean: None,
            })
            .collect(),
        overflow: Vec::new(),
        thinned: 0,
        resolution: None,
    }
}

fn proposal(element: &str, stoex: &str, r2: f64) -> ProposedExpression {
    ProposedExpression {
        element: element.into(),
        analyser: "constant".into(),
        stoex: stoex.into(),
        infix: stoex.into(),
        r2,
        relative_error: 0.25,
        samples: 3,
        parameter_ranges: [("n.VALUE".to_string(), (0.0, 2.0))].into(),
        size: 1,
        depth: 1,
        variables: vec![],
        guard: None,
        predictions: vec![1.0, 2.0, f64::INFINITY],
        evidence: None,
    }
}

/// A blackboard after `step` steps: measured, one proposal per step, finals once step >= 2.
fn board(step: u64) -> Blackboard {
    let (d, l) = (demand(), loop_element());
    let mut bb = Blackboard::new([d.clone(), l.clone()]);
    bb.add_result(result(&d.id, &[1.0, 2.0, 3.0]));
    bb.add_result(result(&l.id, &[4.0, 4.0, 4.0]));
    for s in 0..step {
        bb.add_proposal(proposal(&d.id, &format!("{s}"), 0.5));
    }
    if step >= 2 {
        let p = proposal(&d.id, "n.VALUE + 1", 0.9);
        bb.finals.insert(
            d.id.clone(),
            FinalExpression {
                proposal: p,
                fitness: 0.1,
                status: Status::Preliminary,
                reasons: Vec::new(),
                fitted: None,
            },
        );
        let p = proposal(&l.id, "4", f64::NEG_INFINITY);
        bb.finals.insert(
            l.id.clone(),
            FinalExpression {
                proposal: p,
                fitness: 0.0,
                status: Status::Final,
                reasons: Vec::new(),
                fitted: None,
            },
        );
    }
    bb.private_data
        .insert("judge".into(), serde_json::json!({ "stall": step }));
    bb.spent_ms = 100 * step;
    bb
}

fn description(run_key: &str) -> RunDescription {
    RunDescription {
        run_key: run_key.into(),
        measurement_key: "m1".into(),
        repository: "/repo/model".into(),
        scope: "repository".into(),
        seed: u64::MAX - 1,
        budget_ms: Some(60_000),
    }
}

fn measurement(key: &str, tool: &str) -> StoredMeasurement {
    StoredMeasurement {
        input_key: key.into(),
        tool: tool.into(),
        summary: EventsSummary {
            events: 10,
            service_calls: 2,
            resource_demands: 4,
            loops: 2,
            branches: 2,
            parameter_changes: 0,
            probe_costs: Default::default(),
            executions: 2,
            services: 1,
            first_ns: Some(5),
            last_ns: Some(u64::MAX / 4),
        },
        results: vec![
            (demand(), result(&demand().id, &[1.0, 2.5])),
            (loop_element(), result("_l", &[3.0])),
        ],
        inputs: vec![crate::InputFile {
            records: 7,
            executions: 2,
            ..crate::InputFile::unreadable(Path::new("log/b.dat.gz"), "not gzip".into())
        }],
        notes: vec!["log: 7 records read".into()],
    }
}

fn snapshot_rows(store: &Store, run: RunId) -> Vec<u64> {
    let mut stmt = store
        .conn
        .prepare("SELECT step FROM snapshots WHERE run = ?1 ORDER BY step")
        .unwrap();
    stmt.query_map([run.0], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// A second, plain SQL connection to the store's file, as users and the language server have.
fn plain_sql(dir: &Path) -> Connection {
    Connection::open(dir.join(STORE_DIR).join(STORE_FILE)).unwrap()
}

#[test]
fn measurement_round_trip_same_key_replaces_other_key_misses() {
    let mut store = Store::open_in_memory().unwrap();
    assert_eq!(store.path(), None);
    assert_eq!(store.cached_measurement("k1").unwrap(), None);
    let m = measurement("k1", "events");
    store.save_measurement(&m).unwrap();
    assert_eq!(store.cached_measurement("k1").unwrap(), Some(m));
    let replaced = StoredMeasurement {
        summary: EventsSummary::default(),
        ..measurement("k1", "kieker")
    };
    store.save_measurement(&replaced).unwrap();
    assert_eq!(store.cached_measurement("k1").unwrap(), Some(replaced));
    assert_eq!(store.cached_measurement("k2").unwrap(), None);
    let rows: i64 = store
        .conn
        .query_row("SELECT COUNT(*) FROM measurements", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 1);
}

#[test]
fn run_lifecycle_resume_then_finish_with_results_in_plain_sql() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    assert_eq!(store.path(), Some(dir.path().join(".beagle/beagle.sqlite").as_path()));
    let desc = description("run-a");
    let run = store.start_run(&desc, &board(0)).unwrap();
    let resumable = store.unfinished_run("run-a").unwrap().unwrap();
    assert_eq!((resumable.run, resumable.step), (run, 0));
    assert_eq!(resumable.blackboard, board(0));
    for step in 1..=3 {
        store.checkpoint(run, step, &board(step)).unwrap();
    }
    let resumable = store.unfinished_run("run-a").unwrap().unwrap();
    assert_eq!(resumable.run, run);
    assert_eq!(resumable.step, 3);
    assert_eq!(resumable.blackboard, board(3));
    assert_eq!(store.latest_snapshot(run).unwrap(), Some(board(3)));
    assert_eq!(store.latest_snapshot(RunId(99)).unwrap(), None);
    // The -inf R² of a final survived the JSON snapshot.
    assert_eq!(
        resumable.blackboard.final_expressions()["_l"].proposal.r2,
        f64::NEG_INFINITY
    );
    assert_eq!(store.unfinished_run("run-b").unwrap(), None);
    assert!(store.finished_runs("m1").unwrap().is_empty());

    let done = board(4);
    store.finish_run(run, FinishReason::NoImprovement, &done).unwrap();
    assert_eq!(store.unfinished_run("run-a").unwrap(), None);
    let finished = store.finished_runs("m1").unwrap();
    assert_eq!(
        finished,
        vec![FinishedRun {
            run,
            run_key: "run-a".into(),
            reason: FinishReason::NoImprovement,
            budget_ms: Some(60_000),
            blackboard: done,
        }]
    );
    assert!(store.finished_runs("m2").unwrap().is_empty());
    assert_eq!(snapshot_rows(&store, run), vec![4]);

    let rows = store.runs().unwrap();
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(
        (row.run, row.status, row.reason),
        (run, RunStatus::Finished, Some(FinishReason::NoImprovement))
    );
    assert_eq!(
        (row.seed, row.step, row.budget_ms),
        (u64::MAX - 1, Some(4), Some(60_000))
    );
    assert_eq!(
        (row.scope.as_str(), row.repository.as_str()),
        ("repository", "/repo/model")
    );
    assert!(row.finished_at_ms.is_some());

    let conn = plain_sql(dir.path());
    let mut stmt = conn
        .prepare("SELECT element, expression FROM results ORDER BY element")
        .unwrap();
    let results: Vec<(String, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        results,
        vec![
            (format!("_a/{CPU}"), "n.VALUE + 1".to_string()),
            ("_l".to_string(), "4".to_string())
        ]
    );
    let (kind, resource, r2, status, fitness): (String, Option<String>, Option<f64>, String, f64) = conn
        .query_row(
            "SELECT kind, resource, r2, status, fitness FROM results WHERE element = '_l'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .unwrap();
    assert_eq!(
        (kind.as_str(), resource, r2, status.as_str(), fitness),
        ("loop", None, None, "final", 0.0)
    );
    let (kind, resource, r2, samples): (String, Option<String>, Option<f64>, i64) = conn
        .query_row(
            "SELECT kind, resource, r2, samples FROM results WHERE element LIKE '_a/%'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert_eq!(
        (kind.as_str(), resource.as_deref(), r2, samples),
        ("resource_demand", Some(CPU), Some(0.9), 3)
    );
    let reason: String = conn.query_row("SELECT reason FROM runs", [], |r| r.get(0)).unwrap();
    assert_eq!(reason, "no_improvement");

    // A finished run takes no more writes.
    let err = store.checkpoint(run, 5, &board(5)).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::Run {
                problem: "is finished",
                ..
            }
        ),
        "{err}"
    );
    assert!(store.finish_run(run, FinishReason::AllFinal, &board(5)).is_err());
    assert!(store
        .checkpoint(RunId(99), 1, &board(1))
        .unwrap_err()
        .to_string()
        .contains("run 99 does not exist"));
}

#[test]
fn only_the_latest_snapshot_is_kept() {
    let mut store = Store::open_in_memory().unwrap();
    let a = store.start_run(&description("a"), &board(0)).unwrap();
    let b = store.start_run(&description("b"), &board(0)).unwrap();
    assert_eq!(snapshot_rows(&store, a), vec![0]);
    for step in 1..=5 {
        store.checkpoint(a, step, &board(step)).unwrap();
        assert_eq!(snapshot_rows(&store, a), vec![step]);
    }
    // Checkpointing again at an earlier step (a resume that counts differently) still keeps one.
    store.checkpoint(a, 2, &board(2)).unwrap();
    assert_eq!(snapshot_rows(&store, a), vec![2]);
    assert_eq!(snapshot_rows(&store, b), vec![0]);
    let total: i64 = store
        .conn
        .query_row("SELECT COUNT(*) FROM snapshots", [], |r| r.get(0))
        .unwrap();
    assert_eq!(total, 2);
}

#[test]
fn reopening_the_file_sees_everything() {
    let dir = tempfile::tempdir().unwrap();
    let (run, done) = {
        let mut store = Store::open(dir.path()).unwrap();
        store.save_measurement(&measurement("m1", "events")).unwrap();
        let done = store.start_run(&description("done"), &board(0)).unwrap();
        store.finish_run(done, FinishReason::AllFinal, &board(3)).unwrap();
        let run = store.start_run(&description("open"), &board(0)).unwrap();
        store.checkpoint(run, 1, &board(1)).unwrap();
        store.checkpoint(run, 2, &board(2)).unwrap();
        (run, done)
    };
    assert!(dir.path().join(".beagle/.gitignore").exists());
    let store = Store::open(dir.path()).unwrap();
    assert_eq!(
        store.cached_measurement("m1").unwrap(),
        Some(measurement("m1", "events"))
    );
    let resumable = store.unfinished_run("open").unwrap().unwrap();
    assert_eq!(
        (resumable.run, resumable.step, resumable.blackboard),
        (run, 2, board(2))
    );
    let finished = store.finished_runs("m1").unwrap();
    assert_eq!(finished.len(), 1);
    assert_eq!((finished[0].run, finished[0].reason), (done, FinishReason::AllFinal));
    assert_eq!(finished[0].blackboard, board(3));
    let statuses: Vec<RunStatus> = store.runs().unwrap().iter().map(|r| r.status).collect();
    assert_eq!(statuses, vec![RunStatus::Finished, RunStatus::Running]);
}

#[test]
fn a_failing_checkpoint_leaves_the_previous_snapshot_intact() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let run = store.start_run(&description("a"), &board(0)).unwrap();
    store.checkpoint(run, 1, &board(1)).unwrap();
    // The checkpoint's insert succeeds and only its delete of the older snapshot fails (after the
    // new row is written): the whole step must roll back.
    plain_sql(dir.path())
        .execute_batch(
            "CREATE TRIGGER fail_delete BEFORE DELETE ON snapshots BEGIN SELECT RAISE(ABORT, 'disk on fire'); END;",
        )
        .unwrap();
    let err = store.checkpoint(run, 2, &board(2)).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("disk on fire"), "{message}");
    assert!(message.contains("beagle.sqlite"), "{message}");
    assert_eq!(snapshot_rows(&store, run), vec![1]);
    let resumable = store.unfinished_run("a").unwrap().unwrap();
    assert_eq!((resumable.step, resumable.blackboard), (1, board(1)));
    // Finishing fails the same way and leaves neither results nor a finished run behind.
    assert!(store.finish_run(run, FinishReason::AllFinal, &board(2)).is_err());
    let results: i64 = store
        .conn
        .query_row("SELECT COUNT(*) FROM results", [], |r| r.get(0))
        .unwrap();
    assert_eq!(results, 0);
    assert_eq!(store.runs().unwrap()[0].status, RunStatus::Running);
    // An insert that fails outright too.
    plain_sql(dir.path())
        .execute_batch(
            "DROP TRIGGER fail_delete; \
             CREATE TRIGGER fail_insert BEFORE INSERT ON snapshots BEGIN SELECT RAISE(ABORT, 'no space'); END;",
        )
        .unwrap();
    assert!(store.checkpoint(run, 2, &board(2)).is_err());
    assert!(store.abort_run(run, &board(2)).is_err());
    let resumable = store.unfinished_run("a").unwrap().unwrap();
    assert_eq!((resumable.step, resumable.blackboard), (1, board(1)));
    assert_eq!(store.runs().unwrap()[0].status, RunStatus::Running);
}

#[test]
fn abort_keeps_the_run_resumable() {
    let mut store = Store::open_in_memory().unwrap();
    let old = store.start_run(&description("a"), &board(0)).unwrap();
    store.finish_run(old, FinishReason::BudgetSpent, &board(1)).unwrap();
    let run = store.start_run(&description("a"), &board(0)).unwrap();
    store.checkpoint(run, 1, &board(1)).unwrap();
    let mut partial = board(1);
    partial.diagnostics.push("aborted by the user".into());
    store.abort_run(run, &partial).unwrap();
    assert_eq!(store.runs().unwrap()[1].status, RunStatus::Aborted);
    let resumable = store.unfinished_run("a").unwrap().unwrap();
    assert_eq!((resumable.run, resumable.step), (run, 1));
    assert_eq!(resumable.blackboard, partial);
    assert_eq!(snapshot_rows(&store, run), vec![1]);
    // Resuming: the next checkpoint makes it running again.
    store.checkpoint(run, 2, &board(2)).unwrap();
    assert_eq!(store.runs().unwrap()[1].status, RunStatus::Running);
    store.finish_run(run, FinishReason::AllFinal, &board(3)).unwrap();
    let finished: Vec<RunId> = store.finished_runs("m1").unwrap().iter().map(|f| f.run).collect();
    // The earlier finished run of the same analysis is superseded: compacted to its row.
    assert_eq!(finished, vec![run]);
    assert!(snapshot_rows(&store, old).is_empty());
}

#[test]
fn a_newer_schema_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    drop(Store::open(dir.path()).unwrap());
    plain_sql(dir.path()).pragma_update(None, "user_version", 7).unwrap();
    let err = Store::open(dir.path()).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::NewerSchema {
                found: 7,
                supported: 5,
                ..
            }
        ),
        "{err:?}"
    );
    let message = err.to_string();
    let file = dir.path().join(".beagle").join("beagle.sqlite");
    assert!(message.contains(&file.display().to_string()), "{message}");
    assert!(message.contains("schema version 7"), "{message}");
}

#[test]
fn an_unreadable_snapshot_names_run_step_and_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let run = store.start_run(&description("a"), &board(0)).unwrap();
    store.checkpoint(run, 7, &board(1)).unwrap();
    plain_sql(dir.path())
        .execute("UPDATE snapshots SET blackboard = '{\"elements\": 3}'", [])
        .unwrap();
    let message = store.unfinished_run("a").unwrap_err().to_string();
    assert!(message.contains("snapshot of run 1 step 7 is unreadable"), "{message}");
    assert!(message.contains("beagle.sqlite"), "{message}");
}

#[test]
fn events_summary_counts_kinds_executions_services_and_times() {
    let call = |execution: &str, service: &str, entry_ns, exit_ns| MeasurementEvent::ServiceCall {
        execution: execution.into(),
        service: service.into(),
        caller_execution: None,
        call: None,
        parameters: Parameters::new(),
        entry_ns,
        exit_ns,
    };
    let events = vec![
        call("e1", "_s1", 100, 900),
        MeasurementEvent::ResourceDemand {
            execution: "e1".into(),
            action: "_a".into(),
            resource: CPU.into(),
            start_ns: 50,
            stop_ns: 120,
        },
        MeasurementEvent::Loop {
            execution: "e1".into(),
            loop_id: "_l".into(),
            count: 3,
        },
        call("e2", "_s1", 1000, 2000),
        call("e3", "_s2", 1500, 1800),
        MeasurementEvent::Branch {
            execution: "e3".into(),
            branch: "_b".into(),
            transition: None,
        },
        MeasurementEvent::Branch {
            execution: "e4".into(),
            branch: "_b".into(),
            transition: Some("_t".into()),
        },
    ];
    assert_eq!(
        EventsSummary::of(&events),
        EventsSummary {
            events: 7,
            service_calls: 3,
            resource_demands: 1,
            loops: 1,
            branches: 2,
            parameter_changes: 0,
            probe_costs: Default::default(),
            executions: 4,
            services: 2,
            first_ns: Some(50),
            last_ns: Some(2000),
        }
    );
    assert_eq!(EventsSummary::of(&[]), EventsSummary::default());
    let untimed = EventsSummary::of(&events[2..3]);
    assert_eq!((untimed.first_ns, untimed.last_ns, untimed.executions), (None, None, 1));
}

#[test]
fn content_key_is_stable_and_length_prefixed() {
    // Fixed once: a persistent key must never change between builds or releases.
    let key = content_key(&[b"model.repository", b"launch", b""]);
    assert_eq!(key, "9fee08780b79c313f719019aa7f6faf9c582c9306c36a2d19a31a0815e7df13e");
    // The encoding: each part as its length (u64, little-endian) then its bytes.
    let mut encoded = Vec::new();
    for p in [&b"model.repository"[..], b"launch", b""] {
        encoded.extend_from_slice(&(p.len() as u64).to_le_bytes());
        encoded.extend_from_slice(p);
    }
    assert_eq!(key, blake3::hash(&encoded).to_hex().as_str());
    assert_eq!(content_key(&[b"ab", b"c"]), content_key(&[b"ab", b"c"]));
    assert_ne!(content_key(&[b"ab", b"c"]), content_key(&[b"a", b"bc"]));
    assert_ne!(content_key(&[b"abc"]), content_key(&[b"abc", b""]));
    assert_ne!(content_key(&[]), content_key(&[b""]));
    assert_eq!(content_key(&[]).len(), 64);
}

#[test]
fn finished_run_precision() {
    let bb = Blackboard::new([demand()]).with_stop_rules(StopRules {
        budget_ms: Some(10_000),
        stall_rounds: Some(5),
        min_improvement: 1e-6,
    });
    let fitness = FitnessFunction::default();
    let stop = bb.stop_rules().clone();
    let run = |reason, budget_ms| FinishedRun {
        run: RunId(1),
        run_key: "k".into(),
        reason,
        budget_ms,
        blackboard: bb.clone(),
    };
    assert!(run(FinishReason::AllFinal, None).is_at_least_as_precise_as(&fitness, &stop));
    assert!(run(FinishReason::NobodyCanContribute, None).is_at_least_as_precise_as(&fitness, &stop));
    // Stricter finality asked: an "all final" under looser thresholds is not enough.
    let stricter = FitnessFunction {
        final_relative_error: fitness.final_relative_error / 2.0,
        ..fitness.clone()
    };
    assert!(!run(FinishReason::AllFinal, None).is_at_least_as_precise_as(&stricter, &stop));
    let looser = FitnessFunction {
        final_relative_error: fitness.final_relative_error * 2.0,
        ..fitness.clone()
    };
    assert!(run(FinishReason::AllFinal, None).is_at_least_as_precise_as(&looser, &stop));
    // Graded differently: another question.
    let other = FitnessFunction {
        size_weight: fitness.size_weight + 1.0,
        ..fitness.clone()
    };
    assert!(!run(FinishReason::AllFinal, None).is_at_least_as_precise_as(&other, &stop));
    // Budget spent: enough only for at most that budget.
    let budget = |b| StopRules {
        budget_ms: b,
        ..stop.clone()
    };
    let spent = run(FinishReason::BudgetSpent, Some(10_000));
    assert!(spent.is_at_least_as_precise_as(&fitness, &budget(Some(10_000))));
    assert!(spent.is_at_least_as_precise_as(&fitness, &budget(Some(5_000))));
    assert!(!spent.is_at_least_as_precise_as(&fitness, &budget(Some(20_000))));
    assert!(!spent.is_at_least_as_precise_as(&fitness, &budget(None)));
    // No improvement: enough when it waited at least as long.
    let stalled = run(FinishReason::NoImprovement, Some(10_000));
    let stall = |s| StopRules {
        stall_rounds: s,
        ..stop.clone()
    };
    assert!(stalled.is_at_least_as_precise_as(&fitness, &stall(Some(3))));
    assert!(!stalled.is_at_least_as_precise_as(&fitness, &stall(Some(8))));
    assert!(!stalled.is_at_least_as_precise_as(&fitness, &stall(None)));
}

const CRASH_DIR: &str = "BEAGLE_STORE_CRASH_CHILD_DIR";

/// The child of [`a_killed_process_resumes_from_its_last_checkpoint`]: checkpoints until killed.
#[test]
#[ignore = "run by a_killed_process_resumes_from_its_last_checkpoint"]
fn crash_child() {
    let Some(dir) = std::env::var_os(CRASH_DIR) else {
        return;
    };
    let mut store = Store::open(Path::new(&dir)).unwrap();
    let run = store.start_run(&description("crash"), &board(0)).unwrap();
    for step in 1.. {
        store.checkpoint(run, step, &board(step)).unwrap();
    }
}

#[test]
fn a_killed_process_resumes_from_its_last_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "store::tests::crash_child", "--ignored", "--test-threads=1"])
        .env(CRASH_DIR, dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let step = dir
            .path()
            .join(STORE_DIR)
            .join(STORE_FILE)
            .exists()
            .then(|| Store::open(dir.path()).ok())
            .flatten()
            .and_then(|s| s.runs().ok())
            .and_then(|runs| runs.first().and_then(|r| r.step));
        if step.is_some_and(|s| s >= 20) {
            break;
        }
        assert!(child.try_wait().unwrap().is_none(), "the child stopped by itself");
        assert!(std::time::Instant::now() < deadline, "the child made no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL: no destructor, no rollback, mid-write at any point
    child.wait().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let ok: String = store
        .conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    let resumable = store.unfinished_run("crash").unwrap().unwrap();
    assert!(resumable.step >= 20, "{}", resumable.step);
    assert_eq!(resumable.blackboard, board(resumable.step));
    let run = resumable.run;
    assert_eq!(snapshot_rows(&store, run), vec![resumable.step]);
}

#[test]
fn a_finished_run_compacts_the_earlier_runs_of_its_analysis_only() {
    let mut store = Store::open_in_memory().unwrap();
    // An aborted and a finished run of key "k", a finished run of key "other", one running "k".
    let aborted = store.start_run(&description("k"), &board(1)).unwrap();
    store.abort_run(aborted, &board(1)).unwrap();
    let first = store.start_run(&description("k"), &board(0)).unwrap();
    store.finish_run(first, FinishReason::AllFinal, &board(2)).unwrap();
    let other = store.start_run(&description("other"), &board(0)).unwrap();
    store.finish_run(other, FinishReason::AllFinal, &board(2)).unwrap();
    let running = store.start_run(&description("k"), &board(0)).unwrap();
    let second = store.start_run(&description("k"), &board(0)).unwrap();
    store.checkpoint(second, 1, &board(1)).unwrap();
    store.finish_run(second, FinishReason::AllFinal, &board(2)).unwrap();

    for gone in [aborted, first] {
        assert!(snapshot_rows(&store, gone).is_empty(), "run {gone:?} kept its snapshot");
        assert_eq!(store.latest_snapshot(gone).unwrap(), None);
    }
    assert_eq!(snapshot_rows(&store, second).len(), 1);
    assert_eq!(
        snapshot_rows(&store, other).len(),
        1,
        "another analysis keeps its blackboard"
    );
    assert_eq!(snapshot_rows(&store, running).len(), 1, "a running one is not touched");
    // The history stays: every run's row, and the superseded run's results.
    assert_eq!(store.runs().unwrap().len(), 5);
    let first_results: i64 = store
        .conn
        .query_row("SELECT COUNT(*) FROM results WHERE run = ?1", [first.0], |r| r.get(0))
        .unwrap();
    assert_eq!(first_results, 2);
    // The finished runs that can still be reused: the newest of "k" and "other".
    let ids: Vec<RunId> = store.finished_runs("m1").unwrap().iter().map(|f| f.run).collect();
    assert_eq!(ids, vec![second, other]);
}

#[test]
fn a_version_1_store_gains_the_input_files_table_and_keeps_its_measurements() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(dir.path()).unwrap();
    let old = StoredMeasurement {
        inputs: Vec::new(),
        notes: Vec::new(),
        ..measurement("m-old", "kieker")
    };
    store.save_measurement(&old).unwrap();
    drop(store);
    // As version 1 left it: no table of input files.
    let conn = plain_sql(dir.path());
    // (Nor the later steps' validations, probe costs and section counts.)
    conn.execute_batch(
        "DROP TABLE measurement_inputs; DROP TABLE validations; ALTER TABLE measurements DROP COLUMN probe_costs; \
         DROP TABLE section_counts",
    )
    .unwrap();
    conn.pragma_update(None, "user_version", 1).unwrap();
    drop(conn);
    let mut store = Store::open(dir.path()).unwrap();
    assert_eq!(store.cached_measurement("m-old").unwrap(), Some(old));
    let new = measurement("m-new", "kieker");
    store.save_measurement(&new).unwrap();
    assert_eq!(store.cached_measurement("m-new").unwrap(), Some(new));
    let version: i64 = plain_sql(dir.path())
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
}

#[test]
fn the_latest_validation_of_each_service_is_kept_and_read_back() {
    use crate::validation::{Row, ServiceValidation};
    let mut store = Store::open_in_memory().unwrap();
    let v = |seff: &str, median: f64| ServiceValidation {
        repository: "/r.repository".into(),
        service: format!("C.{seff}"),
        seff: seff.into(),
        points: 1,
        median_relative_error: median,
        max_relative_error: median,
        rows: vec![Row {
            inputs: [("n.VALUE".to_string(), 3.0)].into(),
            predicted_ms: 1.0,
            measured_ms: 1.0 + median,
            executions: 2,
        }],
        problems: vec![],
        notes: vec![],
        unmodelled: None,
        calibration: None,
    };
    store.save_validation("/r.repository", &v("_a", 0.3)).unwrap();
    store.save_validation("/r.repository", &v("_a", 0.05)).unwrap();
    store.save_validation("/r.repository", &v("_b", 0.1)).unwrap();
    store.save_validation("/other.repository", &v("_a", 0.9)).unwrap();
    let latest = store.latest_validations("/r.repository").unwrap();
    assert_eq!(latest.len(), 2);
    assert_eq!(latest["_a"].0, v("_a", 0.05));
    assert_eq!(latest["_b"].0, v("_b", 0.1));
    assert!(store.latest_validations("/none").unwrap().is_empty());
}

#[test]
fn a_measurements_probe_costs_are_kept_and_read_back() {
    let mut store = Store::open_in_memory().unwrap();
    let mut m = measurement("m-probe", "java");
    m.summary.probe_costs.insert(
        "_compress".into(),
        crate::ProbeCost {
            runs: 40,
            net_ns: 6_219_013,
            subtracted_ns: 10_122,
            noise_ns: 3,
        },
    );
    store.save_measurement(&m).unwrap();
    assert_eq!(store.cached_measurement("m-probe").unwrap(), Some(m));
}

#[test]
fn section_counts_are_kept_per_repository_and_action_the_latest_winning() {
    use crate::section_counts::{CountLaw, SectionCounts};
    let mut store = Store::open_in_memory().unwrap();
    let counts = |action: &str, stoex: &str| SectionCounts {
        action: action.into(),
        name: action.into(),
        laws: [(
            "int-mul".to_string(),
            CountLaw {
                stoex: stoex.into(),
                is_final: true,
                r2: f64::NAN, // a constant count: no R² (stored as null, read back as NaN)
            },
        )]
        .into(),
        points: 8,
        factor: None,
    };
    store
        .save_section_counts("model/a.repository", &[counts("_x", "1"), counts("_y", "2")])
        .unwrap();
    store
        .save_section_counts("model/a.repository", &[counts("_x", "data.BYTESIZE")])
        .unwrap();
    store
        .save_section_counts("model/b.repository", &[counts("_z", "3")])
        .unwrap();
    let a = store.section_counts("model/a.repository").unwrap();
    assert_eq!(a.len(), 2);
    assert_eq!(a["_x"].laws["int-mul"].stoex, "data.BYTESIZE");
    assert_eq!(a["_y"].laws["int-mul"].stoex, "2");
    assert!(a["_y"].laws["int-mul"].r2.is_nan());
    assert!(store.section_counts("model/c.repository").unwrap().is_empty());
}
