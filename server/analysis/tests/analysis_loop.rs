//! The analysis loop on synthetic event streams with known laws: demand = 0.5·n + 100 ms, loop
//! count = n, branch `_big` taken iff n > 10, external call passes m = n - 1.

use beagle_analysis::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

const N: &str = "n.VALUE";
/// The element of `_ia`'s CPU demand (measurements say `CPU`; elements carry Palladio's id).
const IA_CPU: &str = "_ia/_oro4gG3fEdy4YaaT-RYrLQ";

fn events(seed: u64, executions: usize) -> Vec<MeasurementEvent> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut t = 0u64;
    for i in 0..executions {
        let n: u64 = rng.random_range(1..=40);
        let e = format!("e{i}");
        out.push(MeasurementEvent::ServiceCall {
            execution: e.clone(),
            service: "_seff".into(),
            caller_execution: None,
            call: None,
            parameters: [(N.to_string(), n as f64)].into(),
            entry_ns: t,
            exit_ns: t + 1,
        });
        let demand_ns = (0.5 * n as f64 + 100.0) as u64 * 1_000_000 + if n % 2 == 1 { 500_000 } else { 0 };
        out.push(MeasurementEvent::ResourceDemand {
            execution: e.clone(),
            action: "_ia".into(),
            resource: "CPU".into(),
            start_ns: t,
            stop_ns: t + demand_ns,
        });
        out.push(MeasurementEvent::Loop {
            execution: e.clone(),
            loop_id: "_loop".into(),
            count: n,
        });
        out.push(MeasurementEvent::Branch {
            execution: e.clone(),
            branch: "_br".into(),
            transition: Some(if n > 10 { "_big" } else { "_small" }.into()),
        });
        out.push(MeasurementEvent::ServiceCall {
            execution: format!("c{i}"),
            service: "_callee".into(),
            caller_execution: Some(e.clone()),
            call: Some("_call".into()),
            parameters: [("m.VALUE".to_string(), n as f64 - 1.0)].into(),
            entry_ns: t,
            exit_ns: t + 1,
        });
        t += demand_ns + 10;
    }
    out
}

/// A noisy constant demand (100 to 150 ms) under a parameter it does not depend on.
/// A CPU demand of 100 ms plus up to 50 ms of uniform noise, plus `slope` ms per `n`.
fn noisy_events(executions: usize) -> Vec<MeasurementEvent> {
    noisy_events_with_slope(executions, 0)
}

fn noisy_events_with_slope(executions: usize, slope_ms: u64) -> Vec<MeasurementEvent> {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut evs = Vec::new();
    for i in 0..executions {
        let e = format!("e{i}");
        let n: u64 = rng.random_range(1..=40);
        let noise: u64 = rng.random_range(0..50_000_000);
        evs.push(MeasurementEvent::ServiceCall {
            execution: e.clone(),
            service: "_s".into(),
            caller_execution: None,
            call: None,
            parameters: [(N.to_string(), n as f64)].into(),
            entry_ns: 0,
            exit_ns: 1,
        });
        evs.push(MeasurementEvent::ResourceDemand {
            execution: e,
            action: "_ia".into(),
            resource: "CPU".into(),
            start_ns: 0,
            stop_ns: 100_000_000 + noise + slope_ms * 1_000_000 * n,
        });
    }
    evs
}

fn fast_fit() -> beagle_fit::FitOptions {
    beagle_fit::FitOptions {
        gp: None,
        ..Default::default()
    }
}

fn setup(events: Vec<MeasurementEvent>) -> (Blackboard, Tools) {
    let bb = Blackboard::new(elements_of(&events));
    let tools = Tools::standard(vec![Box::new(EventsTool::new(events))], fast_fit());
    (bb, tools)
}

fn expressions(bb: &Blackboard) -> BTreeMap<String, (String, Status)> {
    bb.final_expressions()
        .iter()
        .map(|(id, f)| (id.clone(), (f.proposal.stoex.clone(), f.status)))
        .collect()
}

