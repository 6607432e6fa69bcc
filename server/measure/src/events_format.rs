//! The Beagle events format: measurements from any language's instrumentation, without Kieker.
//!
//! A UTF-8 text file with one [`MeasurementEvent`] per line as a JSON object, in time order. Blank
//! lines and lines starting with `#` (after optional whitespace) are ignored. The `event` field
//! names the kind; times are nanoseconds (any epoch, the same for the whole file); ids are the PCM
//! model's ids; parameters are characterised names `<parameter>.<VALUE|BYTESIZE|NUMBER_OF_ELEMENTS|
//! STRUCTURE|TYPE>` with numeric values. Events of one SEFF execution share `execution`; a call
//! made by an `ExternalCallAction` names that action (`call`) and the caller's execution.
//!
//! ```text
//! # one execution of SEFF _seff1 with 12 files, calling _seff2 from external call _call1
//! {"event":"service_call","execution":"e1","service":"_seff1","parameters":{"files.NUMBER_OF_ELEMENTS":12.0},"entry_ns":1000,"exit_ns":9000}
//! {"event":"resource_demand","execution":"e1","action":"_action1","resource":"_oro4gG3fEdy4YaaT-RYrLQ","start_ns":1100,"stop_ns":4100}
//! {"event":"loop","execution":"e1","loop_id":"_loop1","count":12}
//! {"event":"branch","execution":"e1","branch":"_branch1","transition":"_transition2"}
//! {"event":"service_call","execution":"e2","service":"_seff2","caller_execution":"e1","call":"_call1","parameters":{"size.BYTESIZE":4096.0},"entry_ns":5000,"exit_ns":8000}
//! ```
//!
//! Optional fields: `caller_execution`, `call` and `parameters` of a service call, `transition` of
//! a branch (absent: no transition ran).
//!
//! Aggregate events: a probe or exporter that sees an element run many times in one execution
//! (an action in a hot loop) may report totals instead of one event per run. Beagle turns the
//! demands of an action in one execution into one observation (their mean) either way, so the
//! results are the same; the file is smaller by the loop's length.
//!
//! ```text
//! # 2000 runs of _action1 in execution e1, 9.1 ms of CPU in all
//! {"event":"resource_demand_total","execution":"e1","action":"_action1","resource":"CPU","count":2000,"total_ns":9100000}
//! # _loop2 ran 40 times in e1, 1200 iterations in all
//! {"event":"loop_total","execution":"e1","loop_id":"_loop2","executions":40,"iterations":1200}
//! # _branch1 decided 40 times in e1: 30 times _t1, 6 times _t2, 4 times neither
//! {"event":"branch_total","execution":"e1","branch":"_branch1","transitions":{"_t1":30,"_t2":6},"not_taken":4}
//! ```

use beagle_analysis::MeasurementEvent;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why an events file could not be read; a bad line names the file and its 1-based line.
#[derive(Debug, thiserror::Error)]
pub enum EventsError {
    #[error("{}: cannot read: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}:{line}: not a measurement event: {message}", path.display())]
    Line {
        path: PathBuf,
        line: usize,
        message: String,
    },
}

/// Parses events text; `path` only names the source in errors. All or nothing.
pub fn parse_events(text: &str, path: &Path) -> Result<Vec<MeasurementEvent>, EventsError> {
    let mut events = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let event = serde_json::from_str(trimmed).map_err(|e| EventsError::Line {
            path: path.to_path_buf(),
            line: i + 1,
            message: e.to_string(),
        })?;
        events.push(event);
    }
    Ok(events)
}

/// Reads an events file.
pub fn read_events(path: &Path) -> Result<Vec<MeasurementEvent>, EventsError> {
    let mut events = Vec::new();
    for_each_event(path, |e| events.push(e))?;
    Ok(events)
}

/// Streams an events file through `f`, one event at a time in file order: memory does not grow
/// with the file. On a bad line it stops with the error (events before it were given to `f`: the
/// caller discards what it built, all or nothing).
pub fn for_each_event(path: &Path, mut f: impl FnMut(MeasurementEvent)) -> Result<(), EventsError> {
    use std::io::BufRead;
    let io = |source| EventsError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
    let mut line = String::new();
    let mut number = 0;
    loop {
        line.clear();
        if reader.read_line(&mut line).map_err(io)? == 0 {
            return Ok(());
        }
        number += 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let event = serde_json::from_str(trimmed).map_err(|e| EventsError::Line {
            path: path.to_path_buf(),
            line: number,
            message: e.to_string(),
        })?;
        f(event);
    }
}

/// Writes events one per line (no comments), readable by [`read_events`].
pub fn write_events<W: Write>(out: &mut W, events: &[MeasurementEvent]) -> std::io::Result<()> {
    for e in events {
        serde_json::to_writer(&mut *out, e)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}
