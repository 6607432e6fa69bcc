//! The unit each demand is written in ([`beagle_analysis::units`]), from the workspace's
//! deployment ([`crate::deployment`]): a measured time times the processing rate of the container
//! that stands for the machine the measurements ran on. That container is `[model] measured_on`
//! when given, else the one the demand's component is allocated to (the measurements were taken
//! on "a machine like it"). Without a resource environment, demands stay in milliseconds.
//!
//! A component on several containers whose rates differ, with no `measured_on`, has no one rate
//! to convert with: guessing one would write a wrong number that looks right, so its demands are
//! not written and a warning names the containers and the key that settles it. The same for a
//! component no allocation places and a container without a rate of the demand's type.

use crate::deployment::Found;
use crate::error::JobError;
use crate::workspace::Workspace;
use beagle_analysis::model::resource_name;
use beagle_analysis::units::short_number;
use beagle_analysis::{Conversion, DemandUnits};
use beagle_pcm::model::resource_environment::ResourceContainer;
use beagle_pcm::model::Repository;
use beagle_pcm::{Deployment, ModelFile, TimeUnit};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The deployment as far as the conversion needs it, read once per job.
#[derive(Clone, Debug, Default)]
pub struct Rates {
    /// The resource environment's file and containers; `None`: demands stay in milliseconds.
    environment: Option<(PathBuf, Vec<ResourceContainer>)>,
    /// The allocation joined with its system (where each component runs).
    deployment: Option<Deployment>,
    /// `[model] measured_on`, found among the containers.
    measured_on: Option<ResourceContainer>,
    time_unit: TimeUnit,
}

impl Rates {
    /// Reads the workspace's allocation and resource environment
    /// (`crate::deployment::read_leniently`). Fails only when `[model] measured_on` names no
    /// container: then every demand would be converted wrongly.
    pub fn load(ws: &Workspace) -> Result<Rates, JobError> {
        let time_unit = ws.deployment.time_unit;
        let Found {
            environment,
            deployment,
        } = crate::deployment::read_leniently(ws);
        let measured_on = match &ws.deployment.measured_on {
            None => None,
            Some(name) => Some(find_container(name, environment.as_ref())?),
        };
        Ok(Rates {
            environment,
            deployment,
            measured_on,
            time_unit,
        })
    }

    /// The note a job gives when demands stay in milliseconds; `None` when there are rates.
    pub fn milliseconds_note(&self) -> Option<String> {
        self.environment.is_none().then(|| {
            "demands are in milliseconds: the workspace has no resource environment \
             (.resourceenvironment), so there are no processing rates to convert them into the work \
             units Palladio's simulators read (add an allocation and a resource environment beside the \
             system, or name them under [model])"
                .to_string()
        })
    }

    /// Per component of `repository` and resource type, the conversion or why there is none.
    pub fn units_for(&self, repository: &Repository) -> DemandUnits {
        let Some((path, containers)) = &self.environment else {
            return DemandUnits::milliseconds();
        };
        let mut demands = BTreeMap::new();
        for component in &repository.components {
            let Some(id) = component.id.as_deref() else { continue };
            let name = component.name.as_deref().unwrap_or(id);
            let machines: Vec<&ResourceContainer> = match (&self.measured_on, &self.deployment) {
                (Some(c), _) => vec![c],
                (None, Some(d)) => (d.containers_of_component(id).into_iter())
                    .filter_map(|c| containers.iter().find(|k| k.id == c.id))
                    .collect(),
                (None, None) => Vec::new(),
            };
            if machines.is_empty() {
                let why = match &self.deployment {
                    Some(d) if d.assembly.is_none() => format!(
                        "component `{name}` runs on no container: the system of {} could not be read, and \
                         `[model] measured_on` does not name the machine measured on",
                        d.allocation_path.display()
                    ),
                    Some(d) => format!(
                        "component `{name}` runs on no container: {} does not allocate it, and \
                         `[model] measured_on` does not name the machine measured on",
                        d.allocation_path.display()
                    ),
                    None => format!(
                        "component `{name}` runs on no container: there is no allocation beside the system, and \
                         `[model] measured_on` does not name which container of {} the measurements ran on",
                        path.display()
                    ),
                };
                for resource in demanded(component, &machines) {
                    demands.insert((id.to_string(), resource), Err(why.clone()));
                }
                continue;
            }
            for resource in demanded(component, &machines) {
                let conversion = self.conversion(name, &machines, &resource);
                demands.insert((id.to_string(), resource), conversion);
            }
        }
        DemandUnits {
            environment: Some(path.display().to_string()),
            demands,
        }
    }