#[test]
fn every_kind_recovered_through_the_loop() {
    let (mut bb, tools) = setup(events(7, 120));
    let mut phases = Vec::new();
    let outcome = analyse(&mut bb, &tools, &Control::new(), &mut |p| phases.push(p.clone()));
    assert_eq!(outcome, Outcome::Finished(FinishReason::AllFinal));
    let x = expressions(&bb);
    assert_eq!(x[IA_CPU].0, "0.5 * n.VALUE + 100");
    assert_eq!(x["_loop"].0, "n.VALUE");
    assert_eq!(x["_call/m.VALUE"].0, "n.VALUE - 1");
    assert!(x.values().all(|(_, s)| *s == Status::Final), "{x:?}");
    // The branch's transitions: a guard on n > 10, complementary.
    let big = &bb.final_expressions()["_br/_big"].proposal;
    let small = &bb.final_expressions()["_br/_small"].proposal;
    assert!(
        big.stoex.contains("10") && big.variables == vec![N.to_string()],
        "{}",
        big.stoex
    );
    assert!(big
        .predictions
        .iter()
        .zip(&small.predictions)
        .all(|(a, b)| a + b == 1.0));
    let r = &bb.results()["_br/_big"];
    for (o, p) in r.observations.iter().zip(&big.predictions) {
        assert_eq!(*p, if o.parameters[N] > 10.0 { 1.0 } else { 0.0 });
    }
    let f = &bb.final_expressions()[IA_CPU].proposal;
    assert_eq!(f.samples, 120);
    assert_eq!(f.analyser, "fit");
    assert!(f.r2 > 0.999 && f.relative_error < 1e-9);
    assert!(f.parameter_ranges[N].0 >= 1.0 && f.parameter_ranges[N].1 <= 40.0);
    // The phases in the design's order: measurement first, judge after every step.
    assert_eq!(phases[0].phase, Phase::Measure);
    assert!(phases.iter().any(|p| p.phase == Phase::AnalyseResults));
    assert_eq!(phases.last().unwrap().fraction, 1.0);
    // The whole blackboard survives serialisation.
    let back: Blackboard = serde_json::from_str(&serde_json::to_string(&bb).unwrap()).unwrap();
    assert_eq!(back, bb);
}

#[test]
fn averaging_proposes_the_mean_of_proposals() {
    let (mut bb, tools) = setup(events(3, 40));
    // Nothing becomes final: the loop runs until nobody can contribute.
    let mut bb2 = bb.clone().with_fitness(FitnessFunction {
        final_relative_error: -1.0,
        ..Default::default()
    });
    let outcome = analyse(&mut bb2, &tools, &Control::new(), &mut |_| {});
    assert_eq!(outcome, Outcome::Finished(FinishReason::NobodyCanContribute));
    let proposals = &bb2.proposals()["_loop"];
    let averaged = proposals.iter().find(|p| p.analyser == "averaging").unwrap();
    // One readable expression (like terms collected), whose values are the mean of the others'.
    assert!(!averaged.stoex.contains("(("), "{}", averaged.stoex);
    let others: Vec<&ProposedExpression> = proposals.iter().filter(|p| p.analyser != "averaging").collect();
    for (i, v) in averaged.predictions.iter().enumerate() {
        let mean = others.iter().map(|p| p.predictions[i]).sum::<f64>() / others.len() as f64;
        assert!((v - mean).abs() <= 1e-9 * mean.abs().max(1.0), "{v} vs {mean}");
    }
    assert!(bb2
        .final_expressions()
        .values()
        .all(|f| f.status == Status::Preliminary));
    let _ = analyse(&mut bb, &tools, &Control::new(), &mut |_| {});
}

