mod common;

use beagle_analysis::{
    Blackboard, ElementKind, FinalExpression, FinalJudgeView, MeasurableElement, MeasurementResult,
    MeasurementToolView, Observation, ProposedExpression, Status,
};
use beagle_ide::{element_results, PointRow, ResultStatus};
use common::*;
use std::collections::BTreeMap;

const CPU: &str = "_oro4gG3fEdy4YaaT-RYrLQ";

fn observations(element: &str, points: &[(f64, &[f64])]) -> MeasurementResult {
    MeasurementResult {
        element: element.into(),
        observations: points
            .iter()
            .flat_map(|(n, values)| {
                values.iter().map(move |v| Observation {
                    run: None,
                    parameters: [("files.NUMBER_OF_ELEMENTS".to_string(), *n)].into(),
                    value: *v,
                    executions: 1,
                    mean: None,
                })
            })
            .collect(),
        overflow: Vec::new(),
        thinned: 0,
        resolution: None,
    }
}

fn final_expression(element: &str, stoex: &str, status: Status) -> FinalExpression {
    FinalExpression {
        proposal: ProposedExpression {
            element: element.into(),
            analyser: "test".into(),
            stoex: stoex.into(),
            infix: String::new(),
            r2: 0.98,
            relative_error: 0.031,
            samples: 8,
            parameter_ranges: [("files.NUMBER_OF_ELEMENTS".to_string(), (0.0, 99.0))].into(),
            size: 3,
            depth: 2,
            variables: vec!["files.NUMBER_OF_ELEMENTS".into()],
            guard: None,
            predictions: Vec::new(),
            evidence: None,
        },
        fitness: 0.1,
        status,
        reasons: Vec::new(),
        fitted: None,
    }
}

/// A blackboard with a CPU demand (measured at two points, one a GC pause) and a branch
/// transition, both with final expressions.
fn blackboard() -> Blackboard {
    let demand = MeasurableElement::new(ElementKind::ResourceDemand {
        action: "_fs_partition".into(),
        resource: CPU.into(),
    });
    let branch = MeasurableElement::new(ElementKind::Branch {
        branch: "_fs_file_size".into(),
        transition: "_fs_large".into(),
    });
    let (demand_id, branch_id) = (demand.id.clone(), branch.id.clone());
    let mut bb = Blackboard::new([demand, branch]);
    let mut tool = MeasurementToolView::new(&mut bb, "test");
    assert!(tool.add_result(observations(
        &demand_id,
        &[(1.0, &[10.0, 11.0, 12.0, 13.0, 100.0]), (2.0, &[20.0, 22.0, 24.0])]
    )));
    let mut judge = FinalJudgeView::new(&mut bb);
    judge.set_final(
        &demand_id,
        final_expression(&demand_id, "10 * files.NUMBER_OF_ELEMENTS", Status::Final),
    );
    judge.set_final(&branch_id, final_expression(&branch_id, "0.5", Status::Preliminary));
    bb
}

#[test]
fn results_have_points_medians_and_quartiles() {
    let bb = blackboard();
    let file = read(FILESHARE);
    let results = element_results(&bb, None, Some(&file));
    assert_eq!(results.len(), 2);

    // In element id order: `_fs_file_size/...` first.
    let demand = &results[1];
    assert_eq!(demand.element, format!("_fs_partition/{CPU}"));
    assert_eq!(demand.action, "_fs_partition");
    assert_eq!(demand.what, "CPU demand");
    assert_eq!(demand.expression, "10 * files.NUMBER_OF_ELEMENTS");
    assert_eq!(demand.status, ResultStatus::Final);
    assert_eq!(
        (demand.r2, demand.relative_error, demand.samples),
        (Some(0.98), Some(0.031), 8)
    );
    // Ranges come from the observations, not from the proposal's claim.
    assert_eq!(
        demand.parameter_ranges,
        [("files.NUMBER_OF_ELEMENTS".to_string(), 1.0, 2.0)]
    );
    let n = |v: f64| vec![("files.NUMBER_OF_ELEMENTS".to_string(), v)];
    assert_eq!(
        demand.points,
        [
            // 100 is beyond Q3 + 3 IQR of the five values (13 + 3·2): left out.
            PointRow {
                parameters: n(1.0),
                n: 4,
                // The outlier was measured too.
                executions: 5,
                median: 11.5,
                q1: 10.75,
                q3: 12.25
            },
            // Three values: too few for the outlier rule.
            PointRow {
                parameters: n(2.0),
                n: 3,
                executions: 3,
                median: 22.0,
                q1: 21.0,
                q3: 23.0
            },
        ]
    );

    let branch = &results[0];
    assert_eq!(branch.action, "_fs_file_size");
    assert_eq!(branch.what, "branch -> large", "the transition's name from the file");
    assert_eq!(branch.status, ResultStatus::Preliminary);
    assert!(branch.points.is_empty());
    assert_eq!(
        branch.parameter_ranges,
        [("files.NUMBER_OF_ELEMENTS".to_string(), 0.0, 99.0)],
        "the proposal's"
    );

    // Without the file, the transition's id names it.
    let results = element_results(&bb, None, None);
    assert_eq!(results[0].what, "branch -> _fs_large");
}

#[test]
fn raw_repetitions_replace_the_blackboards_observations() {
    let bb = blackboard();
    let id = format!("_fs_partition/{CPU}");
    let raw: BTreeMap<String, MeasurementResult> = [(
        id.clone(),
        observations(&id, &[(5.0, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])]),
    )]
    .into();
    let results = element_results(&bb, Some(&raw), None);
    let points = &results[1].points;
    assert_eq!(points.len(), 1);
    assert_eq!(
        (points[0].n, points[0].median, points[0].q1, points[0].q3),
        (7, 4.0, 2.5, 5.5)
    );
    assert_eq!(
        results[1].parameter_ranges,
        [("files.NUMBER_OF_ELEMENTS".to_string(), 5.0, 5.0)]
    );
}

#[test]
fn no_final_expressions_no_results() {
    let bb = Blackboard::new([MeasurableElement::new(ElementKind::Loop { loop_id: "_l".into() })]);
    assert!(element_results(&bb, None, None).is_empty());
}
