//! Checks that need only one file: XML, ids, `xsi:type`s, StoEx, same-file references,
//! control flow and branch probabilities, a resource environment's processing rates.

use super::{control_flow, resource_environment, vocabulary};
use crate::diagnostic::{Diagnostic, Severity};
use crate::file::{FileKind, ModelFile};
use crate::model::{ActionBody, TransitionKind};
use crate::namespaces::{known_types, parse_namespace};
use crate::reference::Target;
use crate::span::Span;
use crate::xml::{unescape_attribute, NO_NS};

pub fn check(file: &ModelFile) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for e in &file.tree.errors {
        let element = e.open.and_then(|n| file.nearest_id(n));
        out.push(Diagnostic::error(
            "xml",
            Span::empty(e.offset),
            element,
            e.message.clone(),
        ));
    }
    for (node, id) in &file.index.duplicate_ids {
        let span = file
            .tree
            .attribute(*node, "id")
            .map_or(file.tree.element(*node).name, |a| a.value);
        out.push(Diagnostic::error(
            "duplicate-id",
            span,
            Some(id.clone()),
            format!("id `{id}` is defined more than once; references go to its first definition"),
        ));
    }
    types(file, &mut out);
    specifications(file, &mut out);
    // After broken XML the tree ends early: every later id would be reported missing. The XML
    // error comes first; the model checks wait until it is fixed.
    if !file.tree.errors.is_empty() {
        out.sort_by_key(|d| (d.span.start, d.severity));
        return out;
    }
    local_references(file, &mut out);
    if let Some(repo) = &file.repository {
        control_flow::check(file, repo, &mut out);
        branch_probabilities(file, &mut out);
        vocabulary::check(file, repo, &mut out);
    }
    if file.kind == FileKind::ResourceEnvironment {
        resource_environment::check(file, &mut out);
    }
    out.sort_by_key(|d| (d.span.start, d.severity));
    out
}

fn types(file: &ModelFile, out: &mut Vec<Diagnostic>) {
    let tree = &file.tree;
    for node in tree.ids() {
        let Some((ns, local)) = tree.element(node).xsi_type else {
            continue;
        };
        let message = if ns == NO_NS {
            let value = tree.value(node, "xsi:type").unwrap_or_default();
            format!("`xsi:type=\"{value}\"` uses a prefix that is not bound to a namespace")
        } else {
            let uri = tree.namespace(ns).unwrap_or_default();
            let local = tree.str(local);
            match parse_namespace(uri) {
                Some(pcm) => match known_types(pcm.package) {
                    Some(known) if !known.contains(&local) => {
                        format!("unknown type `{local}` in namespace {uri}; Beagle ignores this element")
                    }
                    _ => continue,
                },
                None => continue,
            }
        };
        out.push(Diagnostic::warning(
            "unknown-type",
            local,
            file.nearest_id(node),
            message,
        ));
    }
}

fn specifications(file: &ModelFile, out: &mut Vec<Diagnostic>) {
    for spec in &file.specifications {
        let element = file.nearest_id(spec.node);
        let expr = match &spec.expr {
            Ok(expr) => expr,
            Err(e) => {
                let what = file.tree.local_name(spec.node);
                out.push(Diagnostic::error(
                    "stoex-syntax",
                    e.span,
                    element,
                    format!("invalid stochastic expression in {what}: {}", e.message),
                ));
                continue;
            }
        };
        let lints = beagle_stoex::lint(expr);
        if lints.is_empty() {
            continue;
        }
        let raw = file.tree.str(spec.value);
        let Ok(unescaped) = unescape_attribute(raw) else {
            continue;
        };
        let base = spec.value.start as usize;
        for lint in lints {
            let start = base + unescaped.raw_offset(lint.span.start);
            let end = base + unescaped.raw_offset(lint.span.end);
            let severity = match lint.severity {
                beagle_stoex::Severity::Warning => Severity::Warning,
                _ => Severity::Info,
            };
            out.push(Diagnostic {
                severity,
                span: Span::new(start, end.max(start)),
                element: element.clone(),
                message: lint.message,
                code: "stoex-lint",
            });
        }
    }
}

fn local_references(file: &ModelFile, out: &mut Vec<Diagnostic>) {
    for r in file.index.references() {
        if matches!(r.target, Target::External { .. }) || file.resolve_local(&r.target).is_some() {
            continue;
        }
        out.push(Diagnostic::error(
            "unresolved-reference",
            r.span,
            file.nearest_id(r.node),
            format!(
                "`{}` refers to `{}`, which is not in this file",
                r.feature,
                r.target.fragment()
            ),
        ));
    }
}

fn branch_probabilities(file: &ModelFile, out: &mut Vec<Diagnostic>) {
    let Some(repo) = &file.repository else { return };
    for action in repo.actions() {
        let ActionBody::Branch { transitions } = &action.body else {
            continue;
        };
        let mut sum = 0.0;
        let mut probabilistic = 0;
        for t in transitions {
            if !matches!(t.kind, TransitionKind::Probabilistic { .. }) {
                continue;
            }
            probabilistic += 1;
            let attr = file.tree.attribute(t.node, "branchProbability");
            match (&t.kind, attr) {
                (TransitionKind::Probabilistic { probability: Some(p) }, _) if (0.0..=1.0).contains(p) => sum += p,
                (_, Some(a)) => out.push(Diagnostic::error(
                    "branch-probability",
                    a.value,
                    t.id.clone().or_else(|| file.nearest_id(t.node)),
                    format!(
                        "branchProbability must be a number between 0 and 1, not `{}`",
                        file.tree.str(a.value)
                    ),
                )),
                (_, None) => {}
            }
        }
        if probabilistic > 0 && (sum - 1.0).abs() > 1e-6 {
            out.push(Diagnostic::warning(
                "branch-probability",
                file.tree.element(action.node).name,
                action.id.clone(),
                format!("the branch probabilities of this BranchAction sum to {sum}, not 1"),
            ));
        }
    }
}