#[test]
fn judge_stops_when_nobody_can_contribute() {
    // An element no tool measures never gets an expression.
    let evs = events(1, 30);
    let mut elements = elements_of(&evs);
    elements.push(MeasurableElement::new(ElementKind::Loop {
        loop_id: "_unmeasured".into(),
    }));
    let mut bb = Blackboard::new(elements);
    let tools = Tools::standard(vec![Box::new(EventsTool::new(evs))], fast_fit());
    let outcome = analyse(&mut bb, &tools, &Control::new(), &mut |_| {});
    assert_eq!(outcome, Outcome::Finished(FinishReason::NobodyCanContribute));
    assert!(bb.diagnostics().iter().any(|d| d.contains("_unmeasured")));
    assert_eq!(bb.final_expressions().len(), 5);
}

#[test]
fn judge_stops_when_the_budget_is_spent() {
    let (bb, tools) = setup(events(2, 30));
    let mut bb = bb.with_stop_rules(StopRules {
        budget_ms: Some(0),
        ..Default::default()
    });
    let outcome = analyse(&mut bb, &tools, &Control::new(), &mut |_| {});
    assert_eq!(outcome, Outcome::Finished(FinishReason::BudgetSpent));
    assert!(bb.proposals().is_empty(), "stopped after the first step");
}

#[test]
fn judge_stops_without_improvement() {
    // Nothing is final; no improvement counts as meaningful.
    let evs = noisy_events(30);
    let (bb, tools) = setup(evs);
    let bb = bb.with_fitness(FitnessFunction {
        final_relative_error: -1.0,
        ..Default::default()
    });
    let mut bb = bb.with_stop_rules(StopRules {
        stall_rounds: Some(1),
        min_improvement: 1e9,
        ..Default::default()
    });
    let outcome = analyse(&mut bb, &tools, &Control::new(), &mut |_| {});
    assert_eq!(outcome, Outcome::Finished(FinishReason::NoImprovement));
    assert_eq!(
        bb.proposals()[IA_CPU].len(),
        2,
        "constant, then fit without improvement"
    );
}

#[test]
fn abort_keeps_the_blackboard_and_a_rerun_continues() {
    let (mut bb, tools) = setup(events(9, 60));
    let control = Control::new();
    let c = control.clone();
    let outcome = analyse(&mut bb, &tools, &control, &mut |p| {
        if p.phase == Phase::AnalyseResults {
            c.abort();
        }
    });
    assert_eq!(outcome, Outcome::Aborted);
    assert_eq!(bb.proposals().values().map(Vec::len).sum::<usize>(), 1);
    // Resume (after a snapshot) with a fresh control: no re-measurement, same laws.
    let mut bb: Blackboard = serde_json::from_str(&serde_json::to_string(&bb).unwrap()).unwrap();
    let mut phases = Vec::new();
    let outcome = analyse(&mut bb, &tools, &Control::new(), &mut |p| phases.push(p.phase));
    assert_eq!(outcome, Outcome::Finished(FinishReason::AllFinal));
    assert!(!phases.contains(&Phase::Measure));
    assert_eq!(expressions(&bb)["_loop"].0, "n.VALUE");
}

#[test]
fn abort_inside_a_long_fit() {
    // Genetic programming for a long time: the token stops it inside the step. (A dependency,
    // under noise: pure noise would be answered by a constant at once.)
    let evs = noisy_events_with_slope(60, 3);
    let bb = Blackboard::new(elements_of(&evs));
    let mut bb = bb.with_fitness(FitnessFunction {
        final_relative_error: -1.0,
        ..Default::default()
    });
    let fit = beagle_fit::FitOptions {
        gp: Some(beagle_fit::GpOptions {
            generations: 1_000_000,
            stagnation: usize::MAX,
            time_limit: Some(Duration::from_secs(60)),
            ..Default::default()
        }),
        ..Default::default()
    };
    let tools = Tools::standard(vec![Box::new(EventsTool::new(evs))], fit);
    let control = Control::new();
    let c = control.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        c.abort();
    });
    let t = Instant::now();
    let outcome = analyse(&mut bb, &tools, &control, &mut |_| {});
    assert_eq!(outcome, Outcome::Aborted);
    assert!(t.elapsed() < Duration::from_secs(30));
}

