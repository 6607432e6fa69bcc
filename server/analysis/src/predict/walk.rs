//! The walk through a service's behaviour (see the module documentation of [`super`]).

use super::rates::Unplaced;
use super::{Bindings, CallRoute, Prediction, Predictor, Problem};
use beagle_pcm::edit::resource_type_id;
use beagle_pcm::model::{Action, ActionBody, ActionKind, Behaviour, Component, Seff, TransitionKind, UsageRole};
use beagle_pcm::model::{SpecId, VariableUsage};
use std::collections::BTreeSet;

/// Where a behaviour runs: its component, and its assembly context when a system is known.
#[derive(Clone, Copy)]
pub(super) struct Place<'a> {
    pub component: &'a Component,
    pub context: Option<&'a str>,
}

struct Walk<'p, 'a> {
    p: &'p Predictor<'a>,
    out: Prediction,
    /// The SEFFs being walked, outermost first (recursion).
    stack: Vec<String>,
    problems: BTreeSet<Problem>,
    routes: BTreeSet<(String, String, String)>,
    /// Return values that could not be evaluated (the callee sets no such `RETURN`), and why:
    /// a problem only once an expression that matters uses them.
    unset: std::collections::BTreeMap<String, Problem>,
    /// Per SEFF walked: (its own resource demands evaluated, of them not 0).
    demands_seen: std::collections::BTreeMap<String, (usize, usize)>,
    /// The demand added so far over all resource types (for [`Prediction::elements`]).
    total: f64,
    /// Actions visited, each along every call path, and whether [`MAX_WALKED_ACTIONS`] was passed.
    visited: usize,
    too_large: bool,
}

/// Most actions one prediction visits, counting each along every call path: calls that fan out
/// level after level reach exponentially many, and the walk would not end (see
/// [`super::symbolic::MAX_COMPOSED_ACTIONS`], the hover's smaller bound). Beyond it the prediction
/// has no demands and the problem says why.
pub const MAX_WALKED_ACTIONS: usize = 200_000;

pub(super) fn predict(p: &Predictor<'_>, seff: &str, inputs: &Bindings) -> Prediction {
    let mut w = Walk {
        p,
        out: Prediction {
            seff: seff.to_string(),
            inputs: inputs.clone(),
            ..Prediction::default()
        },
        stack: Vec::new(),
        problems: BTreeSet::new(),
        routes: BTreeSet::new(),
        unset: std::collections::BTreeMap::new(),
        demands_seen: std::collections::BTreeMap::new(),
        total: 0.0,
        visited: 0,
        too_large: false,
    };
    match p.repo.seffs().find(|(_, s)| s.id.as_deref() == Some(seff)) {
        Some((component, s)) => {
            let context = component.id.as_deref().and_then(|id| p.system?.only_context_of(id));
            let mut env = inputs.clone();
            w.seff(Place { component, context }, s, &mut env, 1.0);
        }
        None => w.problem(seff, "no SEFF with this id in the repository".into()),
    }
    if w.too_large {
        return Prediction {
            seff: seff.to_string(),
            inputs: inputs.clone(),
            problems: vec![Problem {
                element: seff.to_string(),
                message: format!(
                    "not predicted: along its calls the service reaches more than {MAX_WALKED_ACTIONS} actions"
                ),
            }],
            ..Prediction::default()
        };
    }
    let mut out = w.out;
    // A SEFF whose every demand is 0 is most likely not specified yet (a placeholder, never
    // analysed): the prediction then says nothing about its share.
    for (seff, (seen, nonzero)) in &w.demands_seen {
        if *seen > 0 && *nonzero == 0 {
            let name = p
                .services()
                .into_iter()
                .find(|(id, _)| id == seff)
                .map_or(seff.clone(), |(_, n)| n);
            out.notes.push(format!(
                "{name}: every resource demand is 0 (not specified or not analysed yet)"
            ));
        }
    }
    out.problems = w.problems.into_iter().collect();
    out.calls = w
        .routes
        .into_iter()
        .map(|(call, seff, via)| CallRoute { call, seff, via })
        .collect();
    out
}

