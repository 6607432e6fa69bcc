//! Typed Kieker records and their text-line field orders. The orders were checked against Kieker
//! 1.8, 1.9 and 1.10 logs (`fixtures/kieker`, copied from `../shared/fixtures/kieker`; the 1.10 trace records have the same fields
//! as 1.9) and, for the CIPM family, against `../shared/docs/kieker-pcm-records.md`.

use super::error::LineError;
use super::fields::Fields;
use super::params::parse_parameters;
use beagle_analysis::Parameters;

/// One record with the logging timestamp Kieker wrote before its fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub logging_timestamp: u64,
    pub record: KiekerRecord,
    /// The layout it was read in ([`Layout::name`]).
    pub layout: &'static str,
}

/// A record class's text layout: the record kind, a name for the user, and the field names
/// after the logging timestamp.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub record: &'static str,
    pub name: &'static str,
    pub fields: &'static [&'static str],
}

/// The records Beagle understands. Records of other classes are counted by the reader, not parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum KiekerRecord {
    Metadata(KiekerMetadataRecord),
    OperationExecution(OperationExecutionRecord),
    TraceMetadata(TraceMetadata),
    BeforeOperation(OperationEvent),
    AfterOperation(OperationEvent),
    ServiceCall(ServiceCallRecord),
    ResponseTime(ResponseTimeRecord),
    Loop(LoopRecord),
    Branch(BranchRecord),
    ResourceUtilization(ResourceUtilizationRecord),
    /// Kept for completeness; not tied to a service execution, so conversion ignores it.
    CpuUtilization(CpuUtilizationRecord),
}

