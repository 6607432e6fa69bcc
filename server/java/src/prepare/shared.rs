//! One body, several components: the bookkeeping of probe sites that more than one SEFF is linked
//! to (a template method that three subclasses inherit from their abstract base). The first
//! SEFF's sections are written into the code; the others' are told apart by the receiving
//! object's class at the SEFF's entry ([`crate::sections::Dispatch`]).

use crate::links::CodeLink;
use crate::sections::SectionTable;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// A place in the code: file and byte range.
pub(super) type Place = (PathBuf, usize, usize);

fn place(l: &CodeLink) -> Place {
    (l.file.clone(), l.range.start, l.range.end)
}

/// The first service linked to a method: its section and receiving class.
struct FirstService {
    service: String,
    section: i32,
    receiver: Option<String>,
}

/// What a service's link turned out to be.
pub(super) enum ServicePlace {
    /// The first at its method: write its site.
    First,
    /// Another component's, told apart from the first by the receiving class.
    Dispatched,
    /// Linked to the same method as `first`, with nothing to tell them apart.
    Duplicate { first: String },
}

/// Service sites and the sections of other SEFFs' records at places several SEFFs share.
#[derive(Default)]
pub(super) struct SharedSites {
    services: BTreeMap<Place, FirstService>,
    /// SEFFs whose entry picks its section by the receiving class.
    dispatched: BTreeSet<String>,
}

impl SharedSites {
    /// Records the service `service` (its section `section`) linked by `l`.
    pub(super) fn service(
        &mut self,
        table: &mut SectionTable,
        service: &str,
        section: i32,
        l: &CodeLink,
    ) -> ServicePlace {
        let Some(first) = self.services.get(&place(l)) else {
            self.services.insert(
                place(l),
                FirstService {
                    service: service.to_string(),
                    section,
                    receiver: l.receiver.clone(),
                },
            );
            return ServicePlace::First;
        };
        let (Some(first_receiver), Some(receiver)) = (&first.receiver, &l.receiver) else {
            return ServicePlace::Duplicate {
                first: first.service.clone(),
            };
        };
        let dispatch = &mut table.dispatch;
        let index = match dispatch.site_table.get(&first.section) {
            Some(&t) => t,
            None => {
                dispatch.tables.push(vec![(first_receiver.clone(), first.section)]);
                let t = dispatch.tables.len() - 1;
                dispatch.site_table.insert(first.section, t);
                self.dispatched.insert(first.service.clone());
                t
            }
        };
        // Two SEFFs for one class at one method: the class cannot tell them apart.
        if dispatch.tables[index].iter().any(|(class, _)| class == receiver) {
            return ServicePlace::Duplicate {
                first: first.service.clone(),
            };
        }
        dispatch.tables[index].push((receiver.clone(), section));
        self.dispatched.insert(service.to_string());
        ServicePlace::Dispatched
    }

    /// Whether records made in an execution of `service` can be told from another SEFF's at
    /// the same place: its entry picks its section by class.
    pub(super) fn is_dispatched(&self, service: Option<&String>) -> bool {
        service.is_some_and(|s| self.dispatched.contains(s))
    }

    /// Records that `sections` (of a SEFF `service`'s element) stand for `first` (the sections
    /// written at the same place for another SEFF's element), pairwise.
    pub(super) fn share(table: &mut SectionTable, first: &[i32], service: &str, sections: &[i32]) {
        for (&written, &own) in first.iter().zip(sections) {
            table
                .dispatch
                .shared
                .entry(written)
                .or_default()
                .insert(service.to_string(), own);
        }
    }
}
