//! The section table: what each probe id in the instrumented code stands for. Instrumentation
//! hands out the ids; the decoder turns probe records back into PCM-keyed events with it.

use serde::{Deserialize, Serialize};

/// What a probe section records, keyed by PCM ids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Section {
    /// A SEFF's method: one execution per entry.
    Service { service: String },
    /// An internal action's statements, timed for one resource type (CPU time when the resource
    /// is the CPU, wall time otherwise).
    Demand {
        action: String,
        resource: String,
        cpu: bool,
    },
    /// A loop: iterations per execution of the loop statement.
    Loop { loop_id: String },
    /// A branch transition's code: ran once per record.
    Transition { branch: String, transition: String },
    /// An external call's statement: the next SEFF entry is this call's.
    Call { call: String },
}

/// Probe ids: sections by id, parameter slots by id (`slot` of `Probe.param`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionTable {
    pub sections: Vec<Section>,
    /// Parameter names (`files`), characterised by the probe (`files.NUMBER_OF_ELEMENTS`).
    pub slots: Vec<String>,
    /// The SEFF of each measured action, loop, branch and external call (PCM id -> SEFF id).
    /// A probe records into the innermost service execution on its thread; code linked to one
    /// SEFF's action that another SEFF runs (a shared helper method) records into that other
    /// SEFF's execution, which is no observation of the action: the results drop it
    /// ([`beagle_analysis::EventDigest::with_services`]). Empty: every record counts.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub services: std::collections::BTreeMap<String, String>,
    /// Code that several components run (a body they inherit from one base class).
    #[serde(default, skip_serializing_if = "Dispatch::is_empty")]
    pub dispatch: Dispatch,
    /// Slots of a collection the model abstracts to a number (`entries: INT` for a
    /// `List<Entry> currentEntries`, CIPM's convention): the collection's size is the model's
    /// `entries.VALUE`, and nothing else of it is an input of the model.
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub sizes_as_value: std::collections::BTreeSet<i32>,
    /// Slots of a collection whose BYTESIZE the model reads (`items.BYTESIZE`, the sum over its
    /// elements); elsewhere the probe's sum is no input of the model and is not kept.
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub elements_bytesize: std::collections::BTreeSet<i32>,
    /// A model's composite parameter taken as one code object: per object slot, the inner
    /// declarations the probe reads through a field or getter of that name, each into its own
    /// slot (named `request.Parts`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub members: std::collections::BTreeMap<i32, Vec<(String, i32)>>,
    /// Characterisations given as Java expressions (`[[input]]` of the link file): per service
    /// section, what its entry evaluates, each into a slot of its own.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub given: std::collections::BTreeMap<i32, Vec<crate::links::GivenInput>>,
    /// A given slot -> the characterisation its value is (its records are the expression's value).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub given_as: std::collections::BTreeMap<i32, String>,
}

/// The resource on the class path from which the probe reads the members it characterises.
pub const MEMBERS_RESOURCE: &str = "beagle-members.txt";

/// One inherited body, several components: one probe site in the code, a section per component.
/// The SEFF's entry asks the probe which section the receiving object's class stands for
/// (`Probe.pick(this, table)`: the nearest class up its superclass chain that a table names;
/// none, -1: an execution of no component, not recorded). Every other record inside that body
/// carries the first component's section, and the decoder reads it as the section of the SEFF
/// whose execution it was recorded in ([`Dispatch::resolve`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dispatch {
    /// Per table: (receiving class's binary name, its service section).
    pub tables: Vec<Vec<(String, i32)>>,
    /// The service section written at a site -> its table.
    pub site_table: std::collections::BTreeMap<i32, usize>,
    /// A section written in shared code -> (SEFF id -> that SEFF's own section).
    pub shared: std::collections::BTreeMap<i32, std::collections::BTreeMap<String, i32>>,
}

/// The resource on the class path from which the probe reads the tables.
pub const DISPATCH_RESOURCE: &str = "beagle-dispatch.txt";

impl Dispatch {
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty() && self.shared.is_empty()
    }

    /// The section a record of `section` stands for in an execution of SEFF `service`.
    pub fn resolve(&self, section: i32, service: Option<&str>) -> i32 {
        service
            .and_then(|s| self.shared.get(&section)?.get(s))
            .copied()
            .unwrap_or(section)
    }

    /// The SEFF sections other than `written` in the table of the site that writes `written`.
    pub fn others(&self, written: i32) -> Vec<i32> {
        let Some(&t) = self.site_table.get(&written) else {
            return Vec::new();
        };
        self.tables[t]
            .iter()
            .map(|(_, section)| *section)
            .filter(|s| *s != written)
            .collect()
    }

    /// The tables as the probe reads them: a line per class, `table<TAB>class<TAB>section`.
    pub fn resource_text(&self) -> String {
        let mut out = String::new();
        for (table, receivers) in self.tables.iter().enumerate() {
            for (class, section) in receivers {
                out.push_str(&format!("{table}\t{class}\t{section}\n"));
            }
        }
        out
    }
}

impl SectionTable {
    /// Adds a section, returning its probe id.
    pub fn add(&mut self, section: Section) -> i32 {
        self.sections.push(section);
        (self.sections.len() - 1) as i32
    }

    /// Adds a parameter slot, returning its id.
    pub fn add_slot(&mut self, name: &str) -> i32 {
        self.slots.push(name.to_string());
        (self.slots.len() - 1) as i32
    }

    pub fn section(&self, id: i32) -> Option<&Section> {
        usize::try_from(id).ok().and_then(|i| self.sections.get(i))
    }

    /// Every transition of each branch that has sections (branch id -> transition ids): each
    /// decision of a branch is an observation of every one of its transitions.
    pub fn transitions(&self) -> std::collections::BTreeMap<String, Vec<String>> {
        let mut out: std::collections::BTreeMap<String, Vec<String>> = Default::default();
        for s in &self.sections {
            if let Section::Transition { branch, transition } = s {
                out.entry(branch.clone()).or_default().push(transition.clone());
            }
        }
        out
    }

    /// The SEFF a service section stands for.
    pub fn service_of(&self, id: i32) -> Option<&str> {
        match self.section(id)? {
            Section::Service { service } => Some(service),
            _ => None,
        }
    }

    /// The members as the probe reads them: a line per member, `slot<TAB>name<TAB>member slot`.
    pub fn members_text(&self) -> String {
        let mut out = String::new();
        for (slot, members) in &self.members {
            for (name, member) in members {
                out.push_str(&format!("{slot}\t{name}\t{member}\n"));
            }
        }
        out
    }

    pub fn slot(&self, id: i32) -> Option<&str> {
        usize::try_from(id)
            .ok()
            .and_then(|i| self.slots.get(i))
            .map(String::as_str)
    }
}
