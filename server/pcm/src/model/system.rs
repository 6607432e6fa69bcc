//! The typed view of a `.system` file, as far as the prediction of a service needs it: which
//! component each assembly context holds, and which context provides each required role of
//! another (assembly connectors), and which context serves each of the system's provided roles
//! (provided delegation connectors). Ids only: references into repositories are resolved by id.

use super::href::reference_id;
use crate::file::ModelFile;
use crate::xml::NodeId;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Assembly {
    pub id: Option<String>,
    pub name: Option<String>,
    pub contexts: Vec<AssemblyContext>,
    pub connectors: Vec<AssemblyConnector>,
    pub delegations: Vec<ProvidedDelegation>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AssemblyContext {
    pub node: NodeId,
    pub id: Option<String>,
    pub name: Option<String>,
    /// The id of the component it encapsulates (in a repository).
    pub component: Option<String>,
}

/// A required role of one context bound to a provided role of another.
#[derive(Clone, Debug, PartialEq)]
pub struct AssemblyConnector {
    pub node: NodeId,
    pub id: Option<String>,
    pub requiring: Option<String>,
    pub required_role: Option<String>,
    pub providing: Option<String>,
    pub provided_role: Option<String>,
}

/// A provided role of the system served by a context's provided role.
#[derive(Clone, Debug, PartialEq)]
pub struct ProvidedDelegation {
    pub node: NodeId,
    pub outer_role: Option<String>,
    pub context: Option<String>,
    pub inner_role: Option<String>,
}

impl Assembly {
    /// The contexts that hold `component` (by id).
    pub fn contexts_of<'a>(&'a self, component: &'a str) -> impl Iterator<Item = &'a AssemblyContext> + 'a {
        self.contexts
            .iter()
            .filter(move |c| c.component.as_deref() == Some(component))
    }

    /// The id of the one context that holds `component`; `None` when none or several do (then
    /// the context is not known from the component alone).
    pub fn only_context_of<'a>(&'a self, component: &'a str) -> Option<&'a str> {
        let mut contexts = self.contexts_of(component);
        match (contexts.next(), contexts.next()) {
            (Some(c), None) => c.id.as_deref(),
            _ => None,
        }
    }

    pub fn context(&self, id: &str) -> Option<&AssemblyContext> {
        self.contexts.iter().find(|c| c.id.as_deref() == Some(id))
    }

    /// The connector that binds `required_role` of context `requiring`.
    pub fn connector(&self, requiring: &str, required_role: &str) -> Option<&AssemblyConnector> {
        self.connectors
            .iter()
            .find(|c| c.requiring.as_deref() == Some(requiring) && c.required_role.as_deref() == Some(required_role))
    }
}

/// The assembly of a `.system` file (`None` when its root is not a System).
pub fn assembly(file: &ModelFile) -> Option<Assembly> {
    let tree = &file.tree;
    let root = tree.root()?;
    if tree.local_name(root) != "System" {
        return None;
    }
    let reference = |n: NodeId, feature: &str| reference_id(tree, n, feature);
    let text = |n: NodeId, name: &str| tree.value(n, name).map(|v| v.to_string());
    let mut out = Assembly {
        id: text(root, "id"),
        name: text(root, "entityName"),
        ..Assembly::default()
    };
    for n in tree.children_named(root, "assemblyContexts__ComposedStructure") {
        out.contexts.push(AssemblyContext {
            node: n,
            id: text(n, "id"),
            name: text(n, "entityName"),
            component: reference(n, "encapsulatedComponent__AssemblyContext"),
        });
    }
    for n in tree.children_named(root, "connectors__ComposedStructure") {
        match tree.xsi_type(n).map(|(_, local)| local) {
            Some("AssemblyConnector") => out.connectors.push(AssemblyConnector {
                node: n,
                id: text(n, "id"),
                requiring: reference(n, "requiringAssemblyContext_AssemblyConnector"),
                required_role: reference(n, "requiredRole_AssemblyConnector"),
                providing: reference(n, "providingAssemblyContext_AssemblyConnector"),
                provided_role: reference(n, "providedRole_AssemblyConnector"),
            }),
            Some("ProvidedDelegationConnector") => out.delegations.push(ProvidedDelegation {
                node: n,
                outer_role: reference(n, "outerProvidedRole_ProvidedDelegationConnector"),
                context: reference(n, "assemblyContext_ProvidedDelegationConnector"),
                inner_role: reference(n, "innerProvidedRole_ProvidedDelegationConnector"),
            }),
            _ => {}
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn the_mediastore_system_binds_media_management_to_media_access() {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pcm/mediastore/MediaStore-Cacheless.system");
        let file = ModelFile::read(&path).unwrap();
        let a = assembly(&file).unwrap();
        assert_eq!(a.name.as_deref(), Some("MediaStoreSystem"));
        assert_eq!(a.contexts.len(), 4);
        let management = a
            .contexts
            .iter()
            .find(|c| c.name.as_deref() == Some("MediaManagement"))
            .unwrap();
        assert_eq!(management.component.as_deref(), Some("_p_EeYHDrEeSqnN80MQ2uGw"));
        let c = a
            .connector("_C1kK8HD5EeSA4fySuX9I2Z", "_mYCsUHD2EeSA4fySuX9I2Q")
            .unwrap();
        assert_eq!(c.providing.as_deref(), Some("_4LdYsHD4EeSA4fySuX9I2Z"));
        assert_eq!(c.provided_role.as_deref(), Some("_z2B7cHD2EeSA4fySuX9I2Q"));
        assert_eq!(a.delegations.len(), 1);
        assert_eq!(a.delegations[0].context.as_deref(), Some("_C1kK8HD5EeSA4fySuX9I2Z"));
        // A repository is not a system.
        let repo = ModelFile::read(&path.with_file_name("MediaStore.repository")).unwrap();
        assert!(assembly(&repo).is_none());
    }
}
