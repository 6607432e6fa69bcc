//! The repository's typed view looked up by node: which component, SEFF or action an element is.

use beagle_pcm::model::{Action, Behaviour, Component, Repository, Seff};
use beagle_pcm::{NodeId, XmlTree};
use std::collections::HashMap;

#[derive(Clone, Copy)]
pub(crate) enum Typed<'a> {
    Component(&'a Component),
    Seff(&'a Component, &'a Seff),
    Action(&'a Component, &'a Action),
}

impl<'a> Typed<'a> {
    pub(crate) fn component(self) -> &'a Component {
        match self {
            Typed::Component(c) | Typed::Seff(c, _) | Typed::Action(c, _) => c,
        }
    }
}

/// The component holding `node` (if any), its SEFFs and its actions (nested ones included), by
/// their element. Only that one component: a hover on a 10 MB repository must not walk every
/// component (a request's cost follows the element, not the file).
pub(crate) fn typed_nodes<'a>(repo: &'a Repository, tree: &XmlTree, node: NodeId) -> HashMap<NodeId, Typed<'a>> {
    let mut ancestors = Vec::new();
    let mut at = Some(node);
    while let Some(n) = at {
        ancestors.push(n);
        at = tree.element(n).parent;
    }
    let mut out = HashMap::new();
    for c in repo.components.iter().filter(|c| ancestors.contains(&c.node)) {
        out.insert(c.node, Typed::Component(c));
        for s in &c.seffs {
            out.insert(s.node, Typed::Seff(c, s));
        }
        let behaviours = c.seffs.iter().map(|s| &s.behaviour).chain(&c.internal_behaviours);
        for a in behaviours.flat_map(Behaviour::walk) {
            out.insert(a.node, Typed::Action(c, a));
        }
    }
    out
}

/// A behaviour's actions in execution order, then those the successor chain does not reach
/// (a chain broken mid-edit) in document order, so that no action disappears from a view.
pub(crate) fn execution_order(b: &Behaviour) -> Vec<&Action> {
    let mut out: Vec<&Action> = b.ordered().collect();
    let mut reached = vec![false; b.actions.len()];
    for &i in &b.order {
        reached[i] = true;
    }
    out.extend(b.actions.iter().zip(reached).filter(|(_, r)| !r).map(|(a, _)| a));
    out
}

/// Every action of a component (SEFFs and internal behaviours, nested ones included).
pub(crate) fn component_actions(c: &Component) -> impl Iterator<Item = &Action> {
    c.seffs
        .iter()
        .map(|s| &s.behaviour)
        .chain(&c.internal_behaviours)
        .flat_map(Behaviour::walk)
}
