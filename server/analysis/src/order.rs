//! The measurement controller's order: what the measurement tools are to measure, as sections of
//! code, and under which launch configurations.
//!
//! From the elements still to be measured: a timed section per resource demand, an execution
//! section per loop body (counted per loop execution) and per branch transition (which one ran),
//! parameter-value sections at the entry of every SEFF involved (its characterised inputs) and
//! around every external call whose parameters are to be measured (the values passed, and what the
//! call returns, which changes the parameters in force after it). A section carries its code
//! location when the element is linked to code (the Java tool's links); recorded measurements
//! (Kieker, Beagle events) need none. Launch configurations say how to run the system and over
//! which parameter ranges; recorded measurements have none either.

use crate::blackboard::{Blackboard, ElementKind};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Where a section is in the code: a file and a byte range.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CodeSection {
    pub file: String,
    pub start: usize,
    pub end: usize,
}

/// What to record for one section.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "section", rename_all = "snake_case")]
pub enum SectionKind {
    /// Time the internal action spends on a resource type.
    ResourceDemand { action: String, resource: String },
    /// Iterations of the loop body per execution of the loop.
    LoopBody { loop_id: String },
    /// Whether this transition of the branch ran.
    BranchTransition { branch: String, transition: String },
    /// The SEFF's characterised inputs at its entry.
    ServiceEntry { service: String },
    /// The characterised values an external call passes (and what it returns).
    ExternalCall { call: String, parameters: BTreeSet<String> },
}

/// One section of the order, for the elements it serves.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MeasurementSection {
    pub kind: SectionKind,
    /// Blackboard element ids this section's records become results of (none for service
    /// entries: they parameterise the others).
    pub elements: Vec<String>,
    pub code: Option<CodeSection>,
}

/// A parameter of a launch configuration: a range Beagle picks points from, or given values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ParameterRange {
    Range { from: f64, to: f64 },
    Values { values: Vec<serde_json::Value> },
}

/// How to run the system for measurements (the Java tool's `[[launch]]` in `beagle.toml`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LaunchConfiguration {
    pub name: String,
    pub parameters: BTreeMap<String, ParameterRange>,
}

/// What the measurement tools are asked to measure.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MeasurementOrder {
    pub sections: Vec<MeasurementSection>,
    pub launches: Vec<LaunchConfiguration>,
}

impl MeasurementOrder {
    /// The order for the blackboard's elements still to be measured.
    pub fn of(bb: &Blackboard) -> MeasurementOrder {
        let mut sections: BTreeMap<SectionKind, Vec<String>> = BTreeMap::new();
        let mut calls: BTreeMap<String, (BTreeSet<String>, Vec<String>)> = BTreeMap::new();
        let mut services = BTreeSet::new();
        for id in bb.to_measure() {
            let Some(e) = bb.element(id) else { continue };
            if let Some(s) = &e.service {
                services.insert(s.clone());
            }
            let kind = match &e.kind {
                ElementKind::ResourceDemand { action, resource } => SectionKind::ResourceDemand {
                    action: action.clone(),
                    resource: resource.clone(),
                },
                ElementKind::Loop { loop_id } => SectionKind::LoopBody {
                    loop_id: loop_id.clone(),
                },
                ElementKind::Branch { branch, transition } => SectionKind::BranchTransition {
                    branch: branch.clone(),
                    transition: transition.clone(),
                },
                ElementKind::CallParameter { call, parameter } => {
                    let c = calls.entry(call.clone()).or_default();
                    c.0.insert(parameter.clone());
                    c.1.push(id.clone());
                    continue;
                }
            };
            sections.entry(kind).or_default().push(id.clone());
        }
        for service in services {
            sections.entry(SectionKind::ServiceEntry { service }).or_default();
        }
        for (call, (parameters, elements)) in calls {
            sections.insert(SectionKind::ExternalCall { call, parameters }, elements);
        }
        MeasurementOrder {
            sections: sections
                .into_iter()
                .map(|(kind, elements)| {
                    let code = elements.first().and_then(|e| bb.code_sections.get(e)).cloned();
                    MeasurementSection { kind, elements, code }
                })
                .collect(),
            launches: bb.launches.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blackboard::MeasurableElement;

    #[test]
    fn sections_per_element_kind_service_entries_and_calls() {
        let inputs: BTreeSet<String> = ["n".to_string()].into();
        let el = |kind| MeasurableElement::new(kind).in_service("_seff", inputs.clone());
        let mut bb = Blackboard::new([
            el(ElementKind::ResourceDemand {
                action: "_a".into(),
                resource: "CPU".into(),
            }),
            el(ElementKind::Loop { loop_id: "_l".into() }),
            el(ElementKind::Branch {
                branch: "_b".into(),
                transition: "_t".into(),
            }),
            el(ElementKind::CallParameter {
                call: "_c".into(),
                parameter: "m.VALUE".into(),
            }),
            el(ElementKind::CallParameter {
                call: "_c".into(),
                parameter: "m.BYTESIZE".into(),
            }),
        ]);
        let code = CodeSection {
            file: "src/A.java".into(),
            start: 10,
            end: 20,
        };
        bb.code_sections.insert("_l".into(), code.clone());
        let order = MeasurementOrder::of(&bb);
        let kinds: Vec<&SectionKind> = order.sections.iter().map(|s| &s.kind).collect();
        assert_eq!(kinds.len(), 5, "{kinds:#?}");
        assert!(kinds.contains(&&SectionKind::ServiceEntry {
            service: "_seff".into()
        }));
        let call = order
            .sections
            .iter()
            .find(|s| matches!(s.kind, SectionKind::ExternalCall { .. }))
            .unwrap();
        assert_eq!(
            call.elements,
            vec!["_c/m.BYTESIZE".to_string(), "_c/m.VALUE".to_string()]
        );
        let lp = order.sections.iter().find(|s| s.elements == ["_l"]).unwrap();
        assert_eq!(lp.code, Some(code));
        // Nothing left to measure: an empty order.
        bb.to_measure.clear();
        assert!(MeasurementOrder::of(&bb).sections.is_empty());
    }
}
