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
    /// Per element (action or SEFF id): the probes' own cost subtracted from its measurements
    /// (Java tool; empty for recorded data and for stores written before probes calibrated).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub probe_costs: std::collections::BTreeMap<String, crate::ProbeCost>,
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
    /// Distinct executions seen, unless they are counted as they end ([`SummaryBuilder::ended`]).
    executions: HashSet<String>,
    /// Executions ended so far, when the source says when each ends.
    ended: Option<usize>,
    services: HashSet<String>,
}

impl SummaryBuilder {
    fn times(&mut self, a: u64, b: u64) {
        let s = &mut self.s;
        let (lo, hi) = (a.min(b), a.max(b));
        s.first_ns = Some(s.first_ns.map_or(lo, |f| f.min(lo)));
        s.last_ns = Some(s.last_ns.map_or(hi, |l| l.max(hi)));
    }

    /// A builder for a source that says when each execution ends (a streamed Kieker log):
    /// executions are counted by [`SummaryBuilder::ended`], not remembered, so its memory does
    /// not grow with the executions.
    pub fn counting_ended() -> SummaryBuilder {
        SummaryBuilder {
            ended: Some(0),
            ..SummaryBuilder::default()
        }
    }

    /// One execution ended (each exactly once; see [`SummaryBuilder::counting_ended`]).
    pub fn ended(&mut self) {
        if let Some(n) = &mut self.ended {
            *n += 1;
        }
    }

    pub fn add(&mut self, e: &MeasurementEvent) {
        self.s.events += 1;
        if self.ended.is_none() && !self.executions.contains(e.execution()) {
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
            // Counts are no timing: a counting run's summary is its service calls.
            MeasurementEvent::Count { .. } => {}
        }
    }

    pub fn finish(mut self) -> EventsSummary {
        self.s.executions = self.ended.unwrap_or(self.executions.len());
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

#[cfg(test)]
mod tests {
    use super::*;

    fn events() -> Vec<MeasurementEvent> {
        let mut events = Vec::new();
        for (i, execution) in ["a", "b", "c"].into_iter().enumerate() {
            events.push(MeasurementEvent::ServiceCall {
                execution: execution.into(),
                service: "_s".into(),
                caller_execution: None,
                call: None,
                parameters: Default::default(),
                entry_ns: 10 * i as u64,
                exit_ns: 10 * i as u64 + 5,
            });
            for _ in 0..=i {
                events.push(MeasurementEvent::Loop {
                    execution: execution.into(),
                    loop_id: "_l".into(),
                    count: 2,
                });
            }
        }
        events
    }

    #[test]
    fn executions_counted_as_they_end_give_the_summary_of_the_whole() {
        let events = events();
        let whole = EventsSummary::of(&events);
        assert_eq!(whole.executions, 3);
        let mut streamed = SummaryBuilder::counting_ended();
        for e in &events {
            streamed.add(e);
        }
        for _ in 0..3 {
            streamed.ended();
        }
        assert!(streamed.executions.is_empty(), "executions are not remembered");
        assert_eq!(streamed.finish(), whole);
    }
}