    /// The conversion of `resource` on `machines` (every container the component runs on): one
    /// rate, or why not.
    fn conversion(
        &self,
        component: &str,
        machines: &[&ResourceContainer],
        resource: &str,
    ) -> Result<Conversion, String> {
        let type_name = self.type_name(resource);
        let mut rates = Vec::new();
        for m in machines {
            let label = container_label(m);
            let r = (m.resources.iter())
                .find(|r| r.resource_type.as_deref() == Some(resource))
                .ok_or_else(|| format!("container `{label}` has no {type_name} processing resource"))?;
            let rate = r
                .rate
                .as_ref()
                .map_err(|e| format!("container `{label}`'s {type_name} {e}"))?;
            rates.push((label, rate.value));
        }
        let first = rates[0].1;
        if rates.iter().any(|(_, r)| (r - first).abs() > 1e-12 * first.abs()) {
            let listed: Vec<String> = (rates.iter())
                .map(|(c, r)| format!("`{c}` at {}/{}", short_number(*r), self.time_unit.as_str()))
                .collect();
            return Err(format!(
                "component `{component}` runs on containers with different {type_name} rates ({}), and \
                 `[model] measured_on` does not say which the measurements ran on",
                listed.join(", ")
            ));
        }
        let names: Vec<&str> = rates.iter().map(|(c, _)| c.as_str()).collect();
        Ok(Conversion::new(first, self.time_unit, &names.join(" and "), &type_name))
    }

    fn type_name(&self, resource: &str) -> String {
        (self.deployment.as_ref())
            .and_then(|d| d.resource_type_name(resource))
            .unwrap_or_else(|| resource_name(resource))
            .to_string()
    }
}

/// The resource types a component's demands may name: those its containers have, those its
/// actions demand, and CPU (an action without a demand is measured as CPU; the unmodelled time is
/// CPU).
fn demanded(component: &beagle_pcm::model::Component, machines: &[&ResourceContainer]) -> Vec<String> {
    let mut out: Vec<String> = vec![beagle_pcm::edit::resource_type_id("CPU").to_string()];
    let on_machines = machines
        .iter()
        .flat_map(|m| &m.resources)
        .filter_map(|r| r.resource_type.clone());
    let behaviours = component
        .seffs
        .iter()
        .map(|s| &s.behaviour)
        .chain(&component.internal_behaviours);
    let in_actions = behaviours
        .flat_map(|b| b.walk())
        .flat_map(|a| &a.resource_demands)
        .filter_map(|d| d.resource_type.as_ref())
        .map(|r| r.target.fragment().to_string());
    for t in on_machines.chain(in_actions) {
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

fn container_label(c: &ResourceContainer) -> String {
    c.name.clone().or_else(|| c.id.clone()).unwrap_or_default()
}

/// The container `[model] measured_on` names (by id, else by name).
fn find_container(
    name: &str,
    environment: Option<&(PathBuf, Vec<ResourceContainer>)>,
) -> Result<ResourceContainer, JobError> {
    let Some((path, containers)) = environment else {
        return Err(JobError::MeasuredOn {
            name: name.to_string(),
            environment: None,
            containers: Vec::new(),
        });
    };
    (containers.iter().find(|c| c.id.as_deref() == Some(name)))
        .or_else(|| containers.iter().find(|c| c.name.as_deref() == Some(name)))
        .cloned()
        .ok_or_else(|| JobError::MeasuredOn {
            name: name.to_string(),
            environment: Some(path.clone()),
            containers: containers.iter().map(container_label).collect(),
        })
}

/// The units of `file`'s demands in workspace `ws` (what the language server writes and shows).
pub fn demand_units(ws: &Workspace, file: &ModelFile) -> Result<DemandUnits, JobError> {
    let rates = Rates::load(ws)?;
    Ok(file
        .repository
        .as_ref()
        .map_or_else(DemandUnits::milliseconds, |r| rates.units_for(r)))
}
