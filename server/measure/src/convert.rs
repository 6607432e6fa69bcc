//! Kieker records to [`MeasurementEvent`]s, in time order.
//!
//! CIPM records carry PCM ids and map directly. Kieker's standard records name Java operations, so
//! they go through an [`OperationMapping`] configured by the user: an operation mapped to a SEFF
//! gives a `ServiceCall` per execution, one mapped to an internal action gives a `ResourceDemand`
//! of the nearest enclosing mapped SEFF execution (the code section belongs to that service).
//! Execution ids of standard records are `<traceId>:<order>` (the execution order index of an
//! `OperationExecutionRecord`, the `BeforeOperationEvent`'s order index), or `#<n>` (the record's
//! position in the log) for records written without a trace.
//!
//! Order ([`in_execution_order`]): a `ServiceCall` at its entry, a `ResourceDemand` at its start,
//! loops and branches at their logging timestamp, but nothing before its execution's call and no
//! callee before its caller; records are tied to executions by id, never by their order or
//! time.

use crate::kieker::{KiekerLog, KiekerRecord, OperationEvent};
use beagle_analysis::inputs::{file_of, InputFile};
use beagle_analysis::{MeasurementEvent, Parameters};
use std::collections::{BTreeMap, HashMap};

/// What a Java operation signature stands for in the PCM model.
#[derive(Clone, Debug, PartialEq)]
pub enum MappedOperation {
    /// The implementation of a SEFF (its id).
    Seff(String),
    /// An internal action (its id) demanding a resource type (its id).
    InternalAction { action: String, resource: String },
}

/// Operation signature (exactly as Kieker writes it) to PCM element.
pub type OperationMapping = HashMap<String, MappedOperation>;

/// What conversion could not use.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConversionReport {
    /// Executions of operations that are not in the mapping: count by signature.
    pub unmapped_operations: BTreeMap<String, usize>,
    /// Before/After events without their partner (crashed or truncated traces).
    pub unmatched_operation_events: usize,
    /// Records ignored because they are not tied to an execution (metadata, utilisation).
    pub ignored_records: usize,
    /// What each file gave ([`KiekerLog::inputs`] with the executions and unmapped operations
    /// of each file: an execution belongs to the file of its call record, or of its entry).
    pub inputs: Vec<InputFile>,
}

/// Converts a whole log. Never fails: what cannot be used is counted in the report.
pub fn convert(log: &KiekerLog, mapping: &OperationMapping) -> (Vec<MeasurementEvent>, ConversionReport) {
    let mut report = ConversionReport {
        inputs: log.inputs.clone(),
        ..ConversionReport::default()
    };

    let mut timed: Vec<(u64, MeasurementEvent)> = Vec::new();
    let mut executions: Vec<Execution> = Vec::new();
    let mut oers: Vec<(usize, &crate::kieker::OperationExecutionRecord)> = Vec::new();
    let mut open: HashMap<i64, Vec<(usize, &OperationEvent)>> = HashMap::new();
    for (n, r) in log.records.iter().enumerate() {
        match &r.record {
            KiekerRecord::ServiceCall(_)
            | KiekerRecord::ResponseTime(_)
            | KiekerRecord::Loop(_)
            | KiekerRecord::Branch(_) => {
                let event = cipm_event(r.clone());
                if let Some((_, MeasurementEvent::ServiceCall { .. })) = &event {
                    if let Some(f) = input_of(&mut report, &log.starts, n) {
                        f.executions += 1;
                    }
                }
                timed.extend(event)
            }
            KiekerRecord::OperationExecution(o) => oers.push((n, o)),
            KiekerRecord::BeforeOperation(e) => open.entry(e.trace_id).or_default().push((n, e)),
            KiekerRecord::AfterOperation(e) => {
                let stack = open.entry(e.trace_id).or_default();
                // The innermost open execution of the same operation; anything opened after it
                // never finished.
                match stack
                    .iter()
                    .rposition(|(_, b)| b.operation_signature == e.operation_signature)
                {
                    Some(i) => {
                        report.unmatched_operation_events += stack.len() - i - 1;
                        stack.truncate(i + 1);
                        let (seq, before) = stack.pop().expect("position is in the stack");
                        let enclosing = stack.iter().rev().map(|(s, b)| event_id(b, *s)).collect();
                        executions.push(Execution {
                            seq,
                            id: event_id(before, seq),
                            signature: &before.operation_signature,
                            entry: before.timestamp,
                            exit: e.timestamp,
                            enclosing,
                        });
                    }
                    None => report.unmatched_operation_events += 1,
                }
            }
            KiekerRecord::Metadata(_)
            | KiekerRecord::TraceMetadata(_)
            | KiekerRecord::ResourceUtilization(_)
            | KiekerRecord::CpuUtilization(_) => report.ignored_records += 1,
        }
    }
    report.unmatched_operation_events += open.values().map(Vec::len).sum::<usize>();
    executions.extend(oer_executions(&oers));
    executions.sort_by_key(|e| e.seq);
    map_executions(&executions, mapping, &log.starts, &mut report, &mut timed);
    (in_execution_order(timed), report)
}

