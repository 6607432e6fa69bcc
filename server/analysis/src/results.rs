//! The measurement controller's event parser: time-ordered [`MeasurementEvent`]s become
//! [`MeasurementResult`]s per element, each observation with the parameterisation in force (the
//! characterised inputs of the service execution the event belongs to).
//!
//! - resource demand: `stop - start`, in [`ResultOptions::time_unit_ns`] units, keyed by the
//!   resource type's id (`CPU` in the events becomes Palladio's id). The demands of one action in
//!   one execution (under one parameterisation) are one observation, their mean, standing for
//!   their number ([`Observation::executions`]); an aggregate event (`resource_demand_total`)
//!   gives that directly. Demands are what a simulation adds up, so the mean is what a law of
//!   them predicts; and an action in a hot loop then costs one observation per service call;
//! - loop: the iteration count (an aggregate `loop_total`: the mean per execution of the loop);
//! - branch: one observation per execution and known transition, the share of the execution's
//!   decisions that took it (1 or 0 for a branch decided once), standing for their number (so a
//!   fit of the observations is the transition's probability);
//! - a service call made by an external call: per callee parameter, the value passed, observed
//!   under the caller execution's parameters (the call's parameter data flow). The values one
//!   call passes in one execution (under one parameterisation) are one observation, their mean,
//!   standing for their number, as demands are: the model's value is what one call passes on
//!   average. An upload of which half the files are compressed already passes half of them to
//!   its hash call at their size and half at the size compression made; as separate
//!   observations, the median of such a point was one of the two sizes (which one depending on
//!   whether the upload had an odd number of files), and genetic programming fitted switches
//!   such as `S - 0.7·S·e^(-2000·compressed)` to them, off by half at every mixed upload;
//!
//! The parameterisation in force for an execution is what its `ServiceCall` named at entry, changed
//! by its `ParameterChange` events (return values of external calls) from where they stand in the
//! stream on. Events are processed in stream order, so a service call must come before the events
//! of its execution. [`EventDigest`] takes them one at a time, so a file streams through.

use crate::blackboard::{ElementKind, MeasurableElement, MeasurementResult, Observation};
use crate::events::{MeasurementEvent, Parameters};
use beagle_pcm::edit::resource_type_id;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// How events become values.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultOptions {
    /// Nanoseconds per unit of a resource demand (default 1e6: milliseconds).
    pub time_unit_ns: f64,
    /// One observation per resource demand, branch event and passed value, as recorded. Off
    /// (the default), the demands of one action in one service execution under one
    /// parameterisation become one observation, their mean, standing for their number of
    /// executions (an action in a loop of 2,000 iterations gives one observation per service
    /// call, not 2,000), and so do a branch's decisions (per transition, the share that took it)
    /// and the values one external call passes.
    pub per_iteration: bool,
}

impl Default for ResultOptions {
    fn default() -> Self {
        ResultOptions {
            time_unit_ns: 1e6,
            per_iteration: false,
        }
    }
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
    let mut digest = EventDigest::new(options.clone());
    for e in events {
        digest.add(e);
    }
    digest.finish()
}

/// Observations waiting to be added to an element's result in one batch (bounded memory: the
/// result keeps a bounded sample per point, [`crate::point_sample`]).
const BATCH: usize = 4096;

/// Per transition, how many decisions took it (`None`: no transition ran).
type Taken = BTreeMap<Option<String>, u64>;

/// Demands of one action, values passed by one call, or decisions of one branch, in one
/// execution so far.
#[derive(Default)]
struct Pending {
    count: u64,
    /// Resource demands: nanoseconds in all; passed values: their sum.
    sum: f64,
    /// Branches: per transition, how many decisions took it.
    taken: Taken,
}

