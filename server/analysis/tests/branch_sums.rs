//! A branch's published transition probabilities sum to 1, whatever the decisions: several per
//! execution, transitions never taken, several branches, probabilities constant or decided by
//! the input, events digested whole or per launch point (as the Java tool does), observations one
//! per decision or aggregated per execution. Checked on what is published: each final StoEx,
//! evaluated at every measured decision, and the printed numbers in decimal.

use beagle_analysis::*;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

const N: &str = "n.VALUE";

/// One branch of the synthetic service: its transitions and how it decides.
#[derive(Clone, Debug)]
struct Branch {
    id: String,
    transitions: Vec<String>,
    /// Per transition, its weight (0: never taken); or, when `threshold` is set, the first
    /// transition is taken iff n > threshold and the others never (a guard).
    weights: Vec<u32>,
    threshold: Option<u64>,
    /// Decisions per execution, at most.
    most: u32,
}

fn elements(branches: &[Branch]) -> Vec<MeasurableElement> {
    let mut out = Vec::new();
    for b in branches {
        for t in &b.transitions {
            let kind = ElementKind::Branch {
                branch: b.id.clone(),
                transition: t.clone(),
            };
            out.push(MeasurableElement::new(kind).in_service("_s", ["n".to_string()]));
        }
    }
    out
}

/// The events of `executions` service executions, each with its n and its decisions.
fn events(branches: &[Branch], executions: usize, rng: &mut ChaCha8Rng) -> Vec<MeasurementEvent> {
    let mut out = Vec::new();
    for i in 0..executions {
        let e = format!("e{i}");
        let n: u64 = rng.random_range(1..=8) * 5;
        out.push(MeasurementEvent::ServiceCall {
            execution: e.clone(),
            service: "_s".into(),
            caller_execution: None,
            call: None,
            parameters: [(N.to_string(), n as f64)].into(),
            entry_ns: 0,
            exit_ns: 1,
        });
        for b in branches {
            for _ in 0..rng.random_range(0..=b.most) {
                let taken = match b.threshold {
                    Some(t) if n > t => 0,
                    Some(_) => b.transitions.len() - 1,
                    None => {
                        let total: u32 = b.weights.iter().sum();
                        let mut x = rng.random_range(0..total);
                        b.weights
                            .iter()
                            .position(|w| {
                                let here = x < *w;
                                x = x.saturating_sub(*w);
                                here
                            })
                            .unwrap_or(0)
                    }
                };
                out.push(MeasurementEvent::Branch {
                    execution: e.clone(),
                    branch: b.id.clone(),
                    transition: Some(b.transitions[taken].clone()),
                });
            }
        }
    }
    out
}

/// The results of `events` digested in `parts` about equal parts (see [`results_of_parts`]).
fn results(
    events: &[MeasurementEvent],
    parts: usize,
    per_iteration: bool,
    model: Option<&[MeasurableElement]>,
) -> Vec<(MeasurableElement, MeasurementResult)> {
    // Split at service calls only: an execution's events stay in one part.
    let mut starts: Vec<usize> = (events.iter().enumerate())
        .filter(|(_, e)| matches!(e, MeasurementEvent::ServiceCall { .. }))
        .map(|(i, _)| i)
        .collect();
    let per_part = starts.len().div_ceil(parts.max(1)).max(1);
    starts.push(events.len());
    let bounds: Vec<usize> = starts.iter().copied().step_by(per_part).chain([events.len()]).collect();
    let split: Vec<&[MeasurementEvent]> = bounds
        .windows(2)
        .filter(|w| w[0] < w[1])
        .map(|w| &events[w[0]..w[1]])
        .collect();
    results_of_parts(&split, per_iteration, model)
}

/// The results of events digested in parts (launch points: each its own digest, its
/// observations tagged with its run, the results merged per element as the Java job merges
/// them). `model`: whether the digests know the model's elements (their transitions).
fn results_of_parts(
    parts: &[&[MeasurementEvent]],
    per_iteration: bool,
    model: Option<&[MeasurableElement]>,
) -> Vec<(MeasurableElement, MeasurementResult)> {
    let options = ResultOptions {
        per_iteration,
        ..ResultOptions::default()
    };
    let mut merged: BTreeMap<String, (MeasurableElement, MeasurementResult)> = BTreeMap::new();
    for (run, part) in parts.iter().enumerate() {
        let mut digest = match model {
            Some(elements) => EventDigest::for_elements(options.clone(), elements),
            None => EventDigest::new(options.clone()),
        };
        for e in *part {
            digest.add(e);
        }
        for (element, mut result) in digest.finish() {
            for o in &mut result.observations {
                o.run = Some(run as u64);
            }
            for t in &mut result.overflow {
                t.run = Some(run as u64);
            }
            let entry = merged
                .entry(element.id.clone())
                .or_insert_with(|| (element.clone(), MeasurementResult::new(element.id.clone(), Vec::new())));
            entry.1.merge(result);
        }
    }
    merged.into_values().collect()
}

