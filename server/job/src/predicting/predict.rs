//! `beagle predict`: a service's expected demand for given inputs, from the repository as it is
//! now ([`beagle_analysis::predict`]), with the workspace's `.system` when it has one.

use crate::workspace::Workspace;
use beagle_analysis::predict::{Bindings, Prediction, Predictor, ServiceError};
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
    /// With a deployment: the time unit its processing rates are per (`s` or `ms`); the
    /// demands above are then times, and `deployed` gives the work units per container.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_unit: Option<&'static str>,
}

/// Where the prediction runs: the workspace's deployment, another allocation, what-if moves.
#[derive(Clone, Debug, Default)]
pub struct Deploy {
    /// Another `.allocation` than the workspace's.
    pub allocation: Option<PathBuf>,
    /// `CONTAINER` (everything runs there) or `COMPONENT=CONTAINER`.
    pub on: Vec<String>,
}

/// Why there is no prediction: an input given wrongly (`text`: as given), a model file, or no
/// repository with the service.
#[derive(Debug, thiserror::Error)]
pub enum PredictError {
    #[error("`{text}`: expected name.CHARACTERISATION=value")]
    NotABinding { text: String },
    #[error("`{text}`: `{name}` names no characterisation (files.NUMBER_OF_ELEMENTS, size.VALUE, data.BYTESIZE)")]
    NoCharacterisation { text: String, name: String },
    #[error("`{text}`: `{value}` is not a number")]
    NotANumber { text: String, value: String },
    #[error("{}: cannot read: {source}", path.display())]
    Unreadable { path: PathBuf, source: std::io::Error },
    #[error("{}: not a PCM system", path.display())]
    NotASystem { path: PathBuf },
    #[error(transparent)]
    Rates(#[from] crate::error::RatesError),
    /// The store with the analysis's counts could not be read (`--platform`).
    #[error("the store: {message}")]
    Store { message: String },
    /// Why each repository of the workspace does not have the service.
    #[error("{}", misses(.0))]
    NoService(Vec<Miss>),
}

/// Why one repository does not predict the service.
#[derive(Debug, thiserror::Error)]
pub enum Miss {
    #[error("{}: not a PCM repository", repository.display())]
    NotARepository { repository: PathBuf },
    #[error("{}: {source}", repository.display())]
    Service { repository: PathBuf, source: ServiceError },
}

fn misses(misses: &[Miss]) -> String {
    misses.iter().map(Miss::to_string).collect::<Vec<_>>().join("; ")
}

/// Parses `name.CHARACTERISATION=value`.
pub fn parse_binding(text: &str) -> Result<(String, f64), PredictError> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| PredictError::NotABinding { text: text.to_string() })?;
    let name = name.trim();
    if !name.contains('.') {
        return Err(PredictError::NoCharacterisation {
            text: text.to_string(),
            name: name.to_string(),
        });
    }
    let value: f64 = value.trim().parse().map_err(|_| PredictError::NotANumber {
        text: text.to_string(),
        value: value.trim().to_string(),
    })?;
    Ok((name.to_string(), value))
}

pub(crate) fn read(path: &Path) -> Result<ModelFile, PredictError> {
    ModelFile::read(path).map_err(|source| PredictError::Unreadable {
        path: path.to_path_buf(),
        source,
    })
}

/// The prediction of `service` (its SEFF id, `Component.operation`, or an operation name only one
/// SEFF implements) at `inputs`, in the first repository of `ws` that has it.
/// With a deployment (the workspace's `.allocation` and resource environment, or `deploy`'s),
/// demands are work units and the prediction is their time on each component's container.
pub fn predict(
    ws: &Workspace,
    service: &str,
    inputs: &Bindings,
    deploy: &Deploy,
) -> Result<ServicePrediction, PredictError> {
    let files = (ws.repositories.iter())
        .map(|p| Ok((p.clone(), read(p)?)))
        .collect::<Result<Vec<_>, PredictError>>()?;
    predict_with(ws, &files, service, inputs, deploy)
}

/// [`predict`] with the repositories as given (`beagle predict --platform` rewrites demands).
pub(crate) fn predict_with(
    ws: &Workspace,
    files: &[(PathBuf, ModelFile)],
    service: &str,
    inputs: &Bindings,
    deploy: &Deploy,
) -> Result<ServicePrediction, PredictError> {
    let rates = crate::predicting::rates::rates(ws, deploy.allocation.as_deref(), &deploy.on)?;
    let system_path = ws.system();
    let system_file = system_path.as_deref().map(read).transpose()?;
    let system = match (&system_file, &system_path) {
        (Some(f), Some(p)) => Some(assembly(f).ok_or_else(|| PredictError::NotASystem { path: p.clone() })?),
        _ => None,
    };
    let mut misses = Vec::new();
    for (path, file) in files {
        let Some(predictor) = Predictor::new(file) else {
            misses.push(Miss::NotARepository {
                repository: path.clone(),
            });
            continue;
        };
        let predictor = match &system {
            Some(s) => predictor.with_system(s),
            None => predictor,
        };
        let predictor = match &rates {
            Some(r) => predictor.with_rates(r),
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
                    time_unit: rates.as_ref().map(|r| r.time_unit.as_str()),
                });
            }
            Err(source) => misses.push(Miss::Service {
                repository: path.clone(),
                source,
            }),
        }
    }
    Err(PredictError::NoService(misses))
}
