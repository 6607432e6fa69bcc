//! Does the model predict its services? Measured total demands of service executions beside the
//! whole-service prediction ([`crate::predict`]) at the same inputs.
//!
//! A service execution's total demand is every resource demand recorded in it and in the
//! executions it called, directly or not (its tree), in milliseconds. Executions with the same
//! service and inputs form one point, measured as their mean, because a prediction is an
//! expectation: a branch decided one way in one execution and the other way in the next is in
//! the prediction by its probability. The relative error of a point is `|predicted - measured| /
//! measured`.
//!
//! For measurements that already exist (events, Kieker, OpenTelemetry), [`hold_out`] sets a
//! seeded share of the entry executions (with their trees) aside before the analysis, so the
//! laws are validated on executions they were not fitted to.

use crate::events::{MeasurementEvent, Parameters};
use crate::predict::{Bindings, Prediction};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Events split into those the analysis may use and those set aside to validate on.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Split {
    pub training: Vec<MeasurementEvent>,
    pub held_out: Vec<MeasurementEvent>,
    /// Entry executions (no caller) in each.
    pub training_entries: usize,
    pub held_out_entries: usize,
}

/// The execution each execution's tree hangs from (its outermost caller), for every execution
/// with a service call.
fn roots(events: &[MeasurementEvent]) -> HashMap<&str, &str> {
    let mut caller: HashMap<&str, &str> = HashMap::new();
    let mut known: Vec<&str> = Vec::new();
    for e in events {
        if let MeasurementEvent::ServiceCall {
            execution,
            caller_execution,
            ..
        } = e
        {
            known.push(execution);
            if let Some(c) = caller_execution {
                caller.insert(execution, c);
            }
        }
    }
    let mut out = HashMap::new();
    for x in known {
        let mut at = x;
        // Bounded: a cycle of callers (a damaged log) ends at the execution itself.
        for _ in 0..=caller.len() {
            match caller.get(at) {
                Some(c) if *c != x => at = c,
                _ => break,
            }
        }
        out.insert(x, at);
    }
    out
}

/// Sets `share` (0..1) of the entry executions aside, chosen by `seed`, with everything
/// recorded in their trees. Events of executions without a service call stay in training.
pub fn hold_out(events: &[MeasurementEvent], share: f64, seed: u64) -> Split {
    let roots = roots(events);
    let mut entries: Vec<&str> = roots.values().copied().collect::<BTreeSet<_>>().into_iter().collect();
    entries.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    let n = ((entries.len() as f64) * share.clamp(0.0, 1.0)).round() as usize;
    let held: BTreeSet<&str> = entries.iter().take(n).copied().collect();
    let mut split = Split {
        held_out_entries: held.len(),
        training_entries: entries.len() - held.len(),
        ..Split::default()
    };
    for e in events {
        let root = roots.get(e.execution()).copied();
        if root.is_some_and(|r| held.contains(r)) {
            split.held_out.push(e.clone());
        } else {
            split.training.push(e.clone());
        }
    }
    split
}

/// A service's measured total demand at one point of its inputs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Measured {
    /// The SEFF id.
    pub service: String,
    pub inputs: Bindings,
    /// Mean over the executions of the total demand of each (ms).
    pub total_ms: f64,
    pub executions: u64,
}

/// Per service and distinct inputs, the mean total demand of its executions (their trees
/// included); `time_unit_ns` nanoseconds per millisecond-like unit (1e6).
pub fn measured_totals(events: &[MeasurementEvent], time_unit_ns: f64) -> Vec<Measured> {
    let mut caller: HashMap<&str, &str> = HashMap::new();
    let mut calls: Vec<(&str, &str, &Parameters)> = Vec::new();
    for e in events {
        if let MeasurementEvent::ServiceCall {
            execution,
            service,
            caller_execution,
            parameters,
            ..
        } = e
        {
            calls.push((execution, service, parameters));
            if let Some(c) = caller_execution {
                caller.insert(execution, c);
            }
        }
    }
    // Each demand counts for its execution and every caller above it.
    let mut own: HashMap<&str, f64> = HashMap::new();
    for e in events {
        let ns = match e {
            MeasurementEvent::ResourceDemand { start_ns, stop_ns, .. } => stop_ns.saturating_sub(*start_ns) as f64,
            MeasurementEvent::ResourceDemandTotal { total_ns, .. } => *total_ns as f64,
            _ => continue,
        };
        *own.entry(e.execution()).or_default() += ns / time_unit_ns;
    }
    let mut total: HashMap<&str, f64> = HashMap::new();
    for (x, v) in &own {
        let mut at = *x;
        let mut steps = 0;
        loop {
            *total.entry(at).or_default() += v;
            steps += 1;
            match caller.get(at) {
                Some(c) if steps <= caller.len() => at = c,
                _ => break,
            }
        }
    }
    points_of(calls.into_iter().map(|(x, service, parameters)| {
        (
            service.to_string(),
            parameters.clone(),
            total.get(x).copied().unwrap_or(0.0),
        )
    }))
}

