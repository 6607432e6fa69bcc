//! The analysis loop's own overhead: `analyse` with `Tools::standard` (genetic programming off)
//! against "direct fitting", the same fits called straight on the same datasets.
//!
//! Synthetic streams with known laws, five elements per service `j`:
//! - `_ia<j>/CPU`: demand = a·n + b ms (odd j), a·n + c·size/1024 + b ms (even j);
//! - `_loop<j>`: count = n + k;
//! - `_br<j>/_big<j>` and `_br<j>/_small<j>`: `_big` taken iff n > threshold;
//! - `_call<j>/m.VALUE`: the external call passes m = n - 1 (even j) or 2·n (odd j).
//!
//! n is in 1..=40 and size in 1..=64 KiB, drawn per execution from a seeded ChaCha8.

use beagle_analysis::{
    analyse, elements_of, results_from_events, Blackboard, ConstantAnalyser, Control, ElementKind, EventsTool,
    FinalJudge, MeasurementEvent, MeasurementTool, Phase, ResultOptions, Tools,
};
use beagle_fit::{fit, fit_branch, FitOptions, Target};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};
use std::time::Instant;

/// The event stream of `services` services with `executions` executions each.
pub fn events(services: usize, executions: usize, seed: u64) -> Vec<MeasurementEvent> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let laws: Vec<(f64, f64, f64, u64, u64)> = (0..services)
        .map(|j| {
            let a = [0.5, 1.0, 2.0, 3.0][rng.random_range(0..4)];
            let b = [5.0, 20.0, 100.0][rng.random_range(0..3)];
            let c = if j % 2 == 0 {
                [0.25, 0.5][rng.random_range(0..2)]
            } else {
                0.0
            };
            (a, b, c, rng.random_range(0..3), rng.random_range(5..=30))
        })
        .collect();
    let mut out = Vec::new();
    let mut t = 0u64;
    for i in 0..executions {
        for (j, &(a, b, c, k, threshold)) in laws.iter().enumerate() {
            let n: u64 = rng.random_range(1..=40);
            let size: u64 = rng.random_range(1..=64) * 1024;
            let e = format!("e{j}-{i}");
            out.push(MeasurementEvent::ServiceCall {
                execution: e.clone(),
                service: format!("_seff{j}"),
                caller_execution: None,
                call: None,
                parameters: [
                    ("n.VALUE".to_string(), n as f64),
                    ("size.BYTESIZE".to_string(), size as f64),
                ]
                .into(),
                entry_ns: t,
                exit_ns: t + 1,
            });
            let ms = a * n as f64 + c * (size / 1024) as f64 + b;
            let demand_ns = (ms * 1e6).round() as u64;
            out.push(MeasurementEvent::ResourceDemand {
                execution: e.clone(),
                action: format!("_ia{j}"),
                resource: "CPU".into(),
                start_ns: t,
                stop_ns: t + demand_ns,
            });
            out.push(MeasurementEvent::Loop {
                execution: e.clone(),
                loop_id: format!("_loop{j}"),
                count: n + k,
            });
            let transition = if n > threshold { "_big" } else { "_small" };
            out.push(MeasurementEvent::Branch {
                execution: e.clone(),
                branch: format!("_br{j}"),
                transition: Some(format!("{transition}{j}")),
            });
            let m = if j % 2 == 0 { n as f64 - 1.0 } else { 2.0 * n as f64 };
            out.push(MeasurementEvent::ServiceCall {
                execution: format!("c{j}-{i}"),
                service: format!("_callee{j}"),
                caller_execution: Some(e),
                call: Some(format!("_call{j}")),
                parameters: [("m.VALUE".to_string(), m)].into(),
                entry_ns: t,
                exit_ns: t + 1,
            });
            t += demand_ns + 10;
        }
    }
    out
}

/// The fitting configurations: `no-gp` is `beagle fit --no-gp` (regression, thresholds, MARS);
/// `regression` keeps only the regression analyser, so that the fits are cheaper and the loop's
/// own cost shows more. (`constant` does not fit at all, see [`tools`].)
pub fn fit_options(config: &str) -> FitOptions {
    match config {
        "regression" => FitOptions {
            gp: None,
            threshold: None,
            mars: None,
            ..Default::default()
        },
        _ => FitOptions {
            gp: None,
            ..Default::default()
        },
    }
}

fn target(kind: &ElementKind) -> Target {
    match kind {
        ElementKind::ResourceDemand { .. } => Target::Time,
        ElementKind::Loop { .. } => Target::Count,
        ElementKind::Branch { .. } => Target::Probability,
        ElementKind::CallParameter { .. } => Target::Value,
    }
}

