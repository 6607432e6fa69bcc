//! Results measured at one distinct parameter point, through the analysis loop as the Java tool
//! hands them over (one median per JVM, each observation with its launch point as its run):
//! a declared input no launch varies keeps the result preliminary and asks for points; a demand
//! without inputs whose launches differ 20-fold is not final and asks for nothing (the model must
//! change); one whose launches agree is final (issue 38, point 5).

use beagle_analysis::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn demand(action: &str, inputs: &[&str]) -> MeasurableElement {
    MeasurableElement::new(ElementKind::ResourceDemand {
        action: action.into(),
        resource: "cpu".into(),
    })
    .in_service("_seff", inputs.iter().map(|i| i.to_string()))
}

/// Twelve launch points, six of them in a second JVM; `level` of each, 10 % between JVMs.
fn measured(
    rng: &mut ChaCha8Rng,
    element: &MeasurableElement,
    parameters: &Parameters,
    level: &dyn Fn(&mut ChaCha8Rng) -> f64,
) -> MeasurementResult {
    let levels: Vec<f64> = (0..12).map(|_| level(rng)).collect();
    let mut observations = Vec::new();
    for jvm in 0..2 {
        for (run, l) in levels.iter().enumerate().filter(|(r, _)| jvm == 0 || r % 2 == 0) {
            let noise: f64 = rng.random_range(0.9..1.1);
            observations.push(Observation {
                run: Some(run as u64),
                parameters: parameters.clone(),
                value: l * noise,
                executions: 1,
                mean: None,
            });
        }
    }
    MeasurementResult::new(element.id.clone(), observations)
}

#[test]
fn one_distinct_point_is_final_only_for_a_constant_whose_launches_agree() {
    for seed in [1, 2, 3] {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let held = demand("_held", &["items"]);
        let spread = demand("_spread", &[]);
        let steady = demand("_steady", &[]);
        let items: Parameters = [("items.NUMBER_OF_ELEMENTS".to_string(), 20.0)].into();
        let none = Parameters::new();
        let results = vec![
            (held.clone(), measured(&mut rng, &held, &items, &|_| 2.0)),
            (
                spread.clone(),
                measured(&mut rng, &spread, &none, &|r| 0.1 * 20f64.powf(r.random::<f64>())),
            ),
            (steady.clone(), measured(&mut rng, &steady, &none, &|_| 0.5)),
        ];
        let mut bb = Blackboard::new([held.clone(), spread.clone(), steady.clone()]);
        let tools = Tools::standard(
            vec![Box::new(RecordedResults {
                id: "java".into(),
                results,
            })],
            beagle_fit::FitOptions {
                gp: None,
                ..Default::default()
            },
        );
        analyse(&mut bb, &tools, &Control::new(), &mut |_| {});
        let finals = bb.final_expressions();
        let wanted = FinalJudge.wanted_evidence(&bb);
        let fe = &finals[&held.id];
        assert_eq!(fe.status, Status::Preliminary, "seed {seed}");
        assert_eq!(
            fe.reasons,
            vec!["no launch varies its inputs: items.NUMBER_OF_ELEMENTS = 20 at every point (1 distinct parameter point)"],
            "seed {seed}"
        );
        assert!(wanted[&Want::Points].contains(&held.id), "seed {seed}: {wanted:?}");
        let fe = &finals[&spread.id];
        assert_eq!(fe.status, Status::Preliminary, "seed {seed}");
        assert!(
            fe.reasons.len() == 1 && fe.reasons[0].starts_with("its cost differs between launches beyond their noise"),
            "seed {seed}: {:?}",
            fe.reasons
        );
        assert!(
            wanted.values().all(|ids| !ids.contains(&spread.id)),
            "seed {seed}: {wanted:?}"
        );
        let fe = &finals[&steady.id];
        assert_eq!(fe.status, Status::Final, "seed {seed}: {:?}", fe.reasons);
    }
}
