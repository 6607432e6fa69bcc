//! From a PCM repository to the elements an analysis measures.
//!
//! Per SEFF in the [`Scope`]: every `InternalAction`'s demand per resource type (CPU when it
//! declares none), every `LoopAction`'s iteration count, every `BranchAction` transition, and every
//! characterised input of an `ExternalCallAction`. Each element knows its SEFF and the variables
//! its expressions may use: the parameters of the SEFF's signature, and the variables that return
//! values of the SEFF's external calls set (those change after the call).
//!
//! Measurements can reveal more than the model declares (a demand on another resource type, a
//! call parameter nobody characterised yet); [`ModelScope::adopt`] takes those in when their action
//! belongs to a SEFF in scope, and names what is not in the model at all.

use crate::blackboard::{ElementKind, MeasurableElement};
use beagle_pcm::edit::{resource_type_id, RESOURCE_TYPES};
use beagle_pcm::model::{Action, ActionBody, ActionKind, Repository, Seff, UsageRole};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// What to analyse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every SEFF of the repository.
    Repository,
    /// The SEFFs of one component, by name or id.
    Component(String),
    /// One SEFF (every action of it), by id.
    Service(String),
    /// One action (internal action, loop, branch or external call), by id.
    Action(String),
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scope::Repository => write!(f, "repository"),
            Scope::Component(c) => write!(f, "component {c}"),
            Scope::Service(s) => write!(f, "service {s}"),
            Scope::Action(a) => write!(f, "action {a}"),
        }
    }
}

/// A SEFF in scope.
#[derive(Clone, Debug, PartialEq)]
pub struct Service {
    pub seff: String,
    pub component: String,
    /// `Interface.operation`, when the described signature is in the repository.
    pub signature: Option<String>,
    /// The variables its expressions may use, in signature order, then those that return values
    /// of its external calls set (in the SEFF's order). The order decides which of two equivalent
    /// inputs a law keeps: the first in the signature.
    pub inputs: Vec<String>,
}

/// The elements of a scope, and where their actions live.
#[derive(Clone, Debug, Default)]
pub struct ModelScope {
    pub elements: Vec<MeasurableElement>,
    pub services: BTreeMap<String, Service>,
    /// Action id -> SEFF id, for every action of every SEFF of the repository.
    action_service: BTreeMap<String, String>,
    /// Action ids in scope.
    in_scope: BTreeSet<String>,
    /// External call id -> the called signature (`fetch(ids, size)`) and its parameters' names,
    /// where the repository has it: what a call's measured parameters may be.
    call_inputs: BTreeMap<String, (String, Vec<String>)>,
}

/// A scope that names nothing in the repository.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScopeError(pub String);

impl fmt::Display for ScopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScopeError {}

/// The name of a resource type id from Palladio's defaults (`CPU`), or the id itself.
pub fn resource_name(id: &str) -> &str {
    RESOURCE_TYPES.iter().find(|(_, i)| *i == id).map_or(id, |(n, _)| n)
}