/// The file that record `n` came from (a log built in memory may name no files).
fn input_of<'a>(report: &'a mut ConversionReport, starts: &[usize], n: usize) -> Option<&'a mut InputFile> {
    file_of(starts, n).and_then(|i| report.inputs.get_mut(i))
}

/// The events in an order the analysis can read one by one, whatever the order of the records
/// (Kieker writes several files and rotates them) and however coarse their clock: every
/// execution's `ServiceCall` before anything recorded in it, a caller's before its callees'.
/// Each event is placed at its time, but no earlier than its execution's start, which is no
/// earlier than its caller's; at equal times callers come before callees and a call before what
/// happened in it; then the log's order. Events are tied to executions by id only.
pub(crate) fn in_execution_order(timed: Vec<(u64, MeasurementEvent)>) -> Vec<MeasurementEvent> {
    let mut entry: HashMap<&str, u64> = HashMap::new();
    let mut caller: HashMap<&str, &str> = HashMap::new();
    for (_, e) in &timed {
        if let MeasurementEvent::ServiceCall {
            execution,
            entry_ns,
            caller_execution,
            ..
        } = e
        {
            entry.insert(execution, *entry_ns);
            if let Some(c) = caller_execution {
                caller.insert(execution, c);
            }
        }
    }
    let mut placed: HashMap<&str, (u64, usize)> = HashMap::new();
    let mut keyed: Vec<((u64, usize, u8, usize), MeasurementEvent)> = Vec::with_capacity(timed.len());
    for (i, (t, e)) in timed.iter().enumerate() {
        let known = entry.contains_key(e.execution());
        let (start, depth) = if known {
            place(e.execution(), &entry, &caller, &mut placed)
        } else {
            (0, 0)
        };
        let key = match e {
            MeasurementEvent::ServiceCall { .. } => (start, depth, 0, i),
            _ => ((*t).max(start), depth, 1, i),
        };
        keyed.push((key, e.clone()));
    }
    keyed.sort_by_key(|(k, _)| *k);
    keyed.into_iter().map(|(_, e)| e).collect()
}

/// (start, depth) of execution `x`: its entry, but no earlier than its caller's start; the
/// caller chain is memoised in `placed`, and a cycle (a damaged log) is cut where it closes.
fn place<'a>(
    x: &'a str,
    entry: &HashMap<&'a str, u64>,
    caller: &HashMap<&'a str, &'a str>,
    placed: &mut HashMap<&'a str, (u64, usize)>,
) -> (u64, usize) {
    let mut chain: Vec<&str> = Vec::new();
    let mut at = Some(x);
    while let Some(a) = at {
        if placed.contains_key(a) || chain.contains(&a) {
            break;
        }
        chain.push(a);
        at = caller.get(a).copied();
    }
    let mut above = at.and_then(|a| placed.get(a).copied());
    for a in chain.into_iter().rev() {
        let own = entry.get(a).copied().unwrap_or(0);
        let p = match above {
            Some((start, depth)) => (own.max(start), depth + 1),
            None => (own, 0),
        };
        placed.insert(a, p);
        above = Some(p);
    }
    placed.get(x).copied().unwrap_or((0, 0))
}

/// The event of a CIPM record (calls, demands, loops, branches; `None` for other records) with
/// the time it is placed at: a call at its entry, a demand at its start, loops and branches at
/// their logging timestamp. The whole-log conversion and the stream share it.
pub(crate) fn cipm_event(r: crate::kieker::Record) -> Option<(u64, MeasurementEvent)> {
    Some(match r.record {
        KiekerRecord::ServiceCall(s) => (
            s.entry_time,
            MeasurementEvent::ServiceCall {
                execution: s.service_execution_id,
                service: s.service_id,
                caller_execution: s.caller_service_execution_id,
                call: s.caller_id,
                parameters: s.parameters,
                entry_ns: s.entry_time,
                exit_ns: s.exit_time,
            },
        ),
        KiekerRecord::ResponseTime(t) => (
            t.start_time,
            MeasurementEvent::ResourceDemand {
                execution: t.service_execution_id,
                action: t.internal_action_id,
                resource: t.resource_id,
                start_ns: t.start_time,
                stop_ns: t.stop_time,
            },
        ),
        KiekerRecord::Loop(l) => (
            r.logging_timestamp,
            MeasurementEvent::Loop {
                execution: l.service_execution_id,
                loop_id: l.loop_id,
                count: l.loop_iteration_count,
            },
        ),
        KiekerRecord::Branch(b) => (
            r.logging_timestamp,
            MeasurementEvent::Branch {
                execution: b.service_execution_id,
                branch: b.branch_id,
                transition: b.executed_branch_id,
            },
        ),
        _ => return None,
    })
}

