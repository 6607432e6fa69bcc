//! Successor chains: one StartAction, one StopAction, every action reachable, no cycles, and
//! predecessors that agree with successors.

use crate::diagnostic::Diagnostic;
use crate::file::ModelFile;
use crate::model::order::successors;
use crate::model::{Action, ActionKind, Behaviour, Repository};
use crate::reference::Target;

pub fn check(file: &ModelFile, repo: &Repository, out: &mut Vec<Diagnostic>) {
    for c in &repo.components {
        for b in c.seffs.iter().map(|s| &s.behaviour).chain(&c.internal_behaviours) {
            behaviour(file, b, out);
        }
    }
}

fn label(a: &Action) -> String {
    match (&a.name, &a.id) {
        (Some(n), _) if !n.is_empty() => format!("{} `{}`", a.kind.as_str(), n),
        (_, Some(id)) => format!("{} `{}`", a.kind.as_str(), id),
        _ => a.kind.as_str().to_string(),
    }
}

fn behaviour(file: &ModelFile, b: &Behaviour, out: &mut Vec<Diagnostic>) {
    for a in &b.actions {
        for nested in a.body.behaviours() {
            behaviour(file, nested, out);
        }
    }
    let name_span = |n| file.tree.element(n).name;
    let element = |a: &Action| a.id.clone().or_else(|| file.nearest_id(a.node));
    let starts: Vec<&Action> = b.actions.iter().filter(|a| a.kind == ActionKind::StartAction).collect();
    let stops = b.actions.iter().filter(|a| a.kind == ActionKind::StopAction).count();
    if b.actions.is_empty() {
        return; // An empty behaviour (a placeholder) has nothing to order.
    }
    if starts.is_empty() {
        out.push(Diagnostic::error(
            "control-flow",
            name_span(b.node),
            file.nearest_id(b.node),
            "this behaviour has no StartAction, so its actions have no execution order",
        ));
    }
    for extra in starts.iter().skip(1) {
        out.push(Diagnostic::error(
            "control-flow",
            name_span(extra.node),
            element(extra),
            "a second StartAction in one behaviour",
        ));
    }
    if stops == 0 {
        out.push(Diagnostic::error(
            "control-flow",
            name_span(b.node),
            file.nearest_id(b.node),
            "this behaviour has no StopAction",
        ));
    }
    let next = successors(&b.actions);
    let mut in_order = vec![false; b.actions.len()];
    for &i in &b.order {
        in_order[i] = true;
    }
    // Follow the chain from the start as far as it goes, reporting where it breaks.
    if let Some(&last) = b.order.last() {
        let a = &b.actions[last];
        match (&a.successor, next[last]) {
            (None, _) if a.kind != ActionKind::StopAction => out.push(Diagnostic::error(
                "control-flow",
                name_span(a.node),
                element(a),
                format!(
                    "{} has no successor, so the chain from the StartAction never reaches a StopAction",
                    label(a)
                ),
            )),
            (Some(succ), None) => {
                // Not a sibling: either elsewhere in the file (wrong behaviour) or nowhere (reported as unresolved).
                if let Target::Id(id) = &succ.target {
                    if file.node_by_id(id).is_some() {
                        out.push(Diagnostic::error(
                            "control-flow",
                            succ.span,
                            element(a),
                            format!("the successor `{id}` of {} is not in the same behaviour", label(a)),
                        ));
                    }
                }
            }
            (Some(succ), Some(next)) if b.order.contains(&next) => out.push(Diagnostic::error(
                "control-flow",
                succ.span,
                element(a),
                format!(
                    "the successor chain loops back to {} after {}",
                    label(&b.actions[next]),
                    label(a)
                ),
            )),
            _ => {}
        }
    }
    if !b.order.is_empty() {
        for (i, a) in b.actions.iter().enumerate() {
            if !in_order[i] {
                out.push(Diagnostic::warning(
                    "control-flow",
                    name_span(a.node),
                    element(a),
                    format!("{} is not reachable from the StartAction", label(a)),
                ));
            }
        }
    }
    // Predecessors must mirror successors (EMF keeps them as opposite references).
    for (i, a) in b.actions.iter().enumerate() {
        let Some(j) = next[i] else {
            continue;
        };
        let n = &b.actions[j];
        let agrees = n.predecessor.as_ref().is_some_and(|p| p.target.id() == a.id.as_deref());
        if !agrees {
            let span = n.predecessor.as_ref().map_or(name_span(n.node), |p| p.span);
            out.push(Diagnostic::warning(
                "control-flow",
                span,
                element(n),
                format!(
                    "{} follows {} but does not name it as its predecessor",
                    label(n),
                    label(a)
                ),
            ));
        }
    }
}