/// Executions' totals `(SEFF id, inputs, total ms)` as points: per service and distinct inputs,
/// the mean and the number of executions.
pub fn points_of(executions: impl IntoIterator<Item = (String, Bindings, f64)>) -> Vec<Measured> {
    // (service, inputs as bits) -> (inputs, sum of totals, executions)
    type PointKey = (String, Vec<(String, u64)>);
    let mut points: BTreeMap<PointKey, (Bindings, f64, u64)> = BTreeMap::new();
    for (service, inputs, total) in executions {
        let key: Vec<(String, u64)> = inputs.iter().map(|(k, v)| (k.clone(), v.to_bits())).collect();
        let p = points.entry((service, key)).or_insert_with(|| (inputs, 0.0, 0));
        p.1 += total;
        p.2 += 1;
    }
    points
        .into_iter()
        .map(|((service, _), (inputs, sum, n))| Measured {
            service,
            inputs,
            total_ms: sum / n as f64,
            executions: n,
        })
        .collect()
}

/// One point of a service: predicted beside measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub inputs: Bindings,
    pub predicted_ms: f64,
    pub measured_ms: f64,
    /// Executions the measurement is the mean of.
    pub executions: u64,
}

impl Row {
    pub fn relative_error(&self) -> f64 {
        if self.measured_ms == 0.0 {
            return if self.predicted_ms == 0.0 { 0.0 } else { f64::INFINITY };
        }
        (self.predicted_ms - self.measured_ms).abs() / self.measured_ms.abs()
    }
}

/// The time no action of a SEFF's model carries ([`crate::unmodelled`]: how it is found).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unmodelled {
    /// Median over the points of (measured − predicted) / measured.
    pub median_share: f64,
    /// The spread of those shares between points: their interquartile range.
    #[serde(default)]
    pub share_spread: f64,
    /// The unmodelled time per execution as a StoEx over the service's inputs (ms).
    pub stoex: String,
    /// `final`, or `preliminary: reasons`.
    pub status: String,
    pub points: usize,
}

/// A factor calibrating a SEFF's demands against the plain build (`beagle validate`): where the
/// probes changed what the JIT made of the code (the instrumented build's totals, net of every
/// probe, lie beyond the noise from the plain build's), the demands measured instrumented carry
/// that distortion, and subtracting the probes' cost cannot undo it. Krogmann et al. calibrate
/// predictions against the uninstrumented run the same way: one factor, the median of measured
/// over predicted. It applies to every demand the SEFF's prediction is composed of (its own
/// internal actions and its callees'), listed in `actions`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// Median over the points of the instrumented total over the plain one.
    pub distortion: f64,
    /// Median over the points of the plain total over the prediction: what multiplies the demands.
    pub factor: f64,
    pub points: usize,
    /// The internal actions whose demands the factor multiplies (ids).
    pub actions: Vec<String>,
    /// Why the factor cannot be written into the model, if it cannot (a callee that another
    /// SEFF calls too, whose demands would change that SEFF's prediction).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_writable: Option<String>,
}

impl Calibration {
    /// One line: `calibration: demands × 0.91 (the plain build's totals over the prediction, median of 10 points; ...)`.
    pub fn describe(&self) -> String {
        format!(
            "calibration: demands × {:.3} (the plain build's totals over the prediction, median of {} points), as the instrumented build's totals are {:+.0} % of the plain build's: the probes changed what the JIT made of this code{}",
            self.factor,
            self.points,
            100.0 * (self.distortion - 1.0),
            match &self.not_writable {
                Some(why) => format!("; not writable: {why}"),
                None => String::new(),
            }
        )
    }
}

/// How well the model predicts one service.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServiceValidation {
    /// The repository file that has the SEFF (the user's, also when a copy was analysed).
    #[serde(default)]
    pub repository: String,
    /// `Component.operation`.
    pub service: String,
    pub seff: String,
    pub points: usize,
    pub median_relative_error: f64,
    pub max_relative_error: f64,
    pub rows: Vec<Row>,
    /// What the prediction left out at some point (the error then says little).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    /// What the prediction may not mean (a SEFF it ran whose demands are all 0: not analysed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The time no action of the model carries, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unmodelled: Option<Unmodelled>,
    /// The factor that calibrates its demands against the plain build, where the probes
    /// distorted them ([`Calibration`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calibration: Option<Calibration>,
}

