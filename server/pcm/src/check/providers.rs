//! Calls into interfaces nobody provides: an ExternalCallAction whose signature belongs to an
//! interface that no component of the repository, nor of the repositories it refers to, provides
//! (directly or through an interface that inherits it). No SEFF answers such a call, so its cost is
//! in no demand of the model. An info, not a warning: a repository of the workspace that this one
//! does not refer to may provide it (a system assembles components of several repositories), and
//! which files a check sees must not change what it says.

use crate::diagnostic::{Diagnostic, Severity};
use crate::model::{ActionBody, Repository};
use crate::reference::Target;
use crate::workspace::{FileId, ModelSet};
use std::collections::{BTreeMap, BTreeSet};

pub fn check(set: &ModelSet, id: FileId, out: &mut Vec<Diagnostic>) {
    let file = set.file(id);
    let Some(own) = &file.repository else { return };
    // This repository, then those it refers to (in the order of its references: deterministic).
    let mut ids = vec![id];
    for r in file.index.references() {
        if let Target::External { .. } = r.target {
            if let Ok((target, _)) = set.resolve(id, r) {
                if !ids.contains(&target) && set.file(target).repository.is_some() {
                    ids.push(target);
                }
            }
        }
    }
    let repositories: Vec<&Repository> = ids.iter().filter_map(|&i| set.file(i).repository.as_ref()).collect();
    // Signature id -> (interface id, interface name); interface id -> its parents' ids.
    let mut interface_of: BTreeMap<&str, (&str, Option<&str>)> = BTreeMap::new();
    let mut parents: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for repo in &repositories {
        for i in &repo.interfaces {
            let Some(iid) = i.id.as_deref() else { continue };
            parents.insert(iid, i.parents.iter().filter_map(|p| p.target.id()).collect());
            for s in &i.signatures {
                if let Some(sid) = s.id.as_deref() {
                    interface_of.insert(sid, (iid, i.name.as_deref()));
                }
            }
        }
    }
    // Every interface a component provides, with the interfaces those inherit.
    let mut provided: BTreeSet<&str> = BTreeSet::new();
    let mut todo: Vec<&str> = (repositories.iter())
        .flat_map(|r| &r.components)
        .flat_map(|c| &c.provided_roles)
        .filter_map(|role| role.interface.as_ref().and_then(|r| r.target.id()))
        .collect();
    while let Some(i) = todo.pop() {
        if provided.insert(i) {
            todo.extend(parents.get(i).into_iter().flatten().copied());
        }
    }
    for action in own.actions() {
        let ActionBody::ExternalCall {
            called_service: Some(called),
            ..
        } = &action.body
        else {
            continue;
        };
        let Some(&(interface, interface_name)) = called.target.id().and_then(|s| interface_of.get(s)) else {
            continue; // Unresolved, or in a file this one does not name: said elsewhere, or unknown.
        };
        if provided.contains(interface) {
            continue;
        }
        let call = action.name.as_deref().or(action.id.as_deref()).unwrap_or("?");
        out.push(Diagnostic {
            severity: Severity::Info,
            ..Diagnostic::error(
                "interface-not-provided",
                file.tree.element(action.node).start_tag,
                action.id.clone().or_else(|| file.nearest_id(action.node)),
                format!(
                    "the call `{call}` goes to interface `{}`, which no component of this repository (or of the repositories it refers to) provides: its cost is in no demand",
                    interface_name.unwrap_or(interface)
                ),
            )
        });
    }
}
