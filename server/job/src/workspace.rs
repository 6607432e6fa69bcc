//! What `beagle analyse PATH` analyses: a `.repository` file, or a workspace folder whose
//! `beagle.toml` names the repositories and the measurements. Flags override the file.
//!
//! ```toml
//! [model]
//! repository = "model/app.repository"   # or a list
//! allocation = "model/app.allocation"   # the deployment (else found beside the system)
//! resource_environment = "model/app.resourceenvironment" # else the allocation's
//! measured_on = "AppServer"              # the container measured on (name or id)
//! time_unit = "s"                        # the rates' simulation time unit: "s" (default) or "ms"
//! [measurements]
//! events = "measurements/upload.events" # the Beagle events format, or:
//! kieker = "kieker-logs"                # a Kieker text log folder (kieker.map + *.dat)
//! otel = "traces.jsonl"                  # or OpenTelemetry traces (OTLP/JSON)
//! mapping = "operations.toml"           # Kieker's standard records: operation -> PCM ids
//! [analysis]
//! seed = 1
//! budget = 120                          # seconds
//! spread = "distribution"               # publish a constant's measured spread (DoublePDF, IntPMF)
//! ```
//! Relative paths are relative to the folder of `beagle.toml`. Without `[measurements]`, a
//! `[java]` table with `[[launch]]`es measures the Java system (`beagle_java::launch::config`),
//! linked to the model by `[model] links`.

use beagle_measure::FileError;
use beagle_pcm::{beside, TimeUnit};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Where the measurements come from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    Events(PathBuf),
    Kieker {
        dir: PathBuf,
        mapping: Option<PathBuf>,
    },
    /// OpenTelemetry traces (OTLP/JSON), spans mapped by the operation mapping or their
    /// `beagle.*` attributes (`beagle_measure::otel`).
    Otel {
        file: PathBuf,
        mapping: Option<PathBuf>,
    },
    /// Measure the Java system (`[java]` and `[[launch]]`), with the code links of `[model] links`.
    Java {
        config: Box<beagle_java::launch::JavaConfig>,
        links: Option<PathBuf>,
    },
}

/// Everything resolved: absolute or relative-to-cwd paths.
#[derive(Clone, Debug, PartialEq)]
pub struct Workspace {
    /// Where `.beagle/` lives: the folder of `beagle.toml`, or of the repository file.
    pub root: PathBuf,
    pub repositories: Vec<PathBuf>,
    pub source: Option<Source>,
    pub seed: Option<u64>,
    pub budget_s: Option<f64>,
    /// How a constant answer is published (`[analysis] spread`).
    pub spread: Option<beagle_fit::Spread>,
    /// The assembly of the repositories' components (`[model] system`), which binds external
    /// calls where several components provide an interface. Without it, the one `.system` file
    /// beside the repositories that refers to one of them, if there is exactly one
    /// ([`Workspace::system`]).
    pub system: Option<PathBuf>,
    /// What `[model]` says of the deployment (its files, where it was measured, the time unit).
    pub deployment: DeploymentConfig,
}

/// `[model] allocation`, `resource_environment`, `measured_on` and `time_unit`: what converts
/// measured times into the work units Palladio's simulators read (`beagle_pcm::Deployment`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeploymentConfig {
    /// The `.allocation` file; without it, [`Workspace::allocation`] looks beside the system.
    pub allocation: Option<PathBuf>,
    /// The `.resourceenvironment` file; without it, [`Workspace::resource_environment`] takes
    /// the allocation's.
    pub resource_environment: Option<PathBuf>,
    /// The resource container (name or id) whose hardware the measurements ran on.
    pub measured_on: Option<String>,
    /// The simulation time unit of the processing rates (seconds unless told).
    pub time_unit: TimeUnit,
}

impl Workspace {
    /// The `.system` file that binds this workspace's calls: the one `[model] system` names, or
    /// the only `.system` beside the repositories that refers to one of them.
    pub fn system(&self) -> Option<PathBuf> {
        if self.system.is_some() {
            return self.system.clone();
        }
        let names: Vec<String> = self.repositories.iter().filter_map(|r| beside::file_name(r)).collect();
        only(beside::files_referring(&self.repository_dirs(), "system", &names))
    }

    /// The `.allocation` that deploys the system: the one `[model] allocation` names, or the
    /// only `.allocation` beside the system that refers to it.
    pub fn allocation(&self) -> Option<PathBuf> {
        if self.deployment.allocation.is_some() {
            return self.deployment.allocation.clone();
        }
        only(beagle_pcm::deployment::allocations_of_system(&self.system()?))
    }

