//! One counting run: a launch at a point in a JVM with the counting agent, its COUNT records
//! decoded into per-execution counts under the execution's inputs.

use super::agent::{asm_dir, build_agent, AgentError};
use crate::launch::{run_point, JavaConfig, Launch, Point, RunError};
use crate::prepare::Prepared;
use crate::probe::decode::{decode_file, DecodeOptions};
use beagle_analysis::events::{MeasurementEvent, Parameters};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// What a section counted per run in one service execution, for one key.
#[derive(Clone, Debug, PartialEq)]
pub struct CountObservation {
    /// The internal action.
    pub action: String,
    pub key: String,
    /// The execution's inputs at entry.
    pub parameters: Parameters,
    /// The count per run of the section (the mean of the execution's runs).
    pub per_run: f64,
    pub runs: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum CountError {
    #[error(transparent)]
    Agent(#[from] AgentError),
    #[error("the probe runtime's classes are not on the prepared class path")]
    NoProbe,
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
}

/// The counting agent for a prepared build (built under `dir` unless current).
pub fn agent_for(prepared: &Prepared, dir: &Path) -> Result<PathBuf, CountError> {
    let probe = (prepared.classpath.entries.iter())
        .find(|p| p.join("beagle/probe/Counts.class").is_file())
        .ok_or(CountError::NoProbe)?;
    Ok(build_agent(dir, probe, &asm_dir())?)
}

/// The launch with the agent: the same program, counted (its times are never used).
pub fn counting_launch(launch: &Launch, agent: &Path, keys: &Path) -> Launch {
    let mut counted = launch.clone();
    counted.jvm_args.extend([
        format!("-javaagent:{}", agent.display()),
        "-Dbeagle.count=true".to_string(),
        format!("-Dbeagle.countKeys={}", keys.display()),
    ]);
    counted
}

/// The key names a counting JVM wrote (`id\tname` per line).
pub fn read_keys(path: &Path) -> BTreeMap<i64, String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    (text.lines())
        .filter_map(|l| {
            let (id, name) = l.split_once('\t')?;
            Some((id.parse().ok()?, name.to_string()))
        })
        .collect()
}

/// Counts `launch` at `point` in one JVM with the agent (files under `dir`).
pub fn count_point(
    config: &JavaConfig,
    prepared: &Prepared,
    agent: &Path,
    launch: &Launch,
    point: &Point,
    dir: &Path,
) -> Result<Vec<CountObservation>, CountError> {
    std::fs::create_dir_all(dir).map_err(|source| CountError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let keys = std::path::absolute(dir.join("count-keys.tsv")).unwrap_or_else(|_| dir.join("count-keys.tsv"));
    let _ = std::fs::remove_file(&keys);
    let counted = counting_launch(launch, agent, &keys);
    let out = run_point(
        &config.java,
        &prepared.classpath,
        &counted,
        point,
        &config.workload,
        &dir.join("run"),
    )?;
    let options = DecodeOptions {
        run: "count".into(),
        warmup: 1,
        service_times: false,
        count_keys: read_keys(&keys),
    };
    let (events, _) = decode_file(&out.events, &prepared.table, &options).map_err(|source| CountError::Io {
        path: out.events.clone(),
        source,
    })?;
    let _ = std::fs::remove_file(&out.events);
    Ok(observations(&events))
}

/// The counts of `events`, each under its execution's inputs at entry.
pub fn observations(events: &[MeasurementEvent]) -> Vec<CountObservation> {
    let mut inputs: HashMap<&str, &Parameters> = HashMap::new();
    let mut out = Vec::new();
    for e in events {
        match e {
            MeasurementEvent::ServiceCall {
                execution, parameters, ..
            } => {
                inputs.insert(execution, parameters);
            }
            MeasurementEvent::Count {
                execution,
                action,
                key,
                runs,
                count,
            } => out.push(CountObservation {
                action: action.clone(),
                key: key.clone(),
                parameters: inputs.get(execution.as_str()).map(|p| (*p).clone()).unwrap_or_default(),
                per_run: *count as f64 / (*runs).max(1) as f64,
                runs: *runs,
            }),
            _ => {}
        }
    }
    out
}