/// The elements of `scope` in `repo`.
pub fn scope_elements(repo: &Repository, scope: &Scope) -> Result<ModelScope, ScopeError> {
    let mut out = ModelScope::default();
    let component_matches =
        |c: &beagle_pcm::model::Component, key: &str| c.name.as_deref() == Some(key) || c.id.as_deref() == Some(key);
    if let Scope::Component(key) = scope {
        if !repo.components.iter().any(|c| component_matches(c, key)) {
            let names: Vec<&str> = repo.components.iter().filter_map(|c| c.name.as_deref()).collect();
            return Err(ScopeError(format!(
                "no component named or with id `{key}` (components: {})",
                names.join(", ")
            )));
        }
    }
    for (component, seff) in repo.seffs() {
        let Some(seff_id) = seff.id.clone() else { continue };
        let actions = seff.behaviour.walk();
        for a in &actions {
            if let Some(id) = &a.id {
                out.action_service.insert(id.clone(), seff_id.clone());
            }
        }
        let chosen: Vec<&Action> = match scope {
            Scope::Repository => actions,
            Scope::Component(key) if component_matches(component, key) => actions,
            Scope::Component(_) => continue,
            Scope::Service(id) if seff.id.as_deref() == Some(id) => actions,
            Scope::Service(_) => continue,
            Scope::Action(id) => actions.into_iter().filter(|a| a.id.as_deref() == Some(id)).collect(),
        };
        if chosen.is_empty() {
            continue;
        }
        let service = service(repo, component, seff, &seff_id);
        for a in &chosen {
            if let (
                Some(id),
                ActionBody::ExternalCall {
                    called_service: Some(s),
                    ..
                },
            ) = (&a.id, &a.body)
            {
                let wanted = s.target.id();
                let called = repo
                    .signatures()
                    .find(|(_, x)| wanted.is_some() && x.id.as_deref() == wanted);
                if let Some((_, signature)) = called {
                    let names: Vec<String> = signature.parameters.iter().filter_map(|p| p.name.clone()).collect();
                    let shown = format!("{}({})", signature.name.as_deref().unwrap_or("?"), names.join(", "));
                    out.call_inputs.insert(id.clone(), (shown, names));
                }
            }
        }
        for a in chosen {
            if let Some(id) = &a.id {
                out.in_scope.insert(id.clone());
            }
            for kind in action_elements(a) {
                out.elements
                    .push(MeasurableElement::new(kind).in_service(&seff_id, service.inputs.clone()));
            }
        }
        out.services.insert(seff_id, service);
    }
    if let Scope::Service(id) = scope {
        if !repo.seffs().any(|(_, s)| s.id.as_deref() == Some(id.as_str())) {
            return Err(ScopeError(format!("no SEFF with id `{id}` in the repository")));
        }
        if out.elements.is_empty() {
            return Err(ScopeError(format!(
                "the SEFF `{id}` has no internal actions, loops, branches or external calls to measure"
            )));
        }
    }
    if let Scope::Action(id) = scope {
        let Some(action) = repo.action(id) else {
            return Err(ScopeError(format!("no action with id `{id}` in the repository")));
        };
        if out.elements.is_empty() {
            return Err(ScopeError(format!(
                "`{id}` is a {}: Beagle measures internal actions, loops, branches and external calls",
                action.kind.as_str()
            )));
        }
    }
    Ok(out)
}

/// The SEFF's signature and the variables its expressions may use.
fn service(repo: &Repository, component: &beagle_pcm::model::Component, seff: &Seff, seff_id: &str) -> Service {
    let signature = seff
        .described_service
        .as_ref()
        .and_then(|r| r.target.id())
        .and_then(|id| repo.signatures().find(|(_, s)| s.id.as_deref() == Some(id)));
    let mut inputs: Vec<String> = signature
        .map(|(_, s)| s.parameters.iter().filter_map(|p| p.name.clone()).collect())
        .unwrap_or_default();
    for a in seff.behaviour.walk() {
        if let ActionBody::ExternalCall { returns, .. } = &a.body {
            inputs.extend(
                returns
                    .iter()
                    .filter(|u| u.role == UsageRole::Return)
                    .map(|u| u.name.clone()),
            );
        }
    }
    let mut seen = BTreeSet::new();
    inputs.retain(|name| seen.insert(name.clone()));
    Service {
        seff: seff_id.to_string(),
        component: component.name.clone().or(component.id.clone()).unwrap_or_default(),
        signature: signature.map(|(i, s)| {
            format!(
                "{}.{}",
                i.name.as_deref().unwrap_or("?"),
                s.name.as_deref().unwrap_or("?")
            )
        }),
        inputs,
    }
}

/// The kinds of action whose specifications Beagle measures: an internal action's demands, a
/// loop's iterations, a branch's transitions, an external call's parameters. The one rule the
/// editor's lenses, code actions and hovers follow too. (A collection iterator's count is the
/// collection's NUMBER_OF_ELEMENTS, which the caller's parameters give; nothing to measure.)
pub fn is_measured_kind(kind: ActionKind) -> bool {
    matches!(
        kind,
        ActionKind::InternalAction | ActionKind::LoopAction | ActionKind::BranchAction | ActionKind::ExternalCallAction
    )
}