    /// The `.resourceenvironment`: the one `[model] resource_environment` names, else the one
    /// the allocation targets, else the only one beside the repositories.
    pub fn resource_environment(&self) -> Option<PathBuf> {
        if self.deployment.resource_environment.is_some() {
            return self.deployment.resource_environment.clone();
        }
        let targeted = self.allocation().and_then(|path| {
            let file = beagle_pcm::ModelFile::read(&path).ok()?;
            let uri = beagle_pcm::model::allocation::allocation(&file)?.resource_environment_uri?;
            match beagle_pcm::workspace::locate(&path, &uri) {
                beagle_pcm::workspace::Location::File(p) => Some(p),
                beagle_pcm::workspace::Location::Bundled(_) => None,
            }
        });
        targeted.or_else(|| only(beside::with_extension(&self.repository_dirs(), "resourceenvironment")))
    }

    fn repository_dirs(&self) -> Vec<&Path> {
        self.repositories.iter().filter_map(|r| r.parent()).collect()
    }
}

/// The one path found; none when there are several (then which one is not known).
fn only(found: Vec<PathBuf>) -> Option<PathBuf> {
    match <[PathBuf; 1]>::try_from(found) {
        Ok([one]) => Some(one),
        Err(_) => None,
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ModelTable {
    repository: Option<OneOrMany>,
    links: Option<PathBuf>,
    system: Option<PathBuf>,
    allocation: Option<PathBuf>,
    resource_environment: Option<PathBuf>,
    measured_on: Option<String>,
    time_unit: Option<TimeUnitTable>,
}

/// `time_unit = "s" | "ms"`.
#[derive(Deserialize, Clone, Copy)]
enum TimeUnitTable {
    #[serde(rename = "s")]
    Seconds,
    #[serde(rename = "ms")]
    Milliseconds,
}

impl From<TimeUnitTable> for TimeUnit {
    fn from(t: TimeUnitTable) -> Self {
        match t {
            TimeUnitTable::Seconds => TimeUnit::Seconds,
            TimeUnitTable::Milliseconds => TimeUnit::Milliseconds,
        }
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(PathBuf),
    Many(Vec<PathBuf>),
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct MeasurementsTable {
    events: Option<PathBuf>,
    kieker: Option<PathBuf>,
    otel: Option<PathBuf>,
    mapping: Option<PathBuf>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct AnalysisTable {
    seed: Option<u64>,
    budget: Option<f64>,
    spread: Option<SpreadTable>,
}

/// `spread = "constant" | "distribution"`.
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum SpreadTable {
    Constant,
    Distribution,
}

impl From<SpreadTable> for beagle_fit::Spread {
    fn from(s: SpreadTable) -> Self {
        match s {
            SpreadTable::Constant => beagle_fit::Spread::Constant,
            SpreadTable::Distribution => beagle_fit::Spread::Distribution,
        }
    }
}

#[derive(Deserialize)]
struct Config {
    model: Option<ModelTable>,
    measurements: Option<MeasurementsTable>,
    analysis: Option<AnalysisTable>,
}

/// Resolves PATH (a `.repository` or a folder with `beagle.toml`).
pub fn resolve(path: &Path) -> Result<Workspace, FileError> {
    if path.is_dir() {
        let toml_path = path.join("beagle.toml");
        let text = std::fs::read_to_string(&toml_path).map_err(|e| {
            FileError::new(
                &toml_path,
                format!("cannot read: {e} (a workspace folder needs a beagle.toml; or give a .repository file)"),
            )
        })?;
        return from_toml(path, &toml_path, &text);
    }
    if path.extension().and_then(|e| e.to_str()) != Some("repository") {
        return Err(FileError::new(
            path,
            "not a .repository file nor a folder with beagle.toml",
        ));
    }
    if !path.is_file() {
        return Err(FileError::new(path, "no such file"));
    }
    let root = path.parent().map(Path::to_path_buf).unwrap_or_default();
    Ok(Workspace {
        root: if root.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            root
        },
        repositories: vec![path.to_path_buf()],
        source: None,
        seed: None,
        budget_s: None,
        spread: None,
        system: None,
        deployment: DeploymentConfig::default(),
    })
}

/// The workspace a `beagle.toml` (at `toml_path`, in folder `dir`) with this text describes.
/// Errors name `toml_path`, and the line where it is known.
pub fn from_toml(dir: &Path, toml_path: &Path, text: &str) -> Result<Workspace, FileError> {
    let config: Config = toml::from_str(text).map_err(|e| FileError::toml(toml_path, text, &e))?;
    let model = config.model.unwrap_or_default();
    let links = model.links.map(|l| dir.join(l));
    let system = model.system.map(|s| dir.join(s));
    let deployment = DeploymentConfig {
        allocation: model.allocation.map(|p| dir.join(p)),
        resource_environment: model.resource_environment.map(|p| dir.join(p)),
        measured_on: model.measured_on,
        time_unit: model.time_unit.map(Into::into).unwrap_or_default(),
    };
    let repositories: Vec<PathBuf> = match model.repository {
        Some(OneOrMany::One(p)) => vec![dir.join(p)],
        Some(OneOrMany::Many(ps)) => ps.into_iter().map(|p| dir.join(p)).collect(),
        None => return Err(FileError::new(toml_path, "[model] names no repository")),
    };
    let m = config.measurements.unwrap_or_default();
    let named = [m.events.is_some(), m.kieker.is_some(), m.otel.is_some()];
    if named.iter().filter(|n| **n).count() > 1 {
        return Err(FileError::new(
            toml_path,
            "[measurements] names more than one of events, kieker and otel; choose one",
        ));
    }
    let source = match (m.events, m.kieker, m.otel) {
        (Some(e), _, _) => Some(Source::Events(dir.join(e))),
        (None, Some(k), _) => Some(Source::Kieker {
            dir: dir.join(k),
            mapping: m.mapping.map(|p| dir.join(p)),
        }),
        (None, None, Some(o)) => Some(Source::Otel {
            file: dir.join(o),
            mapping: m.mapping.map(|p| dir.join(p)),
        }),
        (None, None, None) => beagle_java::launch::read_java_config(toml_path, text)?.map(|config| Source::Java {
            config: Box::new(config),
            links,
        }),
    };
    let a = config.analysis.unwrap_or_default();
    Ok(Workspace {
        root: dir.to_path_buf(),
        repositories,
        source,
        seed: a.seed,
        budget_s: a.budget,
        spread: a.spread.map(Into::into),
        system,
        deployment,
    })
}

/// The folder of the nearest `beagle.toml` above `file` (its own folder first), not looking
/// above `root`: the workspace a model or link file belongs to.
pub fn folder_above(file: &Path, root: Option<&Path>) -> Option<PathBuf> {
    let mut dir = file.parent();
    while let Some(d) = dir {
        if d.join("beagle.toml").is_file() {
            return Some(d.to_path_buf());
        }
        if root.is_some_and(|r| d == r) {
            return None;
        }
        dir = d.parent();
    }
    None
}

impl Workspace {
    /// Every path the workspace names (repositories, measurements, links, Java sources and
    /// classpath) that lies outside `root`, after `..` and symlinks: a workspace file must not
    /// make Beagle read, instrument or run what lies elsewhere.
    pub fn paths_outside(&self, root: &Path) -> Vec<PathBuf> {
        let mut named: Vec<&Path> = self.repositories.iter().map(PathBuf::as_path).collect();
        named.extend(self.deployment.allocation.as_deref());
        named.extend(self.deployment.resource_environment.as_deref());
        match &self.source {
            Some(Source::Events(p)) => named.push(p),
            Some(Source::Kieker { dir: file, mapping }) | Some(Source::Otel { file, mapping }) => {
                named.push(file);
                named.extend(mapping.as_deref());
            }
            Some(Source::Java { config, links }) => {
                named.extend(links.as_deref());
                named.extend(config.sources.iter().map(PathBuf::as_path));
                named.extend(config.classpath.iter().map(PathBuf::as_path));
            }
            None => {}
        }
        let root = real(root);
        named
            .into_iter()
            .filter(|p| !real(p).starts_with(&root))
            .map(Path::to_path_buf)
            .collect()
    }
}

/// The path with `.` and `..` removed, then symlinks resolved in the longest part that exists
/// (a file not yet created under a symlinked folder still counts as where the symlink leads).
fn real(path: &Path) -> PathBuf {
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut lexical = PathBuf::new();
    for c in absolute.components() {
        match c {
            std::path::Component::ParentDir => {
                lexical.pop();
            }
            std::path::Component::CurDir => {}
            other => lexical.push(other),
        }
    }
    let mut rest = Vec::new();
    let mut existing = lexical.as_path();
    loop {
        if let Ok(p) = existing.canonicalize() {
            return rest.iter().rev().fold(p, |p, c| p.join(c));
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => return lexical,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beagle_toml_paths_are_relative_to_its_folder() {
        let text = "[model]\nrepository = [\"a.repository\", \"m/b.repository\"]\n[measurements]\nkieker = \"logs\"\nmapping = \"ops.toml\"\n[analysis]\nseed = 7\nbudget = 2.5\n[java]\nsources = [\"src\"]\n";
        let w = from_toml(Path::new("ws"), Path::new("ws/beagle.toml"), text).unwrap();
        assert_eq!(
            w.repositories,
            vec![PathBuf::from("ws/a.repository"), PathBuf::from("ws/m/b.repository")]
        );
        assert_eq!(
            w.source,
            Some(Source::Kieker {
                dir: PathBuf::from("ws/logs"),
                mapping: Some(PathBuf::from("ws/ops.toml"))
            })
        );
        assert_eq!((w.seed, w.budget_s, w.spread), (Some(7), Some(2.5), None));
    }

    #[test]
    fn spread_is_read_and_a_wrong_value_named() {
        let at = |text: &str| from_toml(Path::new("ws"), Path::new("ws/beagle.toml"), text);
        let w = at("[model]\nrepository = \"a.repository\"\n[analysis]\nspread = \"distribution\"\n").unwrap();
        assert_eq!(w.spread, Some(beagle_fit::Spread::Distribution));
        let e = at("[model]\nrepository = \"a.repository\"\n[analysis]\nspread = \"pdf\"\n").unwrap_err();
        assert_eq!(
            (e.file.as_path(), e.line),
            (Path::new("ws/beagle.toml"), Some(4)),
            "{e}"
        );
        assert!(e.message.contains("distribution"), "{e}");
        assert!(e.to_string().starts_with("ws/beagle.toml:4: "), "{e}");
    }

    #[test]
    fn the_deployment_keys_are_read_and_a_wrong_time_unit_named() {
        let at = |text: &str| from_toml(Path::new("ws"), Path::new("ws/beagle.toml"), text);
        let w = at("[model]\nrepository = \"a.repository\"\nallocation = \"m/a.allocation\"\nresource_environment = \"m/a.resourceenvironment\"\nmeasured_on = \"AppServer\"\ntime_unit = \"ms\"\n").unwrap();
        assert_eq!(
            w.deployment,
            DeploymentConfig {
                allocation: Some(PathBuf::from("ws/m/a.allocation")),
                resource_environment: Some(PathBuf::from("ws/m/a.resourceenvironment")),
                measured_on: Some("AppServer".into()),
                time_unit: TimeUnit::Milliseconds,
            }
        );
        assert_eq!(
            (w.allocation(), w.resource_environment()),
            (
                w.deployment.allocation.clone(),
                w.deployment.resource_environment.clone()
            )
        );
        let w = at("[model]\nrepository = \"a.repository\"\n").unwrap();
        assert_eq!(w.deployment, DeploymentConfig::default());
        assert_eq!(w.deployment.time_unit, TimeUnit::Seconds);
        let e = at("[model]\nrepository = \"a.repository\"\ntime_unit = \"min\"\n").unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
    }

    #[test]
    fn the_deployment_files_are_found_beside_the_repository() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pcm/mediastore");
        let w = from_toml(
            &dir,
            &dir.join("beagle.toml"),
            "[model]\nrepository = \"MediaStore.repository\"\n",
        )
        .unwrap();
        assert_eq!(w.system(), Some(dir.join("MediaStore-Cacheless.system")));
        assert_eq!(w.allocation(), Some(dir.join("MediaStore-Cacheless.allocation")));
        // The one the allocation targets (`href="MediaStore.resourceenvironment#/"`).
        let env = w.resource_environment().unwrap();
        assert_eq!(
            env.canonicalize().unwrap(),
            dir.join("MediaStore.resourceenvironment").canonicalize().unwrap()
        );
        // A repository with no system beside it has no allocation either.
        let fileshare = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pcm/beagle-palladiofileshare");
        let w = from_toml(
            &fileshare,
            &fileshare.join("beagle.toml"),
            "[model]\nrepository = \"Family.repository\"\n",
        )
        .unwrap();
        assert_eq!(
            (w.system(), w.allocation(), w.resource_environment()),
            (None, None, None)
        );
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let e = from_toml(
            Path::new("ws"),
            Path::new("ws/beagle.toml"),
            "[model]\nrepository = 3\n",
        )
        .unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        assert!(e.to_string().starts_with("ws/beagle.toml:2: "), "{e}");
        let e = from_toml(
            Path::new("ws"),
            Path::new("ws/beagle.toml"),
            "[measurements]\nevent = \"x\"\n",
        )
        .unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        assert!(e.message.contains("event"), "{e}");
    }

    #[test]
    fn paths_leaving_the_workspace_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().join("ws");
        std::fs::create_dir(&ws).unwrap();
        let text = "[model]\nrepository = [\"a.repository\", \"../b.repository\", \"/etc/c.repository\"]\n[measurements]\nevents = \"sub/../m.events\"\n";
        let w = from_toml(&ws, &ws.join("beagle.toml"), text).unwrap();
        assert_eq!(
            w.paths_outside(&ws),
            vec![ws.join("../b.repository"), PathBuf::from("/etc/c.repository")]
        );
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path(), ws.join("out")).unwrap();
            let w = from_toml(
                &ws,
                &ws.join("beagle.toml"),
                "[model]\nrepository = \"out/x.repository\"\n",
            )
            .unwrap();
            assert_eq!(w.paths_outside(&ws), vec![ws.join("out/x.repository")]);
        }
    }
}
