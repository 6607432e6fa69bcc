//! Branch transitions that no measured execution took.
//!
//! Measurement tools report a branch decision per execution, so they only know the transitions
//! that ran. A modelled transition that never ran was still measured: at every decision of its
//! branch it was not taken. It gets one observation per observation of its branch, instead of
//! "not measured".
//!
//! Its value there is the share of the decisions that no recorded transition took: 0 where the
//! recorded transitions account for all of them. A decision that took none of them (the events
//! format's branch event without transition, a `branch_total`'s `not_taken`: an `if` without
//! `else`, whose `else` has no code to record) took the transition without recorded code. When
//! exactly one transition of the branch has no observations, that is the one; so the
//! transitions' observations add up to 1 at every decision and their probabilities can sum to 1.
//! When several have none, which of them took those decisions is unknown: none of them is
//! measured, and each says why.

use crate::blackboard::{Blackboard, ElementKind, MeasurementResult, Observation};
use crate::point_tally::PointTally;
use std::collections::BTreeMap;

/// Shares closer to 0 than this are float residue of summing shares (`1 - (0.7 + 0.3)`).
const RESIDUE: f64 = 1e-9;

/// Gives every untaken transition of a measured branch its observations (see the module docs).
/// Returns the ids it completed.
pub fn complete_untaken_transitions(bb: &mut Blackboard) -> Vec<String> {
    let mut unmeasured: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for id in &bb.to_measure {
        if let Some(ElementKind::Branch { branch, .. }) = bb.elements.get(id).map(|e| &e.kind) {
            unmeasured.entry(branch.clone()).or_default().push(id.clone());
        }
    }
    let mut completed = Vec::new();
    for (branch, ids) in unmeasured {
        // The recorded transitions: each holds one observation per decision (or per execution's
        // decisions) of the branch.
        let siblings: Vec<&MeasurementResult> = (bb.results.iter())
            .filter(|(other, result)| {
                !result.observations.is_empty()
                    && matches!(
                        bb.elements.get(*other).map(|e| &e.kind),
                        Some(ElementKind::Branch { branch: b, .. }) if *b == branch
                    )
            })
            .map(|(_, r)| r)
            .collect();
        let Some(first) = siblings.first().copied().cloned() else {
            // No decision of the branch was measured: nothing is known of its transitions.
            continue;
        };
        let (rest, rest_tallies) = untaken_shares(&siblings);
        drop(siblings);
        let decisions: f64 = (first.observations.iter().zip(&rest))
            .map(|(o, r)| r * o.executions as f64)
            .sum::<f64>()
            + rest_tallies.iter().sum::<f64>();
        if decisions > 0.0 && ids.len() > 1 {
            let names = ids.join(", ");
            for id in &ids {
                bb.diagnostics.push(format!(
                    "{id}: not measured: about {} decisions of branch {branch} took none of its recorded \
                     transitions, and {names} have no recorded code: which of them took those decisions is unknown",
                    decisions.round()
                ));
                bb.to_measure.remove(id);
            }
            continue;
        }
        let observations: Vec<Observation> = (first.observations.iter().zip(&rest))
            .map(|(o, value)| Observation {
                run: o.run,
                parameters: o.parameters.clone(),
                value: *value,
                executions: o.executions,
                mean: None,
            })
            .collect();
        // Points beyond the kept sample: every decision counted, none recorded for this one but
        // those no recorded transition took. (Its squares: the sum itself, exact for decisions
        // observed one by one, 0 or 1 each.)
        let overflow: Vec<PointTally> = (first.overflow.iter().zip(&rest_tallies))
            .map(|(t, sum)| PointTally {
                sum: *sum,
                sum_squares: *sum,
                min: 0.0,
                max: if *sum > 0.0 { 1.0 } else { 0.0 },
                ..t.clone()
            })
            .collect();
        for id in ids {
            bb.results.insert(
                id.clone(),
                MeasurementResult {
                    element: id.clone(),
                    observations: observations.clone(),
                    overflow: overflow.clone(),
                    thinned: first.thinned,
                    resolution: None,
                },
            );
            bb.to_measure.remove(&id);
            completed.push(id);
        }
    }
    completed
}