/// [`results_from_events`] one event at a time: memory grows with the executions and elements,
/// not with the events (a file of millions of demands streams through it).
pub struct EventDigest {
    options: ResultOptions,
    /// The parameterisation in force per execution, as the stream unfolds.
    in_force: HashMap<String, Parameters>,
    /// The SEFF of each open execution (its `ServiceCall`'s service).
    service_of: HashMap<String, String>,
    /// Where each action, loop, branch and external call belongs (its SEFF), when a model says
    /// ([`EventDigest::with_services`]).
    services: BTreeMap<String, String>,
    /// Per element: observations dropped because they were made in an execution of another SEFF
    /// than the element's (that SEFF -> how many).
    foreign: BTreeMap<String, BTreeMap<String, u64>>,
    /// Every transition of each branch that a model knows ([`EventDigest::with_transitions`]).
    transitions: BTreeMap<String, BTreeSet<String>>,
    /// Aggregated per execution: (element kind, the action's or branch's pending values).
    pending: HashMap<String, BTreeMap<ElementKind, Pending>>,
    /// Per branch, every decision so far as an observation of value 0 (at its parameters,
    /// standing for its decisions): what a transition first seen now had observed at the
    /// decisions before, which did not take it ([`EventDigest::decide`]).
    untaken: BTreeMap<String, Collected>,
    out: BTreeMap<String, Collected>,
}

/// An element's result so far, and observations waiting to be added to it in one batch.
#[derive(Clone)]
struct Collected {
    element: MeasurableElement,
    result: MeasurementResult,
    batch: Vec<Observation>,
}

impl Collected {
    fn new(element: MeasurableElement) -> Collected {
        let result = MeasurementResult::new(element.id.clone(), Vec::new());
        Collected {
            element,
            result,
            batch: Vec::new(),
        }
    }

    fn add(&mut self, observation: Observation) {
        self.batch.push(observation);
        if self.batch.len() >= BATCH {
            let batch = std::mem::take(&mut self.batch);
            self.result.absorb(batch);
        }
    }

    fn finish(mut self) -> (MeasurableElement, MeasurementResult) {
        self.result.absorb(self.batch);
        (self.element, self.result)
    }
}

impl EventDigest {
    pub fn new(options: ResultOptions) -> EventDigest {
        EventDigest {
            options,
            in_force: HashMap::new(),
            service_of: HashMap::new(),
            services: BTreeMap::new(),
            foreign: BTreeMap::new(),
            transitions: BTreeMap::new(),
            pending: HashMap::new(),
            untaken: BTreeMap::new(),
            out: BTreeMap::new(),
        }
    }

    /// Every transition of each branch (branch id -> transition ids), as the model has them.
    /// Each decision of a branch is then one observation of every one of its transitions, the
    /// transitions it did not take included. Without them, only the transitions these events
    /// took are known: when the events of one branch are digested in parts (a Java launch point
    /// each) and a transition never ran in one part, it would have no observations there, and
    /// fitted over the other parts alone it comes out at probability 1 beside a sibling that is
    /// 1 as well.
    pub fn with_transitions<I, T>(mut self, transitions: I) -> Self
    where
        I: IntoIterator<Item = (String, T)>,
        T: IntoIterator<Item = String>,
    {
        for (branch, ts) in transitions {
            self.transitions.entry(branch).or_default().extend(ts);
        }
        self
    }

