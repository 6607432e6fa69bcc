//! The deployment of a system, read from its three files: which resource container each assembly
//! context runs on (`.allocation`), and how fast each container processes each resource type
//! (`.resourceenvironment`). What turns a demand in work units into simulated time:
//! `time = demand / rate` of the container the demanding component is allocated to.

use crate::beside;
use crate::file::{FileKind, ModelFile};
use crate::model::allocation::{allocation, Allocation};
use crate::model::resource_environment::{
    resource_environment, resource_type_name, ProcessingResource, ResourceContainer, ResourceEnvironment,
};
use crate::model::system::{assembly, Assembly, AssemblyContext};
use crate::workspace::{locate, FileId, ModelSet};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// An allocation with the system and resource environment it names, where they could be read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Deployment {
    pub allocation_path: PathBuf,
    pub allocation: Allocation,
    pub system_path: Option<PathBuf>,
    pub assembly: Option<Assembly>,
    /// The file the containers' spans point into.
    pub environment_path: Option<PathBuf>,
    pub environment: Option<ResourceEnvironment>,
    /// Resource type names read from resource type files (beyond Palladio's, which are known).
    type_names: BTreeMap<String, String>,
}

/// The time unit of the model's processing rates (`[model] time_unit` in `beagle.toml`): a rate
/// is work units per simulation time unit, and measured times are converted to this unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub enum TimeUnit {
    #[default]
    Seconds,
    Milliseconds,
}

impl TimeUnit {
    pub fn as_str(self) -> &'static str {
        match self {
            TimeUnit::Seconds => "s",
            TimeUnit::Milliseconds => "ms",
        }
    }

    /// Seconds per unit.
    pub fn seconds(self) -> f64 {
        match self {
            TimeUnit::Seconds => 1.0,
            TimeUnit::Milliseconds => 1e-3,
        }
    }
}

impl Deployment {
    /// The deployment an allocation file describes, from files already read: any of them may be
    /// missing or of another kind (then that part is `None`).
    pub fn from_files(
        allocation_file: &ModelFile,
        system: Option<&ModelFile>,
        environment: Option<&ModelFile>,
    ) -> Option<Deployment> {
        Some(Deployment {
            allocation_path: allocation_file.path.clone(),
            allocation: allocation(allocation_file)?,
            system_path: system.map(|f| f.path.clone()),
            assembly: system.and_then(assembly),
            environment_path: environment.map(|f| f.path.clone()),
            environment: environment.and_then(resource_environment),
            type_names: BTreeMap::new(),
        })
    }

    /// The deployment of allocation file `id` in `set`, with the files its references name
    /// (loaded here) and the names of any resource types the set holds.
    pub fn load(set: &mut ModelSet, id: FileId) -> Option<Deployment> {
        set.load_referenced(id);
        Deployment::in_set(set, id)
    }

    /// [`Deployment::load`] for a set whose references are loaded already.
    pub fn in_set(set: &ModelSet, id: FileId) -> Option<Deployment> {
        let file = set.file(id);
        let a = allocation(file)?;
        let named = |uri: &Option<String>| {
            let uri = uri.as_deref()?;
            set.id_of(&locate(&file.path, uri).path()).map(|i| set.file(i))
        };
        let system = named(&a.system_uri);
        let environment = named(&a.resource_environment_uri);
        let mut out = Deployment::from_files(file, system, environment)?;
        for (_, f) in set.files().filter(|(_, f)| f.kind == FileKind::ResourceTypes) {
            let tree = &f.tree;
            for n in tree
                .ids()
                .filter(|&n| tree.local_name(n) == "availableResourceTypes_ResourceRepository")
            {
                if let (Some(id), Some(name)) = (tree.value(n, "id"), tree.value(n, "entityName")) {
                    out.type_names.insert(id.into_owned(), name.into_owned());
                }
            }
        }
        Some(out)
    }

    pub fn containers(&self) -> &[ResourceContainer] {
        self.environment.as_ref().map_or(&[], |e| &e.containers)
    }

    /// A container by id, or else by name (`[model] measured_on` may give either).
    pub fn container(&self, id_or_name: &str) -> Option<&ResourceContainer> {
        let containers = self.containers();
        (containers.iter().find(|c| c.id.as_deref() == Some(id_or_name)))
            .or_else(|| containers.iter().find(|c| c.name.as_deref() == Some(id_or_name)))
    }

    /// The container an assembly context is allocated to (the first, if allocated twice).
    pub fn container_of(&self, assembly_context: &str) -> Option<&ResourceContainer> {
        let container = self
            .allocation
            .contexts_of(assembly_context)
            .find_map(|c| c.container.as_deref())?;
        self.containers().iter().find(|c| c.id.as_deref() == Some(container))
    }

    /// The processing resource of `resource_type` (by id) on container `container` (by id).
    pub fn processing_resource(&self, container: &str, resource_type: &str) -> Option<&ProcessingResource> {
        let c = self.containers().iter().find(|c| c.id.as_deref() == Some(container))?;
        c.resources
            .iter()
            .find(|r| r.resource_type.as_deref() == Some(resource_type))
    }

