//! The deployment's problems that need several files: an allocation that leaves an assembly
//! context without a container (or gives it two), a container without a processing resource
//! that an allocated component demands, and a system with a resource environment beside it but
//! no allocation. Each is reported in the file that would be edited to fix it.

use crate::deployment::{allocations_of_system, Deployment};
use crate::diagnostic::Diagnostic;
use crate::file::{FileKind, ModelFile};
use crate::model::allocation::AllocationContext;
use crate::model::Component;
use crate::workspace::{locate, FileId, ModelSet};
use std::collections::BTreeMap;

pub fn check(set: &ModelSet, id: FileId, out: &mut Vec<Diagnostic>) {
    match set.file(id).kind {
        FileKind::Allocation => allocation(set, id, out),
        FileKind::System => system(set, id, out),
        _ => {}
    }
}

fn allocation(set: &ModelSet, id: FileId, out: &mut Vec<Diagnostic>) {
    let file = set.file(id);
    let Some(d) = Deployment::in_set(set, id) else { return };
    let a = &d.allocation;
    let root_tag = file.tree.element(a.node).start_tag;
    // Where an unallocated context is reported: the reference to its system.
    let system_tag =
        (file.tree.child_named(a.node, "system_Allocation")).map_or(root_tag, |n| file.tree.element(n).start_tag);
    for (feature, uri, what) in [
        ("system_Allocation", &a.system_uri, "system"),
        (
            "targetResourceEnvironment_Allocation",
            &a.resource_environment_uri,
            "resource environment",
        ),
    ] {
        if uri.is_none() {
            let message = format!("the allocation names no {what} (`{feature}`)");
            out.push(Diagnostic::warning("allocation", root_tag, a.id.clone(), message));
        }
    }
    for c in &a.contexts {
        let tag = file.tree.element(c.node).start_tag;
        let name = label(c.name.as_deref(), c.id.as_deref());
        if c.assembly_context.is_none() || c.container.is_none() {
            let message = format!("allocation context `{name}` must name an assembly context and a resource container");
            out.push(Diagnostic::warning("allocation", tag, c.id.clone(), message));
        }
    }
    let Some(assembly) = &d.assembly else { return };
    let system = label(assembly.name.as_deref(), assembly.id.as_deref());
    for context in &assembly.contexts {
        let Some(context_id) = context.id.as_deref() else {
            continue;
        };
        let name = label(context.name.as_deref(), Some(context_id));
        let placed: Vec<&AllocationContext> = a.contexts_of(context_id).collect();
        if placed.is_empty() {
            let message = format!(
                "assembly context `{name}` of system `{system}` is not allocated to a resource container: its component's demands have no processing rate"
            );
            out.push(Diagnostic::error(
                "not-allocated",
                system_tag,
                Some(context_id.to_string()),
                message,
            ));
        }
        for twice in placed.iter().skip(1) {
            let message = format!(
                "assembly context `{name}` is allocated more than once; PCM allows one container per assembly context"
            );
            let tag = file.tree.element(twice.node).start_tag;
            out.push(Diagnostic::error("allocated-twice", tag, twice.id.clone(), message));
        }
        let (Some(component_id), Some(placement)) = (context.component.as_deref(), placed.first()) else {
            continue;
        };
        let (Some(container), Some(component)) = (d.container_of(context_id), component(set, component_id)) else {
            continue; // An unresolved reference, reported as one.
        };
        for (resource_type, action) in demanded_types(component) {
            if container
                .resources
                .iter()
                .any(|r| r.resource_type.as_deref() == Some(resource_type.as_str()))
            {
                continue;
            }
            let type_name = d.resource_type_name(&resource_type).unwrap_or(&resource_type);
            let message = format!(
                "`{name}` runs on `{}`, which has no {type_name} processing resource, but component `{}` demands {type_name} (action `{action}`)",
                label(container.name.as_deref(), container.id.as_deref()),
                label(component.name.as_deref(), Some(component_id)),
            );
            let tag = file.tree.element(placement.node).start_tag;
            out.push(Diagnostic::error(
                "missing-resource",
                tag,
                placement.id.clone(),
                message,
            ));
        }
    }
}

/// A system with a resource environment beside it is meant to be deployed: without an
/// allocation, none of its demands can become time.
fn system(set: &ModelSet, id: FileId, out: &mut Vec<Diagnostic>) {
    let file = set.file(id);
    let Some(root) = file.tree.root() else { return };
    // An allocation in the set (an editor's unsaved one, say) counts as well as one on disk.
    let in_set = set.files().any(|(_, f)| {
        f.kind == FileKind::Allocation
            && (crate::model::allocation::allocation(f))
                .and_then(|a| a.system_uri)
                .is_some_and(|uri| locate(&f.path, &uri).path() == file.path)
    });
    if in_set || !allocations_of_system(&file.path).is_empty() {
        return;
    }
    let dir = file.path.parent().unwrap_or(std::path::Path::new(""));
    let Some(environment) = crate::beside::with_extension(&[dir], "resourceenvironment")
        .into_iter()
        .next()
    else {
        return;
    };
    let message = format!(
        "no allocation deploys this system, though `{}` is beside it: its components' demands cannot be turned into time (add an .allocation)",
        environment.file_name().unwrap_or_default().to_string_lossy()
    );
    let element = file.tree.value(root, "id").map(|v| v.into_owned());
    out.push(Diagnostic::warning(
        "no-allocation",
        file.tree.element(root).start_tag,
        element,
        message,
    ));
}

/// A component by id in any repository of the set.
fn component<'a>(set: &'a ModelSet, id: &str) -> Option<&'a Component> {
    set.files()
        .filter_map(|(_, f): (FileId, &ModelFile)| f.repository.as_ref())
        .find_map(|r| r.components.iter().find(|c| c.id.as_deref() == Some(id)))
}

/// The resource types a component's behaviours demand, each with the first action demanding it.
fn demanded_types(component: &Component) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let behaviours = component
        .seffs
        .iter()
        .map(|s| &s.behaviour)
        .chain(&component.internal_behaviours);
    for action in behaviours.flat_map(|b| b.walk()) {
        for demand in &action.resource_demands {
            if let Some(t) = demand.resource_type.as_ref().and_then(|r| r.target.id()) {
                let action = label(action.name.as_deref(), action.id.as_deref()).to_string();
                out.entry(t.to_string()).or_insert(action);
            }
        }
    }
    out
}

fn label<'a>(name: Option<&'a str>, id: Option<&'a str>) -> &'a str {
    name.or(id).unwrap_or("?")
}
