//! RESULTS.md from the JSON lines of one run (ours and the peers').

use crate::machine;
use serde_json::Value;
use std::fmt::Write;

fn f(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or(f64::NAN)
}

fn s(v: &Value, key: &str) -> String {
    v[key].as_str().unwrap_or("?").to_string()
}

/// `1234567.0` -> `1.23 M`, `45678.0` -> `45.7 k`.
fn rate(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1} k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

fn time(secs: f64) -> String {
    if secs >= 1.0 {
        format!("{secs:.2} s")
    } else if secs >= 1e-3 {
        format!("{:.1} ms", secs * 1e3)
    } else {
        format!("{:.0} µs", secs * 1e6)
    }
}

fn signed_time(secs: f64) -> String {
    if secs < 0.0 {
        format!("-{}", time(-secs))
    } else {
        time(secs)
    }
}

pub fn render(results: &str, python: &str) -> String {
    let lines: Vec<Value> = results
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a JSON result line"))
        .collect();
    let m = machine::describe();
    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(w, "# Import speed and analysis-loop overhead: results\n");
    let _ = writeln!(
        w,
        "Produced by `benchmarks/analysis/run.sh` (see README.md for what is measured); the JSON lines \
         are in `results/results.jsonl`. Ours and the peers ran in the same run, one after the other.\n"
    );
    let _ = writeln!(w, "- Date: {}", m.date);
    let _ = writeln!(
        w,
        "- CPU: {} ({} cores; every measurement is single-threaded)",
        m.cpu, m.cores
    );
    let _ = writeln!(w, "- Compiler: {}, release profile", m.rustc);
    let _ = writeln!(w, "- Peers' interpreter: {python}");
    let runs = lines
        .iter()
        .find_map(|l| l["runs_s"].as_array().map(Vec::len))
        .unwrap_or(0);
    let _ = writeln!(
        w,
        "- Time: wall clock, best of {runs} runs for the imports (all runs and the median are in the \
         JSON lines); an import run reads the file(s) from the page cache and builds everything; \
         freeing the result is outside the clock."
    );

    events_table(w, &lines);
    kieker_tables(w, &lines);
    loop_table(w, &lines);
    out
}

fn events_table(w: &mut String, lines: &[Value]) {
    let rows: Vec<&Value> = lines.iter().filter(|l| l["bench"] == "events").collect();
    let Some(ours) = rows.iter().find(|l| l["impl"] == "beagle read_events") else {
        return;
    };
    let _ = writeln!(w, "\n## 1. Import, Beagle events format\n");
    let _ = writeln!(
        w,
        "{} events (one JSON object per line), {:.1} MB. \"Beagle / reader\" is Beagle's events per \
         second divided by the reader's.\n",
        ours["events"],
        f(ours, "bytes") / 1e6
    );
    let _ = writeln!(w, "| reader | best | events/s | MB/s | Beagle / reader |");
    let _ = writeln!(w, "|---|---:|---:|---:|---:|");
    for r in &rows {
        let eps = f(r, "events") / f(r, "best_s");
        let _ = writeln!(
            w,
            "| {}{} | {} | {} | {:.0} | {:.2}x |",
            s(r, "impl"),
            if r["peer"] == true { " (peer)" } else { "" },
            time(f(r, "best_s")),
            rate(eps),
            f(r, "bytes") / 1e6 / f(r, "best_s"),
            f(r, "best_s") / f(ours, "best_s"),
        );
    }
}

