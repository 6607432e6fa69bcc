//! Measurement events: what measurement tools deliver, keyed by PCM ids, in time order.
//!
//! The model follows the record family that Palladio-targeting monitors write (CIPM, see
//! `../shared/docs/kieker-pcm-records.md`): one [`MeasurementEvent::ServiceCall`] per execution of
//! a SEFF, with the characterised input parameters in force at entry, and the events of that
//! execution (resource demands of internal actions, loop iteration counts, executed branch
//! transitions) tied to it by `execution`. A call made by an `ExternalCallAction` names that action
//! (`call`) and its caller's execution, so the parameters it passed are the external call's
//! parameter values.
//!
//! The Beagle events format is one of these per line as JSON (`serde_json`), e.g.
//! `{"event":"loop","execution":"e1","loop_id":"_loop1","count":12}`; times are nanoseconds.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Characterised parameter values by PCM name: `files.NUMBER_OF_ELEMENTS`, `size.BYTESIZE`,
/// `n.VALUE`.
pub type Parameters = BTreeMap<String, f64>;

/// One observation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum MeasurementEvent {
    /// One execution of a service (SEFF).
    ServiceCall {
        /// Identifies this execution; the other events of it carry the same value.
        execution: String,
        /// The SEFF id.
        service: String,
        /// The execution that made the call, if it was an external call.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        caller_execution: Option<String>,
        /// The calling `ExternalCallAction` id, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        call: Option<String>,
        /// Characterised input parameters at entry.
        #[serde(default)]
        parameters: Parameters,
        entry_ns: u64,
        exit_ns: u64,
    },
    /// Time an internal action spent on one resource type in one execution.
    ResourceDemand {
        execution: String,
        /// The `InternalAction` id.
        action: String,
        /// The resource type id (CPU: `_oro4gG3fEdy4YaaT-RYrLQ`).
        resource: String,
        start_ns: u64,
        stop_ns: u64,
    },
    /// Aggregated at the source: `count` executions of an internal action in one service
    /// execution (under one parameterisation), `total_ns` of time on one resource type in all.
    /// What a probe in a hot loop reports instead of a [`MeasurementEvent::ResourceDemand`] per
    /// iteration.
    ResourceDemandTotal {
        execution: String,
        action: String,
        resource: String,
        count: u64,
        total_ns: u64,
    },
    /// Iterations of a loop in one execution of it.
    Loop {
        execution: String,
        /// The `LoopAction` id.
        loop_id: String,
        count: u64,
    },
    /// Aggregated at the source: a loop executed `executions` times in one service execution,
    /// `iterations` in all.
    LoopTotal {
        execution: String,
        loop_id: String,
        executions: u64,
        iterations: u64,
    },
    /// Aggregated at the source: how often each transition of a branch ran in one service
    /// execution, and how often none did.
    BranchTotal {
        execution: String,
        branch: String,
        transitions: BTreeMap<String, u64>,
        #[serde(default, skip_serializing_if = "is_zero")]
        not_taken: u64,
    },
    /// The transition a branch took in one execution of it (`None`: no transition ran).
    Branch {
        execution: String,
        /// The `BranchAction` id.
        branch: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        transition: Option<String>,
    },
    /// Aggregated at the source, in a counting run only: what `runs` runs of an internal action's
    /// section did in one service execution, `count` in all, for one key: an opcode class
    /// (`int-arith`), a JDK method by signature (`java/util/zip/Deflater.deflate([BII)I`), the
    /// elements such a call is passed (`java/util/zip/Deflater.deflate([BII)I elements`), or an
    /// array allocation (`new byte[]`, `new byte[] elements`). Counts, never times: the analysis
    /// of demands skips them (`beagle_java::count::laws` fits them).
    Count {
        execution: String,
        action: String,
        key: String,
        runs: u64,
        count: u64,
    },
    /// From here on (in stream order), the execution's parameterisation has these values: what an
    /// external call returned, or what a `SetVariableAction` set. Later events of the execution are
    /// observed under the changed parameters.
    ParameterChange { execution: String, parameters: Parameters },
}

impl MeasurementEvent {
    /// The service execution the event belongs to.
    pub fn execution(&self) -> &str {
        match self {
            MeasurementEvent::ServiceCall { execution, .. }
            | MeasurementEvent::ResourceDemand { execution, .. }
            | MeasurementEvent::ResourceDemandTotal { execution, .. }
            | MeasurementEvent::Loop { execution, .. }
            | MeasurementEvent::LoopTotal { execution, .. }
            | MeasurementEvent::BranchTotal { execution, .. }
            | MeasurementEvent::Branch { execution, .. }
            | MeasurementEvent::Count { execution, .. }
            | MeasurementEvent::ParameterChange { execution, .. } => execution,
        }
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_event_per_line_as_json() {
        let line = r#"{"event":"loop","execution":"e1","loop_id":"_loop1","count":12}"#;
        let e: MeasurementEvent = serde_json::from_str(line).unwrap();
        assert_eq!(
            e,
            MeasurementEvent::Loop {
                execution: "e1".into(),
                loop_id: "_loop1".into(),
                count: 12
            }
        );
        assert_eq!(serde_json::to_string(&e).unwrap(), line);
        assert_eq!(e.execution(), "e1");
        let call = r#"{"event":"service_call","execution":"e2","service":"_seff","parameters":{"files.NUMBER_OF_ELEMENTS":3.0},"entry_ns":5,"exit_ns":9}"#;
        let c: MeasurementEvent = serde_json::from_str(call).unwrap();
        assert_eq!(serde_json::to_string(&c).unwrap(), call);
    }
}
