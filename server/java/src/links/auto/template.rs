//! A template method a component inherits, and the steps of it the component's own class
//! overrides (issue 49, point 2: lower the score wherever two candidates fit).
//!
//! `SlopeOneRecommender.recommend` runs `AbstractRecommender.recommend`, which calls `execute`,
//! which `SlopeOneRecommender` overrides. Which of the two a SEFF describes is the model's
//! convention: CIPM's instrumentation of TeaStore marks the step, `fixtures/strategies` models
//! the template (its SEFF has the template's loop). A SEFF with loops, branches or calls says
//! which body it follows, and the behaviour matching checks that; a SEFF of internal actions only
//! fits either, so neither is linked without the user's word.

use super::inherit::Resolved;
use crate::syntax::{descendants, JavaFile};
use beagle_pcm::model::{ActionKind, Seff};
use tree_sitter::Node;

/// How much an inherited template's link keeps when the component overrides a step it calls and
/// the SEFF fits either: 1.0 becomes 0.75, below the 0.8 a link needs to be used.
pub(super) const TEMPLATE_OR_STEP: f64 = 0.75;
/// A step's own candidate, against the class's confidence: listed, never used without a link.
pub(super) const STEP_CANDIDATE: f64 = 0.6;

/// Whether a SEFF has no control flow of its own: internal actions (and variable settings)
/// between its start and its stop, nothing that tells a template's body from a step's.
pub(super) fn describes_no_flow(seff: &Seff) -> bool {
    seff.behaviour.walk().iter().all(|a| {
        matches!(
            a.kind,
            ActionKind::StartAction
                | ActionKind::StopAction
                | ActionKind::InternalAction
                | ActionKind::SetVariableAction
        )
    })
}

/// The methods `body` (of the template `resolved[template]`, in `java`) calls on its own object
/// (no receiver, or `this`) that resolve, for the component's class, to a body below the
/// template's class: the steps the template hands to the component (its class's own override, or
/// one it inherits from a class between, as `PreprocessedSlopeOneRecommender` runs
/// `SlopeOneRecommender.execute`). Indices into `resolved`, each once, in the order first called.
pub(super) fn overridden_steps(body: Node, java: &JavaFile, resolved: &[Resolved], template: usize) -> Vec<usize> {
    let mut steps = Vec::new();
    for call in descendants(body, |n| n.kind() == "method_invocation") {
        let on_itself = call.child_by_field_name("object").is_none_or(|o| o.kind() == "this");
        let Some(name) = call.child_by_field_name("name").map(|n| java.text_of(n)) else {
            continue;
        };
        if !on_itself {
            continue;
        }
        // Java's resolution: the nearest declaration of that name (own first, then level by
        // level; overloads aside: a step is rarely overloaded).
        let Some(i) = resolved.iter().position(|r| r.method.name == name) else {
            continue;
        };
        let (r, t) = (&resolved[i], &resolved[template]);
        let below = r.file != t.file || r.class.id() != t.class.id();
        if below && r.method.node.child_by_field_name("body").is_some() && !steps.contains(&i) {
            steps.push(i);
        }
    }
    steps
}
