//! What a measurement's events held, and content keys.

use crate::events::MeasurementEvent;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// What the events held (stored per measurement, shown to users): counts per event kind (an
/// aggregate event counts the demands, loop executions or decisions it stands for), distinct
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
        let mut b = SummaryBuilder::default();
        for e in events {
            b.add(e);
        }
        b.finish()
    }
}

/// [`EventsSummary::of`] one event at a time (for events streamed from a file).
#[derive(Default)]
pub struct SummaryBuilder {
    s: EventsSummary,
    executions: HashSet<String>,
    services: HashSet<String>,
}

impl SummaryBuilder {
    fn times(&mut self, a: u64, b: u64) {
        let s = &mut self.s;
        let (lo, hi) = (a.min(b), a.max(b));
        s.first_ns = Some(s.first_ns.map_or(lo, |f| f.min(lo)));
        s.last_ns = Some(s.last_ns.map_or(hi, |l| l.max(hi)));
    }

    pub fn add(&mut self, e: &MeasurementEvent) {
        self.s.events += 1;
        if !self.executions.contains(e.execution()) {
            self.executions.insert(e.execution().to_string());
        }
        match e {
            MeasurementEvent::ServiceCall {
                service,
                entry_ns,
                exit_ns,
                ..
            } => {
                self.s.service_calls += 1;
                if !self.services.contains(service) {
                    self.services.insert(service.clone());
                }
                self.times(*entry_ns, *exit_ns);
            }
            MeasurementEvent::ResourceDemand { start_ns, stop_ns, .. } => {
                self.s.resource_demands += 1;
                self.times(*start_ns, *stop_ns);
            }
            MeasurementEvent::ResourceDemandTotal { count, .. } => self.s.resource_demands += *count as usize,
            MeasurementEvent::Loop { .. } => self.s.loops += 1,
            MeasurementEvent::LoopTotal { executions, .. } => self.s.loops += *executions as usize,
            MeasurementEvent::Branch { .. } => self.s.branches += 1,
            MeasurementEvent::BranchTotal {
                transitions, not_taken, ..
            } => self.s.branches += (transitions.values().sum::<u64>() + not_taken) as usize,
            MeasurementEvent::ParameterChange { .. } => self.s.parameter_changes += 1,
        }
    }

    pub fn finish(mut self) -> EventsSummary {
        self.s.executions = self.executions.len();
        self.s.services = self.services.len();
        self.s
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

/// A file's [`content_key`]-style hash, read in chunks (an events file of gigabytes is never
/// held in memory).
pub fn file_key(path: &std::path::Path) -> std::io::Result<String> {
    let mut h = blake3::Hasher::new();
    h.update_reader(std::fs::File::open(path)?)?;
    Ok(h.finalize().to_hex().to_string())
}
