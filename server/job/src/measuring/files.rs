//! The measurements an analysis uses when they come from files (the Beagle events format,
//! Kieker, OpenTelemetry): read once, turned into results per element ([`Measured`]), and kept in
//! the store under a key of their inputs, so that re-analysis of unchanged inputs reads nothing.

use crate::error::JobError;
use crate::measuring::measured::Measured;
use crate::workspace::Source;
use beagle_analysis::{
    content_key, file_key, EventDigest, EventsSummary, InputFile, MeasurableElement, MeasurementResult, ResultOptions,
    Store, StoredMeasurement, SummaryBuilder,
};
use beagle_measure::{convert, read_log, read_mapping, OperationMapping};
use std::path::{Path, PathBuf};

fn read(path: &Path) -> Result<Vec<u8>, JobError> {
    std::fs::read(path).map_err(JobError::unreadable(path))
}

/// A file's content key, read in chunks ([`file_key`]).
fn hashed(path: &Path) -> Result<String, JobError> {
    file_key(path).map_err(JobError::unreadable(path))
}

/// The `.dat` files and `kieker.map` of a Kieker folder, in name order.
fn kieker_files(dir: &Path) -> Result<Vec<PathBuf>, JobError> {
    // A log folder packed into one archive is its one file.
    if dir.is_file() {
        return Ok(vec![dir.to_path_buf()]);
    }
    let mut files = beagle_measure::kieker::record_files(dir)?;
    files.push(dir.join("kieker.map"));
    Ok(files)
}

/// The content key of a source: what was measured (every input file's name and bytes) and how
/// events become values (the time unit, the model's elements: which SEFF each belongs to and the
/// transitions of each branch), and this Beagle's version (its import may change).
fn key_of(
    source: &Source,
    options: &ResultOptions,
    model: &[MeasurableElement],
) -> Result<(String, &'static str), JobError> {
    let mut elements: Vec<(&str, Option<&str>)> = model.iter().map(|e| (e.id.as_str(), e.service.as_deref())).collect();
    elements.sort_unstable();
    let mut parts: Vec<Vec<u8>> = vec![
        b"beagle-measurement".to_vec(),
        env!("CARGO_PKG_VERSION").as_bytes().to_vec(),
        options.time_unit_ns.to_le_bytes().to_vec(),
        serde_json::to_vec(&elements)?,
        // Demands per execution as their mean (issue 16): results of before are not reused.
        if options.per_iteration {
            b"per-iteration".to_vec()
        } else {
            b"per-execution-means".to_vec()
        },
    ];
    let tool = match source {
        Source::Events(path) => {
            parts.push(hashed(path)?.into_bytes());
            "events"
        }
        Source::Kieker { dir, mapping } => {
            // Each file hashed in chunks: a log of gigabytes is never held in memory.
            for f in kieker_files(dir)? {
                parts.push(f.file_name().unwrap_or_default().as_encoded_bytes().to_vec());
                parts.push(hashed(&f)?.into_bytes());
            }
            parts.push(mapping.as_deref().map(read).transpose()?.unwrap_or_default());
            "kieker"
        }
        Source::Otel { file, mapping } => {
            parts.push(hashed(file)?.into_bytes());
            parts.push(mapping.as_deref().map(read).transpose()?.unwrap_or_default());
            "otel"
        }
        Source::Java { .. } => "java",
    };
    let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    Ok((content_key(&refs), tool))
}

/// Reads the measurements (or takes them from the store) and stores what was read. `model`: the
/// elements of the workspace's repositories (every SEFF), which say where each action belongs and
/// every transition of each branch ([`EventDigest::for_elements`]).
pub fn load(source: &Source, store: &mut Store, model: &[MeasurableElement]) -> Result<Measured, JobError> {
    let options = ResultOptions::default();
    let (key, tool) = key_of(source, &options, model)?;
    if let Some(m) = store.cached_measurement(&key)? {
        return Ok(Measured {
            key,
            tool: m.tool,
            summary: m.summary,
            results: m.results,
            raw: Vec::new(),
            cached: true,
            notes: m.notes,
            inputs: m.inputs,
            constants: Default::default(),
            requested: Default::default(),
            launches: Default::default(),
        });
    }
    let mut notes = Vec::new();
    let inputs: Vec<InputFile>;
    let events = match source {
        Source::Events(path) => {
            // Streamed: a file of millions of events never sits in memory as a whole.
            let mut digest = EventDigest::for_elements(options.clone(), model);
            let mut summary = SummaryBuilder::default();
            beagle_measure::events_format::for_each_event(path, |e| {
                summary.add(&e);
                digest.add(&e);
            })?;
            notes.extend(digest.notes());
            let read = Read {
                summary: summary.finish(),
                results: digest.finish(),
                notes,
                inputs: Vec::new(),
            };
            return stored(store, key, tool, read);
        }
        Source::Kieker { dir, mapping } => {
            let mapping = match mapping {
                Some(p) => read_mapping(p)?,
                None => OperationMapping::new(),
            };
            // A CIPM log in Kieker's write order streams: memory grows with the executions open,
            // not with the log. Otherwise (standard records, shuffled files) it is read whole.
            if let Some(streamed) = stream_kieker(dir, model, &options, &mut notes) {
                let mut read = streamed?;
                read.notes = notes;
                return stored(store, key, tool, read);
            }
            let mut whole = read_kieker_whole(dir, &mapping, model)?;
            notes.append(&mut whole.notes);
            inputs = whole.inputs;
            whole.events
        }
        Source::Otel { file, mapping } => {
            let mut whole = read_otel(file, mapping.as_deref())?;
            notes.append(&mut whole.notes);
            inputs = whole.inputs;
            whole.events
        }
        Source::Java { .. } => return Err(JobError::JavaNotFromFiles),
    };
    let mut digest = EventDigest::for_elements(options, model);
    for e in &events {
        digest.add(e);
    }
    notes.extend(digest.notes());
    let read = Read {
        summary: EventsSummary::of(&events),
        results: digest.finish(),
        notes,
        inputs,
    };
    stored(store, key, tool, read)
}

