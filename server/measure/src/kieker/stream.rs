//! Streaming import of CIPM logs: memory bounded by the executions still open, not by the
//! records of the log.
//!
//! Kieker writes a record when its monitored code ends, so a call's `ServiceCallRecord` comes
//! after everything recorded in the call, and a callee's before its caller's. Records wait in
//! the group of their execution until its call record arrives; a callee's group waits in its
//! caller's, since the parameters it was called with are observed in the caller's context. When
//! a call without a caller (an entry into the system) arrives, its whole tree is handed on in
//! the order the analysis reads (a call, what happened in it, its callees) and forgotten, each
//! execution closed with [`Streamed::Ended`].
//!
//! A log not in that order (records of a call after the call's own record: shuffled or merged
//! files) leaves records behind at its end: [`stream_log`] then says so
//! ([`StreamError::NotInWriteOrder`]) and the caller reads the log whole
//! ([`super::read_log`] and [`crate::convert`], which need no order). Logs with Kieker's standard
//! operation records need their whole traces and are not streamed either
//! ([`StreamError::NeedsWholeLog`]).

use super::{parse_dat_line, parse_map, DatLine, KiekerError, SkippedLine};
use beagle_analysis::inputs::InputFile;
use beagle_analysis::MeasurementEvent;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// What the stream hands on.
#[derive(Clone, Debug, PartialEq)]
pub enum Streamed {
    Event(MeasurementEvent),
    /// Nothing more comes for this execution.
    Ended(String),
}

/// Why a log was not streamed.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    #[error(transparent)]
    Kieker(#[from] KiekerError),
    #[error("{0}: Kieker's operation records need whole traces: read the log whole")]
    NeedsWholeLog(PathBuf),
    #[error("{records} records of {executions} executions came after their call's record: read the log whole")]
    NotInWriteOrder { records: usize, executions: usize },
}

/// Damaged lines kept in [`StreamReport::skipped`]; [`StreamReport::inputs`] counts all.
pub const SKIPPED_KEPT: usize = 100;

/// What was streamed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StreamReport {
    pub files: Vec<PathBuf>,
    pub records: usize,
    pub executions: usize,
    /// The first [`SKIPPED_KEPT`] damaged lines.
    pub skipped: Vec<SkippedLine>,
    pub unreadable: Vec<(PathBuf, String)>,
    pub unknown_classes: BTreeMap<String, usize>,
    pub layouts: BTreeMap<String, usize>,
    /// Most executions open at once: what the memory grew with.
    pub most_open: usize,
    /// What each record file gave, in [`StreamReport::files`] order.
    pub inputs: Vec<InputFile>,
}

/// An execution waiting for its call record.
#[derive(Default)]
struct Group {
    call: Option<MeasurementEvent>,
    events: Vec<MeasurementEvent>,
    callees: Vec<String>,
}

/// Streams the CIPM log in folder `dir` into `sink` (module documentation).
pub fn stream_log(dir: &Path, sink: &mut dyn FnMut(Streamed)) -> Result<StreamReport, StreamError> {
    let map_path = dir.join("kieker.map");
    if !dir.is_dir() || !map_path.is_file() {
        return Err(StreamError::NeedsWholeLog(dir.to_path_buf()));
    }
    let map_text = std::fs::read_to_string(&map_path).map_err(|source| KiekerError::Io {
        path: map_path.clone(),
        source,
    })?;
    let map = parse_map(&map_text).map_err(|(line, problem)| KiekerError::Line {
        file: map_path.clone(),
        line,
        problem,
    })?;
    let whole = [
        "OperationExecutionRecord",
        "BeforeOperationEvent",
        "AfterOperationEvent",
        "TraceMetadata",
    ];
    if map.values().any(|c| whole.contains(&c.rsplit('.').next().unwrap_or(c))) {
        return Err(StreamError::NeedsWholeLog(dir.to_path_buf()));
    }
    let files = super::record_files(dir)?;
    let mut report = StreamReport {
        files: files.clone(),
        ..StreamReport::default()
    };
    let mut open: HashMap<String, Group> = HashMap::new();
    for file in &files {
        // One file at a time (Kieker rotates at 25,000 records).
        let text = super::record_text(file);
        let text = match text {
            Ok(t) => t,
            Err(e) => {
                report.inputs.push(InputFile::unreadable(file, e.to_string()));
                report.unreadable.push((file.clone(), e.to_string()));
                continue;
            }
        };
        report.inputs.push(InputFile::new(file));
        let input = report.inputs.last_mut().expect("just pushed");
        for (i, line) in text.lines().enumerate() {
            let record = match parse_dat_line(line, &map) {
                Ok(DatLine::Record(r)) => r,
                Ok(DatLine::Empty) => continue,
                Ok(DatLine::Unknown(class)) => {
                    *input.unknown.entry(class.clone()).or_default() += 1;
                    *report.unknown_classes.entry(class).or_default() += 1;
                    continue;
                }
                Err(problem) => {
                    input.skip(i + 1, problem.to_string());
                    // Bounded: the first lines named, the rest counted per file.
                    if report.skipped.len() < SKIPPED_KEPT {
                        report.skipped.push(SkippedLine {
                            file: file.clone(),
                            line: i + 1,
                            problem,
                        });
                    }
                    continue;
                }
            };
            input.records += 1;
            report.records += 1;
            *report.layouts.entry(record.layout.to_string()).or_default() += 1;
            let Some((_, event)) = crate::convert::cipm_event(record) else {
                continue;
            };
            if let MeasurementEvent::ServiceCall {
                execution,
                caller_execution,
                ..
            } = &event
            {
                report.executions += 1;
                input.executions += 1;
                let (execution, caller) = (execution.clone(), caller_execution.clone());
                open.entry(execution.clone()).or_default().call = Some(event);
                match caller {
                    Some(c) => open.entry(c).or_default().callees.push(execution),
                    None => hand_on(&execution, &mut open, sink),
                }
                report.most_open = report.most_open.max(open.len());
                continue;
            }
            let execution = event.execution().to_string();
            open.entry(execution).or_default().events.push(event);
            report.most_open = report.most_open.max(open.len());
        }
    }
    if !open.is_empty() {
        let records = open
            .values()
            .map(|g| g.events.len() + usize::from(g.call.is_some()))
            .sum();
        return Err(StreamError::NotInWriteOrder {
            records,
            executions: open.len(),
        });
    }
    if report.records == 0 {
        if let Some(first) = report.skipped.first() {
            return Err(StreamError::Kieker(KiekerError::Line {
                file: first.file.clone(),
                line: first.line,
                problem: first.problem.clone(),
            }));
        }
    }
    Ok(report)
}

/// Hands on the tree of `execution` (its call, its events, its callees' trees) and forgets it.
fn hand_on(execution: &str, open: &mut HashMap<String, Group>, sink: &mut dyn FnMut(Streamed)) {
    let mut stack = vec![(execution.to_string(), false)];
    // Depth first: a call, its events, its callees, then its end (the callees' call parameters
    // are observed in its context, which ends with it).
    while let Some((x, done)) = stack.pop() {
        if done {
            sink(Streamed::Ended(x));
            continue;
        }
        let Some(group) = open.remove(&x) else { continue };
        let Some(call) = group.call else {
            // A callee whose call record is still to come: keep waiting for it.
            open.insert(x, Group { call: None, ..group });
            continue;
        };
        sink(Streamed::Event(call));
        for e in group.events {
            sink(Streamed::Event(e));
        }
        stack.push((x, true));
        for callee in group.callees.into_iter().rev() {
            stack.push((callee, false));
        }
    }
}
