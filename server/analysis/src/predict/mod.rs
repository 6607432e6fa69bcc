//! Whole-service prediction: the expected demand of a service per resource type, in
//! milliseconds, for given values of its input characterisations, composed from the SEFFs as a
//! simulation would run them, by expectation:
//! - an internal action adds its demands;
//! - a loop adds its body times its iteration count; a collection iterator, times the
//!   `NUMBER_OF_ELEMENTS` of its collection;
//! - a branch adds each transition's behaviour weighted by its probability, or by its guard
//!   (a guard evaluates to true/false, or to the probability of true);
//! - an external call adds the SEFF that provides the called signature, with the call's input
//!   characterisations evaluated in the caller's context; the values it returns
//!   (`RETURN.<CHARACTERISATION>`, set by a SetVariableAction) flow back into the caller's
//!   variables through the call's return usages;
//! - a fork adds every forked behaviour, an internal call the internal behaviour it names;
//! - distributions count by their means ([`beagle_stoex::eval`]).
//!
//! Demands are milliseconds, or, with the deployment's processing rates ([`rates`],
//! [`Predictor::with_rates`]), work units that each container turns into time at its own rate.
//!
//! Where the called signature is provided: in an assembly (`.system`) when one is given and
//! the service's component is in it (its connector says which context provides the required
//! role), else in the repository when exactly one component provides the interface. Each call
//! says which ([`CallRoute`]). Recursion, unresolved calls and expressions that cannot be
//! evaluated (an input that was not given) are [`Problem`]s, and the prediction leaves them out
//! rather than guess: a prediction with problems is incomplete.

pub mod rates;
mod symbolic;
mod walk;

pub use symbolic::{compose, simplify, Composed};

use beagle_pcm::model::system::Assembly;
use beagle_pcm::model::Repository;
use beagle_pcm::ModelFile;
use serde::Serialize;
use std::collections::BTreeMap;

/// Values of a service's input characterisations (`files.NUMBER_OF_ELEMENTS` -> 20).
pub type Bindings = BTreeMap<String, f64>;

/// The expected demands of one service execution.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Prediction {
    pub seff: String,
    pub inputs: Bindings,
    /// Resource type id -> expected demand (ms), the callees' included.
    pub demands: BTreeMap<String, f64>,
    /// Internal action id -> resource type id -> its share of [`Prediction::demands`] (its
    /// demand times how often it runs per service execution).
    pub actions: BTreeMap<String, BTreeMap<String, f64>>,
    /// Every action id (of any kind) -> the demand over all resource types that it adds to the
    /// service per execution, with all that runs inside it (a loop's body, a branch's
    /// transitions, a call's callee). Actions of a SEFF that is called from several places
    /// have the sum of their shares.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub elements: BTreeMap<String, f64>,
    /// Variables the service's own expressions needed that had no value: inputs the caller did
    /// not give (a callee's own variables are not named here).
    #[serde(skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub missing: std::collections::BTreeSet<String>,
    /// With processing rates ([`Predictor::with_rates`]): container name -> resource type id ->
    /// the work units the service adds there and their time. [`Prediction::demands`] is then
    /// that time, summed over the containers.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub deployed: BTreeMap<String, BTreeMap<String, rates::Deployed>>,
    /// How each external call reached the SEFF it runs.
    pub calls: Vec<CallRoute>,
    /// What could not be predicted, and is left out.
    pub problems: Vec<Problem>,
    /// What the prediction may not mean although it was computed: a SEFF whose every demand is
    /// 0 (a placeholder that was never analysed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Prediction {
    /// The expected demand over all resource types (ms).
    pub fn total(&self) -> f64 {
        self.demands.values().sum()
    }

    /// Whether every part of the service was predicted.
    pub fn is_complete(&self) -> bool {
        self.problems.is_empty()
    }
}

/// How an external call was resolved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallRoute {
    /// The ExternalCallAction's id.
    pub call: String,
    /// The SEFF it runs.
    pub seff: String,
    /// Where the binding comes from: `"repository: ..."` or `"system <name>: ..."`.
    pub via: String,
}

