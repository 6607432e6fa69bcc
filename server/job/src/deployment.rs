//! The workspace's deployment, read in one place: its `.allocation`, the system that allocation
//! places, and the resource environment whose processing rates turn times into work units. The
//! workspace says where they are ([`Workspace::allocation`], [`Workspace::system`],
//! [`Workspace::resource_environment`]); this module reads them, for the two stages that need
//! them:
//!
//! - [`read`], for a prediction (`crate::predicting::rates`), which asks for the deployment: a
//!   file it names that cannot be read, or an allocation that is none, is an error. The
//!   allocation may be another than the workspace's (`beagle predict --allocation`); a system the
//!   allocation's reference does not reach is the workspace's; the resource environment is
//!   `[model] resource_environment`, else the allocation's, else the workspace's.
//! - `read_leniently`, for the units every demand is written in (`crate::writing::units`),
//!   which every job converts with: it never fails (what cannot be read leaves demands in
//!   milliseconds, and the units say why). It reads the allocation with the files it refers to,
//!   so that resource types defined in files of their own have their names; the workspace's
//!   resource environment wins over the allocation's, and is read also without an allocation.
//!
//! Both find the same allocation, system and resource environment when those files are where
//! the allocation says and can be read; they differ only where one is missing or damaged.
//! `[model] time_unit` and `measured_on` are the workspace's, taken by the stage that uses them.
//!
//! Below the stages: this depends on the workspace only, and [`DeploymentError`] on nothing of
//! the crate (the prediction's error carries it, and through it the job's).

use crate::workspace::Workspace;
use beagle_pcm::model::resource_environment::{resource_environment, ResourceContainer};
use beagle_pcm::{Deployment, ModelFile, ModelSet};
use std::path::{Path, PathBuf};

/// Why the deployment cannot be read as a prediction asks for it ([`read`]).
#[derive(Debug, thiserror::Error)]
pub enum DeploymentError {
    #[error("{}: cannot read: {source}", path.display())]
    Unreadable { path: PathBuf, source: std::io::Error },
    #[error("{}: not a PCM allocation", path.display())]
    NotAnAllocation { path: PathBuf },
}

fn read_file(path: &Path) -> Result<ModelFile, DeploymentError> {
    ModelFile::read(path).map_err(|source| DeploymentError::Unreadable {
        path: path.to_path_buf(),
        source,
    })
}

/// The workspace's deployment: `allocation` when given, else the workspace's; `None` without an
/// allocation.
pub fn read(ws: &Workspace, allocation: Option<&Path>) -> Result<Option<Deployment>, DeploymentError> {
    let Some(path) = allocation.map(Path::to_path_buf).or_else(|| ws.allocation()) else {
        return Ok(None);
    };
    let file = read_file(&path)?;
    let alloc = beagle_pcm::model::allocation::allocation(&file)
        .ok_or_else(|| DeploymentError::NotAnAllocation { path: path.clone() })?;
    let named = |uri: &Option<String>| -> Result<Option<ModelFile>, DeploymentError> {
        match uri.as_deref().map(|u| beagle_pcm::workspace::locate(&path, u)) {
            Some(beagle_pcm::workspace::Location::File(p)) if p.is_file() => read_file(&p).map(Some),
            _ => Ok(None),
        }
    };
    let system = match named(&alloc.system_uri)? {
        Some(s) => Some(s),
        None => ws.system().map(|p| read_file(&p)).transpose()?,
    };
    let environment = match (
        named(&alloc.resource_environment_uri)?,
        ws.deployment.resource_environment.as_deref(),
    ) {
        (_, Some(p)) => Some(read_file(p)?),
        (Some(e), None) => Some(e),
        (None, None) => ws.resource_environment().map(|p| read_file(&p)).transpose()?,
    };
    Ok(Deployment::from_files(&file, system.as_ref(), environment.as_ref()))
}

/// The deployment as far as [`read_leniently`] could read it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Found {
    /// The resource environment's file and containers; `None`: demands stay in milliseconds.
    pub environment: Option<(PathBuf, Vec<ResourceContainer>)>,
    /// The allocation joined with its system (where each component runs), on the containers of
    /// `environment`.
    pub deployment: Option<Deployment>,
}

/// The workspace's allocation and resource environment, whatever of them can be read.
pub(crate) fn read_leniently(ws: &Workspace) -> Found {
    let deployment = ws.allocation().and_then(|path| {
        let mut set = ModelSet::new();
        let id = set.load(&path).ok()?;
        Deployment::load(&mut set, id)
    });
    // `[model] resource_environment` wins over the one the allocation targets.
    let named = ws.resource_environment();
    let environment = match (&deployment, named) {
        (Some(d), None) => d.environment_path.clone().zip(d.environment.clone()),
        (Some(d), Some(path)) if d.environment_path.as_ref() == Some(&path) => {
            d.environment_path.clone().zip(d.environment.clone())
        }
        (_, Some(path)) => ModelFile::read(&path)
            .ok()
            .and_then(|f| resource_environment(&f))
            .map(|e| (path, e)),
        (None, None) => None,
    }
    .map(|(path, e)| (path, e.containers));
    let deployment = deployment.map(|mut d| {
        if let Some((path, containers)) = &environment {
            // Placement by container id: the containers must be the ones converted with.
            d.environment_path = Some(path.clone());
            if let Some(e) = d.environment.as_mut() {
                e.containers = containers.clone();
            }
        }
        d
    });
    Found {
        environment,
        deployment,
    }
}
