//! From the elements to measure and their code links to probe sites and the section table.

use super::shared::{Place, ServicePlace, SharedSites};
use super::CPU;
use crate::instrument::{Site, SiteKind};
use crate::links::CodeLink;
use crate::params::{composite_members, pcm_type_class, TypeClass};
use crate::sections::{Section, SectionTable};
use beagle_analysis::blackboard::ElementKind;
use beagle_analysis::MeasurableElement;
use beagle_pcm::model::{ActionBody, Repository};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// Where each SEFF element's code is, by PCM id.
pub(super) fn by_element(links: &[CodeLink]) -> BTreeMap<&str, &CodeLink> {
    links.iter().map(|l| (l.element.as_str(), l)).collect()
}

/// Every transition id of each branch, in model order; every external call of each SEFF; the SEFFs
/// that may answer each call (those describing the signature it calls).
pub(super) struct ModelFacts {
    /// SEFF id -> the parameters (name, kind) of the signature it describes.
    pub(super) parameters_of_seff: BTreeMap<String, Vec<(String, TypeClass)>>,
    /// SEFF id -> its signature's composite parameters -> their inner declarations (name, kind).
    pub(super) members_of_seff: BTreeMap<String, BTreeMap<String, Vec<(String, TypeClass)>>>,
    /// SEFF id -> the characterisations the model uses for its inputs
    /// ([`beagle_pcm::vocabulary::of_signature`]).
    pub(super) words_of_seff: BTreeMap<String, beagle_pcm::vocabulary::Words>,
    pub(super) transitions: BTreeMap<String, Vec<String>>,
    pub(super) calls_of_seff: BTreeMap<String, Vec<String>>,
    pub(super) callees_of_call: BTreeMap<String, Vec<String>>,
}