/// One execution of a Java operation, from either kind of standard record.
struct Execution<'a> {
    /// Position in the log of the record that opened it (for a stable order).
    seq: usize,
    id: String,
    signature: &'a str,
    entry: u64,
    exit: u64,
    /// Ids of the enclosing executions, innermost first.
    enclosing: Vec<String>,
}

fn event_id(e: &OperationEvent, seq: usize) -> String {
    if e.trace_id < 0 {
        format!("#{seq}")
    } else {
        format!("{}:{}", e.trace_id, e.order_index)
    }
}

/// Executions of `OperationExecutionRecord`s; nesting from the execution stack size within a trace,
/// in execution-order-index order.
fn oer_executions<'a>(oers: &[(usize, &'a crate::kieker::OperationExecutionRecord)]) -> Vec<Execution<'a>> {
    let mut traces: BTreeMap<i64, Vec<(usize, &crate::kieker::OperationExecutionRecord)>> = BTreeMap::new();
    let mut out = Vec::new();
    for &(seq, o) in oers {
        if o.trace_id < 0 || o.eoi < 0 || o.ess < 0 {
            out.push(Execution {
                seq,
                id: format!("#{seq}"),
                signature: &o.operation_signature,
                entry: o.tin,
                exit: o.tout,
                enclosing: Vec::new(),
            });
        } else {
            traces.entry(o.trace_id).or_default().push((seq, o));
        }
    }
    for (_, mut records) in traces {
        records.sort_by_key(|(_, o)| o.eoi);
        // stack[d] = id of the latest execution at stack depth d.
        let mut stack: Vec<String> = Vec::new();
        for (seq, o) in records {
            let depth = o.ess as usize;
            stack.truncate(depth);
            let enclosing = stack.iter().rev().cloned().collect();
            let id = format!("{}:{}", o.trace_id, o.eoi);
            if stack.len() == depth {
                stack.push(id.clone());
            }
            out.push(Execution {
                seq,
                id,
                signature: &o.operation_signature,
                entry: o.tin,
                exit: o.tout,
                enclosing,
            });
        }
    }
    out
}

fn map_executions(
    executions: &[Execution],
    mapping: &OperationMapping,
    starts: &[usize],
    report: &mut ConversionReport,
    timed: &mut Vec<(u64, MeasurementEvent)>,
) {
    let seff_ids: HashMap<&str, ()> = executions
        .iter()
        .filter(|e| matches!(mapping.get(e.signature), Some(MappedOperation::Seff(_))))
        .map(|e| (e.id.as_str(), ()))
        .collect();
    let enclosing_seff = |e: &Execution| {
        e.enclosing
            .iter()
            .find(|id| seff_ids.contains_key(id.as_str()))
            .cloned()
    };
    for e in executions {
        match mapping.get(e.signature) {
            Some(MappedOperation::Seff(service)) => timed.push((
                e.entry,
                MeasurementEvent::ServiceCall {
                    execution: e.id.clone(),
                    service: service.clone(),
                    caller_execution: enclosing_seff(e),
                    call: None,
                    parameters: Parameters::new(),
                    entry_ns: e.entry,
                    exit_ns: e.exit,
                },
            )),
            Some(MappedOperation::InternalAction { action, resource }) => timed.push((
                e.entry,
                MeasurementEvent::ResourceDemand {
                    execution: enclosing_seff(e).unwrap_or_else(|| e.id.clone()),
                    action: action.clone(),
                    resource: resource.clone(),
                    start_ns: e.entry,
                    stop_ns: e.exit,
                },
            )),
            None => {
                *report.unmapped_operations.entry(e.signature.to_string()).or_default() += 1;
                if let Some(f) = input_of(report, starts, e.seq) {
                    *f.unmapped.entry(e.signature.to_string()).or_default() += 1;
                }
            }
        }
        if let (Some(MappedOperation::Seff(_)), Some(f)) = (mapping.get(e.signature), input_of(report, starts, e.seq)) {
            f.executions += 1;
        }
    }
}
