//! OpenTelemetry traces: OTLP/JSON, one `ExportTraceServiceRequest` per line, as the Collector's
//! file exporter writes them (a single request per file is a line too). Trace and span ids may
//! be hex (OTLP/JSON) or base64 (protobuf's own JSON mapping, what the SDKs' encoders give):
//! they only tie spans together. 64-bit integers may be strings or numbers.
//!
//! What a span stands for, the first that applies:
//! - the operation mapping (`[operations]`, as for Kieker; [`crate::mapping`]), looked up by
//!   `code.namespace` + `.` + `code.function` and then by the span's name;
//! - its own attributes: `beagle.seff` (a SEFF id) or `beagle.action` (an internal action id,
//!   with `beagle.resource`, default CPU).
//!
//! A SEFF span is a `ServiceCall`: its `beagle.param.<name>.<CHARACTERISATION>` attributes are the
//! service's inputs (`beagle.param.files.NUMBER_OF_ELEMENTS = 12`); its nearest SEFF ancestor is
//! the caller and `beagle.call` the calling ExternalCallAction's id; `beagle.loop.<LoopAction id>`
//! (an iteration count) and `beagle.branch.<BranchAction id>` (the transition taken) are loops and
//! branches of the execution. An action span is a `ResourceDemand` (its wall time) of its nearest
//! SEFF ancestor. Spans of other operations are counted, not used.

use crate::convert::{in_execution_order, MappedOperation, OperationMapping};
use crate::FileError;
use beagle_analysis::{MeasurementEvent, Parameters};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// Palladio's CPU resource type, for action spans that name none.
const CPU: &str = "_oro4gG3fEdy4YaaT-RYrLQ";

/// A span as read.
#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    /// `traceId/spanId`.
    pub id: String,
    pub parent: Option<String>,
    pub name: String,
    pub start_ns: u64,
    pub end_ns: u64,
    pub attributes: BTreeMap<String, Value>,
}

/// What reading and converting found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OtelReport {
    pub spans: usize,
    /// Lines that are not OTLP/JSON: (file, 1-based line, why).
    pub skipped: Vec<(PathBuf, usize, String)>,
    /// Spans of operations nothing maps: count by operation.
    pub unmapped: BTreeMap<String, usize>,
    /// Spans that are service executions (SEFFs).
    pub executions: usize,
}

impl OtelReport {
    /// What the file gave, as every input file says it ([`crate::inputs`]).
    pub fn input_file(&self, path: &Path) -> beagle_analysis::inputs::InputFile {
        let mut input = beagle_analysis::inputs::InputFile::new(path);
        input.records = self.spans;
        input.executions = self.executions;
        for (_, line, why) in &self.skipped {
            input.skip(*line, why.clone());
        }
        input.unmapped = self.unmapped.clone();
        input
    }
}

/// Reads the spans of an OTLP/JSON file; damaged lines are skipped and reported.
pub fn read_spans(path: &Path) -> Result<(Vec<Span>, OtelReport), FileError> {
    let text = std::fs::read_to_string(path).map_err(|e| FileError::new(path, format!("cannot read: {e}")))?;
    let mut report = OtelReport::default();
    let mut spans = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(request) => spans_of(&request, &mut spans),
            Err(e) => report
                .skipped
                .push((path.to_path_buf(), i + 1, format!("not JSON: {e}"))),
        }
    }
    report.spans = spans.len();
    if spans.is_empty() {
        return Err(match report.skipped.first() {
            Some((f, l, why)) => FileError {
                file: f.clone(),
                line: Some(*l),
                message: format!("{why} (no span in the file)"),
            },
            None => FileError::new(path, "no span (not OTLP/JSON traces?)"),
        });
    }
    Ok((spans, report))
}

fn array<'v>(v: &'v Value, key: &str) -> &'v [Value] {
    v.get(key).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