pub(super) fn model_facts(repositories: &[&Repository]) -> ModelFacts {
    let mut transitions = BTreeMap::new();
    let mut calls_of_seff: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut called_signature = BTreeMap::new();
    let mut seffs_of_signature: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut parameters_of_seff = BTreeMap::new();
    let mut members_of_seff = BTreeMap::new();
    let mut words_of_seff = BTreeMap::new();
    let callers = beagle_pcm::vocabulary::passed_by_callers(repositories);
    let signatures: BTreeMap<&str, &beagle_pcm::model::Signature> = repositories
        .iter()
        .flat_map(|r| r.signatures())
        .filter_map(|(_, s)| Some((s.id.as_deref()?, s)))
        .collect();
    for repo in repositories {
        for (_, seff) in repo.seffs() {
            let Some(seff_id) = &seff.id else { continue };
            if let Some(signature) = seff
                .described_service
                .as_ref()
                .and_then(|r| signatures.get(r.target.fragment()))
            {
                let names: Option<Vec<(String, TypeClass)>> = signature
                    .parameters
                    .iter()
                    .map(|p| Some((p.name.clone()?, pcm_type_class(repositories, p.data_type.as_ref()))))
                    .collect();
                if let Some(names) = names {
                    parameters_of_seff.insert(seff_id.clone(), names);
                }
                let members: BTreeMap<String, Vec<(String, TypeClass)>> = signature
                    .parameters
                    .iter()
                    .filter_map(|p| {
                        let members = composite_members(repositories, p.data_type.as_ref());
                        Some((p.name.clone()?, members)).filter(|(_, m)| !m.is_empty())
                    })
                    .collect();
                if !members.is_empty() {
                    members_of_seff.insert(seff_id.clone(), members);
                }
                if let Some(id) = &signature.id {
                    words_of_seff.insert(
                        seff_id.clone(),
                        beagle_pcm::vocabulary::of_signature(repositories, &callers, id),
                    );
                }
            }
            if let Some(signature) = &seff.described_service {
                seffs_of_signature
                    .entry(signature.target.fragment())
                    .or_default()
                    .push(seff_id.clone());
            }
            for action in seff.behaviour.walk() {
                let Some(id) = &action.id else { continue };
                match &action.body {
                    ActionBody::Branch { transitions: ts } => {
                        transitions.insert(id.clone(), ts.iter().filter_map(|t| t.id.clone()).collect());
                    }
                    ActionBody::ExternalCall { called_service, .. } => {
                        calls_of_seff.entry(seff_id.clone()).or_default().push(id.clone());
                        if let Some(signature) = called_service {
                            called_signature.insert(id.clone(), signature.target.fragment());
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    let callees_of_call = called_signature
        .into_iter()
        .map(|(call, signature)| {
            let seffs = seffs_of_signature.get(signature).cloned().unwrap_or_default();
            (call, seffs)
        })
        .collect();
    ModelFacts {
        parameters_of_seff,
        members_of_seff,
        words_of_seff,
        transitions,
        calls_of_seff,
        callees_of_call,
    }
}

/// Probe sites per file (relative to the workspace root), with the section table.
pub(super) struct Plan {
    pub(super) sites: BTreeMap<PathBuf, Vec<Site>>,
    /// File -> (SEFF id, method range) of each service site in it.
    pub(super) services_in: BTreeMap<PathBuf, Vec<(String, std::ops::Range<usize>)>>,
    pub(super) table: SectionTable,
    /// Element id -> (file, byte range) whose surroundings give its constants.
    pub(super) code_of: BTreeMap<String, (PathBuf, std::ops::Range<usize>)>,
    pub(super) unlinked: Vec<(String, String)>,
}

/// `not_copied`: why an element's link was set aside (its file is not compiled).
pub(super) fn plan(
    elements: &[MeasurableElement],
    services: &BTreeSet<String>,
    links: &[CodeLink],
    facts: &ModelFacts,
    not_copied: &BTreeMap<String, String>,
) -> Plan {
    let link = by_element(links);
    let mut p = Plan {
        sites: BTreeMap::new(),
        services_in: BTreeMap::new(),
        table: SectionTable::default(),
        code_of: BTreeMap::new(),
        unlinked: Vec::new(),
    };
    let add = |p: &mut Plan, l: &CodeLink, kind: SiteKind| {
        p.sites.entry(l.file.clone()).or_default().push(Site {
            range: l.range.clone(),
            kind,
        });
    };
    // A call's parameters are what its callee receives: the callee's entry is probed too, even
    // when the callee is outside the scope (a component's calls to other components).
    let callees: BTreeSet<&String> = services
        .iter()
        .flat_map(|s| facts.calls_of_seff.get(s).into_iter().flatten())
        .flat_map(|call| facts.callees_of_call.get(call).into_iter().flatten())
        .filter(|seff| !services.contains(*seff))
        .collect();
    let mut shared = SharedSites::default();
    for service in services.iter().chain(callees) {
        match link.get(service.as_str()) {
            Some(l) => {
                let section = p.table.add(Section::Service {
                    service: service.clone(),
                });
                match shared.service(&mut p.table, service, section, l) {
                    ServicePlace::First => {
                        add(&mut p, l, SiteKind::Service { section });
                        p.services_in
                            .entry(l.file.clone())
                            .or_default()
                            .push((service.clone(), l.range.clone()));
                    }
                    ServicePlace::Dispatched => {}
                    ServicePlace::Duplicate { first } => p.unlinked.push((
                        service.clone(),
                        format!(
                            "{service} is linked to the same method as {first} ({}, bytes {}..{}), and no class tells them apart: measured once, for {first}",
                            l.file.display(),
                            l.range.start,
                            l.range.end
                        ),
                    )),
                }
            }
            None if services.contains(service) => p.unlinked.push((
                service.clone(),
                not_copied.get(service).cloned().unwrap_or_else(|| {
                    "its SEFF is not linked to a method: no link in the link file, and automatic linking used none (its info says why)".into()
                }),
            )),
            None => {}
        }
    }
    // (file, range) of a call statement -> the sections written there, and whose.
    let mut calls_at: BTreeMap<Place, (String, Option<String>, i32)> = BTreeMap::new();
    for service in services {
        for call in facts.calls_of_seff.get(service).into_iter().flatten() {
            if let Some(l) = link.get(call.as_str()) {
                let section = p.table.add(Section::Call { call: call.clone() });
                p.code_of.insert(call.clone(), (l.file.clone(), l.range.clone()));
                let at = (l.file.clone(), l.range.start, l.range.end);
                match calls_at.get(&at) {
                    Some((first, first_service, written))
                        if first != call
                            && shared.is_dispatched(Some(service))
                            && shared.is_dispatched(first_service.as_ref()) =>
                    {
                        SharedSites::share(&mut p.table, &[*written], service, &[section]);
                    }
                    _ => {
                        calls_at.insert(at, (call.clone(), Some(service.clone()), section));
                        add(&mut p, l, SiteKind::Call { section });
                    }
                }
            }
        }
    }
    let mut branches_done = BTreeSet::new();
    // (file, range, what is measured there) -> the action measured there. Several model
    // elements linked to one statement are measured once, for the first: nested sections of the
    // same code would time each other's probes.
    // The action, its SEFF and the sections written there. Unless the code is one that several
    // components inherit: then each SEFF's element gets its own sections, told apart by class.
    type Measured = (String, Option<String>, Vec<i32>);
    let mut measured_at: BTreeMap<(PathBuf, usize, usize, String), Measured> = BTreeMap::new();
    for e in elements {
        // Which SEFF each measured place belongs to: a record made while another SEFF runs (code
        // shared between services) is not an observation of it.
        if let Some(service) = &e.service {
            p.table
                .services
                .insert(beagle_analysis::model::action_of(&e.kind).to_string(), service.clone());
        }
        let what = match &e.kind {
            ElementKind::ResourceDemand { action, resource } => Some((action, format!("demand {resource}"))),
            ElementKind::Loop { loop_id } => Some((loop_id, "loop".to_string())),
            ElementKind::Branch { branch, .. } => Some((branch, "branch".to_string())),
            ElementKind::CallParameter { .. } => None,
        };
        let mut shared_with: Option<Vec<i32>> = None;
        let mut first_here = None;
        if let Some((action, what)) = what {
            if let Some(l) = link.get(action.as_str()) {
                let key = (l.file.clone(), l.range.start, l.range.end, what);
                match measured_at.get(&key) {
                    Some((first, first_service, written))
                        if first != action
                            && e.service != *first_service
                            && shared.is_dispatched(e.service.as_ref())
                            && shared.is_dispatched(first_service.as_ref()) =>
                    {
                        shared_with = Some(written.clone());
                    }
                    Some((first, _, _)) if first != action => {
                        p.unlinked.push((
                            e.id.clone(),
                            format!(
                                "{action} is linked to the same code as {first} ({}, bytes {}..{}): that code is measured once, for {first}",
                                l.file.display(),
                                l.range.start,
                                l.range.end
                            ),
                        ));
                        continue;
                    }
                    Some(_) => {}
                    None => first_here = Some(key),
                }
            }
        }
        let (action, site): (&str, Option<SiteKind>) = match &e.kind {
            ElementKind::ResourceDemand { action, resource } => {
                let cpu = resource == CPU;
                let section = p.table.add(Section::Demand {
                    action: action.clone(),
                    resource: resource.clone(),
                    cpu,
                });
                (action, Some(SiteKind::Demand { section, cpu }))
            }
            ElementKind::Loop { loop_id } => {
                let section = p.table.add(Section::Loop {
                    loop_id: loop_id.clone(),
                });
                (loop_id, Some(SiteKind::Loop { section }))
            }
            ElementKind::Branch { branch, .. } => {
                if !branches_done.insert(branch.clone()) {
                    if let Some(code) = link.get(branch.as_str()) {
                        p.code_of.insert(e.id.clone(), (code.file.clone(), code.range.clone()));
                    }
                    continue;
                }
                // In the order of the code's arms where the transitions are linked to them (the
                // model's first transition may be the `else`); unlinked ones after, in model order.
                let mut ordered: Vec<&String> = facts.transitions.get(branch).into_iter().flatten().collect();
                let within = link.get(branch.as_str());
                // Only a link inside the branch's own code (or after it: an early return's
                // `else`) in the same file says which arm a transition is.
                let arm_of = |t: &String| {
                    let l = link.get(t.as_str())?;
                    let b = within?;
                    (l.file == b.file && l.range.start >= b.range.start).then_some(l.range.start)
                };
                ordered.sort_by_key(|t| arm_of(t).unwrap_or(usize::MAX));
                let transitions: Vec<i32> = ordered
                    .into_iter()
                    .map(|t| {
                        p.table.add(Section::Transition {
                            branch: branch.clone(),
                            transition: t.clone(),
                        })
                    })
                    .collect();
                (branch, Some(SiteKind::Branch { transitions }))
            }
            // Measured at the callee's entry, through the call's site (both added above).
            ElementKind::CallParameter { call, .. } => {
                let callees = facts.callees_of_call.get(call).map(Vec::as_slice).unwrap_or_default();
                if !callees.iter().any(|seff| link.contains_key(seff.as_str())) {
                    let why = match callees {
                        [] => format!("no SEFF in the repositories describes the service that {call} calls"),
                        _ => format!(
                            "the SEFF that {call} calls ({}) is not linked to a method",
                            callees.join(", ")
                        ),
                    };
                    p.unlinked.push((e.id.clone(), why));
                    continue;
                }
                (call, None)
            }
        };
        let sections = match &site {
            Some(SiteKind::Demand { section, .. } | SiteKind::Loop { section }) => vec![*section],
            Some(SiteKind::Branch { transitions }) => transitions.clone(),
            _ => Vec::new(),
        };
        if let Some(key) = first_here {
            measured_at.insert(key, (action.to_string(), e.service.clone(), sections.clone()));
        }
        match link.get(action) {
            Some(l) => {
                p.code_of.insert(e.id.clone(), (l.file.clone(), l.range.clone()));
                match (&shared_with, &e.service, site) {
                    (Some(written), Some(service), _) => SharedSites::share(&mut p.table, written, service, &sections),
                    (_, _, Some(kind)) => add(&mut p, l, kind),
                    _ => {}
                }
            }
            None => p.unlinked.push((
                e.id.clone(),
                not_copied
                    .get(action)
                    .cloned()
                    .unwrap_or_else(|| format!("{action} is not linked to code")),
            )),
        }
    }
    p
}
