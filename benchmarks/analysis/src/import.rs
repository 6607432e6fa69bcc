//! Import speed: Beagle's readers on the generated inputs, best of N runs. Each run reads the file
//! from disk (the page cache after the first run) and builds everything; dropping the result is
//! outside the clock.

use crate::generate::oer_mapping;
use beagle_measure::{convert, events_format::read_events, read_log, MeasurementEvent, OperationMapping};
use serde_json::{json, Value};
use std::path::Path;
use std::time::Instant;

fn seconds(runs: &[f64]) -> (f64, f64) {
    let mut sorted = runs.to_vec();
    sorted.sort_by(f64::total_cmp);
    (sorted[0], sorted[sorted.len() / 2])
}

fn bytes_of(paths: &[std::path::PathBuf]) -> u64 {
    paths
        .iter()
        .map(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
        .sum()
}

/// `read_events` on the events file, and the same lines into untyped `serde_json::Value`s (a
/// reference point inside Rust: what the typed, internally tagged events cost over plain JSON).
pub fn events(file: &Path, runs: usize) -> Vec<Value> {
    let bytes = std::fs::metadata(file).expect("events file").len();
    let mut times = Vec::new();
    let mut count = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let events = read_events(file).expect("generated events are valid");
        times.push(t.elapsed().as_secs_f64());
        count = events.len();
        drop(events);
    }
    let (best, median) = seconds(&times);
    let ours = json!({
        "bench": "events", "impl": "beagle read_events", "peer": false, "events": count,
        "bytes": bytes, "runs_s": times, "best_s": best, "median_s": median,
    });
    let mut times = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let text = std::fs::read_to_string(file).expect("events file");
        let values: Vec<Value> = text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .map(|l| serde_json::from_str(l).expect("JSON line"))
            .collect();
        times.push(t.elapsed().as_secs_f64());
        assert_eq!(values.len(), count);
        drop(values);
    }
    let (best, median) = seconds(&times);
    let untyped = json!({
        "bench": "events", "impl": "serde_json::Value per line (untyped, reference)", "peer": false,
        "events": count, "bytes": bytes, "runs_s": times, "best_s": best, "median_s": median,
    });
    vec![ours, untyped]
}

/// `read_log` then `convert` on a Kieker directory; `kind` is `cipm` (no mapping needed) or `oer`
/// (the generator's operation mapping). With `same_as`, checks once, outside the clock, that the
/// conversion gives exactly the events of that events file.
pub fn kieker(dir: &Path, kind: &str, runs: usize, same_as: Option<&Path>) -> Value {
    let mapping = match kind {
        "oer" => oer_mapping(),
        _ => OperationMapping::new(),
    };
    let mut totals = Vec::new();
    let mut reads = Vec::new();
    let mut converts = Vec::new();
    let mut records = 0;
    let mut events = 0;
    let mut files = Vec::new();
    let mut unmapped = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let log = read_log(dir).expect("generated log is valid");
        let read = t.elapsed().as_secs_f64();
        let t2 = Instant::now();
        let (evs, report) = convert(&log, &mapping);
        let conv = t2.elapsed().as_secs_f64();
        totals.push(read + conv);
        reads.push(read);
        converts.push(conv);
        records = log.records.len();
        events = evs.len();
        files = log.files.clone();
        unmapped = report.unmapped_operations.values().sum::<usize>();
        assert!(log.unknown_classes.is_empty());
        if let Some(path) = same_as.filter(|_| totals.len() == 1) {
            let expected: Vec<MeasurementEvent> = read_events(path).expect("events file");
            assert!(expected == evs, "the CIPM log converts to the events file's events");
        }
        drop((log, evs));
    }
    let (best, median) = seconds(&totals);
    let (best_read, _) = seconds(&reads);
    let (best_convert, _) = seconds(&converts);
    // Records per line include the metadata record, as the peers count lines.
    json!({
        "bench": format!("kieker-{kind}"), "impl": "beagle read_log + convert", "peer": false,
        "records": records, "events": events, "unmapped_executions": unmapped, "files": files.len(),
        "bytes": bytes_of(&files), "runs_s": totals, "best_s": best, "median_s": median,
        "best_read_log_s": best_read, "best_convert_s": best_convert,
    })
}