#[test]
fn pause_and_continue() {
    let (mut bb, tools) = setup(events(11, 40));
    let control = Control::new();
    let c = control.clone();
    let mut paused_seen = false;
    let mut resumer = None;
    let t = Instant::now();
    let outcome = analyse(&mut bb, &tools, &control, &mut |p| {
        if p.phase == Phase::Measure && resumer.is_none() {
            c.pause();
            let c2 = c.clone();
            resumer = Some(std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(100));
                c2.resume();
            }));
        }
        if p.phase == Phase::Paused {
            paused_seen = true;
        }
    });
    assert!(paused_seen);
    assert!(t.elapsed() >= Duration::from_millis(100));
    assert_eq!(outcome, Outcome::Finished(FinishReason::AllFinal));
    // Paused time does not count against the budget.
    assert!(bb.spent_ms() < t.elapsed().as_millis() as u64);
}

#[test]
fn code_constants_become_thresholds() {
    // n in 1..=40, the branch taken iff n > 10: the data put the threshold anywhere in [10, 11).
    // Without constants the guard takes the simplest number strictly inside, 10.5; with the
    // code's `if (n > 10)` it says what the code says. (The constants around a branch's code are
    // every one of its transitions'.)
    let evs = events(7, 120);
    let guards = |constants: Vec<f64>| {
        let (bb, tools) = setup(evs.clone());
        let around = ["_br/_big", "_br/_small"].map(|t| (t.to_string(), constants.clone()));
        let mut bb = bb.with_code_constants(around.into());
        analyse(&mut bb, &tools, &Control::new(), &mut |_| {});
        ["_br/_big", "_br/_small"].map(|t| bb.final_expressions()[t].proposal.guard.clone().unwrap())
    };
    assert_eq!(guards(vec![]), ["n.VALUE > 10.5", "n.VALUE <= 10.5"]);
    assert_eq!(guards(vec![3.0, 10.0, 99.0]), ["n.VALUE > 10", "n.VALUE <= 10"]);
}

/// Issue 15, point 7: the same measurements and seed give the same expressions whatever the
/// order in which the elements are put on the blackboard (and so analysed) and however many
/// threads the genetic programming uses.
mod determinism {
    use super::*;
    use proptest::prelude::*;