/// A part of the service that was not predicted, and why.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Problem {
    /// The action (or SEFF) id.
    pub element: String,
    pub message: String,
}

/// A repository, and the assembly of its components when the workspace has one.
pub struct Predictor<'a> {
    file: &'a ModelFile,
    repo: &'a Repository,
    system: Option<&'a Assembly>,
    rates: Option<&'a rates::Rates>,
}

impl<'a> Predictor<'a> {
    /// `None` when the file holds no repository.
    pub fn new(file: &'a ModelFile) -> Option<Predictor<'a>> {
        Some(Predictor {
            file,
            repo: file.repository.as_ref()?,
            system: None,
            rates: None,
        })
    }

    /// A predictor bound as a workspace binds it: through `system` and with `rates`, where given.
    pub fn bound(
        file: &'a ModelFile,
        system: Option<&'a Assembly>,
        rates: Option<&'a rates::Rates>,
    ) -> Option<Predictor<'a>> {
        let mut p = Predictor::new(file)?;
        p.system = system;
        p.rates = rates;
        Some(p)
    }

    /// Demands are work units, turned into time by the rates of the containers their
    /// components run on.
    pub fn with_rates(mut self, rates: &'a rates::Rates) -> Self {
        self.rates = Some(rates);
        self
    }

    /// Calls are bound as `system` binds them (for components in it).
    pub fn with_system(mut self, system: &'a Assembly) -> Self {
        self.system = Some(system);
        self
    }

    /// The prediction of SEFF `seff` (its id) at `inputs`.
    pub fn predict(&self, seff: &str, inputs: &Bindings) -> Prediction {
        walk::predict(self, seff, inputs)
    }

    /// The prediction of SEFF `seff` as expressions of its inputs, per resource type.
    pub fn compose(&self, seff: &str) -> Composed {
        symbolic::compose(self, seff)
    }

    /// The SEFFs of the repository: (SEFF id, `Component.operation`).
    pub fn services(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (component, seff) in self.repo.seffs() {
            let Some(id) = seff.id.clone() else { continue };
            let operation = seff
                .described_service
                .as_ref()
                .and_then(|r| r.target.id())
                .and_then(|sig| self.repo.signatures().find(|(_, s)| s.id.as_deref() == Some(sig)))
                .and_then(|(_, s)| s.name.clone())
                .unwrap_or_else(|| "?".into());
            let component = component.name.clone().or(component.id.clone()).unwrap_or_default();
            out.push((id, format!("{component}.{operation}")));
        }
        out
    }

    /// The SEFF named by `key`: its id, `Component.operation`, or an operation name that only
    /// one SEFF implements.
    pub fn find_service(&self, key: &str) -> Result<String, ServiceError> {
        let services = self.services();
        if let Some((id, _)) = services.iter().find(|(id, name)| id == key || name == key) {
            return Ok(id.clone());
        }
        let by_operation: Vec<&(String, String)> = services
            .iter()
            .filter(|(_, name)| name.rsplit('.').next() == Some(key))
            .collect();
        match by_operation.as_slice() {
            [(id, _)] => Ok(id.clone()),
            [] => Err(ServiceError::Unknown {
                key: key.to_string(),
                services: services.into_iter().map(|(_, n)| n).collect(),
            }),
            many => Err(ServiceError::Ambiguous {
                key: key.to_string(),
                candidates: many.iter().map(|(_, n)| n.clone()).collect(),
            }),
        }
    }
}

/// Why [`Predictor::find_service`] names no single SEFF; services are `Component.operation`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ServiceError {
    #[error("no SEFF named `{key}` (services: {})", services.join(", "))]
    Unknown { key: String, services: Vec<String> },
    #[error("`{key}` names {} SEFFs ({}): give Component.operation", candidates.len(), candidates.join(", "))]
    Ambiguous { key: String, candidates: Vec<String> },
}

#[cfg(test)]
mod tests;