fn analysed(elements: Vec<MeasurableElement>, results: Vec<(MeasurableElement, MeasurementResult)>) -> Blackboard {
    let mut bb = Blackboard::new(elements);
    let fit = beagle_fit::FitOptions {
        gp: None,
        ..Default::default()
    };
    let tool = RecordedResults {
        id: "recorded".into(),
        results,
    };
    let tools = Tools::standard(vec![Box::new(tool)], fit);
    analyse(&mut bb, &tools, &Control::new(), &mut |_| {});
    bb
}

/// Checks that every branch of `bb` that has results publishes transitions summing to 1; returns
/// the published StoEx per element.
fn assert_branches_sum_to_one(bb: &Blackboard) -> BTreeMap<String, String> {
    let mut by_branch: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for e in bb.elements() {
        if let ElementKind::Branch { branch, .. } = &e.kind {
            by_branch.entry(branch.clone()).or_default().push(e.id.clone());
        }
    }
    let mut published = BTreeMap::new();
    for (branch, ids) in by_branch {
        let finals: Vec<Option<&FinalExpression>> = ids.iter().map(|id| bb.final_expressions().get(id)).collect();
        if finals.iter().all(Option::is_none) {
            // Never decided: nothing measured, nothing published.
            assert!(ids.iter().all(|id| !bb.results().contains_key(id)), "{branch}");
            continue;
        }
        let finals: Vec<&FinalExpression> = finals
            .into_iter()
            .map(|f| f.unwrap_or_else(|| panic!("{branch}: a transition without a result")))
            .collect();
        let texts: Vec<&str> = finals.iter().map(|f| f.proposal.stoex.as_str()).collect();
        let parsed: Vec<beagle_stoex::Expr> = texts.iter().map(|t| beagle_stoex::parse(t).unwrap()).collect();
        // The printed numbers, when all are numbers: exactly 1 in decimal.
        let numbers: Option<Vec<f64>> = texts.iter().map(|t| t.parse::<f64>().ok()).collect();
        if let Some(numbers) = &numbers {
            let millionths: Vec<f64> = numbers.iter().map(|v| (v * 1e6).round()).collect();
            assert!(
                numbers.iter().zip(&millionths).all(|(v, m)| m / 1e6 == *v),
                "{branch}: more than 6 decimals: {texts:?}"
            );
            assert_eq!(millionths.iter().sum::<f64>(), 1e6, "{branch}: {texts:?}");
        }
        // At every measured decision, the published expressions add up to 1.
        for id in &ids {
            for o in &bb.results()[id].observations {
                let env = |name: &str| o.parameters.get(name).copied();
                let values: Vec<f64> = parsed
                    .iter()
                    .map(|e| beagle_stoex::eval_number(e, &env).unwrap())
                    .collect();
                let sum: f64 = values.iter().sum();
                assert!(
                    (sum - 1.0).abs() < 1e-9,
                    "{branch} at {:?}: {texts:?} give {values:?}",
                    o.parameters
                );
                assert!(values.iter().all(|v| (0.0..=1.0).contains(v)), "{branch}: {values:?}");
            }
        }
        for (id, t) in ids.iter().zip(texts) {
            published.insert(id.clone(), t.to_string());
        }
    }
    published
}

fn branch_strategy(index: usize) -> impl Strategy<Value = Branch> {
    (
        1usize..=4,
        prop::collection::vec(0u32..4, 4),
        prop::option::weighted(0.3, 5u64..35),
        0u32..=4,
    )
        .prop_map(move |(k, mut weights, threshold, most)| {
            weights.truncate(k);
            if weights.iter().all(|w| *w == 0) {
                weights[0] = 1;
            }
            Branch {
                id: format!("_b{index}"),
                transitions: (0..k).map(|t| format!("_t{t}")).collect(),
                weights,
                threshold,
                most,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        rng_seed: RngSeed::Fixed(2026),
        ..ProptestConfig::default()
    })]

    #[test]
    fn published_transition_probabilities_sum_to_one(
        branches in (branch_strategy(0), branch_strategy(1), branch_strategy(2)),
        executions in 1usize..60,
        parts in 1usize..5,
        per_iteration in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let branches = [branches.0, branches.1, branches.2];
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let evs = events(&branches, executions, &mut rng);
        let model = elements(&branches);
        // As the tools digest now (knowing the model), and as a tool that does not know the
        // model's transitions would: the published probabilities sum to 1 either way.
        for known in [true, false] {
            let results = results(&evs, parts, per_iteration, known.then_some(model.as_slice()));
            let bb = analysed(model.clone(), results);
            assert_branches_sum_to_one(&bb);
        }
    }
}