/// The elements one action declares.
fn action_elements(a: &Action) -> Vec<ElementKind> {
    let Some(id) = a.id.clone() else { return Vec::new() };
    if !is_measured_kind(a.kind) {
        return Vec::new();
    }
    match (&a.kind, &a.body) {
        (ActionKind::InternalAction, _) => {
            let mut resources: BTreeSet<String> = a
                .resource_demands
                .iter()
                .filter_map(|d| d.resource_type.as_ref())
                .map(|r| r.target.fragment().to_string())
                .collect();
            if resources.is_empty() {
                resources.insert(resource_type_id("CPU").to_string());
            }
            resources
                .into_iter()
                .map(|resource| ElementKind::ResourceDemand {
                    action: id.clone(),
                    resource,
                })
                .collect()
        }
        (ActionKind::LoopAction, _) => vec![ElementKind::Loop { loop_id: id }],
        (ActionKind::BranchAction, ActionBody::Branch { transitions }) => transitions
            .iter()
            .filter_map(|t| t.id.clone())
            .map(|transition| ElementKind::Branch {
                branch: id.clone(),
                transition,
            })
            .collect(),
        (ActionKind::ExternalCallAction, ActionBody::ExternalCall { inputs, .. }) => inputs
            .iter()
            .flat_map(|u| {
                u.characterisations.iter().map(|c| ElementKind::CallParameter {
                    call: id.clone(),
                    parameter: format!("{}.{}", u.name, c.kind),
                })
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The action id an element belongs to.
pub fn action_of(kind: &ElementKind) -> &str {
    match kind {
        ElementKind::ResourceDemand { action, .. } => action,
        ElementKind::Loop { loop_id } => loop_id,
        ElementKind::Branch { branch, .. } => branch,
        ElementKind::CallParameter { call, .. } => call,
    }
}

/// An element with its resource type written as Palladio's id (measurements may say `CPU`).
pub fn canonical(kind: &ElementKind) -> ElementKind {
    match kind {
        ElementKind::ResourceDemand { action, resource } => ElementKind::ResourceDemand {
            action: action.clone(),
            resource: resource_type_id(resource).to_string(),
        },
        other => other.clone(),
    }
}

impl ModelScope {
    /// Takes in measured elements the model does not declare but whose action is in scope.
    /// Returns what the measurements name that is not in the repository at all (measurements of
    /// actions outside the scope are simply not this analysis' business).
    pub fn adopt(&mut self, measured: &[MeasurableElement]) -> Vec<String> {
        let mut unknown = Vec::new();
        let known: BTreeSet<String> = self.elements.iter().map(|e| e.id.clone()).collect();
        // Per call, the values its code passes that the called signature does not have.
        let mut not_passed: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for m in measured {
            let kind = canonical(&m.kind);
            let action = action_of(&kind);
            if known.contains(&kind.id()) {
                continue;
            }
            if let ElementKind::CallParameter { call, parameter } = &m.kind {
                let variable = parameter.split('.').next().unwrap_or(parameter);
                if let Some((_, inputs)) = self.call_inputs.get(call) {
                    if !inputs.iter().any(|i| i == variable) {
                        not_passed.entry(call.as_str()).or_default().push(parameter.as_str());
                        continue;
                    }
                }
            }
            if !self.action_service.contains_key(action) {
                unknown.push(format!(
                    "measurements name `{action}` ({}), which is no action of a SEFF in the repository",
                    m.kind.name()
                ));
                continue;
            }
            if !self.in_scope.contains(action) {
                continue;
            }
            if matches!(kind, ElementKind::Branch { .. }) {
                // A branch's transitions are all in the model; another one is a mistake.
                unknown.push(format!(
                    "measurements name transition `{}`, which is not a transition of branch `{action}`",
                    kind.id()
                ));
                continue;
            }
            let seff = &self.action_service[action];
            let inputs = self.services[seff].inputs.clone();
            self.elements
                .push(MeasurableElement::new(kind).in_service(seff, inputs));
        }
        for (call, values) in not_passed {
            if !self.in_scope.contains(call) {
                continue;
            }
            let signature = &self.call_inputs[call].0;
            let (them, are) = match values.as_slice() {
                [one] => (format!("`{one}`"), "is no parameter"),
                more => (
                    more.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", "),
                    "are no parameters",
                ),
            };
            unknown.push(format!(
                "{call}: the code passes {them}, which {are} of the called signature {signature}: not published"
            ));
        }
        unknown
    }

    /// The SEFF of every action of every SEFF of the repository (action id -> SEFF id), in
    /// scope or not.
    pub fn action_services(&self) -> &BTreeMap<String, String> {
        &self.action_service
    }

    /// Whether measurements name the element under this id (after [`canonical`]).
    pub fn contains(&self, id: &str) -> bool {
        self.elements.iter().any(|e| e.id == id)
    }
}
