//! The processing rates a prediction converts work units with (`beagle_analysis::predict::rates`),
//! from the workspace's deployment as [`crate::deployment::read`] reads it: its `.allocation` (or
//! another, for a what-if), the system and resource environment that one names, and `[model]
//! time_unit`. What-if moves (`--on`) are resolved here, by component and container name or id.
//! What can go wrong is a [`RatesError`] (defined beside the job's error, which carries it).

use crate::error::RatesError;
use crate::workspace::Workspace;
use beagle_analysis::predict::rates::Rates;
use beagle_pcm::{Deployment, ModelFile};
use std::path::Path;

/// The rates of the workspace's deployment (see [`crate::deployment::read`]), with every `--on`
/// move: `CONTAINER` moves every component there, `COMPONENT=CONTAINER` one component (by name or
/// id). `None` without a resource environment: demands are then milliseconds.
pub fn rates(ws: &Workspace, allocation: Option<&Path>, on: &[String]) -> Result<Option<Rates>, RatesError> {
    let Some(d) = crate::deployment::read(ws, allocation)? else {
        return match on.first() {
            Some(given) => Err(RatesError::NoEnvironment(given.clone())),
            None => Ok(None),
        };
    };
    let Some(mut rates) = Rates::from_deployment(&d, ws.deployment.time_unit) else {
        return match on.first() {
            Some(given) => Err(RatesError::NoEnvironment(given.clone())),
            None => Ok(None),
        };
    };
    for given in on {
        let (component, container) = match given.split_once('=') {
            Some((component, container)) => (Some(component.trim()), container.trim()),
            None => (None, given.trim()),
        };
        let Some(target) = rates.container(container).map(|c| c.id.clone()) else {
            let known: Vec<&str> = rates.containers.values().map(|c| c.name.as_str()).collect();
            return Err(RatesError::NoContainer {
                given: given.clone(),
                container: container.to_string(),
                known: known.join(", "),
            });
        };
        let key = match component {
            None => "*".to_string(),
            Some(name) => component_id(ws, &d, name).ok_or_else(|| RatesError::NoComponent {
                given: given.clone(),
                component: name.to_string(),
            })?,
        };
        rates.moved.insert(key, target);
    }
    Ok(Some(rates))
}

/// A component's id from its name or id, among the components the system assembles (as their
/// contexts name them: `Repository.repository#id`) and the workspace's repositories.
fn component_id(ws: &Workspace, d: &Deployment, name: &str) -> Option<String> {
    let in_system =
        |id: &str| (d.assembly.iter().flat_map(|a| &a.contexts)).any(|c| c.component.as_deref() == Some(id));
    if in_system(name) {
        return Some(name.to_string());
    }
    for path in &ws.repositories {
        let Ok(file) = ModelFile::read(path) else { continue };
        let Some(repo) = &file.repository else { continue };
        if let Some(id) = (repo.components.iter())
            .find(|c| c.name.as_deref() == Some(name) || c.id.as_deref() == Some(name))
            .and_then(|c| c.id.clone())
        {
            return Some(id);
        }
    }
    None
}
