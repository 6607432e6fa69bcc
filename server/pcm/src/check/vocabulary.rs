//! Specifications in words no caller uses: a SEFF whose callers pass `items.VALUE` (a list's size
//! as an `INT`, CIPM's convention) but whose demand reads `items.NUMBER_OF_ELEMENTS` reads a
//! variable no simulator run ever sets. Checked against the ExternalCallActions of the same
//! repository that call the SEFF's signature; a SEFF no action calls is not checked (its callers
//! are a usage model or another repository, which may pass anything).

use crate::diagnostic::Diagnostic;
use crate::file::ModelFile;
use crate::model::{Action, Behaviour, Repository};
use crate::span::Span;
use crate::vocabulary::{in_the_models_words, passed_by_callers, Words};
use crate::xml::unescape_attribute;
use beagle_stoex::ExprKind;
use std::collections::BTreeMap;

/// A characterised variable no caller sets, where it is written, and what to write instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotPassed {
    /// The variable in the file (`items.NUMBER_OF_ELEMENTS`).
    pub span: Span,
    /// The element the specification belongs to.
    pub element: Option<String>,
    pub message: String,
    /// The callers' word for it, where they pass the size under the other name (`items.VALUE`).
    pub replacement: Option<String>,
}

pub fn check(file: &ModelFile, repo: &Repository, out: &mut Vec<Diagnostic>) {
    for n in not_passed(file, repo) {
        out.push(Diagnostic::warning(
            "characterisation-not-passed",
            n.span,
            n.element,
            n.message,
        ));
    }
}

/// Every characterised variable over a SEFF's parameters that no caller of its signature sets.
pub fn not_passed(file: &ModelFile, repo: &Repository) -> Vec<NotPassed> {
    let callers = passed_by_callers(&[repo]);
    // Element id -> (the words its SEFF's callers use, its parameters, its signature's name).
    let mut of_element: BTreeMap<&str, (&Words, Vec<&str>, &str)> = BTreeMap::new();
    for (_, seff) in repo.seffs() {
        let Some(signature_id) = seff.described_service.as_ref().and_then(|r| r.target.id()) else {
            continue;
        };
        let Some(words) = callers.get(signature_id).filter(|w| !w.is_empty()) else {
            continue;
        };
        let Some((_, signature)) = repo.signatures().find(|(_, s)| s.id.as_deref() == Some(signature_id)) else {
            continue;
        };
        let parameters: Vec<&str> = signature.parameters.iter().filter_map(|p| p.name.as_deref()).collect();
        let name = signature.name.as_deref().unwrap_or("?");
        let mut ids = Vec::new();
        element_ids(&seff.behaviour, &mut ids);
        ids.extend(seff.id.as_deref());
        for id in ids {
            of_element.insert(id, (words, parameters.clone(), name));
        }
    }
    let mut out = Vec::new();
    for spec in &file.specifications {
        let Ok(expr) = &spec.expr else { continue };
        let Some(element) = file.nearest_id(spec.node) else {
            continue;
        };
        let Some((words, parameters, signature)) = of_element.get(element.as_str()) else {
            continue;
        };
        let Ok(unescaped) = unescape_attribute(file.tree.str(spec.value)) else {
            continue;
        };
        let base = spec.value.start as usize;
        expr.walk(&mut |node| {
            let ExprKind::CharacterisedVariable { name, characterisation } = &node.kind else {
                return;
            };
            if !name.first().is_some_and(|first| parameters.contains(&first.as_str())) {
                return;
            }
            let path = name.join(".");
            let used = characterisation.as_str();
            if words.get(&path).is_some_and(|w| w.contains(used)) {
                return;
            }
            let passed: Vec<String> = words
                .iter()
                .filter(|(v, _)| v.split('.').next() == name.first().map(String::as_str))
                .flat_map(|(v, cs)| cs.iter().map(move |c| format!("{v}.{c}")))
                .collect();
            let replacement = in_the_models_words(words, &path, used).map(|c| format!("{path}.{c}"));
            let they = if passed.is_empty() {
                format!("they pass nothing of {}", name[0])
            } else {
                format!("they pass {}", passed.join(", "))
            };
            let start = base + unescaped.raw_offset(node.span.start);
            let end = base + unescaped.raw_offset(node.span.end);
            out.push(NotPassed {
                span: Span::new(start, end.max(start)),
                element: Some(element.clone()),
                message: format!(
                    "`{path}.{used}`: no caller of {signature} sets it ({they}), so a simulator reads it as undefined"
                ),
                replacement,
            });
        });
    }
    out
}

/// The ids of a behaviour's actions and transitions, nested ones included.
fn element_ids<'a>(behaviour: &'a Behaviour, out: &mut Vec<&'a str>) {
    for a in &behaviour.actions {
        action_ids(a, out);
    }
}

fn action_ids<'a>(action: &'a Action, out: &mut Vec<&'a str>) {
    out.extend(action.id.as_deref());
    if let crate::model::ActionBody::Branch { transitions } = &action.body {
        out.extend(transitions.iter().filter_map(|t| t.id.as_deref()));
    }
    for b in action.body.behaviours() {
        element_ids(b, out);
    }
}