impl<'a> Walk<'_, 'a> {
    fn problem(&mut self, element: &str, message: String) {
        self.problems.insert(Problem {
            element: element.to_string(),
            message,
        });
    }

    fn seff(&mut self, at: Place<'a>, seff: &'a Seff, env: &mut Bindings, weight: f64) {
        let id = seff.id.clone().unwrap_or_default();
        self.stack.push(id);
        self.behaviour(at, &seff.behaviour, env, weight);
        self.stack.pop();
    }

    fn behaviour(&mut self, at: Place<'a>, b: &'a Behaviour, env: &mut Bindings, weight: f64) {
        // The chain from the start action; a broken chain (the checker reports it) in document
        // order.
        let actions: Vec<&Action> = if b.order.is_empty() {
            b.actions.iter().collect()
        } else {
            b.ordered().collect()
        };
        for a in actions {
            self.action(at, a, env, weight);
        }
    }

    /// The value of specification `spec` of `action`, or a problem.
    fn value(&mut self, action: &Action, spec: Option<SpecId>, what: &str, env: &Bindings) -> Option<f64> {
        let id = action.id.as_deref().unwrap_or("?");
        let Some(spec) = spec.and_then(|s| self.p.file.specifications.get(s)) else {
            self.problem(id, format!("{}: {what} has no specification", label(action)));
            return None;
        };
        let expr = match &spec.expr {
            Ok(e) => e,
            Err(e) => {
                self.problem(
                    id,
                    format!("{}: {what} `{}` is not StoEx: {}", label(action), spec.text, e.message),
                );
                return None;
            }
        };
        match beagle_stoex::eval_number(expr, &|name| env.get(name).copied()) {
            Ok(v) => Some(v),
            Err(e) => {
                self.problem(id, format!("{}: {what} `{}`: {}", label(action), spec.text, e.message));
                // Inputs of the service that were not given (not a callee's own variables, not
                // what a callee should have returned).
                if self.stack.len() == 1 {
                    let unset = beagle_stoex::variables(expr)
                        .into_iter()
                        .filter(|v| !env.contains_key(v) && !v.starts_with("RETURN."));
                    self.out.missing.extend(unset);
                }
                // Why a variable it needs has no value.
                for v in beagle_stoex::variables(expr) {
                    if let Some(p) = self.unset.get(&v).cloned() {
                        self.problems.insert(p);
                    }
                }
                None
            }
        }
    }

    /// Walks `a`, and books what it added (with all that runs inside it) to its id.
    fn action(&mut self, at: Place<'a>, a: &'a Action, env: &mut Bindings, weight: f64) {
        self.visited += 1;
        if self.visited > MAX_WALKED_ACTIONS {
            self.too_large = true;
            return;
        }
        let before = self.total;
        self.action_parts(at, a, env, weight);
        if let Some(id) = &a.id {
            *self.out.elements.entry(id.clone()).or_default() += self.total - before;
        }
    }

    /// Demand `v` of `resource` in milliseconds: as it is without rates, else its work units over
    /// the rate of the container `at` runs on (added to [`Prediction::deployed`]). `None`, and a
    /// problem, where no container or rate is known.
    fn in_time(&mut self, at: Place<'a>, a: &Action, resource: &str, weight: f64, v: f64) -> Option<f64> {
        let Some(rates) = self.p.rates else { return Some(v) };
        let placed = rates
            .container_of(at.component.id.as_deref(), at.context)
            .and_then(|c| rates.ms_per_unit(c, resource).map(|(k, rate)| (c, k, rate)));
        match placed {
            Ok((c, k, rate)) => {
                let d = (self.out.deployed.entry(c.name.clone()).or_default())
                    .entry(resource.to_string())
                    .or_default();
                d.units += weight * v;
                d.ms += weight * v * k;
                d.rate = rate;
                Some(v * k)
            }
            Err(why) => {
                let component = at.component.name.as_deref().unwrap_or("?");
                let message = match why {
                    Unplaced::NoContainer(several) if several.is_empty() => format!(
                        "{}: component `{component}` runs on no resource container (not allocated): its demand in work units has no time",
                        label(a)
                    ),
                    Unplaced::NoContainer(several) => format!(
                        "{}: component `{component}` runs on {}; which one runs this call is not known here",
                        label(a),
                        several.join(", ")
                    ),
                    Unplaced::NoRate { container } => format!(
                        "{}: `{container}` has no processing rate for resource type {}: its demand in work units has no time",
                        label(a),
                        beagle_pcm::model::resource_environment::resource_type_name(resource).unwrap_or(resource)
                    ),
                };
                self.problem(a.id.as_deref().unwrap_or("?"), message);
                None
            }
        }
    }

    fn action_parts(&mut self, at: Place<'a>, a: &'a Action, env: &mut Bindings, weight: f64) {
        let id = a.id.clone().unwrap_or_default();
        for d in &a.resource_demands {
            let resource = d
                .resource_type
                .as_ref()
                .map_or(resource_type_id("CPU"), |r| r.target.fragment())
                .to_string();
            if let Some(v) = self.value(a, d.specification, "the resource demand", env) {
                if v < 0.0 {
                    // Kept in the total (as the composed expression keeps it), but said: a
                    // simulation rejects it, and a prediction that sums it says nothing.
                    let text = d
                        .specification
                        .and_then(|s| self.p.file.specifications.get(s))
                        .map_or(String::new(), |s| format!(" `{}`", s.text));
                    self.problem(
                        &id,
                        format!(
                            "{}: the resource demand{text} is {} here, below zero: its law does not hold at these inputs",
                            label(a),
                            beagle_fit::format_number(beagle_fit::numeric::round_significant(v, 3))
                        ),
                    );
                }
                if let Some(seff) = self.stack.last() {
                    let seen = self.demands_seen.entry(seff.clone()).or_default();
                    seen.0 += 1;
                    seen.1 += usize::from(v != 0.0);
                }
                let Some(v) = self.in_time(at, a, &resource, weight, v) else {
                    continue;
                };
                *self.out.demands.entry(resource.clone()).or_default() += weight * v;
                self.total += weight * v;
                *self
                    .out
                    .actions
                    .entry(id.clone())
                    .or_default()
                    .entry(resource)
                    .or_default() += weight * v;
            }
        }
        match (&a.kind, &a.body) {
            (ActionKind::LoopAction, ActionBody::Loop { iteration_count, body }) => {
                let Some(n) = self.value(a, *iteration_count, "the iteration count", env) else {
                    return;
                };
                if let Some(body) = body.as_ref().filter(|_| n > 0.0) {
                    self.behaviour(at, body, &mut env.clone(), weight * n);
                }
            }
            (ActionKind::CollectionIteratorAction, ActionBody::CollectionIterator { parameter, body }) => {
                let name = parameter
                    .as_ref()
                    .and_then(|r| self.p.file.resolve_local(&r.target))
                    .and_then(|n| self.p.file.tree.value(n, "parameterName").map(|v| v.to_string()));
                let Some(name) = name else {
                    self.problem(&id, format!("{}: the iterated parameter is not found", label(a)));
                    return;
                };
                let count = format!("{name}.NUMBER_OF_ELEMENTS");
                let Some(n) = env.get(&count).copied() else {
                    if self.stack.len() == 1 {
                        self.out.missing.insert(count.clone());
                    }
                    self.problem(&id, format!("{}: `{count}` is not given", label(a)));
                    return;
                };
                if let Some(body) = body.as_ref().filter(|_| n > 0.0) {
                    self.behaviour(at, body, &mut env.clone(), weight * n);
                }
            }
            (ActionKind::BranchAction, ActionBody::Branch { transitions }) => {
                let mut taken: Vec<(f64, Bindings)> = Vec::new();
                for t in transitions {
                    let p = match &t.kind {
                        TransitionKind::Probabilistic { probability } => match probability {
                            Some(p) => *p,
                            None => {
                                self.problem(&id, format!("{}: a transition has no probability", label(a)));
                                continue;
                            }
                        },
                        TransitionKind::Guarded { condition } => match self.value(a, *condition, "a guard", env) {
                            Some(p) => p,
                            None => continue,
                        },
                        TransitionKind::Unknown => {
                            self.problem(&id, format!("{}: a transition of unknown type", label(a)));
                            continue;
                        }
                    };
                    let mut inner = env.clone();
                    if let Some(b) = t.behaviour.as_ref().filter(|_| p > 0.0) {
                        self.behaviour(at, b, &mut inner, weight * p);
                    }
                    taken.push((p, inner));
                }
                // Variables a transition set (return values): their expectation over the
                // transitions; one that kept it keeps the value before.
                let set: BTreeSet<String> = taken
                    .iter()
                    .flat_map(|(_, e)| {
                        e.iter()
                            .filter(|(k, v)| env.get(*k) != Some(*v))
                            .map(|(k, _)| k.clone())
                    })
                    .collect();
                for k in set {
                    let before = env.get(&k).copied().unwrap_or(0.0);
                    let v = taken
                        .iter()
                        .map(|(p, e)| p * e.get(&k).copied().unwrap_or(before))
                        .sum();
                    env.insert(k, v);
                }
            }
            (
                ActionKind::ExternalCallAction,
                ActionBody::ExternalCall {
                    called_service,
                    role,
                    inputs,
                    returns,
                },
            ) => {
                let signature = called_service.as_ref().map(|r| r.target.fragment().to_string());
                let role = role.as_ref().map(|r| r.target.fragment().to_string());
                let (Some(signature), Some(role)) = (signature, role) else {
                    self.problem(&id, format!("{}: names no signature or no role", label(a)));
                    return;
                };
                let (callee, seff, via) = match resolve(self.p, at, &signature, &role) {
                    Ok(r) => r,
                    Err(why) => {
                        self.problem(&id, format!("{}: not followed: {why}", label(a)));
                        return;
                    }
                };
                let seff_id = seff.id.clone().unwrap_or_default();
                if self.stack.contains(&seff_id) {
                    self.problem(
                        &id,
                        format!("{}: recursion: {seff_id} calls itself (not predicted)", label(a)),
                    );
                    return;
                }
                self.routes.insert((id.clone(), seff_id, via));
                let mut callee_env = Bindings::new();
                self.assign(a, inputs, UsageRole::Input, env, &mut callee_env);
                self.seff(callee, seff, &mut callee_env, weight);
                // Return values: `digest.BYTESIZE = RETURN.BYTESIZE`, evaluated in the callee. One
                // the callee does not set is a problem only where a later expression needs it.
                let before = self.problems.clone();
                let mut returned = Bindings::new();
                self.assign(a, returns, UsageRole::Return, &callee_env, &mut returned);
                let new: Vec<Problem> = self.problems.difference(&before).cloned().collect();
                self.problems = before;
                for u in returns.iter().filter(|u| u.role == UsageRole::Return) {
                    for c in &u.characterisations {
                        let name = format!("{}.{}", u.name, c.kind);
                        match returned.get(&name) {
                            Some(_) => {
                                self.unset.remove(&name);
                            }
                            None => {
                                let why = new.first().cloned().unwrap_or(Problem {
                                    element: id.clone(),
                                    message: format!("{}: `{name}` is not returned", label(a)),
                                });
                                self.unset.insert(name, why);
                            }
                        }
                    }
                }
                env.extend(returned);
            }
            (ActionKind::SetVariableAction, ActionBody::SetVariable { usages }) => {
                let mut set = Bindings::new();
                self.assign(a, usages, UsageRole::Local, env, &mut set);
                env.extend(set);
            }
            (ActionKind::InternalCallAction, ActionBody::InternalCall { called, inputs }) => {
                let target = called.as_ref().map(|r| r.target.fragment().to_string());
                let behaviour = at
                    .component
                    .internal_behaviours
                    .iter()
                    .find(|b| b.id.is_some() && b.id == target);
                let Some(b) = behaviour else {
                    self.problem(
                        &id,
                        format!("{}: the internal behaviour it calls is not in its component", label(a)),
                    );
                    return;
                };
                let mut inner = env.clone();
                let mut given = Bindings::new();
                self.assign(a, inputs, UsageRole::Input, env, &mut given);
                inner.extend(given);
                self.behaviour(at, b, &mut inner, weight);
            }
            (ActionKind::ForkAction, ActionBody::Fork { behaviours }) => {
                for b in behaviours {
                    self.behaviour(at, b, &mut env.clone(), weight);
                }
            }
            (ActionKind::Unknown, _) => {
                self.problem(&id, format!("{}: an action of unknown type (not predicted)", label(a)));
            }
            _ => {}
        }
    }

    /// `usages` (`name.CHARACTERISATION = expression`) evaluated in `from`, into `into`.
    fn assign(&mut self, a: &Action, usages: &[VariableUsage], role: UsageRole, from: &Bindings, into: &mut Bindings) {
        for u in usages.iter().filter(|u| u.role == role) {
            for c in &u.characterisations {
                let name = format!("{}.{}", u.name, c.kind);
                if let Some(v) = self.value(a, c.specification, &format!("`{name}`"), from) {
                    into.insert(name, v);
                }
            }
        }
    }
}