fn u64_of(v: Option<&Value>) -> Option<u64> {
    match v? {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

/// An attribute's value as JSON: strings, numbers (OTLP's int64 strings parsed), booleans.
fn attribute_value(v: &Value) -> Option<Value> {
    if let Some(s) = v.get("stringValue") {
        return Some(s.clone());
    }
    if let Some(i) = v.get("intValue") {
        return match i {
            Value::String(s) => s.parse::<i64>().ok().map(Value::from),
            other => Some(other.clone()),
        };
    }
    v.get("doubleValue").or_else(|| v.get("boolValue")).cloned()
}

fn spans_of(request: &Value, out: &mut Vec<Span>) {
    for resource in array(request, "resourceSpans") {
        let scopes = array(resource, "scopeSpans")
            .iter()
            .chain(array(resource, "instrumentationLibrarySpans"));
        for scope in scopes {
            for s in array(scope, "spans") {
                let (Some(trace), Some(span)) = (
                    s.get("traceId").and_then(Value::as_str),
                    s.get("spanId").and_then(Value::as_str),
                ) else {
                    continue;
                };
                let parent = s
                    .get("parentSpanId")
                    .and_then(Value::as_str)
                    .filter(|p| !p.is_empty())
                    .map(|p| format!("{trace}/{p}"));
                let attributes = array(s, "attributes")
                    .iter()
                    .filter_map(|a| Some((a.get("key")?.as_str()?.to_string(), attribute_value(a.get("value")?)?)))
                    .collect();
                out.push(Span {
                    id: format!("{trace}/{span}"),
                    parent,
                    name: s.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
                    start_ns: u64_of(s.get("startTimeUnixNano")).unwrap_or(0),
                    end_ns: u64_of(s.get("endTimeUnixNano")).unwrap_or(0),
                    attributes,
                });
            }
        }
    }
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// What a span stands for (module documentation), and the operation it was looked up by.
fn meaning(span: &Span, mapping: &OperationMapping) -> (Option<MappedOperation>, String) {
    let attr = |k: &str| span.attributes.get(k).and_then(text);
    let code = match (attr("code.namespace"), attr("code.function")) {
        (Some(ns), Some(f)) => Some(format!("{ns}.{f}")),
        _ => None,
    };
    for key in code.iter().chain(std::iter::once(&span.name)) {
        if let Some(m) = mapping.get(key) {
            return (Some(m.clone()), key.clone());
        }
    }
    let operation = code.unwrap_or_else(|| span.name.clone());
    if let Some(seff) = attr("beagle.seff") {
        return (Some(MappedOperation::Seff(seff)), operation);
    }
    if let Some(action) = attr("beagle.action") {
        let resource = attr("beagle.resource").unwrap_or_else(|| CPU.to_string());
        return (Some(MappedOperation::InternalAction { action, resource }), operation);
    }
    (None, operation)
}

/// The spans as measurement events (module documentation), in the order the analysis reads.
pub fn convert_spans(spans: &[Span], mapping: &OperationMapping, report: &mut OtelReport) -> Vec<MeasurementEvent> {
    let meanings: Vec<(Option<MappedOperation>, String)> = spans.iter().map(|s| meaning(s, mapping)).collect();
    let index: HashMap<&str, usize> = spans.iter().enumerate().map(|(i, s)| (s.id.as_str(), i)).collect();
    // The nearest SEFF span above a span (a cycle in damaged data is cut).
    let seff_above = |i: usize| -> Option<&str> {
        let mut at = spans[i].parent.as_deref();
        let mut steps = 0;
        while let Some(p) = at {
            let j = *index.get(p)?;
            if matches!(meanings[j].0, Some(MappedOperation::Seff(_))) {
                return Some(spans[j].id.as_str());
            }
            at = spans[j].parent.as_deref();
            steps += 1;
            if steps > spans.len() {
                return None;
            }
        }
        None
    };
    let mut timed = Vec::new();
    for (i, span) in spans.iter().enumerate() {
        match &meanings[i].0 {
            Some(MappedOperation::Seff(service)) => {
                let mut parameters = Parameters::new();
                for (key, value) in &span.attributes {
                    if let (Some(name), Some(v)) = (key.strip_prefix("beagle.param."), value.as_f64()) {
                        parameters.insert(name.to_string(), v);
                    }
                }
                let execution = span.id.clone();
                report.executions += 1;
                timed.push((
                    span.start_ns,
                    MeasurementEvent::ServiceCall {
                        execution: execution.clone(),
                        service: service.clone(),
                        caller_execution: seff_above(i).map(str::to_string),
                        call: span.attributes.get("beagle.call").and_then(text),
                        parameters,
                        entry_ns: span.start_ns,
                        exit_ns: span.end_ns,
                    },
                ));
                for (key, value) in &span.attributes {
                    if let (Some(loop_id), Some(count)) = (key.strip_prefix("beagle.loop."), value.as_u64()) {
                        timed.push((
                            span.end_ns,
                            MeasurementEvent::Loop {
                                execution: execution.clone(),
                                loop_id: loop_id.to_string(),
                                count,
                            },
                        ));
                    }
                    if let Some(branch) = key.strip_prefix("beagle.branch.") {
                        timed.push((
                            span.end_ns,
                            MeasurementEvent::Branch {
                                execution: execution.clone(),
                                branch: branch.to_string(),
                                transition: text(value),
                            },
                        ));
                    }
                }
            }
            Some(MappedOperation::InternalAction { action, resource }) => timed.push((
                span.start_ns,
                MeasurementEvent::ResourceDemand {
                    execution: seff_above(i).map_or_else(|| span.id.clone(), str::to_string),
                    action: action.clone(),
                    resource: resource.clone(),
                    start_ns: span.start_ns,
                    stop_ns: span.end_ns,
                },
            )),
            None => *report.unmapped.entry(meanings[i].1.clone()).or_default() += 1,
        }
    }
    in_execution_order(timed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two lines as the Python SDK's OTLP encoder and protobuf's JSON mapping write them (base64
    /// ids, int64 as strings), the child exported first.
    const SDK: &str = r#"{"resourceSpans": [{"resource": {"attributes": []}, "scopeSpans": [{"scope": {"name": "demo"}, "spans": [{"traceId": "El8Q2AWf2lajpGfg+gz/8Q==", "spanId": "vexJdO+Vd18=", "parentSpanId": "QY5+MrhSOEI=", "name": "hash", "kind": "SPAN_KIND_INTERNAL", "startTimeUnixNano": "1795575330092720252", "endTimeUnixNano": "1795575330092737728", "attributes": [{"key": "code.namespace", "value": {"stringValue": "app.Core"}}, {"key": "code.function", "value": {"stringValue": "hash"}}, {"key": "n", "value": {"doubleValue": 2.5}}], "status": {}, "flags": 256}]}]}]}
{"resourceSpans": [{"resource": {"attributes": []}, "scopeSpans": [{"scope": {"name": "demo"}, "spans": [{"traceId": "El8Q2AWf2lajpGfg+gz/8Q==", "spanId": "QY5+MrhSOEI=", "name": "upload", "kind": "SPAN_KIND_INTERNAL", "startTimeUnixNano": "1795575330092671219", "endTimeUnixNano": "1795575330093245200", "attributes": [{"key": "beagle.seff", "value": {"stringValue": "_upload"}}, {"key": "beagle.param.files.NUMBER_OF_ELEMENTS", "value": {"intValue": "3"}}, {"key": "beagle.loop._per_file", "value": {"intValue": "3"}}, {"key": "beagle.branch._big", "value": {"stringValue": "_small"}}], "status": {}, "flags": 256}]}]}]}
not json
"#;

    #[test]
    fn a_file_without_spans_names_its_first_damaged_line() {
        let dir = std::env::temp_dir().join(format!("beagle-otel-none-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("traces.jsonl");
        std::fs::write(&path, "\nnot json\n").unwrap();
        let e = read_spans(&path).unwrap_err();
        assert_eq!((&e.file, e.line), (&path, Some(2)));
        assert!(e.message.ends_with("(no span in the file)"), "{e}");
        std::fs::write(&path, "{}\n").unwrap();
        let e = read_spans(&path).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (None, "no span (not OTLP/JSON traces?)"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn sdk_output_becomes_calls_demands_loops_and_branches() {
        let dir = std::env::temp_dir().join(format!("beagle-otel-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("traces.jsonl");
        std::fs::write(&path, SDK).unwrap();
        let (spans, mut report) = read_spans(&path).unwrap();
        assert_eq!(spans.len(), 2);
        assert_eq!(report.skipped.len(), 1);
        assert_eq!(report.skipped[0].1, 3);
        let mapping: OperationMapping = [(
            "app.Core.hash".to_string(),
            MappedOperation::InternalAction {
                action: "_hash".into(),
                resource: CPU.into(),
            },
        )]
        .into();
        let events = convert_spans(&spans, &mapping, &mut report);
        let upload = "El8Q2AWf2lajpGfg+gz/8Q==/QY5+MrhSOEI=".to_string();
        assert_eq!(
            events,
            vec![
                MeasurementEvent::ServiceCall {
                    execution: upload.clone(),
                    service: "_upload".into(),
                    caller_execution: None,
                    call: None,
                    parameters: [("files.NUMBER_OF_ELEMENTS".to_string(), 3.0)].into(),
                    entry_ns: 1795575330092671219,
                    exit_ns: 1795575330093245200,
                },
                MeasurementEvent::ResourceDemand {
                    execution: upload.clone(),
                    action: "_hash".into(),
                    resource: CPU.into(),
                    start_ns: 1795575330092720252,
                    stop_ns: 1795575330092737728,
                },
                MeasurementEvent::Branch {
                    execution: upload.clone(),
                    branch: "_big".into(),
                    transition: Some("_small".into()),
                },
                MeasurementEvent::Loop {
                    execution: upload,
                    loop_id: "_per_file".into(),
                    count: 3,
                },
            ]
        );
        assert!(report.unmapped.is_empty());
        // Without the mapping the hash span is counted as unmapped, by its code location.
        let mut again = OtelReport::default();
        convert_spans(&spans, &OperationMapping::new(), &mut again);
        assert_eq!(again.unmapped.get("app.Core.hash"), Some(&1));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
