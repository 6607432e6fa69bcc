//! Counting after an analysis (`[java] count = true`, `beagle analyse --count`; issue 39): the
//! system is run again with the counting agent at the first pass's points, each internal
//! action's counts are fitted over its inputs, and, with a profile of the measuring platform
//! (`[java] platform`), the factor R = measured demand / count-based estimate is fitted per action
//! from the analysis's final timing law at the counted executions' inputs. Both are kept in the
//! store (`section_counts`), where `beagle predict --platform` finds them.
//!
//! Counting runs are apart from timing runs: the agent changes no count, but it would change times.

use crate::context::Context;
use crate::error::JobError;
use crate::measuring::java::{prepare_workspace, Build, PreparedWorkspace};
use crate::observer::{Event, Observer};
use crate::output::JobOutput;
use crate::report::{Diagnostic, Report};
use crate::request::Settings;
use crate::workspace::{Source, Workspace};
use beagle_analysis::section_counts::{CountLaw, Factor, SectionCounts};
use beagle_analysis::{Control, ElementKind, Scope, Store};
use beagle_java::count::laws::fit_counts;
use beagle_java::count::run::{agent_for, count_point, CountObservation};
use beagle_java::launch::{coarse_points, describe};
use beagle_java::platform::Profile;
use std::collections::BTreeMap;

/// Counting points per launch: enough distinct inputs for a law over each, few enough that the
/// counting JVMs (slower than timing ones) stay a fraction of the analysis.
pub const COUNT_POINTS: usize = 12;

/// Counts the workspace's system, fits the counts (and R, with the measuring platform's
/// profile), keeps them in the store and says what was found in `output`'s report.
pub(crate) fn count(
    ws: &Workspace,
    output: &mut JobOutput,
    settings: &Settings,
    observer: &mut dyn Observer,
    control: &Control,
) -> Result<Vec<SectionCounts>, JobError> {
    let Some(Source::Java { config, links }) = &ws.source else {
        return Err(JobError::NotJava);
    };
    let mut report = Report::default();
    let mut store = Store::open(&ws.root)?;
    let PreparedWorkspace { prepared, work, .. } = {
        let mut cx = Context {
            settings,
            store: &mut store,
            observer: &mut *observer,
            control,
            report: &mut report,
        };
        prepare_workspace(
            &ws.root,
            &ws.repositories,
            config,
            links.as_deref(),
            &Scope::Repository,
            Build::Instrumented,
            &mut cx,
        )?
    };
    // Counts do not depend on the JIT: one warm-up run (class loading, static initialisers), two
    // counted; the timing workload's warm-up seconds would be spent for nothing.
    let mut config = (**config).clone();
    config.workload.warmup = 1;
    config.workload.warmup_ms = 0;
    config.workload.repetitions = 2;
    let config = &config;
    let count_dir = work.join("count");
    let agent = agent_for(&prepared, &count_dir.join("agent")).map_err(|e| JobError::Counting(e.to_string()))?;
    let mut observations: Vec<CountObservation> = Vec::new();
    let mut warnings = Vec::new();
    for launch in &config.launches {
        let points = coarse_points(launch, config.workload.points, settings.seed);
        let points: Vec<_> = spread(&points, COUNT_POINTS);
        for (i, point) in points.iter().enumerate() {
            if control.cancel.is_cancelled() {
                return Err(JobError::Aborted);
            }
            observer.on(Event::Stage(&format!(
                "counting: {} at {} ({}/{})",
                launch.name,
                describe(point),
                i + 1,
                points.len()
            )));
            let dir = count_dir.join(&launch.name).join(i.to_string());
            match count_point(config, &prepared, &agent, launch, point, &dir) {
                Ok(mut o) => {
                    // Execution ids are a JVM's own: made unique across the counting JVMs.
                    for x in &mut o {
                        x.execution = format!("{}/{i}/{}", launch.name, x.execution);
                    }
                    observations.append(&mut o)
                }
                Err(e) => warnings.push(format!(
                    "counting {} at {}: {e}: point left out",
                    launch.name,
                    describe(point)
                )),
            }
        }
    }
    let names = action_names(output);
    let profile = match &config.platform {
        None => None,
        Some(path) => match Profile::read(path) {
            Ok(p) => Some(p),
            Err(e) => {
                warnings.push(format!("{e}: R is not fitted"));
                None
            }
        },
    };
    let counts = section_counts(&observations, &names, output, profile.as_ref());
    for c in &counts {
        output
            .report
            .diagnostics
            .push(Diagnostic::info(Some(c.action.clone()), describe_counts(c)));
    }
    if profile.is_none() && config.platform.is_none() && !counts.is_empty() {
        output.report.diagnostics.push(Diagnostic::info(
            None,
            "counts kept without R: name the measuring machine's profile (`beagle calibrate --out here.toml`, then [java] platform = \"here.toml\") to predict other platforms".into(),
        ));
    }
    for w in warnings {
        output.report.diagnostics.push(Diagnostic::warning(None, w));
    }
    for repository in &ws.repositories {
        store.save_section_counts(&store_key(&ws.root, repository), &counts)?;
    }
    Ok(counts)
}

