//! A repository as a diagram draws it from above: its components, the interfaces each provides
//! and requires (through which roles), and the SEFFs each has, so that a user sees which
//! component calls which before opening one SEFF's diagram.

use crate::results::ElementResult;
use crate::text::{id_span, name_span, target_name};
use beagle_pcm::model::{Component, ComponentKind, Role};
use beagle_pcm::{ModelFile, Span};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RepositoryOverview {
    pub name: Option<String>,
    pub components: Vec<ComponentBox>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ComponentBox {
    pub id: Option<String>,
    pub name: Option<String>,
    /// `BasicComponent`, `CompositeComponent` or `Component` (any other type).
    pub kind: &'static str,
    /// The component's name (what an editor selects).
    pub span: Span,
    pub provides: Vec<RoleEnd>,
    pub requires: Vec<RoleEnd>,
    pub seffs: Vec<SeffEntry>,
}

/// One provided or required role and its interface.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoleEnd {
    pub id: Option<String>,
    pub name: Option<String>,
    pub interface: Option<String>,
    /// The referenced interface's id: a requiring and a providing role meet on it.
    pub interface_id: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeffEntry {
    pub id: Option<String>,
    /// `IUpload.upload`.
    pub service: Option<String>,
    /// The SEFF's id attribute.
    pub span: Span,
    /// Actions in it, nested ones included.
    pub actions: usize,
    /// Beagle's results about those actions.
    pub results: usize,
}

/// The overview of `file`'s repository; `None` when the file holds none.
pub fn repository_overview(file: &ModelFile, results: &[ElementResult]) -> Option<RepositoryOverview> {
    let repo = file.repository.as_ref()?;
    Some(RepositoryOverview {
        name: repo.name.clone(),
        components: repo.components.iter().map(|c| component(file, c, results)).collect(),
    })
}

fn component(file: &ModelFile, c: &Component, results: &[ElementResult]) -> ComponentBox {
    let tree = &file.tree;
    let roles = |roles: &[Role]| roles.iter().map(|r| role(file, r)).collect();
    ComponentBox {
        id: c.id.clone(),
        name: c.name.clone(),
        kind: match c.kind {
            ComponentKind::Basic => "BasicComponent",
            ComponentKind::Composite => "CompositeComponent",
            ComponentKind::Other => "Component",
        },
        span: name_span(tree, c.node),
        provides: roles(&c.provided_roles),
        requires: roles(&c.required_roles),
        seffs: c
            .seffs
            .iter()
            .map(|s| {
                let actions = s.behaviour.walk();
                SeffEntry {
                    id: s.id.clone(),
                    service: s.described_service.as_ref().map(|r| target_name(file, r)),
                    span: id_span(tree, s.node),
                    actions: actions.len(),
                    results: results
                        .iter()
                        .filter(|r| actions.iter().any(|a| a.id.as_deref() == Some(r.action.as_str())))
                        .count(),
                }
            })
            .collect(),
    }
}

fn role(file: &ModelFile, r: &Role) -> RoleEnd {
    RoleEnd {
        id: r.id.clone(),
        name: r.name.clone(),
        interface: r.interface.as_ref().map(|i| target_name(file, i)),
        interface_id: r.interface.as_ref().map(|i| i.target.fragment().to_string()),
    }
}
