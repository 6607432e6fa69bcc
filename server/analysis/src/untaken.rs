//! Branch transitions that no measured execution took.
//!
//! Measurement tools report a branch decision per execution, so they only know the transitions
//! that ran. A modelled transition that never ran was still measured: at every execution of its
//! branch it was not taken. It gets those observations, each 0 (probability 0 where measured),
//! instead of "no measurement tool measured it".

use crate::blackboard::{Blackboard, ElementKind, MeasurementResult, Observation};
use crate::point_sample::PointTally;

/// Gives every untaken transition of a measured branch its observations (see the module docs).
/// Returns the ids it completed.
pub fn complete_untaken_transitions(bb: &mut Blackboard) -> Vec<String> {
    let mut completed = Vec::new();
    for id in bb.to_measure.clone() {
        let Some(ElementKind::Branch { branch, .. }) = bb.elements.get(&id).map(|e| &e.kind) else {
            continue;
        };
        // One taken sibling holds one observation per execution of the branch.
        let sibling = bb.results.iter().find(|(other, result)| {
            !result.observations.is_empty()
                && matches!(
                    bb.elements.get(*other).map(|e| &e.kind),
                    Some(ElementKind::Branch { branch: b, .. }) if b == branch
                )
        });
        let Some((_, sibling)) = sibling else { continue };
        let observations = sibling
            .observations
            .iter()
            .map(|o| Observation {
                run: o.run,
                parameters: o.parameters.clone(),
                value: 0.0,
                executions: o.executions,
            })
            .collect();
        // Points beyond the kept sample: every execution counted, none took this transition.
        let overflow = sibling
            .overflow
            .iter()
            .map(|t| PointTally {
                sum: 0.0,
                sum_squares: 0.0,
                min: 0.0,
                max: 0.0,
                ..t.clone()
            })
            .collect();
        bb.results.insert(
            id.clone(),
            MeasurementResult {
                element: id.clone(),
                observations,
                overflow,
                thinned: sibling.thinned,
            },
        );
        bb.to_measure.remove(&id);
        completed.push(id);
    }
    completed
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
        let taken = MeasurementResult {
            element: "b/yes".into(),
            observations: vec![observed(1.0, 1.0), observed(2.0, 1.0), observed(3.0, 1.0)],
            overflow: Vec::new(),
            thinned: 0,
        };
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
}