/// The peer: what the loop's fitting analyser computes, without blackboard, loop or judge. Events
/// to results to datasets, then `fit` (branch transitions: `fit_branch`) with the options and target
/// the `FitAnalyser` uses. Returns the number of expressions.
pub fn direct(events: &[MeasurementEvent], options: &FitOptions) -> usize {
    let mut fitted = 0;
    for (element, result) in results_from_events(events, &ResultOptions::default()) {
        let data = result.dataset().expect("synthetic data is a dataset");
        let target = target(&element.kind);
        let ok = if target == Target::Probability {
            fit_branch(&data, &options.branch).is_ok()
        } else {
            let mut o = options.clone();
            o.target = target;
            fit(&data, &o).is_ok()
        };
        fitted += usize::from(ok);
    }
    fitted
}

/// The loop's tools: `Tools::standard`, or for `constant` the constant analyser alone (a median
/// per element: the loop's machinery with next to no analysis work).
fn tools(config: &str, events: &[MeasurementEvent], options: &FitOptions) -> Tools {
    let measurement: Vec<Box<dyn MeasurementTool>> = vec![Box::new(EventsTool::new(events.to_vec()))];
    if config == "constant" {
        Tools {
            measurement,
            result_analysers: vec![Box::new(ConstantAnalyser)],
            proposal_analysers: Vec::new(),
            judge: FinalJudge,
        }
    } else {
        Tools::standard(measurement, options.clone())
    }
}

/// The peer of the `constant` configuration: the median of every element's dataset.
fn direct_constant(events: &[MeasurementEvent]) -> usize {
    let mut medians = 0;
    for (_, result) in results_from_events(events, &ResultOptions::default()) {
        let data = result.dataset().expect("synthetic data is a dataset");
        medians += usize::from(beagle_fit::stats::median(&data.y).is_finite());
    }
    medians
}

/// One size: `runs` alternating runs of the loop and of the peer, and the snapshot cost.
pub fn measure(config: &str, services: usize, executions: usize, runs: usize) -> Value {
    let evs = events(services, executions, 42 + services as u64);
    let elements = elements_of(&evs);
    let options = fit_options(config);
    let mut loop_s = Vec::new();
    let mut direct_s = Vec::new();
    let mut steps = 0;
    let mut outcome = String::new();
    let mut finals = 0;
    let mut last = None;
    for _ in 0..runs {
        let mut bb = Blackboard::new(elements.clone());
        let tools = tools(config, &evs, &options);
        let mut n = 0;
        let t = Instant::now();
        let o = analyse(&mut bb, &tools, &Control::new(), &mut |p| {
            if p.phase != Phase::Judge {
                n += 1;
            }
        });
        loop_s.push(t.elapsed().as_secs_f64());
        steps = n;
        outcome = format!("{o:?}");
        finals = bb
            .final_expressions()
            .values()
            .filter(|f| f.status == beagle_analysis::Status::Final)
            .count();
        last = Some(bb);
        let t = Instant::now();
        let fitted = if config == "constant" {
            direct_constant(&evs)
        } else {
            direct(&evs, &options)
        };
        direct_s.push(t.elapsed().as_secs_f64());
        assert_eq!(fitted, elements.len(), "every element fits directly");
    }
    // Step bookkeeping: a JSON snapshot of the final blackboard written and read back, the
    // largest it gets in the run (an upper bound per step).
    let bb = last.expect("at least one run");
    let mut snapshot_s = Vec::new();
    let mut snapshot_bytes = 0;
    // serde_json without its `float_roundtrip` feature may read a float back 1 ulp off.
    let mut exact = true;
    for _ in 0..runs.max(5) {
        let t = Instant::now();
        let text = serde_json::to_string(&bb).expect("blackboard serialises");
        let back: Blackboard = serde_json::from_str(&text).expect("and deserialises");
        snapshot_s.push(t.elapsed().as_secs_f64());
        snapshot_bytes = text.len();
        exact &= back == bb;
    }
    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
    let median = |v: &[f64]| {
        let mut s = v.to_vec();
        s.sort_by(f64::total_cmp);
        s[s.len() / 2]
    };
    json!({
        "bench": "loop", "config": config, "elements": elements.len(), "services": services,
        "executions_per_service": executions, "events": evs.len(), "steps": steps,
        "outcome": outcome, "final_elements": finals,
        "loop_runs_s": loop_s, "direct_runs_s": direct_s,
        "loop_best_s": min(&loop_s), "loop_median_s": median(&loop_s),
        "direct_best_s": min(&direct_s), "direct_median_s": median(&direct_s),
        "snapshot_bytes": snapshot_bytes, "snapshot_exact": exact, "snapshot_roundtrip_best_s": min(&snapshot_s),
    })
}
