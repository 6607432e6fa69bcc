//! `beagle predict`: a service's expected demand for given inputs, from the repository as it is
//! now ([`beagle_analysis::predict`]), with the workspace's `.system` when it has one.

use crate::workspace::Workspace;
use beagle_analysis::predict::{Bindings, Prediction, Predictor};
use beagle_pcm::model::system::assembly;
use beagle_pcm::ModelFile;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// A prediction, and what it was made from.
#[derive(Clone, Debug, Serialize)]
pub struct ServicePrediction {
    /// `Component.operation`.
    pub service: String,
    pub repository: PathBuf,
    /// The `.system` that bound the calls, if any.
    pub system: Option<PathBuf>,
    #[serde(flatten)]
    pub prediction: Prediction,
    /// Resource type id -> the expected demand as an expression of the inputs (StoEx).
    pub composed: std::collections::BTreeMap<String, String>,
}

/// Parses `name.CHARACTERISATION=value`.
pub fn parse_binding(text: &str) -> Result<(String, f64), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}`: expected name.CHARACTERISATION=value"))?;
    let name = name.trim();
    if !name.contains('.') {
        return Err(format!(
            "`{text}`: `{name}` names no characterisation (files.NUMBER_OF_ELEMENTS, size.VALUE, data.BYTESIZE)"
        ));
    }
    let value: f64 = value
        .trim()
        .parse()
        .map_err(|_| format!("`{text}`: `{}` is not a number", value.trim()))?;
    Ok((name.to_string(), value))
}

fn read(path: &Path) -> Result<ModelFile, String> {
    ModelFile::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))
}

/// The prediction of `service` (its SEFF id, `Component.operation`, or an operation name only one
/// SEFF implements) at `inputs`, in the first repository of `ws` that has it.
pub fn predict(ws: &Workspace, service: &str, inputs: &Bindings) -> Result<ServicePrediction, String> {
    let system_path = ws.system();
    let system_file = system_path.as_deref().map(read).transpose()?;
    let system = match (&system_file, &system_path) {
        (Some(f), Some(p)) => Some(assembly(f).ok_or_else(|| format!("{}: not a PCM system", p.display()))?),
        _ => None,
    };
    let mut misses = Vec::new();
    for path in &ws.repositories {
        let file = read(path)?;
        let Some(predictor) = Predictor::new(&file) else {
            misses.push(format!("{}: not a PCM repository", path.display()));
            continue;
        };
        let predictor = match &system {
            Some(s) => predictor.with_system(s),
            None => predictor,
        };
        match predictor.find_service(service) {
            Ok(seff) => {
                let name = predictor
                    .services()
                    .into_iter()
                    .find(|(id, _)| *id == seff)
                    .map(|(_, n)| n)
                    .unwrap_or_default();
                return Ok(ServicePrediction {
                    service: name,
                    repository: path.clone(),
                    system: system_path.clone(),
                    prediction: predictor.predict(&seff, inputs),
                    composed: predictor.compose(&seff).printed(),
                });
            }
            Err(e) => misses.push(format!("{}: {e}", path.display())),
        }
    }
    Err(misses.join("; "))
}
