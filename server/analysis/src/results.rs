//! The measurement controller's event parser: time-ordered [`MeasurementEvent`]s become
//! [`MeasurementResult`]s per element, each observation with the parameterisation in force (the
//! characterised inputs of the service execution the event belongs to).
//!
//! - resource demand: `stop - start`, in [`ResultOptions::time_unit_ns`] units, keyed by the
//!   resource type's id (`CPU` in the events becomes Palladio's id);
//! - loop: the iteration count;
//! - branch: one observation per execution and known transition, 1 if that transition ran
//!   (so a fit of the observations is the transition's probability);
//! - a service call made by an external call: per callee parameter, the value passed, observed
//!   under the caller execution's parameters (the call's parameter data flow).
//!
//! The parameterisation in force for an execution is what its `ServiceCall` named at entry, changed
//! by its `ParameterChange` events (return values of external calls) from where they stand in the
//! stream on. Events are processed in stream order, so a service call must come before the events
//! of its execution.

use crate::blackboard::{ElementKind, MeasurableElement, MeasurementResult, Observation};
use crate::events::{MeasurementEvent, Parameters};
use beagle_pcm::edit::resource_type_id;
use std::collections::{BTreeMap, BTreeSet, HashMap};

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

/// The parameters in force for an execution (none for an execution without a `ServiceCall`).
fn of(in_force: &HashMap<&str, Parameters>, execution: &str) -> Parameters {
    in_force.get(execution).cloned().unwrap_or_default()
}

/// The elements the events measure (to build a blackboard when there is no model at hand).
pub fn elements_of(events: &[MeasurementEvent]) -> Vec<MeasurableElement> {
    results_from_events(events, &ResultOptions::default())
        .into_iter()
        .map(|(e, _)| e)
        .collect()
}

/// The results per element (see the module documentation), in element id order. Events of
/// executions without a `ServiceCall` before them are observed without parameters.
pub fn results_from_events(
    events: &[MeasurementEvent],
    options: &ResultOptions,
) -> Vec<(MeasurableElement, MeasurementResult)> {
    // The parameterisation in force per execution, as the stream unfolds.
    let mut in_force: HashMap<&str, Parameters> = HashMap::new();
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
        entry.1.observations.push(Observation {
            run: None,
            parameters,
            value,
        });
    };
    for e in events {
        match e {
            MeasurementEvent::ServiceCall {
                execution,
                caller_execution,
                call,
                parameters,
                ..
            } => {
                if let (Some(caller), Some(call)) = (caller_execution, call) {
                    for (name, value) in parameters {
                        let kind = ElementKind::CallParameter {
                            call: call.clone(),
                            parameter: name.clone(),
                        };
                        add(kind, of(&in_force, caller), *value);
                    }
                }
                in_force.insert(execution, parameters.clone());
            }
            MeasurementEvent::ParameterChange { execution, parameters } => {
                let current = in_force.entry(execution).or_default();
                current.extend(parameters.iter().map(|(k, v)| (k.clone(), *v)));
            }
            MeasurementEvent::ResourceDemand {
                execution,
                action,
                resource,
                start_ns,
                stop_ns,
            } => {
                // Measurements may name Palladio's resource types (`CPU`); the model uses ids.
                let kind = ElementKind::ResourceDemand {
                    action: action.clone(),
                    resource: resource_type_id(resource).to_string(),
                };
                let ns = stop_ns.saturating_sub(*start_ns) as f64;
                add(kind, of(&in_force, execution), ns / options.time_unit_ns);
            }
            MeasurementEvent::Loop {
                execution,
                loop_id,
                count,
            } => add(
                ElementKind::Loop {
                    loop_id: loop_id.clone(),
                },
                of(&in_force, execution),
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
                    add(kind, of(&in_force, execution), if taken { 1.0 } else { 0.0 });
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
        assert_eq!(by["_a/_oro4gG3fEdy4YaaT-RYrLQ"].observations[0].value, 2.5);
        assert_eq!(by["_a/_oro4gG3fEdy4YaaT-RYrLQ"].observations[0].parameters, n4);
        assert_eq!(by["_l"].observations[0].value, 4.0);
        assert_eq!(by["_c/m.VALUE"].observations[0].value, 3.0);
        assert_eq!(by["_c/m.VALUE"].observations[0].parameters, n4);
        let t1: Vec<f64> = by["_b/_t1"].observations.iter().map(|o| o.value).collect();
        let t2: Vec<f64> = by["_b/_t2"].observations.iter().map(|o| o.value).collect();
        assert_eq!(t1, vec![1.0, 0.0]);
        assert_eq!(t2, vec![0.0, 1.0]);
        assert_eq!(elements_of(&events).len(), 5);
    }

    #[test]
    fn parameter_changes_apply_to_later_events_of_their_execution() {
        let lp = |execution: &str, count| MeasurementEvent::Loop {
            execution: execution.into(),
            loop_id: "_l".into(),
            count,
        };
        let events = vec![
            call("e1", 4.0),
            call("e2", 5.0),
            lp("e1", 1),
            MeasurementEvent::ParameterChange {
                execution: "e1".into(),
                parameters: [("result.NUMBER_OF_ELEMENTS".to_string(), 7.0)].into(),
            },
            lp("e1", 2),
            lp("e2", 3),
        ];
        let r = results_from_events(&events, &ResultOptions::default());
        let obs = &r[0].1.observations;
        let before: Parameters = [("n.VALUE".to_string(), 4.0)].into();
        let after: Parameters = [
            ("n.VALUE".to_string(), 4.0),
            ("result.NUMBER_OF_ELEMENTS".to_string(), 7.0),
        ]
        .into();
        assert_eq!(obs[0].parameters, before);
        assert_eq!(obs[1].parameters, after);
        assert_eq!(obs[2].parameters, [("n.VALUE".to_string(), 5.0)].into());
    }
}