fn kieker_tables(w: &mut String, lines: &[Value]) {
    for (kind, title) in [
        (
            "kieker-cipm",
            "2a. Import, Kieker text log: CIPM records (ServiceCall, ResponseTime, Loop, Branch)",
        ),
        (
            "kieker-oer",
            "2b. Import, Kieker text log: OperationExecutionRecords with an operation mapping",
        ),
    ] {
        let rows: Vec<&Value> = lines.iter().filter(|l| l["bench"] == kind).collect();
        let Some(ours) = rows.iter().find(|l| l["peer"] == false) else {
            continue;
        };
        let _ = writeln!(w, "\n## {title}\n");
        let _ = writeln!(
            w,
            "{} records in {} `.dat` files, {:.1} MB; Beagle's conversion gives {} events{}. \
             Records per second count every line (the metadata record too). Beagle's best run: \
             `read_log` {} + `convert` {}.\n",
            ours["records"],
            ours["files"],
            f(ours, "bytes") / 1e6,
            ours["events"],
            match ours["unmapped_executions"].as_u64() {
                Some(n) if n > 0 => format!(" ({n} executions of unmapped operations counted, not converted)"),
                _ => String::new(),
            },
            time(f(ours, "best_read_log_s")),
            time(f(ours, "best_convert_s")),
        );
        let _ = writeln!(w, "| reader | best | records/s | events/s | MB/s | Beagle / reader |");
        let _ = writeln!(w, "|---|---:|---:|---:|---:|---:|");
        for r in &rows {
            let records = f(r, "records") / f(r, "best_s");
            let events = if r["peer"] == true {
                "-".to_string()
            } else {
                rate(f(r, "events") / f(r, "best_s"))
            };
            let _ = writeln!(
                w,
                "| {}{} | {} | {} | {} | {:.0} | {:.2}x |",
                s(r, "impl"),
                if r["peer"] == true { " (peer)" } else { "" },
                time(f(r, "best_s")),
                rate(records),
                events,
                f(ours, "bytes") / 1e6 / f(r, "best_s"),
                f(r, "best_s") / f(ours, "best_s"),
            );
        }
    }
}

fn loop_table(w: &mut String, lines: &[Value]) {
    let rows: Vec<&Value> = lines.iter().filter(|l| l["bench"] == "loop").collect();
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(w, "\n## 3. The analysis loop's own overhead\n");
    let _ = writeln!(
        w,
        "`analyse` from a fresh blackboard against the peer \"direct\": `results_from_events`, \
         `dataset()` and the same analysis called straight per element, with the same options; no \
         blackboard, loop or judge. Runs alternate between the two; best of the runs. Fitting:\n\n\
         - `constant`: the loop with the constant analyser alone against a median per dataset: the \
         loop's machinery with next to no analysis (measurement step, views, private data, proposals \
         with predictions and quality, the judge after every step);\n\
         - `regression`: `Tools::standard` (constant, fit, averaging analysers) with the fitting \
         engine's regression only, against `fit`/`fit_branch`;\n\
         - `no-gp`: `Tools::standard` with the options of `beagle fit --no-gp` (regression, \
         thresholds, MARS), against `fit`/`fit_branch`.\n\n\
         Snapshot: the final blackboard (the largest of the run) to JSON and back with `serde_json`, \
         an upper bound of one per-step snapshot; \"snapshots / loop\" is steps x that round trip \
         divided by the loop's time, what writing a snapshot after every step would add. \"exact \
         round trip\": whether the blackboard read back equals the one written.\n"
    );
    let _ = writeln!(
        w,
        "| fitting | runs | elements | events | samples/element | steps | outcome | loop (best) | direct (best) | **loop / direct** | (loop - direct) / step | snapshot | round trip | snapshots / loop | exact round trip |"
    );
    let _ = writeln!(
        w,
        "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---|"
    );
    for r in rows {
        let steps = f(r, "steps");
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {} | {} | {} ({} final) | {} | {} | **{:.2}x** | {} | {:.0} KiB | {} | {:.2}x | {} |",
            s(r, "config"),
            r["loop_runs_s"].as_array().map_or(0, Vec::len),
            r["elements"],
            r["events"],
            r["executions_per_service"],
            r["steps"],
            s(r, "outcome"),
            r["final_elements"],
            time(f(r, "loop_best_s")),
            time(f(r, "direct_best_s")),
            f(r, "loop_best_s") / f(r, "direct_best_s"),
            signed_time((f(r, "loop_best_s") - f(r, "direct_best_s")) / steps),
            f(r, "snapshot_bytes") / 1024.0,
            time(f(r, "snapshot_roundtrip_best_s")),
            steps * f(r, "snapshot_roundtrip_best_s") / f(r, "loop_best_s"),
            if r["snapshot_exact"] == true { "yes" } else { "**no**" },
        );
    }
}