#[derive(Clone, Debug, PartialEq)]
pub struct KiekerMetadataRecord {
    pub version: String,
    pub controller_name: String,
    pub hostname: String,
    pub experiment_id: i32,
    pub debug_mode: bool,
    pub time_offset: i64,
    /// `NANOSECONDS` in every log seen; times are taken as nanoseconds.
    pub time_unit: String,
    pub number_of_records: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OperationExecutionRecord {
    pub operation_signature: String,
    pub session_id: String,
    /// `-1` when no trace was recorded.
    pub trace_id: i64,
    pub tin: u64,
    pub tout: u64,
    pub hostname: String,
    /// Execution order index in the trace (`-1`: unknown).
    pub eoi: i32,
    /// Execution stack size: call depth (`-1`: unknown).
    pub ess: i32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TraceMetadata {
    pub trace_id: i64,
    pub thread_id: i64,
    pub session_id: String,
    pub hostname: String,
    pub parent_trace_id: i64,
    pub parent_order_id: i32,
}

/// The fields of `BeforeOperationEvent` and `AfterOperationEvent` (the same in 1.9 and 1.10).
#[derive(Clone, Debug, PartialEq)]
pub struct OperationEvent {
    pub timestamp: u64,
    pub trace_id: i64,
    pub order_index: i32,
    pub operation_signature: String,
    pub class_signature: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ServiceCallRecord {
    pub session_id: String,
    pub service_execution_id: String,
    /// The SEFF id.
    pub service_id: String,
    pub parameters: Parameters,
    /// `None` for `<not set>`.
    pub caller_service_execution_id: Option<String>,
    /// The calling `ExternalCallAction` id; `None` for `<not set>`.
    pub caller_id: Option<String>,
    pub entry_time: u64,
    pub exit_time: u64,
    /// Raw text, `<not set>` included: Beagle does not analyse return values yet. `None` in the
    /// 2018 layout, which has no such field.
    pub return_value: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ResponseTimeRecord {
    pub session_id: String,
    pub service_execution_id: String,
    pub internal_action_id: String,
    pub resource_id: String,
    pub start_time: u64,
    pub stop_time: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LoopRecord {
    pub session_id: String,
    pub service_execution_id: String,
    pub loop_id: String,
    pub loop_iteration_count: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BranchRecord {
    pub session_id: String,
    pub service_execution_id: String,
    pub branch_id: String,
    /// `None` for `<not set>`: no transition ran.
    pub executed_branch_id: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ResourceUtilizationRecord {
    pub session_id: String,
    pub resource_id: String,
    pub utilization: f64,
    pub timestamp: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CpuUtilizationRecord {
    pub timestamp: u64,
    pub hostname: String,
    pub cpu_id: String,
    pub user: f64,
    pub system: f64,
    pub wait: f64,
    pub nice: f64,
    pub irq: f64,
    pub total_utilization: f64,
    pub idle: f64,
}

/// The layout of a record class by its simple name (Kieker's packages and the CIPM packages
/// alike), chosen by the number of fields the line has (`values`: the logging timestamp and the
/// record's fields) where the class was written in several layouts. A count no layout has gives
/// the latest layout, whose parse then names the mismatch.
pub(crate) fn layout(class_name: &str, values: &[&str]) -> Option<Layout> {
    let simple = class_name.rsplit('.').next().unwrap_or(class_name);
    let number = |name: &str, l: &Layout| {
        l.fields
            .iter()
            .position(|f| *f == name)
            .and_then(|i| values.get(i + 1))
            .is_some_and(|v| v.trim().parse::<u64>().is_ok())
    };
    let of_class = || LAYOUTS.iter().filter(|l| l.record == simple);
    let same_length = |l: &&Layout| l.fields.len() + 1 == values.len();
    // Two layouts of one length (CIPM's ServiceCallRecord with a return value, and with an
    // assembly id before the times) are told apart by where the times are.
    let times_fit = |l: &&Layout| !l.fields.contains(&"entryTime") || (number("entryTime", l) && number("exitTime", l));
    of_class()
        .find(|l| same_length(l) && times_fit(l))
        // A damaged field: the layout of its length names it; no layout of its length: the
        // latest (listed last) names the count it expected.
        .or_else(|| of_class().rfind(same_length))
        .or_else(|| of_class().next_back())
        .copied()
}

/// Every layout Beagle reads, the latest of a record last.
const LAYOUTS: &[Layout] = &[
    Layout {
        record: "KiekerMetadataRecord",
        name: "KiekerMetadataRecord",
        fields: &[
            "version",
            "controllerName",
            "hostname",
            "experimentId",
            "debugMode",
            "timeOffset",
            "timeUnit",
            "numberOfRecords",
        ],
    },
    Layout {
        record: "OperationExecutionRecord",
        name: "OperationExecutionRecord",
        fields: &[
            "operationSignature",
            "sessionId",
            "traceId",
            "tin",
            "tout",
            "hostname",
            "eoi",
            "ess",
        ],
    },
    Layout {
        record: "TraceMetadata",
        name: "TraceMetadata",
        fields: &[
            "traceId",
            "threadId",
            "sessionId",
            "hostname",
            "parentTraceId",
            "parentOrderId",
        ],
    },
    Layout {
        record: "BeforeOperationEvent",
        name: "BeforeOperationEvent",
        fields: OPERATION_EVENT,
    },
    Layout {
        record: "AfterOperationEvent",
        name: "AfterOperationEvent",
        fields: OPERATION_EVENT,
    },
    // CIPM's 2018 layout (the parametric-dependency test data): no return value.
    Layout {
        record: "ServiceCallRecord",
        name: "ServiceCallRecord (CIPM 2018: without returnValue)",
        fields: &[
            "sessionId",
            "serviceExecutionId",
            "serviceId",
            "parameters",
            "callerServiceExecutionId",
            "callerId",
            "entryTime",
            "exitTime",
        ],
    },
    // CIPM's calibration pipeline (2019-2020): the assembly of the called component.
    Layout {
        record: "ServiceCallRecord",
        name: "ServiceCallRecord (CIPM 2019: with assemblyId)",
        fields: &[
            "sessionId",
            "serviceExecutionId",
            "serviceId",
            "parameters",
            "callerServiceExecutionId",
            "callerId",
            "assemblyId",
            "entryTime",
            "exitTime",
        ],
    },
    // CIPM-Pipeline (dmodel, 2019-07): host fields, an execution context, no caller id.
    Layout {
        record: "ServiceCallRecord",
        name: "ServiceCallRecord (CIPM-Pipeline 2019: with host and executionContextId)",
        fields: &[
            "sessionId",
            "serviceExecutionId",
            "hostId",
            "hostName",
            "serviceId",
            "parameters",
            "callerServiceExecutionId",
            "executionContextId",
            "entryTime",
            "exitTime",
        ],
    },
    // CIPM-Pipeline (dmodel and cipm.consistency, 2020-): the calling external call again.
    Layout {
        record: "ServiceCallRecord",
        name: "ServiceCallRecord (CIPM-Pipeline 2020: with host, externalCallId and executionContextId)",
        fields: &[
            "sessionId",
            "serviceExecutionId",
            "hostId",
            "hostName",
            "serviceId",
            "parameters",
            "callerServiceExecutionId",
            "externalCallId",
            "executionContextId",
            "entryTime",
            "exitTime",
        ],
    },
    // The latest CIPM layout (OptimizingParametricDependencies, 2020), which Beagle documents.
    Layout {
        record: "ServiceCallRecord",
        name: "ServiceCallRecord (with returnValue)",
        fields: &[
            "sessionId",
            "serviceExecutionId",
            "serviceId",
            "parameters",
            "callerServiceExecutionId",
            "callerId",
            "entryTime",
            "exitTime",
            "returnValue",
        ],
    },
    Layout {
        record: "ResponseTimeRecord",
        name: "ResponseTimeRecord",
        fields: &[
            "sessionId",
            "serviceExecutionId",
            "internalActionId",
            "resourceId",
            "startTime",
            "stopTime",
        ],
    },
    Layout {
        record: "LoopRecord",
        name: "LoopRecord",
        fields: &["sessionId", "serviceExecutionId", "loopId", "loopIterationCount"],
    },
    Layout {
        record: "BranchRecord",
        name: "BranchRecord (CIPM-Pipeline 2020: without branchId)",
        fields: &["sessionId", "serviceExecutionId", "executedBranchId"],
    },
    Layout {
        record: "BranchRecord",
        name: "BranchRecord",
        fields: &["sessionId", "serviceExecutionId", "branchId", "executedBranchId"],
    },
    Layout {
        record: "ResourceUtilizationRecord",
        name: "ResourceUtilizationRecord (CIPM-Pipeline 2019-12: host, no sessionId)",
        fields: &["hostId", "hostName", "resourceId", "utilization", "timestamp"],
    },
    Layout {
        record: "ResourceUtilizationRecord",
        name: "ResourceUtilizationRecord (CIPM-Pipeline 2019-07: host)",
        fields: &[
            "sessionId",
            "hostId",
            "hostName",
            "resourceId",
            "utilization",
            "timestamp",
        ],
    },
    Layout {
        record: "ResourceUtilizationRecord",
        name: "ResourceUtilizationRecord",
        fields: &["sessionId", "resourceId", "utilization", "timestamp"],
    },
    Layout {
        record: "CPUUtilizationRecord",
        name: "CPUUtilizationRecord",
        fields: &[
            "timestamp",
            "hostname",
            "cpuID",
            "user",
            "system",
            "wait",
            "nice",
            "irq",
            "totalUtilization",
            "idle",
        ],
    },
];

const OPERATION_EVENT: &[&str] = &[
    "timestamp",
    "traceId",
    "orderIndex",
    "operationSignature",
    "classSignature",
];

/// Parses the fields after `$n` (logging timestamp first) of a record of a known layout.
pub(crate) fn parse_record(layout: Layout, values: Vec<&str>) -> Result<Record, LineError> {
    let (record, names) = (layout.record, layout.fields);
    let f = Fields::new(record, names, values)?;
    let logging_timestamp = f.u64(0)?;
    let r = match record {
        "KiekerMetadataRecord" => KiekerRecord::Metadata(KiekerMetadataRecord {
            version: f.str(1),
            controller_name: f.str(2),
            hostname: f.str(3),
            experiment_id: f.i32(4)?,
            debug_mode: f.bool(5)?,
            time_offset: f.i64(6)?,
            time_unit: f.str(7),
            number_of_records: f.i64(8)?,
        }),
        "OperationExecutionRecord" => KiekerRecord::OperationExecution(OperationExecutionRecord {
            operation_signature: f.str(1),
            session_id: f.str(2),
            trace_id: f.i64(3)?,
            tin: f.u64(4)?,
            tout: f.u64(5)?,
            hostname: f.str(6),
            eoi: f.i32(7)?,
            ess: f.i32(8)?,
        }),
        "TraceMetadata" => KiekerRecord::TraceMetadata(TraceMetadata {
            trace_id: f.i64(1)?,
            thread_id: f.i64(2)?,
            session_id: f.str(3),
            hostname: f.str(4),
            parent_trace_id: f.i64(5)?,
            parent_order_id: f.i32(6)?,
        }),
        "BeforeOperationEvent" | "AfterOperationEvent" => {
            let e = OperationEvent {
                timestamp: f.u64(1)?,
                trace_id: f.i64(2)?,
                order_index: f.i32(3)?,
                operation_signature: f.str(4),
                class_signature: f.str(5),
            };
            if record == "BeforeOperationEvent" {
                KiekerRecord::BeforeOperation(e)
            } else {
                KiekerRecord::AfterOperation(e)
            }
        }
        "ServiceCallRecord" => {
            // The layouts differ in their fields: by name (every layout has these five).
            let at = |name: &str| names.iter().position(|n| *n == name).map(|i| i + 1);
            let must = |name: &str| at(name).expect("every ServiceCallRecord layout has it");
            let parameters = must("parameters");
            KiekerRecord::ServiceCall(ServiceCallRecord {
                session_id: f.str(must("sessionId")),
                service_execution_id: f.str(must("serviceExecutionId")),
                service_id: f.str(must("serviceId")),
                parameters: parse_parameters(f.raw(parameters))
                    .ok_or_else(|| f.err(parameters, "not a parameter object"))?,
                caller_service_execution_id: f.opt_str(must("callerServiceExecutionId")),
                caller_id: at("callerId")
                    .or_else(|| at("externalCallId"))
                    .and_then(|i| f.opt_str(i)),
                entry_time: f.u64(must("entryTime"))?,
                exit_time: f.u64(must("exitTime"))?,
                return_value: at("returnValue").map(|i| f.str(i)),
            })
        }
        "ResponseTimeRecord" => KiekerRecord::ResponseTime(ResponseTimeRecord {
            session_id: f.str(1),
            service_execution_id: f.str(2),
            internal_action_id: f.str(3),
            resource_id: f.str(4),
            start_time: f.u64(5)?,
            stop_time: f.u64(6)?,
        }),
        "LoopRecord" => KiekerRecord::Loop(LoopRecord {
            session_id: f.str(1),
            service_execution_id: f.str(2),
            loop_id: f.str(3),
            loop_iteration_count: f.u64(4)?,
        }),
        "BranchRecord" => {
            // CIPM-Pipeline's layout has no branch id: the transition's branch comes from the
            // model (`beagle_job`), the id stays empty here.
            let branch = names.len() == 4;
            KiekerRecord::Branch(BranchRecord {
                session_id: f.str(1),
                service_execution_id: f.str(2),
                branch_id: if branch { f.str(3) } else { String::new() },
                executed_branch_id: f.opt_str(if branch { 4 } else { 3 }),
            })
        }
        "ResourceUtilizationRecord" => {
            let at = |name: &str| names.iter().position(|n| *n == name).map(|i| i + 1);
            let must = |name: &str| at(name).expect("every ResourceUtilizationRecord layout has it");
            KiekerRecord::ResourceUtilization(ResourceUtilizationRecord {
                session_id: at("sessionId").map(|i| f.str(i)).unwrap_or_default(),
                resource_id: f.str(must("resourceId")),
                utilization: f.f64(must("utilization"))?,
                timestamp: f.u64(must("timestamp"))?,
            })
        }
        _ => KiekerRecord::CpuUtilization(CpuUtilizationRecord {
            timestamp: f.u64(1)?,
            hostname: f.str(2),
            cpu_id: f.str(3),
            user: f.f64(4)?,
            system: f.f64(5)?,
            wait: f.f64(6)?,
            nice: f.f64(7)?,
            irq: f.f64(8)?,
            total_utilization: f.f64(9)?,
            idle: f.f64(10)?,
        }),
    };
    Ok(Record {
        logging_timestamp,
        record: r,
        layout: layout.name,
    })
}
