//! Where to measure next: how badly the current expressions explain each measured point.
//!
//! For every element with a chosen expression, at every point: the median absolute error of the
//! chosen expression on the point's observations, plus the median absolute difference between it
//! and the runner-up proposal (where two good models disagree, more data decides), both relative to
//! the element's typical value. A point's score is the mean over elements. The point selection
//! ([`crate::launch::points::refine_points`]) places new points near high scores.

use crate::launch::Point;
use beagle_analysis::{Blackboard, MeasurableElement, MeasurementResult};
use beagle_fit::stats::median;
use std::collections::BTreeMap;

fn evaluate(expr: &beagle_stoex::Expr, parameters: &BTreeMap<String, f64>) -> Option<f64> {
    beagle_stoex::eval_number(expr, &|name| parameters.get(name).copied())
        .ok()
        .filter(|v| v.is_finite())
}

/// Scores per measured point (see the module documentation).
pub fn point_scores(
    bb: &Blackboard,
    measured: &[(Point, &[(MeasurableElement, MeasurementResult)])],
) -> Vec<(Point, f64)> {
    point_scores_of(bb, measured, &|_| true)
}

/// [`point_scores`] over the elements `wanted` accepts only (those whose judge asks for points).
pub fn point_scores_of(
    bb: &Blackboard,
    measured: &[(Point, &[(MeasurableElement, MeasurementResult)])],
    wanted: &dyn Fn(&str) -> bool,
) -> Vec<(Point, f64)> {
    // Per element: the chosen expression, the runner-up, and the typical magnitude.
    let mut models = BTreeMap::new();
    for (id, chosen) in bb.final_expressions().iter().filter(|(id, _)| wanted(id)) {
        let Ok(best) = beagle_stoex::parse(&chosen.proposal.stoex) else {
            continue;
        };
        let runner_up = bb
            .proposals()
            .get(id)
            .into_iter()
            .flatten()
            .filter(|p| p.stoex != chosen.proposal.stoex && p.relative_error.is_finite())
            .min_by(|a, b| a.relative_error.total_cmp(&b.relative_error))
            .and_then(|p| beagle_stoex::parse(&p.stoex).ok());
        let values: Vec<f64> = bb
            .results()
            .get(id)
            .map(|r| r.observations.iter().map(|o| o.value.abs()).collect())
            .unwrap_or_default();
        let scale = median(&values).max(1e-9);
        models.insert(
            id.clone(),
            (best, runner_up, if scale.is_finite() { scale } else { 1.0 }),
        );
    }
    measured
        .iter()
        .map(|(point, results)| {
            let mut scores = Vec::new();
            for (element, result) in results.iter() {
                let Some((best, runner_up, scale)) = models.get(&element.id) else {
                    continue;
                };
                let mut err = Vec::new();
                let mut gap = Vec::new();
                for o in &result.observations {
                    let Some(b) = evaluate(best, &o.parameters) else {
                        continue;
                    };
                    err.push((b - o.value).abs());
                    if let Some(r) = runner_up.as_ref().and_then(|r| evaluate(r, &o.parameters)) {
                        gap.push((b - r).abs());
                    }
                }
                if err.is_empty() {
                    continue;
                }
                let g = if gap.is_empty() { 0.0 } else { median(&gap) };
                scores.push((median(&err) + g) / scale);
            }
            let score = if scores.is_empty() {
                0.0
            } else {
                scores.iter().sum::<f64>() / scores.len() as f64
            };
            (point.clone(), score)
        })
        .collect()
}