/// A repository's key for its counts in the store: its path inside the workspace (the counts
/// move with a copied or moved workspace), else its absolute path.
pub fn store_key(root: &std::path::Path, repository: &std::path::Path) -> String {
    let absolute = |p: &std::path::Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let (root, repository) = (absolute(root), absolute(repository));
    match repository.strip_prefix(&root) {
        Ok(inside) => inside.display().to_string(),
        Err(_) => repository.display().to_string(),
    }
}

/// `n` of `points`, spread over their order (all of them when there are no more).
fn spread<T: Clone>(points: &[T], n: usize) -> Vec<T> {
    if points.len() <= n {
        return points.to_vec();
    }
    (0..n)
        .map(|i| points[i * (points.len() - 1) / (n - 1).max(1)].clone())
        .collect()
}

/// Action id → its name, from the analysis's result rows.
fn action_names(output: &JobOutput) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for a in &output.repositories {
        for row in &a.rows {
            let action = row.element.split('/').next().unwrap_or(&row.element);
            names.entry(action.to_string()).or_insert_with(|| row.name.clone());
        }
    }
    names
}

/// The fitted counts per action, with R where the profile and a final timing law allow.
pub fn section_counts(
    observations: &[CountObservation],
    names: &BTreeMap<String, String>,
    output: &JobOutput,
    profile: Option<&Profile>,
) -> Vec<SectionCounts> {
    let laws = fit_counts(observations, names);
    let mut by_action: BTreeMap<String, SectionCounts> = BTreeMap::new();
    for l in laws {
        let entry = by_action.entry(l.action.clone()).or_insert_with(|| SectionCounts {
            action: l.action.clone(),
            name: names.get(&l.action).cloned().unwrap_or_else(|| l.action.clone()),
            laws: BTreeMap::new(),
            points: distinct_points(observations, &l.action),
            factor: None,
        });
        if let Ok(f) = &l.law {
            entry.laws.insert(
                l.key.clone(),
                CountLaw {
                    stoex: f.stoex.clone(),
                    is_final: f.evidence.is_final,
                    r2: f.r2,
                },
            );
        }
    }
    if let Some(p) = profile {
        for (action, c) in by_action.iter_mut() {
            c.factor = timing_law(output, action).and_then(|law| factor(&law, c, observations, p));
        }
    }
    by_action.into_values().filter(|c| !c.laws.is_empty()).collect()
}

fn distinct_points(observations: &[CountObservation], action: &str) -> usize {
    let mut seen: Vec<Vec<(String, u64)>> = (observations.iter())
        .filter(|o| o.action == action)
        .map(|o| o.parameters.iter().map(|(k, v)| (k.clone(), v.to_bits())).collect())
        .collect();
    seen.sort();
    seen.dedup();
    seen.len()
}

/// The action's final (or latest) CPU timing law in ms.
fn timing_law(output: &JobOutput, action: &str) -> Option<beagle_stoex::Expr> {
    let a = output.repositories.iter().find_map(|a| {
        a.finals
            .values()
            .find(|(e, _)| matches!(&e.kind, ElementKind::ResourceDemand { action: id, .. } if id == action))
    })?;
    beagle_stoex::parse(&a.1.proposal.stoex).ok()
}

