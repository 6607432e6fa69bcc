//! The measurements an analysis uses: read once, turned into results per element, and kept in
//! the store under a key of their inputs, so that re-analysis of unchanged inputs reads nothing.

use crate::workspace::Source;
use beagle_analysis::{
    content_key, file_key, EventDigest, EventsSummary, MeasurableElement, MeasurementResult, ResultOptions, Store,
    StoredMeasurement, SummaryBuilder,
};
use beagle_measure::{convert, read_log, read_mapping, OperationMapping};
use std::path::{Path, PathBuf};

/// Measurement results ready for the analysis.
pub struct Measured {
    pub key: String,
    pub tool: String,
    pub summary: EventsSummary,
    pub results: Vec<(MeasurableElement, MeasurementResult)>,
    /// Every observation where `results` holds less (timings as one median per point): what a
    /// hover tabulates. Empty when `results` are the raw observations.
    pub raw: Vec<(MeasurableElement, MeasurementResult)>,
    /// Taken from the store, not read again.
    pub cached: bool,
    /// What the import could not use.
    pub notes: Vec<String>,
    /// Element id -> constants in and around its code (from the Java tool's static analysis).
    pub constants: std::collections::BTreeMap<String, Vec<f64>>,
}

impl Measured {
    pub fn elements(&self) -> Vec<MeasurableElement> {
        self.results.iter().map(|(e, _)| e.clone()).collect()
    }
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))
}