/// Executions a point needs to be compared on its own: a mean of fewer is one call's noise (a
/// nested store's points are single calls, each at its own record size, and an allocation's slow
/// path made half of them 50 % over a law that had the mean right).
pub const POOLED_EXECUTIONS: u64 = 5;
/// How far apart the predictions of one group of pooled points may lie (largest over smallest).
pub const POOLED_SPAN: f64 = 1.2;

/// The comparisons of `rows` (means against means): a point of at least [`POOLED_EXECUTIONS`]
/// executions on its own; the others, in the order of their predictions, in groups of at least
/// as many executions whose predictions lie within [`POOLED_SPAN`], each group's mean measured
/// beside its mean predicted (weighted by executions). A group that cannot grow that large
/// within the span is compared as it is.
pub fn pooled(rows: &[Row]) -> Vec<Row> {
    let mut out: Vec<Row> = rows
        .iter()
        .filter(|r| r.executions >= POOLED_EXECUTIONS)
        .cloned()
        .collect();
    let mut small: Vec<&Row> = rows.iter().filter(|r| r.executions < POOLED_EXECUTIONS).collect();
    small.sort_by(|a, b| a.predicted_ms.total_cmp(&b.predicted_ms));
    let mut i = 0;
    while i < small.len() {
        let first = small[i].predicted_ms;
        let (mut predicted, mut measured, mut executions) = (0.0, 0.0, 0u64);
        while i < small.len()
            && (executions < POOLED_EXECUTIONS)
            && (executions == 0 || small[i].predicted_ms < first.max(f64::MIN_POSITIVE) * POOLED_SPAN)
        {
            let n = small[i].executions.max(1);
            predicted += small[i].predicted_ms * n as f64;
            measured += small[i].measured_ms * n as f64;
            executions += n;
            i += 1;
        }
        out.push(Row {
            inputs: Bindings::new(),
            predicted_ms: predicted / executions as f64,
            measured_ms: measured / executions as f64,
            executions,
        });
    }
    out
}

