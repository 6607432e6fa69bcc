//! Execution order: PCM links actions through `successor_AbstractAction`, and files list them in
//! any order (the StopAction often comes second), so document order means nothing.

use super::types::{Action, ActionKind};
use crate::reference::Target;
use std::collections::HashMap;

/// Indices of `actions` from the StartAction along successors, stopping at the end of the chain,
/// at a successor that is not in this behaviour, or before an action seen already (a cycle).
/// The checker reports every one of those; this only follows the sound part.
pub fn execution_order(actions: &[Action]) -> Vec<usize> {
    let Some(start) = actions.iter().position(|a| a.kind == ActionKind::StartAction) else {
        return Vec::new();
    };
    let next = successors(actions);
    let mut order = vec![start];
    let mut seen = vec![false; actions.len()];
    seen[start] = true;
    let mut current = start;
    while let Some(n) = next[current] {
        if seen[n] {
            break;
        }
        seen[n] = true;
        order.push(n);
        current = n;
    }
    order
}

/// For each action, the index of its successor among its siblings (`None` when it has none there).
pub fn successors(actions: &[Action]) -> Vec<Option<usize>> {
    let by_id: HashMap<&str, usize> = actions
        .iter()
        .enumerate()
        .filter_map(|(i, a)| Some((a.id.as_deref()?, i)))
        .collect();
    actions
        .iter()
        .map(|a| match &a.successor.as_ref()?.target {
            Target::Id(id) => by_id.get(id.as_str()).copied(),
            _ => None,
        })
        .collect()
}