/// Per kept observation and per tally of the first sibling: the share (tally: the sum of shares)
/// of the decisions that no recorded transition took. All 0 unless the siblings' observations
/// are the same decisions row by row (as one digest of the events makes them), which is the only
/// case in which their shares can be added up.
fn untaken_shares(siblings: &[&MeasurementResult]) -> (Vec<f64>, Vec<f64>) {
    let first = siblings[0];
    let zeros = || (vec![0.0; first.observations.len()], vec![0.0; first.overflow.len()]);
    let same_rows = |r: &MeasurementResult| {
        r.observations.len() == first.observations.len()
            && r.overflow.len() == first.overflow.len()
            && (r.observations.iter().zip(&first.observations))
                .all(|(a, b)| a.run == b.run && a.executions == b.executions && a.parameters == b.parameters)
            && (r.overflow.iter().zip(&first.overflow))
                .all(|(a, b)| a.run == b.run && a.observations == b.observations && a.parameters == b.parameters)
    };
    if !siblings.iter().all(|r| same_rows(r)) {
        return zeros();
    }
    let snap = |v: f64| if v < RESIDUE { 0.0 } else { v.min(1.0) };
    let rows = (0..first.observations.len())
        .map(|i| snap(1.0 - siblings.iter().map(|r| r.observations[i].value).sum::<f64>()))
        .collect();
    let tallies = (0..first.overflow.len())
        .map(|j| {
            let n = first.overflow[j].observations as f64;
            let taken: f64 = siblings.iter().map(|r| r.overflow[j].sum).sum();
            let rest = n - taken;
            if rest < RESIDUE * n.max(1.0) {
                0.0
            } else {
                rest.min(n)
            }
        })
        .collect();
    (rows, tallies)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blackboard::MeasurableElement;

    fn transition(branch: &str, t: &str) -> MeasurableElement {
        MeasurableElement::new(ElementKind::Branch {
            branch: branch.into(),
            transition: t.into(),
        })
    }

    fn observed(n: f64, value: f64) -> Observation {
        Observation {
            run: None,
            parameters: [("n".to_string(), n)].into(),
            value,
            executions: 1,
            mean: None,
        }
    }

    fn result(id: &str, observations: Vec<Observation>) -> MeasurementResult {
        MeasurementResult {
            element: id.into(),
            observations,
            overflow: Vec::new(),
            thinned: 0,
            resolution: None,
        }
    }

    #[test]
    fn an_untaken_transition_is_observed_as_zero_at_each_execution_of_its_branch() {
        let mut bb = Blackboard::new([
            transition("b", "yes"),
            transition("b", "no"),
            transition("other", "x"),
            transition("other", "y"),
        ]);
        let taken = result(
            "b/yes",
            vec![observed(1.0, 1.0), observed(2.0, 1.0), observed(3.0, 1.0)],
        );
        bb.results.insert("b/yes".into(), taken);
        bb.to_measure.remove("b/yes");
        assert_eq!(complete_untaken_transitions(&mut bb), vec!["b/no".to_string()]);
        let untaken = &bb.results["b/no"];
        assert_eq!(
            untaken.observations,
            vec![observed(1.0, 0.0), observed(2.0, 0.0), observed(3.0, 0.0)]
        );
        // A branch that nothing measured stays unmeasured: no execution, no evidence.
        assert!(bb.to_measure.contains("other/x") && bb.to_measure.contains("other/y"));
        assert!(!bb.results.contains_key("other/x"));
    }

    #[test]
    fn decisions_without_a_recorded_transition_are_the_codeless_transitions() {
        // `if (x) {...}` without else: only `then` is recorded; at n = 2 a third of the
        // decisions of one execution took it, at n = 3 none did.
        let mut bb = Blackboard::new([transition("b", "then"), transition("b", "else")]);
        let then = result(
            "b/then",
            vec![observed(1.0, 1.0), observed(2.0, 1.0 / 3.0), observed(3.0, 0.0)],
        );
        bb.results.insert("b/then".into(), then);
        bb.to_measure.remove("b/then");
        assert_eq!(complete_untaken_transitions(&mut bb), vec!["b/else".to_string()]);
        let values: Vec<f64> = bb.results["b/else"].observations.iter().map(|o| o.value).collect();
        assert_eq!(values, [0.0, 1.0 - 1.0 / 3.0, 1.0]);
        // Several transitions without code: which took those decisions is unknown.
        let mut bb = Blackboard::new([transition("b", "a"), transition("b", "c"), transition("b", "d")]);
        bb.results.insert(
            "b/a".into(),
            result("b/a", vec![observed(1.0, 1.0), observed(2.0, 0.0)]),
        );
        bb.to_measure.remove("b/a");
        assert!(complete_untaken_transitions(&mut bb).is_empty());
        assert!(bb.to_measure.is_empty() && !bb.results.contains_key("b/c"));
        assert_eq!(bb.diagnostics.len(), 2);
        assert!(
            bb.diagnostics[0].starts_with("b/c: not measured: about 1 decisions of branch b"),
            "{:?}",
            bb.diagnostics
        );
    }
}
