//! Where each component runs and how fast: the processing rates that turn a demand in work units
//! into time (`time = demand / rate`, as Palladio's simulators compute it: SimuCom's
//! `ScheduledResource.calculateDemand`), read from the deployment (`beagle_pcm::deployment`).
//! With rates, a prediction is time in milliseconds per container and resource type, beside the
//! work units it adds up; `moved` answers "what if it ran there".

use beagle_pcm::deployment::{Deployment, TimeUnit};
use serde::Serialize;
use std::collections::BTreeMap;

/// A container's processing rates.
#[derive(Clone, Debug, PartialEq)]
pub struct Container {
    pub id: String,
    pub name: String,
    /// Resource type id -> work units per simulation time unit (a distribution's mean).
    pub rates: BTreeMap<String, f64>,
}

/// The processing rates of a deployment, and where each assembly context runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Rates {
    /// Assembly context id -> container id.
    pub placed: BTreeMap<String, String>,
    /// Component id -> the container ids of its allocated contexts (a component outside the
    /// system's contexts is placed by this, where it is one).
    pub of_component: BTreeMap<String, Vec<String>>,
    /// Container id -> container.
    pub containers: BTreeMap<String, Container>,
    /// What-if: component id (or `*`, every component) -> the container it runs on instead.
    pub moved: BTreeMap<String, String>,
    pub time_unit: TimeUnit,
}

/// What one container adds for one resource type.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Deployed {
    /// Work units, as the model's demands give them.
    pub units: f64,
    /// Time: the units over the container's rate (ms).
    pub ms: f64,
    /// The rate, work units per `time_unit`.
    pub rate: f64,
}

/// Why a demand has no time.
#[derive(Clone, Debug, PartialEq)]
pub enum Unplaced {
    /// The component runs on no container (not allocated), or on several and the prediction
    /// cannot tell which.
    NoContainer(Vec<String>),
    /// Its container has no processing resource of the demand's resource type.
    NoRate { container: String },
}

impl Rates {
    /// The rates of a deployment; `None` without a resource environment.
    pub fn from_deployment(d: &Deployment, time_unit: TimeUnit) -> Option<Rates> {
        d.environment.as_ref()?;
        let containers = (d.containers().iter())
            .filter_map(|c| {
                let id = c.id.clone()?;
                let rates = (c.resources.iter())
                    .filter_map(|r| Some((r.resource_type.clone()?, r.rate.as_ref().ok()?.value)))
                    .collect();
                let name = c.name.clone().unwrap_or_else(|| id.clone());
                Some((id.clone(), Container { id, name, rates }))
            })
            .collect();
        let mut placed = BTreeMap::new();
        let mut of_component: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for context in d.assembly.iter().flat_map(|a| &a.contexts) {
            let Some(id) = context.id.as_deref() else { continue };
            let Some(container) = d.container_of(id).and_then(|c| c.id.clone()) else {
                continue;
            };
            if let Some(component) = &context.component {
                let list = of_component.entry(component.clone()).or_default();
                if !list.contains(&container) {
                    list.push(container.clone());
                }
            }
            placed.insert(id.to_string(), container);
        }
        Some(Rates {
            placed,
            of_component,
            containers,
            moved: BTreeMap::new(),
            time_unit,
        })
    }

    /// A container by id or name.
    pub fn container(&self, id_or_name: &str) -> Option<&Container> {
        (self.containers.get(id_or_name)).or_else(|| self.containers.values().find(|c| c.name == id_or_name))
    }

    /// The container a behaviour of `component` (in `context`, where known) runs on.
    pub fn container_of(&self, component: Option<&str>, context: Option<&str>) -> Result<&Container, Unplaced> {
        let moved = (component.and_then(|c| self.moved.get(c))).or_else(|| self.moved.get("*"));
        let id = match (moved, context.and_then(|c| self.placed.get(c))) {
            (Some(m), _) | (None, Some(m)) => Some(m.clone()),
            (None, None) => match component.and_then(|c| self.of_component.get(c)) {
                Some(list) if list.len() == 1 => Some(list[0].clone()),
                Some(list) => {
                    let names = list.iter().map(|c| self.name(c)).collect();
                    return Err(Unplaced::NoContainer(names));
                }
                None => None,
            },
        };
        id.and_then(|id| self.containers.get(&id))
            .ok_or(Unplaced::NoContainer(Vec::new()))
    }

    fn name(&self, id: &str) -> String {
        self.containers.get(id).map_or(id.to_string(), |c| c.name.clone())
    }

    /// Milliseconds per work unit of `resource` on `container`.
    pub fn ms_per_unit(&self, container: &Container, resource: &str) -> Result<(f64, f64), Unplaced> {
        let rate = container.rates.get(resource).copied().ok_or_else(|| Unplaced::NoRate {
            container: container.name.clone(),
        })?;
        Ok((1e3 * self.time_unit.seconds() / rate, rate))
    }
}