/// Events read whole from a source, with what the reading noted.
pub struct WholeRead {
    pub events: Vec<beagle_analysis::MeasurementEvent>,
    pub notes: Vec<String>,
    pub inputs: Vec<InputFile>,
}

/// Every event of a measurement source, in memory (the held-out validation splits them; the
/// analysis streams where it can, [`load`]).
pub fn read_whole(source: &Source, model: &[MeasurableElement]) -> Result<WholeRead, JobError> {
    match source {
        Source::Events(path) => Ok(WholeRead {
            events: beagle_measure::events_format::read_events(path)?,
            notes: Vec::new(),
            inputs: Vec::new(),
        }),
        Source::Kieker { dir, mapping } => {
            let mapping = match mapping {
                Some(p) => read_mapping(p)?,
                None => OperationMapping::new(),
            };
            read_kieker_whole(dir, &mapping, model)
        }
        Source::Otel { file, mapping } => read_otel(file, mapping.as_deref()),
        Source::Java { .. } => Err(JobError::JavaNotFromFiles),
    }
}

/// A Kieker log read whole and converted (standard records, logs not in write order).
fn read_kieker_whole(
    dir: &Path,
    mapping: &OperationMapping,
    model: &[MeasurableElement],
) -> Result<WholeRead, JobError> {
    let mut notes = Vec::new();
    let log = read_log(dir)?;
    // What was read, and what was skipped: one note per damaged line (file and line).
    let layouts: Vec<String> = log.layouts.iter().map(|(l, n)| format!("{n} {l}")).collect();
    notes.push(format!(
        "{}: {} records read from {} files ({})",
        dir.display(),
        log.records.len(),
        log.files.len(),
        layouts.join(", ")
    ));
    skipped_notes(log.skipped.iter(), log.skipped.len(), &mut notes);
    // `why` names the file.
    for (_, why) in &log.unreadable {
        notes.push(format!("{why} (file skipped)"));
    }
    for (class, n) in &log.unknown_classes {
        notes.push(format!(
            "{}: {n} records of {class} ignored (not a record Beagle reads)",
            dir.display()
        ));
    }
    let (events, report) = convert(&log, mapping);
    // CIPM-Pipeline's BranchRecord names the transition only: its branch is the model's.
    let branches = branches_of(model);
    let events: Vec<beagle_analysis::MeasurementEvent> =
        events.into_iter().map(|e| with_branch(e, &branches)).collect();
    for (operation, n) in &report.unmapped_operations {
        notes.push(format!(
            "{}: {n} executions of `{operation}` ignored: the operation mapping does not name it",
            dir.display()
        ));
    }
    if report.unmatched_operation_events > 0 {
        notes.push(format!(
            "{}: {} operation events without their partner ignored (truncated traces?)",
            dir.display(),
            report.unmatched_operation_events
        ));
    }
    Ok(WholeRead {
        events,
        notes,
        inputs: report.inputs,
    })
}

/// An OTLP/JSON file's spans as events.
fn read_otel(file: &Path, mapping: Option<&Path>) -> Result<WholeRead, JobError> {
    let mapping = match mapping {
        Some(p) => read_mapping(p)?,
        None => OperationMapping::new(),
    };
    let mut notes = Vec::new();
    let (spans, mut report) = beagle_measure::otel::read_spans(file)?;
    let events = beagle_measure::otel::convert_spans(&spans, &mapping, &mut report);
    notes.push(format!("{}: {} spans read", file.display(), report.spans));
    for (f, line, why) in report.skipped.iter().take(SKIPPED_NOTES) {
        notes.push(format!("{}:{line}: {why}: line skipped", f.display()));
    }
    if report.skipped.len() > SKIPPED_NOTES {
        notes.push(format!(
            "{}: {} more lines skipped",
            file.display(),
            report.skipped.len() - SKIPPED_NOTES
        ));
    }
    for (operation, n) in &report.unmapped {
        notes.push(format!(
            "{}: {n} spans of `{operation}` ignored: neither the operation mapping nor a beagle.seff/beagle.action attribute names them",
            file.display()
        ));
    }
    Ok(WholeRead {
        events,
        notes,
        inputs: vec![report.input_file(file)],
    })
}