    /// [`EventDigest::new`] that knows what the model says of `elements`: the transitions of
    /// their branches ([`EventDigest::with_transitions`]) and their SEFFs
    /// ([`EventDigest::with_services`]).
    pub fn for_elements<'a>(options: ResultOptions, elements: impl IntoIterator<Item = &'a MeasurableElement>) -> Self {
        let mut services = BTreeMap::new();
        let mut transitions: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for e in elements {
            if let Some(service) = &e.service {
                services.insert(crate::model::action_of(&e.kind).to_string(), service.clone());
            }
            if let ElementKind::Branch { branch, transition } = &e.kind {
                transitions.entry(branch.clone()).or_default().push(transition.clone());
            }
        }
        EventDigest::new(options)
            .with_transitions(transitions)
            .with_services(services)
    }

    /// The SEFF of each action, loop, branch and external call (PCM id -> SEFF id), as the model
    /// has them. An event of such an element in an execution of another SEFF is not an
    /// observation of the element (shared code, a helper method the element is linked to, that
    /// another service ran): it is dropped and counted ([`EventDigest::notes`]). An element whose
    /// SEFF never ran then has no observations, and no result.
    pub fn with_services(mut self, services: BTreeMap<String, String>) -> Self {
        self.services = services;
        self
    }

    /// What was dropped, one line per element: `"{id}: not measured in {n} executions of {seff}
    /// ..."`. Ask before [`EventDigest::finish`].
    pub fn notes(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (id, by) in &self.foreign {
            let action = id.split('/').next().unwrap_or(id);
            let own = self.services.get(action).map_or("?", String::as_str);
            for (seff, n) in by {
                out.push(format!(
                    "{id}: {n} observations were made in executions of SEFF {seff}, not of its own SEFF {own}: not used"
                ));
            }
        }
        out
    }

    /// Whether an event of `action` (element `id`) in `execution` belongs to another SEFF than
    /// the action's; such an event is counted and not used.
    fn is_foreign(&mut self, execution: &str, action: &str, id: impl FnOnce() -> String) -> bool {
        let (Some(own), Some(ran)) = (self.services.get(action), self.service_of.get(execution)) else {
            return false;
        };
        if own == ran {
            return false;
        }
        let ran = ran.clone();
        *self.foreign.entry(id()).or_default().entry(ran).or_default() += 1;
        true
    }

    fn parameters(&self, execution: &str) -> Parameters {
        self.in_force.get(execution).cloned().unwrap_or_default()
    }

    fn add_observation(&mut self, kind: ElementKind, parameters: Parameters, value: f64, executions: u64) {
        let element = MeasurableElement::new(kind);
        self.out
            .entry(element.id.clone())
            .or_insert_with(|| Collected::new(element))
            .add(Observation {
                run: None,
                parameters,
                value,
                executions,
                mean: None,
            });
    }

    /// Decisions of `branch` at `parameters` (per transition, how many took it): one
    /// observation of every transition of the branch, the share of the decisions that took it,
    /// standing for their number. The branch's transitions are those the model has and those
    /// seen so far. A transition first seen now gets, as its observations before, the
    /// branch's decisions before as zeros (a copy of [`EventDigest::untaken`]: the same points
    /// in the same order, so the same sample is kept as if it had been known from the start).
    /// Memory: per branch and transition a bounded result, not a list of decisions.
    fn decide(&mut self, branch: &str, parameters: Parameters, taken: Taken) {
        let n: u64 = taken.values().sum();
        if n == 0 {
            return;
        }
        let known = self.transitions.entry(branch.to_string()).or_default();
        let new: Vec<String> = taken
            .keys()
            .flatten()
            .filter(|t| !known.contains(*t))
            .cloned()
            .collect();
        known.extend(new.iter().cloned());
        for t in new {
            let element = MeasurableElement::new(ElementKind::Branch {
                branch: branch.to_string(),
                transition: t,
            });
            let collected = match self.untaken.get(branch) {
                Some(zeros) => {
                    let mut c = zeros.clone();
                    c.result.element = element.id.clone();
                    c.element = element;
                    c
                }
                None => Collected::new(element),
            };
            self.out.insert(collected.element.id.clone(), collected);
        }
        let transitions: Vec<String> = self.transitions[branch].iter().cloned().collect();
        for t in transitions {
            let k = taken.get(&Some(t.clone())).copied().unwrap_or(0);
            let kind = ElementKind::Branch {
                branch: branch.to_string(),
                transition: t,
            };
            self.add_observation(kind, parameters.clone(), k as f64 / n as f64, n);
        }
        let zeros = MeasurableElement::new(ElementKind::Branch {
            branch: branch.to_string(),
            transition: String::new(),
        });
        self.untaken
            .entry(branch.to_string())
            .or_insert_with(|| Collected::new(zeros))
            .add(Observation {
                run: None,
                parameters,
                value: 0.0,
                executions: n,
                mean: None,
            });
    }

    /// Turns what an execution aggregated into observations (before its parameters change, and
    /// at the end).
    fn flush(&mut self, execution: &str) {
        let Some(pending) = self.pending.remove(execution) else {
            return;
        };
        let parameters = self.parameters(execution);
        for (kind, p) in pending {
            match kind {
                ElementKind::Branch { branch, .. } => self.decide(&branch, parameters.clone(), p.taken),
                kind => {
                    let unit = match kind {
                        ElementKind::CallParameter { .. } => 1.0,
                        _ => self.options.time_unit_ns,
                    };
                    let mean = p.sum / p.count as f64 / unit;
                    self.add_observation(kind, parameters.clone(), mean, p.count)
                }
            }
        }
    }

    fn aggregate(&mut self, execution: &str, kind: ElementKind) -> &mut Pending {
        self.pending
            .entry(execution.to_string())
            .or_default()
            .entry(kind)
            .or_default()
    }

    /// Takes one event, in stream order.
    pub fn add(&mut self, e: &MeasurementEvent) {
        match e {
            // A counting run's counts are no demand (`beagle_java::count::laws` fits them).
            MeasurementEvent::Count { .. } => {}
            MeasurementEvent::ServiceCall {
                execution,
                service,
                caller_execution,
                call,
                parameters,
                ..
            } => {
                if let (Some(caller), Some(call)) = (caller_execution, call) {
                    let at = self.parameters(caller);
                    for (name, value) in parameters {
                        let kind = ElementKind::CallParameter {
                            call: call.clone(),
                            parameter: name.clone(),
                        };
                        if self.is_foreign(caller, call, || kind.id()) {
                            continue;
                        }
                        if self.options.per_iteration {
                            self.add_observation(kind, at.clone(), *value, 1);
                            continue;
                        }
                        let p = self.aggregate(caller, kind);
                        p.count += 1;
                        p.sum += *value;
                    }
                }
                self.flush(execution);
                self.in_force.insert(execution.clone(), parameters.clone());
                if !self.services.is_empty() {
                    self.service_of.insert(execution.clone(), service.clone());
                }
            }
            MeasurementEvent::ParameterChange { execution, parameters } => {
                self.flush(execution);
                let current = self.in_force.entry(execution.clone()).or_default();
                current.extend(parameters.iter().map(|(k, v)| (k.clone(), *v)));
            }
            MeasurementEvent::ResourceDemand {
                execution,
                action,
                resource,
                start_ns,
                stop_ns,
            } => {
                let ns = stop_ns.saturating_sub(*start_ns) as f64;
                self.demands(execution, action, resource, 1, ns);
            }
            MeasurementEvent::ResourceDemandTotal {
                execution,
                action,
                resource,
                count,
                total_ns,
            } => self.demands(execution, action, resource, *count, *total_ns as f64),
            MeasurementEvent::Loop {
                execution,
                loop_id,
                count,
            } => {
                if self.is_foreign(execution, loop_id, || loop_id.clone()) {
                    return;
                }
                let kind = ElementKind::Loop {
                    loop_id: loop_id.clone(),
                };
                let at = self.parameters(execution);
                self.add_observation(kind, at, *count as f64, 1);
            }
            MeasurementEvent::LoopTotal {
                execution,
                loop_id,
                executions,
                iterations,
            } => {
                if *executions > 0 && !self.is_foreign(execution, loop_id, || loop_id.clone()) {
                    let kind = ElementKind::Loop {
                        loop_id: loop_id.clone(),
                    };
                    let at = self.parameters(execution);
                    self.add_observation(kind, at, *iterations as f64 / *executions as f64, *executions);
                }
            }
            MeasurementEvent::Branch {
                execution,
                branch,
                transition,
            } => {
                let taken = [(transition.clone(), 1)].into();
                self.decisions_of(execution, branch, taken);
            }
            MeasurementEvent::BranchTotal {
                execution,
                branch,
                transitions,
                not_taken,
            } => {
                let mut taken: Taken = transitions.iter().map(|(t, n)| (Some(t.clone()), *n)).collect();
                if *not_taken > 0 {
                    taken.insert(None, *not_taken);
                }
                self.decisions_of(execution, branch, taken);
            }
        }
    }

    /// The execution ended: no more events of it follow. Its aggregates become observations and
    /// its parameterisation is forgotten (a stream of millions of executions keeps only the open
    /// ones). Its callees' `ServiceCall`s came before, so nothing needs it any more.
    pub fn end(&mut self, execution: &str) {
        self.flush(execution);
        self.in_force.remove(execution);
        self.service_of.remove(execution);
    }

    fn demands(&mut self, execution: &str, action: &str, resource: &str, count: u64, ns: f64) {
        if count == 0 {
            return;
        }
        // Measurements may name Palladio's resource types (`CPU`); the model uses ids.
        let kind = ElementKind::ResourceDemand {
            action: action.to_string(),
            resource: resource_type_id(resource).to_string(),
        };
        if self.is_foreign(execution, action, || kind.id()) {
            return;
        }
        let unit = self.options.time_unit_ns;
        if self.options.per_iteration && count == 1 {
            let at = self.parameters(execution);
            self.add_observation(kind, at, ns / unit, 1);
            return;
        }
        let p = self.aggregate(execution, kind);
        p.count += count;
        // In nanoseconds (whole numbers: exact), so totals and single records sum alike.
        p.sum += ns;
    }

    fn decisions_of(&mut self, execution: &str, branch: &str, taken: Taken) {
        if self.is_foreign(execution, branch, || branch.to_string()) {
            return;
        }
        if self.options.per_iteration && taken.values().sum::<u64>() == 1 {
            let at = self.parameters(execution);
            self.decide(branch, at, taken);
            return;
        }
        // Branch elements are keyed by the branch alone while pending (transition left empty).
        let p = self.aggregate(
            execution,
            ElementKind::Branch {
                branch: branch.to_string(),
                transition: String::new(),
            },
        );
        for (t, n) in taken {
            *p.taken.entry(t).or_default() += n;
        }
    }

    /// The results per element, in element id order.
    pub fn finish(mut self) -> Vec<(MeasurableElement, MeasurementResult)> {
        let mut executions: Vec<String> = self.pending.keys().cloned().collect();
        // Sorted: the order of the observations (and of float sums) does not depend on hashing.
        executions.sort_unstable();
        for execution in executions {
            self.flush(&execution);
        }
        self.out.into_values().map(Collected::finish).collect()
    }
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
    fn the_values_one_call_passes_in_one_execution_are_one_observation_their_mean() {
        // Upload e1 (4 files, 2 compressed) passes 100, 100, 29, 29 to its hash call; e4
        // (3 files) 50, 50, 14; then e4's parameters change and it passes 7 once more.
        let pass = |caller: &str, callee: &str, size: f64| MeasurementEvent::ServiceCall {
            execution: callee.into(),
            service: "_hash".into(),
            caller_execution: Some(caller.into()),
            call: Some("_c".into()),
            parameters: [("data.BYTESIZE".to_string(), size)].into(),
            entry_ns: 1,
            exit_ns: 2,
        };
        let mut events = vec![call("e1", 4.0), call("e4", 3.0)];
        for (i, size) in [100.0, 29.0, 100.0, 29.0].into_iter().enumerate() {
            events.push(pass("e1", &format!("h{i}"), size));
        }
        for (i, size) in [50.0, 14.0, 50.0].into_iter().enumerate() {
            events.push(pass("e4", &format!("g{i}"), size));
        }
        events.push(MeasurementEvent::ParameterChange {
            execution: "e4".into(),
            parameters: [("n.VALUE".to_string(), 9.0)].into(),
        });
        events.push(pass("e4", "g9", 7.0));
        let values = |options: &ResultOptions| -> Vec<(f64, f64, u64)> {
            let r = results_from_events(&events, options);
            let (_, result) = r.iter().find(|(e, _)| e.id == "_c/data.BYTESIZE").unwrap();
            let mut v: Vec<(f64, f64, u64)> = result
                .observations
                .iter()
                .map(|o| (o.parameters["n.VALUE"], o.value, o.executions))
                .collect();
            v.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
            v
        };
        assert_eq!(
            values(&ResultOptions::default()),
            vec![(3.0, 38.0, 3), (4.0, 64.5, 4), (9.0, 7.0, 1)]
        );
        let raw = values(&ResultOptions {
            per_iteration: true,
            ..ResultOptions::default()
        });
        assert_eq!(raw.len(), 8, "{raw:?}");
        // In another order of the executions' events: the same observations.
        let (head, tail) = events.split_at(2);
        let mut reordered: Vec<MeasurementEvent> = head.to_vec();
        let mut calls: Vec<MeasurementEvent> = tail[..7].to_vec();
        calls.reverse();
        reordered.extend(calls);
        reordered.extend(tail[7..].iter().cloned());
        let again = results_from_events(&reordered, &ResultOptions::default());
        let (_, result) = again.iter().find(|(e, _)| e.id == "_c/data.BYTESIZE").unwrap();
        assert_eq!(result.observations.len(), 3);
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

    /// Per execution, `k` demands of `_a` and decisions of `_b`, as recorded one by one.
    fn recorded(executions: &[(&str, f64, u64)]) -> Vec<MeasurementEvent> {
        let mut events = Vec::new();
        for (execution, n, k) in executions {
            events.push(call(execution, *n));
            for i in 0..*k {
                events.push(MeasurementEvent::ResourceDemand {
                    execution: execution.to_string(),
                    action: "_a".into(),
                    resource: "CPU".into(),
                    start_ns: 0,
                    stop_ns: 1_000_000 + 1000 * i,
                });
                events.push(MeasurementEvent::Branch {
                    execution: execution.to_string(),
                    branch: "_b".into(),
                    transition: (i % 3 != 0).then(|| "_t1".to_string()),
                });
            }
        }
        events
    }

    #[test]
    fn the_demands_and_decisions_of_one_execution_are_one_observation_however_recorded() {
        let executions = [("e1", 4.0, 3), ("e2", 4.0, 6), ("e3", 9.0, 1)];
        let raw = results_from_events(&recorded(&executions), &ResultOptions::default());
        // The same as totals per execution.
        let mut totals = Vec::new();
        for (execution, n, k) in executions {
            totals.push(call(execution, n));
            totals.push(MeasurementEvent::ResourceDemandTotal {
                execution: execution.into(),
                action: "_a".into(),
                resource: "CPU".into(),
                count: k,
                total_ns: (0..k).map(|i| 1_000_000 + 1000 * i).sum(),
            });
            totals.push(MeasurementEvent::BranchTotal {
                execution: execution.into(),
                branch: "_b".into(),
                transitions: [("_t1".to_string(), (0..k).filter(|i| i % 3 != 0).count() as u64)].into(),
                not_taken: (0..k).filter(|i| i % 3 == 0).count() as u64,
            });
        }
        let aggregated = results_from_events(&totals, &ResultOptions::default());
        assert_eq!(raw, aggregated);
        let by: BTreeMap<String, &MeasurementResult> = raw.iter().map(|(e, r)| (e.id.clone(), r)).collect();
        let demand = &by["_a/_oro4gG3fEdy4YaaT-RYrLQ"].observations;
        let got: Vec<(f64, u64)> = demand.iter().map(|o| (o.value, o.executions)).collect();
        let want = [(1.001, 3), (1.0025, 6), (1.0, 1)];
        assert!(
            got.iter()
                .zip(want)
                .all(|(g, w)| (g.0 - w.0).abs() < 1e-12 && g.1 == w.1),
            "{got:?}"
        );
        let t1: Vec<(f64, u64)> = by["_b/_t1"]
            .observations
            .iter()
            .map(|o| (o.value, o.executions))
            .collect();
        assert_eq!(t1, vec![(2.0 / 3.0, 3), (4.0 / 6.0, 6), (0.0, 1)]);
        // Recorded one by one when asked.
        let per_iteration = ResultOptions {
            per_iteration: true,
            ..ResultOptions::default()
        };
        let each = results_from_events(&recorded(&executions), &per_iteration);
        let n: Vec<usize> = each.iter().map(|(_, r)| r.samples()).collect();
        assert_eq!(n, vec![10, 10]);
    }

    /// Decisions of `_b` in `n` executions at a few points, where `_t2` is first taken late
    /// (after more decisions than a point keeps and than one batch holds).
    fn late_transition(n: usize) -> Vec<MeasurementEvent> {
        let mut events = Vec::new();
        for i in 0..n {
            let execution = format!("e{i}");
            events.push(call(&execution, (i % 7) as f64));
            let transition = if i > n / 2 && i % 5 == 0 { "_t2" } else { "_t1" };
            events.push(MeasurementEvent::Branch {
                execution: execution.clone(),
                branch: "_b".into(),
                transition: Some(transition.to_string()),
            });
            if i % 11 == 0 {
                // A decision where no transition ran.
                events.push(MeasurementEvent::Branch {
                    execution: execution.clone(),
                    branch: "_b".into(),
                    transition: None,
                });
            }
        }
        events
    }

    #[test]
    fn a_transition_seen_late_has_the_results_it_would_have_had_if_known_from_the_start() {
        let events = late_transition(3 * BATCH + 17);
        let digest = |d: EventDigest| {
            let mut d = d;
            for e in &events {
                d.add(e);
            }
            d.finish()
        };
        let seen = digest(EventDigest::new(ResultOptions::default()));
        let known = digest(
            EventDigest::new(ResultOptions::default())
                .with_transitions([("_b".to_string(), vec!["_t1".to_string(), "_t2".to_string()])]),
        );
        assert_eq!(seen, known);
        let ids: Vec<&str> = seen.iter().map(|(e, _)| e.id.as_str()).collect();
        assert_eq!(ids, ["_b/_t1", "_b/_t2"]);
        // Bounded: beyond the points' bound, tallies hold the rest; every decision counted.
        for (_, r) in &seen {
            assert!(
                r.observations.len() <= 7 * crate::KEPT_PER_POINT,
                "{}",
                r.observations.len()
            );
            assert_eq!(
                r.samples(),
                events
                    .iter()
                    .filter(|e| matches!(e, MeasurementEvent::ServiceCall { .. }))
                    .count()
            );
        }
        // The shares of the two transitions add up to at most 1 at every kept decision.
        let t2 = &seen[1].1;
        assert!(t2.observations.iter().any(|o| o.value > 0.0));
        assert!(
            t2.observations
                .iter()
                .filter(|o| o.parameters["n.VALUE"] == 0.0)
                .count()
                > 0
        );
    }

    #[test]
    fn a_loop_total_is_the_mean_count_per_execution_of_the_loop() {
        let events = vec![
            call("e1", 4.0),
            MeasurementEvent::LoopTotal {
                execution: "e1".into(),
                loop_id: "_l".into(),
                executions: 4,
                iterations: 10,
            },
        ];
        let r = results_from_events(&events, &ResultOptions::default());
        let o = &r[0].1.observations[0];
        assert_eq!((o.value, o.executions), (2.5, 4));
    }
}
