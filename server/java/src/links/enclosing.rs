//! Loops and branches found through their bodies' links. SoMoX links a loop's body behaviour (or
//! a branch transition's behaviour) to the statements inside it, often instead of the loop or
//! branch action itself: the loop is then the innermost loop statement around those statements,
//! the branch the innermost `if`/`switch`.

use super::{ancestors, CodeLink, LinkOrigin, Sources};
use crate::syntax::{BRANCH_KINDS, LOOP_KINDS};
use beagle_pcm::model::{ActionBody, Repository};
use std::collections::BTreeSet;

/// Links for loop and branch actions without one, derived from links of their behaviours.
/// `linked`: elements that have a link already (they are left alone).
pub fn from_behaviours(
    links: &[CodeLink],
    repositories: &[&Repository],
    sources: &mut Sources,
    linked: &BTreeSet<String>,
) -> Vec<CodeLink> {
    let mut out = Vec::new();
    for repo in repositories {
        for action in repo.actions() {
            let Some(id) = action.id.as_ref().filter(|id| !linked.contains(*id)) else {
                continue;
            };
            let kinds: &[&str] = match &action.body {
                ActionBody::Loop { .. } | ActionBody::CollectionIterator { .. } => LOOP_KINDS,
                ActionBody::Branch { .. } => BRANCH_KINDS,
                _ => continue,
            };
            let behaviour_link = action
                .body
                .behaviours()
                .iter()
                .filter_map(|b| b.id.as_deref())
                .find_map(|b| links.iter().find(|l| l.element == b));
            let Some(inner) = behaviour_link else { continue };
            let Ok(java) = sources.load(&inner.file) else { continue };
            let Some(node) = java
                .root()
                .descendant_for_byte_range(inner.range.start, inner.range.end)
            else {
                continue;
            };
            // The innermost statement of the right kind that strictly contains the linked code.
            let around = ancestors(node).find(|n| {
                kinds.contains(&n.kind())
                    && n.start_byte() <= inner.range.start
                    && n.end_byte() >= inner.range.end
                    && n.byte_range() != inner.range
            });
            let Some(around) = around else { continue };
            let (line, col) = java.line_col(around.start_byte());
            out.push(CodeLink {
                element: id.clone(),
                name: action.name.clone(),
                file: inner.file.clone(),
                range: around.byte_range(),
                origin: LinkOrigin::Automatic {
                    confidence: 0.95,
                    reason: format!(
                        "the {} around the code linked to its body {} ({}:{line}:{col})",
                        if kinds == LOOP_KINDS { "loop" } else { "branch" },
                        inner.element,
                        inner.file.display()
                    ),
                },
                receiver: inner.receiver.clone(),
            });
        }
    }
    out
}