/// Damaged lines named in the notes, one each; the rest counted (each file's count and its
/// first lines are in its [`InputFile`]).
const SKIPPED_NOTES: usize = 20;

fn skipped_notes<'a>(
    skipped: impl Iterator<Item = &'a beagle_measure::kieker::SkippedLine>,
    total: usize,
    notes: &mut Vec<String>,
) {
    for s in skipped.take(SKIPPED_NOTES) {
        notes.push(format!("{s}: line skipped"));
    }
    if total > SKIPPED_NOTES {
        notes.push(format!(
            "{} more damaged lines skipped (per file: the input files' report)",
            total - SKIPPED_NOTES
        ));
    }
}

/// What reading a source gave.
struct Read {
    summary: EventsSummary,
    results: Vec<(MeasurableElement, MeasurementResult)>,
    notes: Vec<String>,
    inputs: Vec<InputFile>,
}

/// Saves what was read in the store, and returns it.
fn stored(store: &mut Store, key: String, tool: &str, read: Read) -> Result<Measured, JobError> {
    let m = StoredMeasurement {
        input_key: key.clone(),
        tool: tool.to_string(),
        summary: read.summary,
        results: read.results,
        inputs: read.inputs,
        notes: read.notes,
    };
    store.save_measurement(&m)?;
    Ok(Measured {
        key,
        tool: m.tool,
        summary: m.summary,
        results: m.results,
        raw: Vec::new(),
        cached: false,
        notes: m.notes,
        inputs: m.inputs,
        constants: Default::default(),
        requested: Default::default(),
        launches: Default::default(),
    })
}

/// The transition -> branch map of the model (CIPM-Pipeline's `BranchRecord` names the
/// transition only).
fn branches_of(model: &[MeasurableElement]) -> std::collections::BTreeMap<&str, &str> {
    model
        .iter()
        .filter_map(|e| match &e.kind {
            beagle_analysis::ElementKind::Branch { branch, transition } => Some((transition.as_str(), branch.as_str())),
            _ => None,
        })
        .collect()
}

/// A branch event's branch from the model, where the record named none.
fn with_branch(
    mut e: beagle_analysis::MeasurementEvent,
    branches: &std::collections::BTreeMap<&str, &str>,
) -> beagle_analysis::MeasurementEvent {
    if let beagle_analysis::MeasurementEvent::Branch {
        branch,
        transition: Some(t),
        ..
    } = &mut e
    {
        if branch.is_empty() {
            if let Some(b) = branches.get(t.as_str()) {
                *branch = b.to_string();
            }
        }
    }
    e
}

/// The measurements of a CIPM log streamed ([`beagle_measure::kieker::stream`]), or `None` when
/// the log must be read whole (notes say why when it is not obvious).
fn stream_kieker(
    dir: &Path,
    model: &[MeasurableElement],
    options: &ResultOptions,
    notes: &mut Vec<String>,
) -> Option<Result<Read, JobError>> {
    use beagle_measure::kieker::stream::{stream_log, StreamError, Streamed};
    let branches = branches_of(model);
    let mut digest = EventDigest::for_elements(options.clone(), model);
    let mut summary = SummaryBuilder::counting_ended();
    let streamed = stream_log(dir, &mut |s| match s {
        Streamed::Event(e) => {
            let e = with_branch(e, &branches);
            summary.add(&e);
            digest.add(&e);
        }
        Streamed::Ended(x) => {
            summary.ended();
            digest.end(&x);
        }
    });
    match streamed {
        Ok(report) => {
            let layouts: Vec<String> = report.layouts.iter().map(|(l, n)| format!("{n} {l}")).collect();
            notes.push(format!(
                "{}: {} records of {} executions streamed from {} files, at most {} executions open ({})",
                dir.display(),
                report.records,
                report.executions,
                report.files.len(),
                report.most_open,
                layouts.join(", ")
            ));
            let skipped = report.inputs.iter().map(|f| f.skipped).sum();
            skipped_notes(report.skipped.iter(), skipped, notes);
            notes.extend(report.unreadable.iter().map(|(_, why)| format!("{why} (file skipped)")));
            for (class, n) in &report.unknown_classes {
                notes.push(format!(
                    "{}: {n} records of {class} ignored (not a record Beagle reads)",
                    dir.display()
                ));
            }
            notes.extend(digest.notes());
            Some(Ok(Read {
                summary: summary.finish(),
                results: digest.finish(),
                notes: Vec::new(),
                inputs: report.inputs,
            }))
        }
        Err(StreamError::Kieker(e)) => Some(Err(e.into())),
        Err(StreamError::NeedsWholeLog(_)) => None,
        Err(e @ StreamError::NotInWriteOrder { .. }) => {
            notes.push(format!("{}: {e}", dir.display()));
            None
        }
    }
}