/// The reported case: an if/else decided by the input, measured at launch points each of which
/// took only one of the two transitions (small files at one, large at the other). Each
/// transition, fitted over only the points where it ran, was 1: both published 1, final.
/// Returns the elements, and the events of the two launch points.
fn one_transition_per_point() -> (Vec<MeasurableElement>, [Vec<MeasurementEvent>; 2]) {
    let branch = Branch {
        id: "_size".into(),
        transitions: vec!["_large".into(), "_small".into()],
        weights: vec![1, 1],
        threshold: Some(20),
        most: 3,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    // Executions in order of n: the first launch point's all small, the second's all large.
    let mut all = events(std::slice::from_ref(&branch), 80, &mut rng);
    let mut calls: Vec<(u64, Vec<MeasurementEvent>)> = Vec::new();
    for e in all.drain(..) {
        match &e {
            MeasurementEvent::ServiceCall { parameters, .. } => calls.push((parameters[N] as u64, vec![e])),
            _ => calls.last_mut().unwrap().1.push(e),
        }
    }
    let mut points = [Vec::new(), Vec::new()];
    for (n, e) in calls {
        points[usize::from(n > 20)].extend(e);
    }
    for point in &points {
        let decided = point
            .iter()
            .filter(|e| matches!(e, MeasurementEvent::Branch { .. }))
            .count();
        assert!(decided > 10, "each launch point decides the branch: {decided}");
    }
    (elements(&[branch]), points)
}

#[test]
fn a_branch_decided_by_the_input_is_not_both_transitions_at_one() {
    let (model, points) = one_transition_per_point();
    let points = [points[0].as_slice(), points[1].as_slice()];
    // Digested per launch point without the model's transitions (as the Java tool did): each
    // transition has observations only where it ran, 1 each. Published, they still sum to 1.
    let bb = analysed(model.clone(), results_of_parts(&points, true, None));
    let published = assert_branches_sum_to_one(&bb);
    assert_ne!(
        (published["_size/_large"].as_str(), published["_size/_small"].as_str()),
        ("1", "1")
    );
    // Fitted one by one they were both 1 (what users saw); saying so, the branch is preliminary.
    let chosen = |id: &str| {
        let f = &bb.final_expressions()[id];
        f.fitted.as_ref().unwrap_or(&f.proposal).stoex.clone()
    };
    assert_eq!(
        (chosen("_size/_large"), chosen("_size/_small")),
        ("1".into(), "1".into())
    );
    assert!(bb.final_expressions()["_size/_large"]
        .reasons
        .iter()
        .any(|r| r.contains("summed to 2; scaled to sum to 1")));
    // Knowing every transition of the branch, each launch point observes both at each decision:
    // the law is found, a guard and its complement.
    let bb = analysed(model.clone(), results_of_parts(&points, true, Some(&model)));
    let published = assert_branches_sum_to_one(&bb);
    assert_eq!(published["_size/_large"], "n.VALUE > 23 ? 1 : 0");
    assert_eq!(published["_size/_small"], "n.VALUE <= 23 ? 1 : 0");
    assert!(bb.final_expressions().values().all(|f| f.status == Status::Final));
}

#[test]
fn probabilities_rounded_one_by_one_are_published_summing_to_one() {
    // Three transitions taken 40 %, 35 %, 25 % of 2,000 decisions, no input dependence: each
    // rounded to its own fewest digits they need not sum to 1.
    let branch = Branch {
        id: "_b".into(),
        transitions: vec!["_a".into(), "_c".into(), "_d".into()],
        weights: vec![8, 7, 5],
        threshold: None,
        most: 20,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let evs = events(std::slice::from_ref(&branch), 200, &mut rng);
    let model = elements(&[branch]);
    let bb = analysed(model.clone(), results(&evs, 1, false, Some(&model)));
    let published = assert_branches_sum_to_one(&bb);
    assert_eq!(published.len(), 3);
}
