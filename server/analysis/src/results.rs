//! The measurement controller's event parser: time-ordered [`MeasurementEvent`]s become
//! [`MeasurementResult`]s per element, each observation with the parameterisation in force (the
//! characterised inputs of the service execution the event belongs to).
//!
//! - resource demand: `stop - start`, in [`ResultOptions::time_unit_ns`] units;
//! - loop: the iteration count;
//! - branch: one observation per execution and known transition, 1 if that transition ran
//!   (so a fit of the observations is the transition's probability);
//! - a service call made by an external call: per callee parameter, the value passed, observed
//!   under the caller execution's parameters (the call's parameter data flow).

use crate::blackboard::{ElementKind, MeasurableElement, MeasurementResult, Observation};
use crate::events::{MeasurementEvent, Parameters};
use std::collections::{BTreeMap, BTreeSet};

/// How events become values.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultOptions {
    /// Nanoseconds per unit of a resource demand (default 1e6: milliseconds).
    pub time_unit_ns: f64,
}

impl Default for ResultOptions {
    fn default() -> Self {
        ResultOptions { time_unit_ns: 1e6 }
    }
}

/// Every transition seen per branch (a branch's elements are its transitions).
fn transitions(events: &[MeasurementEvent]) -> BTreeMap<&str, BTreeSet<&str>> {
    let mut t: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for e in events {
        if let MeasurementEvent::Branch { branch, transition, .. } = e {
            let set = t.entry(branch.as_str()).or_default();
            if let Some(tr) = transition {
                set.insert(tr.as_str());
            }
        }
    }
    t
}

/// The elements the events measure (to build a blackboard when there is no model at hand).
pub fn elements_of(events: &[MeasurementEvent]) -> Vec<MeasurableElement> {
    results_from_events(events, &ResultOptions::default())
        .into_iter()
        .map(|(e, _)| e)
        .collect()
}

/// The results per element (see the module documentation), in element id order. Events of
/// executions without a `ServiceCall` are observed without parameters.
pub fn results_from_events(
    events: &[MeasurementEvent],
    options: &ResultOptions,
) -> Vec<(MeasurableElement, MeasurementResult)> {
    let none = Parameters::new();
    let params: BTreeMap<&str, &Parameters> = events
        .iter()
        .filter_map(|e| match e {
            MeasurementEvent::ServiceCall {
                execution, parameters, ..
            } => Some((execution.as_str(), parameters)),
            _ => None,
        })
        .collect();
    let of = |execution: &str| -> Parameters { params.get(execution).copied().unwrap_or(&none).clone() };
    let branches = transitions(events);
    let mut out: BTreeMap<String, (MeasurableElement, MeasurementResult)> = BTreeMap::new();
    let mut add = |kind: ElementKind, parameters: Parameters, value: f64| {
        let element = MeasurableElement::new(kind);
        let entry = out.entry(element.id.clone()).or_insert_with(|| {
            let r = MeasurementResult {
                element: element.id.clone(),
                observations: Vec::new(),
            };
            (element, r)
        });
        entry.1.observations.push(Observation { parameters, value });
    };
    for e in events {
        match e {
            MeasurementEvent::ServiceCall {
                caller_execution: Some(caller),
                call: Some(call),
                parameters,
                ..
            } => {
                for (name, value) in parameters {
                    let kind = ElementKind::CallParameter {
                        call: call.clone(),
                        parameter: name.clone(),
                    };
                    add(kind, of(caller), *value);
                }
            }
            MeasurementEvent::ServiceCall { .. } => {}
            MeasurementEvent::ResourceDemand {
                execution,
                action,
                resource,
                start_ns,
                stop_ns,
            } => {
                let kind = ElementKind::ResourceDemand {
                    action: action.clone(),
                    resource: resource.clone(),
                };
                let ns = stop_ns.saturating_sub(*start_ns) as f64;
                add(kind, of(execution), ns / options.time_unit_ns);
            }
            MeasurementEvent::Loop {
                execution,
                loop_id,
                count,
            } => add(
                ElementKind::Loop {
                    loop_id: loop_id.clone(),
                },
                of(execution),
                *count as f64,
            ),
            MeasurementEvent::Branch {
                execution,
                branch,
                transition,
            } => {
                for t in &branches[branch.as_str()] {
                    let kind = ElementKind::Branch {
                        branch: branch.clone(),
                        transition: t.to_string(),
                    };
                    let taken = transition.as_deref() == Some(*t);
                    add(kind, of(execution), if taken { 1.0 } else { 0.0 });
                }
            }
        }
    }
    out.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(execution: &str, n: f64) -> MeasurementEvent {
        MeasurementEvent::ServiceCall {
            execution: execution.into(),
            service: "_s".into(),
            caller_execution: None,
            call: None,
            parameters: [("n.VALUE".to_string(), n)].into(),
            entry_ns: 0,
            exit_ns: 10,
        }
    }

    #[test]
    fn every_kind_with_its_parameterisation() {
        let events = vec![
            call("e1", 4.0),
            MeasurementEvent::ResourceDemand {
                execution: "e1".into(),
                action: "_a".into(),
                resource: "CPU".into(),
                start_ns: 1_000_000,
                stop_ns: 3_500_000,
            },
            MeasurementEvent::Loop {
                execution: "e1".into(),
                loop_id: "_l".into(),
                count: 4,
            },
            MeasurementEvent::Branch {
                execution: "e1".into(),
                branch: "_b".into(),
                transition: Some("_t1".into()),
            },
            MeasurementEvent::ServiceCall {
                execution: "e2".into(),
                service: "_callee".into(),
                caller_execution: Some("e1".into()),
                call: Some("_c".into()),
                parameters: [("m.VALUE".to_string(), 3.0)].into(),
                entry_ns: 1,
                exit_ns: 2,
            },
            call("e3", 20.0),
            MeasurementEvent::Branch {
                execution: "e3".into(),
                branch: "_b".into(),
                transition: Some("_t2".into()),
            },
        ];
        let r = results_from_events(&events, &ResultOptions::default());
        let by: BTreeMap<String, &MeasurementResult> = r.iter().map(|(e, r)| (e.id.clone(), r)).collect();
        let n4: Parameters = [("n.VALUE".to_string(), 4.0)].into();
        assert_eq!(by["_a/CPU"].observations[0].value, 2.5);
        assert_eq!(by["_a/CPU"].observations[0].parameters, n4);
        assert_eq!(by["_l"].observations[0].value, 4.0);
        assert_eq!(by["_c/m.VALUE"].observations[0].value, 3.0);
        assert_eq!(by["_c/m.VALUE"].observations[0].parameters, n4);
        let t1: Vec<f64> = by["_b/_t1"].observations.iter().map(|o| o.value).collect();
        let t2: Vec<f64> = by["_b/_t2"].observations.iter().map(|o| o.value).collect();
        assert_eq!(t1, vec![1.0, 0.0]);
        assert_eq!(t2, vec![0.0, 1.0]);
        assert_eq!(elements_of(&events).len(), 5);
    }
}