    fn with_gp(threads: usize) -> beagle_fit::FitOptions {
        beagle_fit::FitOptions {
            gp: Some(beagle_fit::GpOptions {
                generations: 20,
                population: 200,
                threads,
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    fn run(events: &[MeasurementEvent], order: &[usize], threads: usize) -> BTreeMap<String, (String, Status)> {
        let elements: Vec<MeasurableElement> = elements_of(events).into_iter().collect();
        let shuffled: Vec<MeasurableElement> = order.iter().map(|i| elements[i % elements.len()].clone()).collect();
        let mut seen = std::collections::BTreeSet::new();
        let mut unique: Vec<MeasurableElement> = shuffled.into_iter().filter(|e| seen.insert(e.id.clone())).collect();
        unique.extend(elements.iter().filter(|e| !seen.contains(&e.id)).cloned());
        let mut bb = Blackboard::new(unique);
        let tools = Tools::standard(vec![Box::new(EventsTool::new(events.to_vec()))], with_gp(threads));
        analyse(&mut bb, &tools, &Control::new(), &mut |_| {});
        expressions(&bb)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4))]
        #[test]
        fn element_order_and_threads_do_not_change_the_answers(
            seed in 0u64..1000,
            order in proptest::collection::vec(0usize..64, 12),
        ) {
            let evs = noisy_events_with_slope(60 + (seed as usize % 40), 2);
            let reference = run(&evs, &[], 1);
            prop_assert!(reference.contains_key(IA_CPU), "{:?}", reference);
            prop_assert_eq!(run(&evs, &order, 2), reference);
        }
    }
}

/// Three collections that always hold the same number of elements, under a demand of
/// 2 ms per element plus 10 ms (with 2 % noise, five repetitions per point).
fn equal_collections_events() -> Vec<MeasurementEvent> {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut evs = Vec::new();
    for i in 0..40 {
        let n = (i % 8 + 1) as f64;
        let e = format!("e{i}");
        let parameters: BTreeMap<String, f64> = ["uploadFiles", "uploadFileIds", "uploadFileTypes"]
            .iter()
            .map(|v| (format!("{v}.NUMBER_OF_ELEMENTS"), n))
            .collect();
        evs.push(MeasurementEvent::ServiceCall {
            execution: e.clone(),
            service: "_s".into(),
            caller_execution: None,
            call: None,
            parameters,
            entry_ns: 0,
            exit_ns: 1,
        });
        let ms = (2.0 * n + 10.0) * (1.0 + rng.random_range(-0.02..0.02));
        evs.push(MeasurementEvent::ResourceDemand {
            execution: e,
            action: "_ia".into(),
            resource: "CPU".into(),
            start_ns: 0,
            stop_ns: (ms * 1e6) as u64,
        });
    }
    evs
}

#[test]
fn of_equivalent_inputs_the_law_keeps_the_first_in_the_signature() {
    let evs = equal_collections_events();
    for signature in [
        ["uploadFiles", "uploadFileIds", "uploadFileTypes"],
        ["uploadFileTypes", "uploadFiles", "uploadFileIds"],
    ] {
        let elements: Vec<_> = elements_of(&evs)
            .into_iter()
            .map(|e| e.in_service("_s", signature.iter().map(|s| s.to_string())))
            .collect();
        let mut bb = Blackboard::new(elements);
        let tools = Tools::standard(vec![Box::new(EventsTool::new(evs.clone()))], fast_fit());
        analyse(&mut bb, &tools, &Control::new(), &mut |_| {});
        let p = &bb.final_expressions()[IA_CPU].proposal;
        let first = format!("{}.NUMBER_OF_ELEMENTS", signature[0]);
        assert_eq!(p.variables, vec![first.clone()], "{}", p.stoex);
        assert!(p.stoex.contains(&first), "{}", p.stoex);
        let pairs: Vec<&(String, String)> = p.evidence.iter().flat_map(|e| &e.equivalent).collect();
        for other in &signature[1..] {
            let dropped = format!("{other}.NUMBER_OF_ELEMENTS");
            assert!(
                pairs.iter().any(|(kept, d)| *kept == first && *d == dropped),
                "{dropped} not named as equivalent to {first}: {pairs:?}"
            );
        }
    }
}

#[test]
fn a_noisy_constant_is_published_as_its_distribution_when_asked() {
    let evs = noisy_events(60);
    let mut bb = Blackboard::new(elements_of(&evs));
    let options = beagle_fit::FitOptions {
        spread: beagle_fit::Spread::Distribution,
        ..fast_fit()
    };
    let tools = Tools::standard(vec![Box::new(EventsTool::new(evs))], options);
    analyse(&mut bb, &tools, &Control::new(), &mut |_| {});
    let f = &bb.final_expressions()[IA_CPU];
    let p = &f.proposal;
    assert!(p.stoex.starts_with("DoublePDF[("), "{}", p.stoex);
    assert!(beagle_stoex::parse(&p.stoex).is_ok(), "{}", p.stoex);
    assert!(p.variables.is_empty());
    // The demands were 100 to 150 ms: so are the boxes.
    let edges: Vec<f64> = p.stoex[10..]
        .split(")(")
        .map(|s| {
            s.trim_matches(|c| c == '(' || c == ')' || c == ']')
                .split(';')
                .next()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect();
    assert!(
        edges.first().unwrap() >= &100.0 && edges.last().unwrap() <= &150.0,
        "{edges:?}"
    );
    let notes: Vec<&String> = p.evidence.iter().flat_map(|e| &e.notes).collect();
    assert!(
        notes.iter().any(|n| n.contains("distribution of the 60 observations")),
        "{notes:?}"
    );
}

#[test]
fn the_judge_asks_for_the_evidence_its_reasons_need() {
    use std::collections::BTreeSet;
    // Everything exact and final: nothing is asked.
    let (mut bb, tools) = setup(events(7, 120));
    analyse(&mut bb, &tools, &Control::new(), &mut |_| {});
    assert!(FinalJudge.wanted_evidence(&bb).is_empty());
    // The same system measured at two values of n only: no law can be told from two points,
    // so those elements ask for points.
    let all = events(7, 400);
    let two: BTreeSet<String> = all
        .iter()
        .filter_map(|e| match e {
            MeasurementEvent::ServiceCall {
                execution, parameters, ..
            } if [4.0, 30.0].contains(&parameters.get(N).copied().unwrap_or(0.0)) => Some(execution.clone()),
            _ => None,
        })
        .collect();
    let kept: Vec<MeasurementEvent> = all
        .into_iter()
        .filter(|e| {
            two.contains(e.execution())
                || matches!(e, MeasurementEvent::ServiceCall { caller_execution: Some(c), .. } if two.contains(c))
        })
        .collect();
    assert!(kept.len() > 20, "{} events kept", kept.len());
    let (mut bb, tools) = setup(kept);
    analyse(&mut bb, &tools, &Control::new(), &mut |_| {});
    let wanted = FinalJudge.wanted_evidence(&bb);
    let points = wanted.get(&Want::Points).cloned().unwrap_or_default();
    assert!(points.contains(&IA_CPU.to_string()), "{wanted:?}");
    // Every element that asks is preliminary and says why.
    for ids in wanted.values() {
        for id in ids {
            let fe = &bb.final_expressions()[id];
            assert_eq!(fe.status, Status::Preliminary, "{id}");
            assert!(!fe.reasons.is_empty(), "{id}");
        }
    }
}

/// Issue 50: a call parameter of the model that no value the code passes stands for (`_call`
/// ran 60 times, passing `m`; the model also asks for `request.Count.VALUE`) is not "never
/// executed": the call ran. The message says what is missing; an element whose action never ran
/// still says it never executed.
#[test]
fn a_call_parameter_nothing_passes_is_not_called_never_executed() {
    let events = events(3, 60);
    let mut elements = elements_of(&events);
    let missing = MeasurableElement::new(ElementKind::CallParameter {
        call: "_call".into(),
        parameter: "request.Count.VALUE".into(),
    });
    let idle = MeasurableElement::new(ElementKind::Loop {
        loop_id: "_idle".into(),
    });
    elements.extend([missing.clone(), idle.clone()]);
    let mut bb = Blackboard::new(elements);
    let tools = Tools::standard(vec![Box::new(EventsTool::new(events))], fast_fit());
    analyse(&mut bb, &tools, &Control::new(), &mut |_| {});
    let said = |id: &str| {
        bb.diagnostics()
            .iter()
            .find(|d| d.starts_with(&format!("{id}: ")))
            .unwrap_or_else(|| panic!("nothing said of {id}: {:?}", bb.diagnostics()))
            .clone()
    };
    assert_eq!(
        said(&missing.id),
        "_call/request.Count.VALUE: not measured: the call ran, but no value its code passes stands for `request.Count.VALUE` (no parameter of the called method is matched to it: rename or link it)"
    );
    assert!(said(&idle.id).ends_with(analysis_loop::NEVER_EXECUTED));
}