/// The SEFF that a call of `signature` through required role `role` of `at` runs, where it runs,
/// and why that one.
pub(super) fn resolve<'a>(
    p: &Predictor<'a>,
    at: Place<'a>,
    signature: &str,
    role: &str,
) -> Result<(Place<'a>, &'a Seff, String), String> {
    let repo = p.repo;
    let seff_of = |c: &'a Component| {
        c.seffs
            .iter()
            .find(|s| s.described_service.as_ref().map(|r| r.target.fragment()) == Some(signature))
    };
    let name = |c: &Component| c.name.clone().or(c.id.clone()).unwrap_or_default();
    if let (Some(system), Some(context)) = (p.system, at.context) {
        let system_name = system.name.as_deref().unwrap_or("?");
        let connector = system
            .connector(context, role)
            .ok_or_else(|| format!("the system {system_name} connects no provider to this required role"))?;
        let providing = connector.providing.as_deref().unwrap_or_default();
        let provider = system
            .context(providing)
            .and_then(|c| c.component.as_deref())
            .and_then(|id| repo.components.iter().find(|c| c.id.as_deref() == Some(id)))
            .ok_or_else(|| {
                format!("the system {system_name}'s context {providing} holds no component of the repository")
            })?;
        let seff =
            seff_of(provider).ok_or_else(|| format!("{} has no SEFF for the called signature", name(provider)))?;
        let context_name = system
            .context(providing)
            .and_then(|c| c.name.clone())
            .unwrap_or_default();
        let via = format!("system {system_name}: assembly context {context_name}");
        return Ok((
            Place {
                component: provider,
                context: Some(providing),
            },
            seff,
            via,
        ));
    }
    let interface = at
        .component
        .required_roles
        .iter()
        .find(|r| r.id.as_deref() == Some(role))
        .and_then(|r| r.interface.as_ref())
        .map(|i| i.target.fragment().to_string())
        .or_else(|| {
            repo.interfaces
                .iter()
                .find(|i| i.signatures.iter().any(|s| s.id.as_deref() == Some(signature)))
                .and_then(|i| i.id.clone())
        })
        .ok_or("the required role names no interface")?;
    let interface_name = repo
        .interfaces
        .iter()
        .find(|i| i.id.as_deref() == Some(interface.as_str()))
        .and_then(|i| i.name.clone())
        .unwrap_or_else(|| interface.clone());
    let providers: Vec<&Component> = repo
        .components
        .iter()
        .filter(|c| {
            c.provided_roles
                .iter()
                .any(|r| r.interface.as_ref().map(|i| i.target.fragment()) == Some(interface.as_str()))
        })
        .collect();
    match providers.as_slice() {
        [provider] => {
            let seff =
                seff_of(provider).ok_or_else(|| format!("{} has no SEFF for the called signature", name(provider)))?;
            let context = provider.id.as_deref().and_then(|id| p.system?.only_context_of(id));
            Ok((
                Place {
                    component: provider,
                    context,
                },
                seff,
                format!(
                    "repository: {} is the only provider of {interface_name}",
                    name(provider)
                ),
            ))
        }
        [] => Err(format!("no component of the repository provides {interface_name}")),
        many => Err(format!(
            "{} components provide {interface_name} ({}); {}",
            many.len(),
            many.iter().map(|c| name(c)).collect::<Vec<_>>().join(", "),
            if p.system.is_some() {
                "the system does not hold the caller's component in exactly one context"
            } else {
                "a .system assembly says which (the workspace has none)"
            }
        )),
    }
}

/// How an action is named in messages: its name and id.
fn label(a: &Action) -> String {
    match (&a.name, &a.id) {
        (Some(n), Some(id)) => format!("{n} ({id})"),
        (None, Some(id)) => id.clone(),
        (Some(n), None) => n.clone(),
        (None, None) => a.kind.as_str().to_string(),
    }
}
