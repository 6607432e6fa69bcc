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
    let text = std::fs::read_to_string(path).map_err(|source| EventsError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_events(&text, path)
}

/// Writes events one per line (no comments), readable by [`read_events`].
pub fn write_events<W: Write>(out: &mut W, events: &[MeasurementEvent]) -> std::io::Result<()> {
    for e in events {
        serde_json::to_writer(&mut *out, e)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}