/// R: the median over the counted executions of the timing law / the count-based estimate.
fn factor(
    law: &beagle_stoex::Expr,
    counts: &SectionCounts,
    observations: &[CountObservation],
    profile: &Profile,
) -> Option<Factor> {
    // Per execution: its inputs and the estimate from what it counted (each key once).
    let mut estimates: BTreeMap<&str, (BTreeMap<String, f64>, f64)> = BTreeMap::new();
    for o in observations.iter().filter(|o| o.action == counts.action) {
        let e = estimates
            .entry(&o.execution)
            .or_insert_with(|| (o.parameters.iter().map(|(k, v)| (k.clone(), *v)).collect(), 0.0));
        e.1 += o.per_run * cost_or_invoke(profile, &o.key);
    }
    let mut ratios: Vec<f64> = Vec::new();
    for (inputs, estimate_ns) in estimates.values() {
        let env = |name: &str| inputs.get(name).copied();
        let Ok(ms) = beagle_stoex::eval_number(law, &env) else {
            continue;
        };
        if *estimate_ns > 0.0 && ms.is_finite() && ms > 0.0 {
            ratios.push(ms * 1e6 / estimate_ns);
        }
    }
    if ratios.is_empty() {
        return None;
    }
    ratios.sort_by(f64::total_cmp);
    let q = |p: f64| ratios[((ratios.len() - 1) as f64 * p).round() as usize];
    let r = q(0.5);
    Some(Factor {
        r,
        spread: (q(0.75) - q(0.25)) / r,
        platform: profile.platform.name.clone(),
        costs: (counts.laws.keys())
            .map(|k| (k.clone(), cost_or_invoke(profile, k)))
            .collect(),
        native_ns: profile.native_ns(),
    })
}

/// The cost of a key; a JDK method the profile has no timing for costs an `invoke` (its call,
/// not its work: said where predictions are made).
pub fn cost_or_invoke(profile: &Profile, key: &str) -> f64 {
    profile.cost_ns(key).unwrap_or_else(|| {
        if key.ends_with(" elements") {
            0.0
        } else {
            profile.instructions.get("invoke").copied().unwrap_or(0.0)
        }
    })
}

fn describe_counts(c: &SectionCounts) -> String {
    let finals = c.laws.values().filter(|l| l.is_final).count();
    let r = match &c.factor {
        Some(f) => format!(", R = {:.3} on {} (spread {:.0} %)", f.r, f.platform, f.spread * 100.0),
        None => String::new(),
    };
    format!(
        "{}: counted at {} points, {} count laws ({finals} final){r}",
        c.name,
        c.points,
        c.laws.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use beagle_java::platform::Profile;

    fn observation(execution: &str, size: f64, key: &str, per_run: f64) -> CountObservation {
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
    fn r_is_per_execution_whatever_the_executions_at_equal_inputs() {
        // 2 ns per byte measured; counted 4 int-arith (0.25 ns) per byte: estimate 1 ns per byte.
        // Five files of one size in one JVM, one file in another: R is 2 for all of them.
        let mut o = Vec::new();
        for (jvm, files, size) in [(0, 5, 1000.0), (1, 1, 8000.0), (2, 3, 3000.0)] {
            for f in 0..files {
                o.push(observation(&format!("{jvm}/{f}"), size, "int-arith", 4.0 * size));
            }
        }
        let profile = Profile {
            instructions: [("int-arith".to_string(), 0.25)].into(),
            ..Profile::default()
        };
        let counts = SectionCounts {
            action: "_a".into(),
            name: "a".into(),
            laws: [(
                "int-arith".to_string(),
                beagle_analysis::section_counts::CountLaw {
                    stoex: "4 * data.BYTESIZE".into(),
                    is_final: true,
                    r2: 1.0,
                },
            )]
            .into(),
            points: 3,
            factor: None,
        };
        let law = beagle_stoex::parse("0.000002 * data.BYTESIZE").unwrap();
        let f = factor(&law, &counts, &o, &profile).unwrap();
        assert!((f.r - 2.0).abs() < 1e-9, "{f:?}");
        assert!(f.spread < 1e-9, "{f:?}");
        // The measuring platform's cost of each counted key is kept with R (a prediction for
        // another platform splits the time with it); this profile has no native reference.
        assert_eq!(f.costs, [("int-arith".to_string(), 0.25)].into());
        assert_eq!(f.native_ns, None);
    }
}