    /// The containers a component (a BasicComponent's id in a repository) runs on: one per
    /// assembly context of it in the system that is allocated, in the system's order.
    pub fn containers_of_component(&self, component: &str) -> Vec<&ResourceContainer> {
        let Some(assembly) = &self.assembly else {
            return Vec::new();
        };
        let mut out: Vec<&ResourceContainer> = Vec::new();
        for context in assembly.contexts_of(component) {
            if let Some(c) = context.id.as_deref().and_then(|id| self.container_of(id)) {
                if !out.iter().any(|o| std::ptr::eq(*o, c)) {
                    out.push(c);
                }
            }
        }
        out
    }

    /// The system's assembly contexts that no allocation context places.
    pub fn unallocated(&self) -> Vec<&AssemblyContext> {
        let Some(assembly) = &self.assembly else {
            return Vec::new();
        };
        (assembly.contexts.iter())
            .filter(|c| {
                c.id.as_deref()
                    .is_none_or(|id| self.allocation.contexts_of(id).next().is_none())
            })
            .collect()
    }

    /// A resource type's name (`CPU`), from Palladio's types or the set's resource type files.
    pub fn resource_type_name<'a>(&'a self, id: &'a str) -> Option<&'a str> {
        resource_type_name(id).or_else(|| self.type_names.get(id).map(String::as_str))
    }
}

/// The `.allocation` files beside a system file (in its folder) that allocate it, sorted.
pub fn allocations_of_system(system: &Path) -> Vec<PathBuf> {
    let dir = system.parent().unwrap_or(Path::new(""));
    let names: Vec<String> = beside::file_name(system).into_iter().collect();
    beside::files_referring(&[dir], "allocation", &names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn fixture(rel: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/pcm")
            .join(rel)
    }

    fn load(rel: &str) -> Deployment {
        let mut set = ModelSet::new();
        let id = set.load(&fixture(rel)).unwrap();
        Deployment::load(&mut set, id).unwrap()
    }

    #[test]
    fn mediastore_places_three_contexts_on_the_application_server_and_file_storage_on_the_database() {
        let d = load("mediastore/MediaStore-Cacheless.allocation");
        assert!(d.system_path.as_ref().unwrap().ends_with("MediaStore-Cacheless.system"));
        assert!(d
            .environment_path
            .as_ref()
            .unwrap()
            .ends_with("MediaStore.resourceenvironment"));
        let on = |context: &str| d.container_of(context).and_then(|c| c.name.as_deref());
        assert_eq!(on("_1ek7QLg_EeSNPorBlo7x9z"), Some("DatabaseServer")); // FileStorage
        for context in [
            "_C1kK8HD5EeSA4fySuX9I2Z",
            "_4LdYsHD4EeSA4fySuX9I2Z",
            "_IPnY0HD5EeSA4fySuX9I2Z",
        ] {
            assert_eq!(on(context), Some("ApplicationServer"), "{context}");
        }
        assert_eq!(on("_nothing"), None);
        // The container's span is its start tag in the resource environment.
        let db = d.container("DatabaseServer").unwrap();
        let text = std::fs::read_to_string(d.environment_path.as_ref().unwrap()).unwrap();
        assert!(
            text[db.span.range()].starts_with("<resourceContainer_ResourceEnvironment id=\"_dH4W0Lg3EeSNPorBlo7x9g\"")
        );
        assert_eq!(d.container("_dH4W0Lg3EeSNPorBlo7x9g").unwrap().name, db.name);

        let cpu = "_oro4gG3fEdy4YaaT-RYrLQ";
        let hdd = "_BIjHoQ3KEdyouMqirZIhzQ";
        let rate = |c: &str, t: &str| d.processing_resource(c, t).unwrap().rate.as_ref().unwrap().value;
        assert_eq!(rate("_t8rcYHlPEeSGtbTG2d9Ipg", cpu), 1e9);
        assert_eq!(rate("_t8rcYHlPEeSGtbTG2d9Ipg", hdd), 5e7);
        assert_eq!(rate("_dH4W0Lg3EeSNPorBlo7x9g", hdd), 6e8);
        assert_eq!(d.resource_type_name(hdd), Some("HDD"));
        assert_eq!(d.resource_type_name("_nvHX4KkREdyEA_b89s7q9w"), Some("DELAY"));

        // FileStorage (a BasicComponent in MediaStore.repository) runs on the database server.
        let names: Vec<_> = (d.containers_of_component("_qxAiILg7EeSNPorBlo7x9g").iter())
            .map(|c| c.name.as_deref().unwrap())
            .collect();
        assert_eq!(names, ["DatabaseServer"]);
        assert!(d.containers_of_component("_not_a_component").is_empty());
        assert!(d.unallocated().is_empty());
    }

    #[test]
    fn the_minimum_example_runs_its_one_component_on_appserver() {
        let d = load("minimum-example/default.allocation");
        let c = d.containers_of_component("_os1t4CHbEd62GabW1zGSBw");
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].name.as_deref(), Some("appserver"));
        let r = d
            .processing_resource("_B0aZ0CHdEd6lJo4DCALHMw", "_oro4gG3fEdy4YaaT-RYrLQ")
            .unwrap();
        assert_eq!(r.rate.as_ref().unwrap().value, 1.0810638521955225);
        assert_eq!(r.replicas, Ok(1));
    }

    #[test]
    fn a_system_finds_the_allocation_beside_it() {
        assert_eq!(
            allocations_of_system(&fixture("minimum-example/default.system")),
            vec![fixture("minimum-example/default.allocation")]
        );
        assert!(allocations_of_system(&fixture("mediastore/MediaStore.repository")).is_empty());
        assert_eq!(TimeUnit::default().as_str(), "s");
    }
}