/// The `.dat` files and `kieker.map` of a Kieker folder, in name order.
fn kieker_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    // A log folder packed into one archive is its one file.
    if dir.is_file() {
        return Ok(vec![dir.to_path_buf()]);
    }
    let mut files = beagle_measure::kieker::record_files(dir).map_err(|e| e.to_string())?;
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
) -> Result<(String, &'static str), String> {
    let mut elements: Vec<(&str, Option<&str>)> = model.iter().map(|e| (e.id.as_str(), e.service.as_deref())).collect();
    elements.sort_unstable();
    let mut parts: Vec<Vec<u8>> = vec![
        b"beagle-measurement".to_vec(),
        env!("CARGO_PKG_VERSION").as_bytes().to_vec(),
        options.time_unit_ns.to_le_bytes().to_vec(),
        serde_json::to_vec(&elements).map_err(|e| e.to_string())?,
        // Demands per execution as their mean (issue 16): results of before are not reused.
        if options.per_iteration {
            b"per-iteration".to_vec()
        } else {
            b"per-execution-means".to_vec()
        },
    ];
    let tool = match source {
        Source::Events(path) => {
            let key = file_key(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
            parts.push(key.into_bytes());
            "events"
        }
        Source::Kieker { dir, mapping } => {
            for f in kieker_files(dir)? {
                parts.push(f.file_name().unwrap_or_default().as_encoded_bytes().to_vec());
                parts.push(read(&f)?);
            }
            parts.push(mapping.as_deref().map(read).transpose()?.unwrap_or_default());
            "kieker"
        }
        Source::Otel { file, mapping } => {
            parts.push(read(file)?);
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
pub fn load(source: &Source, store: &mut Store, model: &[MeasurableElement]) -> Result<Measured, String> {
    let options = ResultOptions::default();
    let (key, tool) = key_of(source, &options, model)?;
    if let Some(m) = store.cached_measurement(&key).map_err(|e| e.to_string())? {
        return Ok(Measured {
            key,
            tool: m.tool,
            summary: m.summary,
            results: m.results,
            raw: Vec::new(),
            cached: true,
            notes: Vec::new(),
            constants: Default::default(),
        });
    }
    let mut notes = Vec::new();
    let events = match source {
        Source::Events(path) => {
            // Streamed: a file of millions of events never sits in memory as a whole.
            let mut digest = EventDigest::for_elements(options.clone(), model);
            let mut summary = SummaryBuilder::default();
            beagle_measure::events_format::for_each_event(path, |e| {
                summary.add(&e);
                digest.add(&e);
            })
            .map_err(|e| e.to_string())?;
            notes.extend(digest.notes());
            return stored(store, key, tool, summary.finish(), digest.finish(), notes);
        }
        Source::Kieker { dir, mapping } => {
            let mapping = match mapping {
                Some(p) => read_mapping(p)?,
                None => OperationMapping::new(),
            };
            // A CIPM log in Kieker's write order streams: memory grows with the executions open,
            // not with the log. Otherwise (standard records, shuffled files) it is read whole.
            if let Some(streamed) = stream_kieker(dir, model, &options, &mut notes) {
                let (summary, results) = streamed?;
                return stored(store, key, tool, summary, results, notes);
            }
            let log = read_log(dir).map_err(|e| e.to_string())?;
            // What was read, and what was skipped: one note per damaged line (file and line).
            let layouts: Vec<String> = log.layouts.iter().map(|(l, n)| format!("{n} {l}")).collect();
            notes.push(format!(
                "{}: {} records read from {} files ({})",
                dir.display(),
                log.records.len(),
                log.files.len(),
                layouts.join(", ")
            ));
            for skipped in &log.skipped {
                notes.push(format!("{skipped}: line skipped"));
            }
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
            let (events, report) = convert(&log, &mapping);
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
            events
        }
        Source::Otel { file, mapping } => {
            let mapping = match mapping {
                Some(p) => read_mapping(p)?,
                None => OperationMapping::new(),
            };
            let (spans, mut report) = beagle_measure::otel::read_spans(file)?;
            let events = beagle_measure::otel::convert_spans(&spans, &mapping, &mut report);
            notes.push(format!("{}: {} spans read", file.display(), report.spans));
            for (f, line, why) in &report.skipped {
                notes.push(format!("{}:{line}: {why}: line skipped", f.display()));
            }
            for (operation, n) in &report.unmapped {
                notes.push(format!(
                    "{}: {n} spans of `{operation}` ignored: neither the operation mapping nor a beagle.seff/beagle.action attribute names them",
                    file.display()
                ));
            }
            events
        }
        Source::Java { .. } => return Err("the Java tool measures through its own driver, not from files".into()),
    };
    let mut digest = EventDigest::for_elements(options, model);
    for e in &events {
        digest.add(e);
    }
    notes.extend(digest.notes());
    stored(store, key, tool, EventsSummary::of(&events), digest.finish(), notes)
}

/// Saves what was read in the store, and returns it.
fn stored(
    store: &mut Store,
    key: String,
    tool: &str,
    summary: EventsSummary,
    results: Vec<(MeasurableElement, MeasurementResult)>,
    notes: Vec<String>,
) -> Result<Measured, String> {
    let m = StoredMeasurement {
        input_key: key.clone(),
        tool: tool.to_string(),
        summary,
        results,
    };
    store.save_measurement(&m).map_err(|e| e.to_string())?;
    Ok(Measured {
        key,
        tool: m.tool,
        summary: m.summary,
        results: m.results,
        raw: Vec::new(),
        cached: false,
        notes,
        constants: Default::default(),
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

type StreamedResults = (
    EventsSummary,
    Vec<(MeasurableElement, beagle_analysis::MeasurementResult)>,
);

/// The measurements of a CIPM log streamed ([`beagle_measure::kieker::stream`]), or `None` when
/// the log must be read whole (notes say why when it is not obvious).
fn stream_kieker(
    dir: &Path,
    model: &[MeasurableElement],
    options: &ResultOptions,
    notes: &mut Vec<String>,
) -> Option<Result<StreamedResults, String>> {
    use beagle_measure::kieker::stream::{stream_log, StreamError, Streamed};
    let branches = branches_of(model);
    let mut digest = EventDigest::for_elements(options.clone(), model);
    let mut summary = SummaryBuilder::default();
    let streamed = stream_log(dir, &mut |s| match s {
        Streamed::Event(e) => {
            let e = with_branch(e, &branches);
            summary.add(&e);
            digest.add(&e);
        }
        Streamed::Ended(x) => digest.end(&x),
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
            notes.extend(report.skipped.iter().map(|s| format!("{s}: line skipped")));
            notes.extend(report.unreadable.iter().map(|(_, why)| format!("{why} (file skipped)")));
            for (class, n) in &report.unknown_classes {
                notes.push(format!(
                    "{}: {n} records of {class} ignored (not a record Beagle reads)",
                    dir.display()
                ));
            }
            notes.extend(digest.notes());
            Some(Ok((summary.finish(), digest.finish())))
        }
        Err(StreamError::Kieker(e)) => Some(Err(e.to_string())),
        Err(StreamError::NeedsWholeLog(_)) => None,
        Err(e @ StreamError::NotInWriteOrder { .. }) => {
            notes.push(format!("{}: {e}", dir.display()));
            None
        }
    }
}
