//! What a measurement's events held, and content keys.

use crate::events::MeasurementEvent;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// What the events held (stored per measurement, shown to users): counts per event kind, distinct
/// executions, services, first and last timestamp (ns).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventsSummary {
    pub events: usize,
    pub service_calls: usize,
    pub resource_demands: usize,
    pub loops: usize,
    pub branches: usize,
    #[serde(default)]
    pub parameter_changes: usize,
    /// Distinct `execution` values over all events.
    pub executions: usize,
    /// Distinct SEFF ids of the service calls.
    pub services: usize,
    /// Earliest and latest timestamp of any event that has one (service calls, resource demands).
    pub first_ns: Option<u64>,
    pub last_ns: Option<u64>,
}

impl EventsSummary {
    pub fn of(events: &[MeasurementEvent]) -> EventsSummary {
        let mut s = EventsSummary {
            events: events.len(),
            ..EventsSummary::default()
        };
        let mut executions = BTreeSet::new();
        let mut services = BTreeSet::new();
        fn times(s: &mut EventsSummary, a: u64, b: u64) {
            let (lo, hi) = (a.min(b), a.max(b));
            s.first_ns = Some(s.first_ns.map_or(lo, |f| f.min(lo)));
            s.last_ns = Some(s.last_ns.map_or(hi, |l| l.max(hi)));
        }
        for e in events {
            executions.insert(e.execution());
            match e {
                MeasurementEvent::ServiceCall {
                    service,
                    entry_ns,
                    exit_ns,
                    ..
                } => {
                    s.service_calls += 1;
                    services.insert(service.as_str());
                    times(&mut s, *entry_ns, *exit_ns);
                }
                MeasurementEvent::ResourceDemand { start_ns, stop_ns, .. } => {
                    s.resource_demands += 1;
                    times(&mut s, *start_ns, *stop_ns);
                }
                MeasurementEvent::Loop { .. } => s.loops += 1,
                MeasurementEvent::Branch { .. } => s.branches += 1,
                MeasurementEvent::ParameterChange { .. } => s.parameter_changes += 1,
            }
        }
        s.executions = executions.len();
        s.services = services.len();
        s
    }
}

/// A persistent content key: blake3 (hex) over the parts, each prefixed with its length as a
/// little-endian u64, so `["ab", "c"]` and `["a", "bc"]` differ. Stable across Rust releases and
/// machines (unlike std's `DefaultHasher`), so it can key stored measurements and runs.
pub fn content_key(parts: &[&[u8]]) -> String {
    let mut h = blake3::Hasher::new();
    for p in parts {
        h.update(&(p.len() as u64).to_le_bytes());
        h.update(p);
    }
    h.finalize().to_hex().to_string()
}
