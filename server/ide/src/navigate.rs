//! Navigation: what reference or element is under an offset, where a reference leads, and every
//! reference to an element across the files of a [`ModelSet`].

use crate::text::{entity_name, id_span, innermost};
use crate::typed::{typed_nodes, Typed};
use beagle_pcm::model::ActionKind;
use beagle_pcm::reference::Reference;
use beagle_pcm::{FileId, ModelFile, ModelSet, NodeId, Span, XmlTree};
use std::collections::HashMap;
use std::path::PathBuf;

/// A place in a file: a byte range of its text.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Location {
    pub path: PathBuf,
    pub span: Span,
}

/// The reference token under `offset` (a cursor just after a token is still on it).
pub fn reference_at(file: &ModelFile, offset: usize) -> Option<&Reference> {
    file.index.references().iter().find(|r| r.span.contains(offset))
}

/// Where the reference under `offset` leads: the target's `id` value (its tag name when it has
/// no id) in the target's file. `None` off references (an element's own id included) and for
/// references that do not resolve, or into files the set has not loaded
/// ([`ModelSet::load_referenced`] loads them).
pub fn definition(set: &ModelSet, file: FileId, offset: usize) -> Option<Location> {
    let r = reference_at(file_in(set, file)?, offset)?;
    let (target_file, node) = set.resolve(file, r).ok()?;
    Some(declaration(set.file(target_file), node))
}

/// Every reference, in every file of the set, to the element under `offset`: the element whose
/// start tag holds the offset (its id, its name), or the target of the reference under it.
/// With `include_declaration`, the element's id as well. Sorted by path and offset.
pub fn references(set: &ModelSet, file: FileId, offset: usize, include_declaration: bool) -> Vec<Location> {
    let Some((target_file, target)) = target_at(set, file, offset) else {
        return Vec::new();
    };
    let target_id = set.file(target_file).tree.raw_value(target, "id");
    let mut out = Vec::new();
    for (id, f) in set.files() {
        for r in f.index.references() {
            // Most references name an id: compare texts before resolving anything.
            if r.target.id().is_some_and(|named| Some(named) != target_id) {
                continue;
            }
            if set.resolve(id, r).ok() == Some((target_file, target)) {
                out.push(Location {
                    path: f.path.clone(),
                    span: r.span,
                });
            }
        }
    }
    if include_declaration {
        out.push(declaration(set.file(target_file), target));
    }
    out.sort();
    out.dedup();
    out
}

fn target_at(set: &ModelSet, file: FileId, offset: usize) -> Option<(FileId, NodeId)> {
    let f = file_in(set, file)?;
    if let Some(r) = reference_at(f, offset) {
        return set.resolve(file, r).ok();
    }
    let node = innermost(&f.tree, offset)?;
    let on_start_tag = f.tree.element(node).start_tag.range().contains(&offset);
    (on_start_tag && f.tree.attribute(node, "id").is_some()).then_some((file, node))
}

fn declaration(file: &ModelFile, node: NodeId) -> Location {
    Location {
        path: file.path.clone(),
        span: id_span(&file.tree, node),
    }
}

/// A stale id (a file closed since) finds nothing rather than panicking.
fn file_in(set: &ModelSet, id: FileId) -> Option<&ModelFile> {
    set.files().find(|&(i, _)| i == id).map(|(_, f)| f)
}

/// The element under an offset that editor actions are about ("analyse this action").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElementAt {
    pub node: NodeId,
    pub id: Option<String>,
    pub kind: ElementAtKind,
    /// The id of the enclosing component (the component itself for a component).
    pub component: Option<String>,
    /// The id of the SEFF holding an action (the SEFF itself for a SEFF); `None` elsewhere.
    pub seff: Option<String>,
    /// The `entityName`; for a SEFF, the name of the signature it describes.
    pub name: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementAtKind {
    Repository,
    Component,
    Seff,
    Action(ActionKind),
    /// Any other element with an id (interface, signature, data type, an element of a system...).
    Other,
}

/// The innermost action, SEFF or component holding `offset`. Inside a component everything
/// belongs to one of those (a branch transition to its branch, a role to its component); outside
/// components, the innermost element with an id (a signature, an interface), else the repository.
/// `None` outside the root element.
pub fn element_at(file: &ModelFile, offset: usize) -> Option<ElementAt> {
    let tree = &file.tree;
    let innermost = innermost(tree, offset)?;
    let typed = file
        .repository
        .as_ref()
        .map(|r| typed_nodes(r, tree, innermost))
        .unwrap_or_default();
    let mut first_with_id = None;
    let mut node = Some(innermost);
    while let Some(n) = node {
        if let Some(t) = typed.get(&n) {
            return Some(typed_element(file, n, *t, enclosing_seff(tree, &typed, n)));
        }
        if first_with_id.is_none() && tree.attribute(n, "id").is_some() {
            first_with_id = Some(n);
        }
        node = tree.element(n).parent;
    }
    let root = tree.root()?;
    let node = first_with_id.filter(|&n| n != root).unwrap_or(root);
    let kind = if node == root && file.repository.is_some() {
        ElementAtKind::Repository
    } else {
        ElementAtKind::Other
    };
    Some(ElementAt {
        node,
        id: tree.raw_value(node, "id").map(str::to_string),
        kind,
        component: None,
        seff: None,
        name: entity_name(tree, node),
    })
}

/// The id of the SEFF whose element holds `node` (or is it), from the component's typed nodes.
fn enclosing_seff(tree: &XmlTree, typed: &HashMap<NodeId, Typed>, node: NodeId) -> Option<String> {
    let mut at = Some(node);
    while let Some(n) = at {
        if let Some(Typed::Seff(_, s)) = typed.get(&n) {
            return s.id.clone();
        }
        at = tree.element(n).parent;
    }
    None
}

fn typed_element(file: &ModelFile, node: NodeId, t: Typed, seff: Option<String>) -> ElementAt {
    let (kind, id, name) = match t {
        Typed::Component(c) => (ElementAtKind::Component, c.id.clone(), c.name.clone()),
        Typed::Seff(_, s) => {
            let signature = s
                .described_service
                .as_ref()
                .and_then(|r| file.resolve_local(&r.target))
                .and_then(|n| entity_name(&file.tree, n));
            (ElementAtKind::Seff, s.id.clone(), signature)
        }
        Typed::Action(_, a) => (ElementAtKind::Action(a.kind), a.id.clone(), a.name.clone()),
    };
    ElementAt {
        node,
        id,
        kind,
        component: t.component().id.clone(),
        seff,
        name,
    }
}