/// Compares the measured points of SEFF `seff` with `predict` at their inputs. `None` when no
/// point was measured.
pub fn validate_service(
    service: &str,
    seff: &str,
    measured: &[Measured],
    predict: impl Fn(&Bindings) -> Prediction,
) -> Option<ServiceValidation> {
    let mut rows = Vec::new();
    let mut problems = BTreeSet::new();
    let mut notes = BTreeSet::new();
    for m in measured.iter().filter(|m| m.service == seff) {
        let p = predict(&m.inputs);
        problems.extend(p.problems.iter().map(|x| format!("{}: {}", x.element, x.message)));
        notes.extend(p.notes.iter().cloned());
        rows.push(Row {
            inputs: m.inputs.clone(),
            predicted_ms: p.total(),
            measured_ms: m.total_ms,
            executions: m.executions,
        });
    }
    if rows.is_empty() {
        return None;
    }
    let groups = pooled(&rows);
    if groups.len() < rows.len() {
        notes.insert(format!(
            "means against means: {} points of fewer than {POOLED_EXECUTIONS} executions each were compared in groups of \
             similar predictions (within {}%), {} comparisons in all",
            rows.iter().filter(|r| r.executions < POOLED_EXECUTIONS).count(),
            ((POOLED_SPAN - 1.0) * 100.0).round(),
            groups.len()
        ));
    }
    let mut errors: Vec<f64> = groups.iter().map(Row::relative_error).collect();
    errors.sort_by(f64::total_cmp);
    let median = if errors.len() % 2 == 1 {
        errors[errors.len() / 2]
    } else {
        (errors[errors.len() / 2 - 1] + errors[errors.len() / 2]) / 2.0
    };
    Some(ServiceValidation {
        repository: String::new(),
        service: service.to_string(),
        seff: seff.to_string(),
        points: rows.len(),
        median_relative_error: median,
        max_relative_error: *errors.last().expect("rows is not empty"),
        rows,
        problems: problems.into_iter().collect(),
        notes: notes.into_iter().collect(),
        unmodelled: None,
        calibration: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(x: &str, caller: Option<&str>, n: f64) -> MeasurementEvent {
        MeasurementEvent::ServiceCall {
            execution: x.into(),
            service: if caller.is_some() { "_inner" } else { "_outer" }.into(),
            caller_execution: caller.map(String::from),
            call: None,
            parameters: [("n.VALUE".to_string(), n)].into(),
            entry_ns: 0,
            exit_ns: 1,
        }
    }

    fn demand(x: &str, ms: u64) -> MeasurementEvent {
        MeasurementEvent::ResourceDemand {
            execution: x.into(),
            action: "_a".into(),
            resource: "CPU".into(),
            start_ns: 0,
            stop_ns: ms * 1_000_000,
        }
    }

    /// Entry executions e0..e<n>, each calling one inner execution.
    fn log(n: usize) -> Vec<MeasurementEvent> {
        let mut events = Vec::new();
        for i in 0..n {
            let (x, y) = (format!("e{i}"), format!("e{i}.1"));
            events.push(call(&x, None, (i % 3) as f64));
            events.push(demand(&x, 2));
            events.push(call(&y, Some(&x), 1.0));
            events.push(demand(&y, 3));
        }
        events
    }

    #[test]
    fn trees_are_held_out_whole_and_the_seed_decides_which() {
        let events = log(50);
        let split = hold_out(&events, 0.2, 7);
        assert_eq!((split.held_out_entries, split.training_entries), (10, 40));
        assert_eq!(split.held_out.len() + split.training.len(), events.len());
        // An inner execution goes where its caller goes.
        let held: BTreeSet<&str> = split.held_out.iter().map(|e| e.execution()).collect();
        for x in &held {
            let root = x.split('.').next().unwrap();
            assert!(held.contains(root), "{x}");
        }
        assert_eq!(hold_out(&events, 0.2, 7), split);
        assert_ne!(hold_out(&events, 0.2, 8).held_out, split.held_out);
    }

    #[test]
    fn a_total_includes_the_callees_and_points_are_means() {
        let events = log(6);
        let m = measured_totals(&events, 1e6);
        let outer: Vec<&Measured> = m.iter().filter(|p| p.service == "_outer").collect();
        // Three distinct inputs (n = 0, 1, 2), two executions each, 2 + 3 ms each.
        assert_eq!(outer.len(), 3);
        assert!(
            outer
                .iter()
                .all(|p| p.executions == 2 && (p.total_ms - 5.0).abs() < 1e-12),
            "{outer:?}"
        );
        let inner: Vec<&Measured> = m.iter().filter(|p| p.service == "_inner").collect();
        assert_eq!(inner.len(), 1);
        assert!((inner[0].total_ms - 3.0).abs() < 1e-12 && inner[0].executions == 6);
        let v = validate_service("Outer.run", "_outer", &m, |inputs| Prediction {
            demands: [("cpu".to_string(), 4.0 + inputs["n.VALUE"])].into(),
            ..Prediction::default()
        })
        .unwrap();
        // Predicted 4, 5, 6 against 5: errors 0.2, 0, 0.2.
        assert_eq!(v.points, 3);
        assert!((v.median_relative_error - 0.2).abs() < 1e-12, "{v:?}");
        assert!((v.max_relative_error - 0.2).abs() < 1e-12);
        assert!(validate_service("x", "_none", &m, |_| Prediction::default()).is_none());
    }

    /// A nested store's points are single calls at their own sizes; one call in two takes an
    /// allocation's slow path (1.5 times the law's mean, the other 0.5 times): every single call
    /// is 50 % off a law that has the mean right, and pooled calls of similar predictions are not.
    #[test]
    fn single_calls_are_compared_as_means_of_calls_with_similar_predictions() {
        let rows: Vec<Row> = (0..40)
            .map(|i| {
                let law = 1.0 + 0.01 * f64::from(i);
                let factor = if i % 2 == 0 { 1.5 } else { 0.5 };
                Row {
                    inputs: [("size".to_string(), f64::from(i))].into(),
                    predicted_ms: law,
                    measured_ms: law * factor,
                    executions: 1,
                }
            })
            .collect();
        let measured: Vec<Measured> = rows
            .iter()
            .map(|r| Measured {
                service: "_store".into(),
                inputs: r.inputs.clone(),
                total_ms: r.measured_ms,
                executions: 1,
            })
            .collect();
        let v = validate_service("Store.write", "_store", &measured, |inputs| Prediction {
            demands: [("cpu".to_string(), 1.0 + 0.01 * inputs["size"])].into(),
            ..Prediction::default()
        })
        .unwrap();
        assert_eq!(v.points, 40, "every point is still reported");
        // Single calls: errors of 1/3 and 1; in groups of five, within a few per cent.
        assert!(v.median_relative_error < 0.15, "{v:?}");
        assert_eq!(pooled(&v.rows).len(), 8);
        assert!(
            v.notes.iter().any(|n| n.contains("means against means")),
            "{:?}",
            v.notes
        );
        // Points of five executions or more stand alone.
        let many: Vec<Row> = v
            .rows
            .iter()
            .map(|r| Row {
                executions: 5,
                ..r.clone()
            })
            .collect();
        assert_eq!(pooled(&many).len(), 40);
    }
}
