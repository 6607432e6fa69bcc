//! Execution order: PCM links actions through `successor_AbstractAction`, and files list them in
//! any order (the StopAction often comes second), so document order means nothing.

use super::types::{Action, ActionKind};
use crate::reference::Target;

/// Indices of `actions` from the StartAction along successors, stopping at the end of the chain,
/// at a successor that is not in this behaviour, or before an action seen already (a cycle).
/// The checker reports every one of those; this only follows the sound part.
pub fn execution_order(actions: &[Action]) -> Vec<usize> {
    let Some(start) = actions.iter().position(|a| a.kind == ActionKind::StartAction) else {
        return Vec::new();
    };
    let mut order = vec![start];
    let mut seen = vec![false; actions.len()];
    seen[start] = true;
    let mut current = start;
    while let Some(next) = successor_index(actions, current) {
        if seen[next] {
            break;
        }
        seen[next] = true;
        order.push(next);
        current = next;
    }
    order
}

/// The index of an action's successor among its siblings.
pub fn successor_index(actions: &[Action], i: usize) -> Option<usize> {
    let succ = actions[i].successor.as_ref()?;
    let Target::Id(id) = &succ.target else { return None };
    actions.iter().position(|a| a.id.as_deref() == Some(id))
}
