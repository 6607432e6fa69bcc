//! The typed view of an `.allocation` file: which resource container each assembly context is
//! deployed on. Ids only, as in [`super::system`]: the contexts and containers live in other files
//! and are found by id; the file names are kept so that a reader can tell which files it names.

use super::href::{href_uri, reference_id, root_named};
use crate::file::ModelFile;
use crate::xml::NodeId;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Allocation {
    pub node: NodeId,
    pub id: Option<String>,
    pub name: Option<String>,
    /// The `.system` it allocates, as its `href` names it (`MediaStore-Cacheless.system`).
    pub system_uri: Option<String>,
    /// The `.resourceenvironment` it deploys onto, as its `href` names it.
    pub resource_environment_uri: Option<String>,
    pub contexts: Vec<AllocationContext>,
}

/// One assembly context placed on one resource container.
#[derive(Clone, Debug, PartialEq)]
pub struct AllocationContext {
    pub node: NodeId,
    pub id: Option<String>,
    pub name: Option<String>,
    /// The id of the assembly context (in the `.system`).
    pub assembly_context: Option<String>,
    /// The id of the resource container (in the `.resourceenvironment`).
    pub container: Option<String>,
}

impl Allocation {
    /// The allocation contexts that place `assembly_context` (PCM wants exactly one).
    pub fn contexts_of<'a>(&'a self, assembly_context: &'a str) -> impl Iterator<Item = &'a AllocationContext> + 'a {
        (self.contexts.iter()).filter(move |c| c.assembly_context.as_deref() == Some(assembly_context))
    }
}

/// The allocation of an `.allocation` file (`None` when it holds no Allocation).
pub fn allocation(file: &ModelFile) -> Option<Allocation> {
    let tree = &file.tree;
    let root = root_named(tree, "Allocation")?;
    let text = |n: NodeId, name: &str| tree.value(n, name).map(|v| v.to_string());
    let contexts = tree
        .children_named(root, "allocationContexts_Allocation")
        .map(|n| AllocationContext {
            node: n,
            id: text(n, "id"),
            name: text(n, "entityName"),
            assembly_context: reference_id(tree, n, "assemblyContext_AllocationContext"),
            container: reference_id(tree, n, "resourceContainer_AllocationContext"),
        })
        .collect();
    Some(Allocation {
        node: root,
        id: text(root, "id"),
        name: text(root, "entityName"),
        system_uri: href_uri(tree, root, "system_Allocation"),
        resource_environment_uri: href_uri(tree, root, "targetResourceEnvironment_Allocation"),
        contexts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn read(rel: &str) -> ModelFile {
        ModelFile::read(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../fixtures/pcm")
                .join(rel),
        )
        .unwrap()
    }

    #[test]
    fn the_mediastore_allocation_places_file_storage_on_the_database_server() {
        let a = allocation(&read("mediastore/MediaStore-Cacheless.allocation")).unwrap();
        assert_eq!(a.name.as_deref(), Some("MediaStore-Cacheless-Allocation"));
        assert_eq!(a.system_uri.as_deref(), Some("MediaStore-Cacheless.system"));
        assert_eq!(
            a.resource_environment_uri.as_deref(),
            Some("MediaStore.resourceenvironment")
        );
        assert_eq!(a.contexts.len(), 4);
        let storage: Vec<_> = a.contexts_of("_1ek7QLg_EeSNPorBlo7x9z").collect();
        assert_eq!(storage.len(), 1);
        assert_eq!(storage[0].container.as_deref(), Some("_dH4W0Lg3EeSNPorBlo7x9g"));
        assert_eq!(storage[0].id.as_deref(), Some("_0nXWILYiEeaM_9DBke4xEw"));
        let on_app_server = a
            .contexts
            .iter()
            .filter(|c| c.container.as_deref() == Some("_t8rcYHlPEeSGtbTG2d9Ipg"))
            .count();
        assert_eq!(on_app_server, 3);
        // A system is not an allocation.
        assert!(allocation(&read("mediastore/MediaStore-Cacheless.system")).is_none());
    }

    #[test]
    fn the_minimum_example_allocation_reads_its_escaped_name() {
        let a = allocation(&read("minimum-example/default.allocation")).unwrap();
        assert_eq!(a.contexts.len(), 1);
        let c = &a.contexts[0];
        assert_eq!(
            c.name.as_deref(),
            Some("Allocation_Assembly_AComponent <AComponent> <AComponent>")
        );
        assert_eq!(c.assembly_context.as_deref(), Some("_9c3KwCHcEd6lJo4DCALHMw"));
        assert_eq!(c.container.as_deref(), Some("_B0aZ0CHdEd6lJo4DCALHMw"));
        assert_eq!(a.resource_environment_uri.as_deref(), Some("My.resourceenvironment"));
    }
}
