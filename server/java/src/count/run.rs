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
    /// The service execution it was counted in.
    pub execution: String,
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
    // Absolute: the JVM runs in the launch's working directory.
    let agent = std::path::absolute(agent).unwrap_or_else(|_| agent.to_path_buf());
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
    Ok(compact(&observations(&events), MAX_INPUTS_PER_ACTION))
}

/// Distinct inputs per action one counting JVM keeps (a nested service called with a new
/// argument each time, as hotloop's checksum, has one per call: millions of rows otherwise).
pub const MAX_INPUTS_PER_ACTION: usize = 256;

/// One observation per action, inputs and key: the mean per execution over the executions at
/// those inputs (an execution that did not count a key counted 0 of it), at most `max_inputs`
/// distinct inputs per action, spread evenly over them in their order. The executions at one
/// input become one, named after the inputs.
pub fn compact(observations: &[CountObservation], max_inputs: usize) -> Vec<CountObservation> {
    type Bits = Vec<(String, u64)>;
    struct Group<'a> {
        parameters: &'a Parameters,
        executions: std::collections::BTreeSet<&'a str>,
        runs: u64,
        sums: BTreeMap<&'a str, f64>,
    }
    let mut groups: BTreeMap<(&str, Bits), Group> = BTreeMap::new();
    for o in observations {
        let bits = o.parameters.iter().map(|(k, v)| (k.clone(), v.to_bits())).collect();
        let g = groups.entry((&o.action, bits)).or_insert_with(|| Group {
            parameters: &o.parameters,
            executions: Default::default(),
            runs: 0,
            sums: BTreeMap::new(),
        });
        if g.executions.insert(&o.execution) {
            g.runs += o.runs;
        }
        *g.sums.entry(&o.key).or_default() += o.per_run;
    }
    let mut per_action: BTreeMap<&str, Vec<(Bits, Group)>> = BTreeMap::new();
    for ((action, bits), g) in groups {
        per_action.entry(action).or_default().push((bits, g));
    }
    let mut out = Vec::new();
    for (action, gs) in per_action {
        let step = gs.len().div_ceil(max_inputs.max(1));
        for (i, (bits, g)) in gs.into_iter().enumerate() {
            if i % step != 0 {
                continue;
            }
            let n = g.executions.len().max(1) as f64;
            let execution = format!("{action}@{bits:?}");
            for (key, sum) in g.sums {
                out.push(CountObservation {
                    execution: execution.clone(),
                    action: action.to_string(),
                    key: key.to_string(),
                    parameters: g.parameters.clone(),
                    per_run: sum / n,
                    runs: g.runs,
                });
            }
        }
    }
    out
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
                execution: execution.clone(),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn o(execution: &str, size: f64, key: &str, per_run: f64) -> CountObservation {
        CountObservation {
            execution: execution.into(),
            action: "_a".into(),
            key: key.into(),
            parameters: [("data.BYTESIZE".to_string(), size)].into(),
            per_run,
            runs: 1,
        }
    }

    #[test]
    fn executions_at_one_input_become_their_mean_and_inputs_are_capped() {
        let mut all = vec![
            o("e1", 10.0, "load", 30.0),
            o("e1", 10.0, "int-mul", 10.0),
            o("e2", 10.0, "load", 50.0), // e2 counted no int-mul: 0
        ];
        for i in 0..1000 {
            all.push(o(&format!("n{i}"), 100.0 + f64::from(i), "load", 1.0));
        }
        let c = compact(&all, 100);
        let at10: Vec<_> = c.iter().filter(|x| x.parameters["data.BYTESIZE"] == 10.0).collect();
        assert_eq!(at10.len(), 2);
        assert_eq!(at10.iter().find(|x| x.key == "load").unwrap().per_run, 40.0);
        assert_eq!(at10.iter().find(|x| x.key == "int-mul").unwrap().per_run, 5.0);
        let inputs: std::collections::BTreeSet<u64> =
            c.iter().map(|x| x.parameters["data.BYTESIZE"].to_bits()).collect();
        assert!(inputs.len() <= 100 && inputs.len() >= 50, "{}", inputs.len());
    }
}
