//! Checking links against the model and the workspace before anything is instrumented: a link
//! to the wrong kind of code would measure something else without anyone noticing.

use super::{nodes_of, resolve_in_root, CodeLink, LinkError, Sources};
use crate::syntax::{descendants, is_statement, BRANCH_KINDS, LOOP_KINDS, METHOD_KINDS};
use beagle_pcm::model::{Action, ActionKind, BranchTransition, Repository};
use beagle_pcm::ModelSet;
use std::collections::HashMap;
use std::path::Path;
use tree_sitter::Node;

/// What a link's element is in the model.
enum Element<'a> {
    Seff {
        name: Option<String>,
    },
    Action(&'a Action),
    Transition(&'a BranchTransition),
    /// A loop body or a transition's behaviour (SoMoX links those to their statements).
    Behaviour,
}

impl Element<'_> {
    fn name(&self) -> Option<&str> {
        match self {
            Element::Seff { name } => name.as_deref(),
            Element::Action(a) => a.name.as_deref(),
            Element::Transition(t) => t.name.as_deref(),
            Element::Behaviour => None,
        }
    }
}

/// Every SEFF, action and transition of every repository in `models`, by id.
fn elements(models: &ModelSet) -> HashMap<&str, Element<'_>> {
    let repositories: Vec<&Repository> = models.files().filter_map(|(_, f)| f.repository.as_ref()).collect();
    let signature_name = |id: &str| {
        repositories
            .iter()
            .flat_map(|r| r.signatures())
            .find(|(_, s)| s.id.as_deref() == Some(id))
            .and_then(|(_, s)| s.name.clone())
    };
    let mut out = HashMap::new();
    for repo in &repositories {
        for (_, seff) in repo.seffs() {
            if let Some(id) = &seff.id {
                let name = seff
                    .described_service
                    .as_ref()
                    .and_then(|r| r.target.id())
                    .and_then(signature_name);
                out.insert(id.as_str(), Element::Seff { name });
            }
        }
        for a in repo.actions() {
            if let Some(id) = &a.id {
                out.insert(id.as_str(), Element::Action(a));
            }
            for b in a.body.behaviours() {
                if let Some(id) = &b.id {
                    out.insert(id.as_str(), Element::Behaviour);
                }
            }
            if let beagle_pcm::model::ActionBody::Branch { transitions } = &a.body {
                for t in transitions {
                    if let Some(id) = &t.id {
                        out.insert(id.as_str(), Element::Transition(t));
                    }
                }
            }
        }
    }
    out
}

/// Checks each link: its element exists in `models`, its file is inside `root` and exists, and
/// the linked code fits the element's kind (SEFF: a method; loop: a loop statement; branch: an
/// `if` or `switch`; internal action: statements of one block; external call: one statement
/// with a method invocation). A `name` that differs from the model's is a warning.
pub fn validate(links: &[CodeLink], models: &ModelSet, root: &Path) -> Vec<LinkError> {
    let elements = elements(models);
    let mut sources = Sources::new(root);
    let mut out = Vec::new();
    let mut seen: HashMap<&str, &CodeLink> = HashMap::new();
    for link in links {
        let Some(element) = elements.get(link.element.as_str()) else {
            out.push(LinkError::of(
                link,
                describe(&link.element, link.name.as_deref()),
                "no such element in the model",
            ));
            continue;
        };
        let label = describe(&link.element, element.name().or(link.name.as_deref()));
        if let (Some(given), Some(model)) = (&link.name, element.name()) {
            if given != model {
                out.push(
                    LinkError::of(
                        link,
                        label.clone(),
                        format!("named `{given}` here, `{model}` in the model"),
                    )
                    .warning(),
                );
            }
        }
        if seen.insert(link.element.as_str(), link).is_some() {
            out.push(LinkError::of(link, label.clone(), "linked more than once"));
        }
        if let Err(e) = resolve_in_root(root, &link.file) {
            out.push(LinkError::of(link, label, e.to_string()));
            continue;
        }
        let java = match sources.load(&link.file) {
            Ok(java) => java,
            Err(e) => {
                out.push(LinkError::of(link, label, e.to_string()));
                continue;
            }
        };
        let nodes = nodes_of(java, &link.range);
        // An empty arm of an if (`{ }`): a transition that runs nothing, still its own arm.
        let empty_arm = matches!(element, Element::Transition(_))
            && java
                .root()
                .descendant_for_byte_range(link.range.start, link.range.end)
                .is_some_and(|n| n.kind() == "block" && n.byte_range() == link.range && n.named_child_count() == 0);
        if empty_arm {
            continue;
        }
        if nodes.is_empty() {
            out.push(LinkError::of(
                link,
                label,
                format!(
                    "bytes {}..{} of `{}` are not whole statements or a method",
                    link.range.start,
                    link.range.end,
                    link.file.display()
                ),
            ));
            continue;
        }
        if let Some(problem) = kind_problem(element, &nodes) {
            let (line, col) = java.line_col(link.range.start);
            out.push(LinkError::of(
                link,
                label,
                format!("{problem} (code at {}:{line}:{col})", link.file.display()),
            ));
        }
    }
    out
}

/// `_id (name)`.
pub(crate) fn describe(id: &str, name: Option<&str>) -> String {
    match name {
        Some(n) => format!("{id} ({n})"),
        None => id.to_string(),
    }
}

/// Why the linked nodes cannot stand for the element, if they cannot.
fn kind_problem(element: &Element, nodes: &[Node]) -> Option<String> {
    let single = |kinds: &[&str]| nodes.len() == 1 && kinds.contains(&unlabelled(nodes[0]).kind());
    let found = || {
        let kinds: Vec<&str> = nodes.iter().map(|n| n.kind()).collect();
        kinds.join(", ")
    };
    let statements = nodes.iter().all(|n| is_statement(*n));
    match element {
        Element::Seff { .. } if !single(METHOD_KINDS) => {
            Some(format!("a SEFF links to a method declaration, not to {}", found()))
        }
        Element::Transition(_) | Element::Behaviour if !statements => Some(format!(
            "a transition or behaviour links to statements, not to {}",
            found()
        )),
        Element::Action(a) => match a.kind {
            ActionKind::LoopAction | ActionKind::CollectionIteratorAction if !single(LOOP_KINDS) => Some(format!(
                "a {} links to one loop statement, not to {}",
                a.kind.as_str(),
                found()
            )),
            ActionKind::BranchAction if !single(BRANCH_KINDS) => {
                Some(format!("a BranchAction links to one if or switch, not to {}", found()))
            }
            ActionKind::ExternalCallAction
                if !(nodes.len() == 1
                    && statements
                    && !descendants(nodes[0], |n| n.kind() == "method_invocation").is_empty()) =>
            {
                Some(format!(
                    "an ExternalCallAction links to one statement with a method call, not to {}",
                    found()
                ))
            }
            _ if !statements => Some(format!(
                "a {} links to statements of one block, not to {}",
                a.kind.as_str(),
                found()
            )),
            _ => None,
        },
        _ => None,
    }
}

/// The statement under any labels (`outer: for (...)` is a loop).
fn unlabelled(mut n: Node) -> Node {
    while n.kind() == "labeled_statement" {
        match n.named_children(&mut n.walk()).find(|c| is_statement(*c)) {
            Some(inner) => n = inner,
            None => break,
        }
    }
    n
}
