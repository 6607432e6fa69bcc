//! Analysers: turn measurement results (and other proposals) into proposed expressions.
//!
//! They hold no state: which element they analysed with how many samples is their private data
//! on the blackboard (`{element id: samples}`), so an analyser contributes again when new
//! observations arrive and a resumed analysis does not repeat work.

use crate::blackboard::{ElementKind, MeasurableElement, MeasurementResult, ProposedExpression};
use crate::control::CancelToken;
use crate::views::{MeasurementResultAnalyserView, ProposedExpressionAnalyserView};
use beagle_fit::regression::round_significant;
use beagle_fit::{eval, fit, fit_branch, format_number, stats, BranchKind, Expr, FitOptions, Target};
use std::collections::BTreeMap;

/// Reads measurement results, adds proposals.
pub trait MeasurementResultAnalyser: Send + Sync {
    fn id(&self) -> &str;
    fn can_contribute(&self, view: &MeasurementResultAnalyserView) -> bool;
    /// One contribution (one element); returns the element's id.
    fn contribute(&self, view: &mut MeasurementResultAnalyserView, cancel: &CancelToken) -> Option<String>;
}

/// Reads proposals too, adds proposals.
pub trait ProposedExpressionAnalyser: Send + Sync {
    fn id(&self) -> &str;
    fn can_contribute(&self, view: &ProposedExpressionAnalyserView) -> bool;
    fn contribute(&self, view: &mut ProposedExpressionAnalyserView, cancel: &CancelToken) -> Option<String>;
}

type Seen = BTreeMap<String, usize>;

fn seen(data: Option<&serde_json::Value>) -> Seen {
    data.and_then(|v| serde_json::from_value(v.clone()).ok())
        .unwrap_or_default()
}

fn mark(mut s: Seen, element: &str, count: usize) -> serde_json::Value {
    s.insert(element.to_string(), count);
    serde_json::to_value(s).unwrap_or_default()
}

/// The first element with results whose sample count this analyser has not analysed yet.
fn pending(results: &BTreeMap<String, MeasurementResult>, data: Option<&serde_json::Value>) -> Option<String> {
    let s = seen(data);
    results
        .values()
        .find(|r| !r.observations.is_empty() && s.get(&r.element) != Some(&r.samples()))
        .map(|r| r.element.clone())
}

/// R^2 and median relative error of `pred` against `y` (as [`beagle_fit::FitResult`] has them).
pub fn quality(y: &[f64], pred: &[f64]) -> (f64, f64) {
    let mean = stats::mean(y);
    let sst: f64 = y.iter().map(|v| (v - mean) * (v - mean)).sum();
    let sse: f64 = y.iter().zip(pred).map(|(v, f)| (v - f) * (v - f)).sum();
    let r2 = if sst > 0.0 {
        1.0 - sse / sst
    } else if sse == 0.0 {
        1.0
    } else {
        f64::NEG_INFINITY
    };
    let rel: Vec<f64> = y
        .iter()
        .zip(pred)
        .filter(|(v, _)| **v != 0.0)
        .map(|(v, f)| ((v - f) / v).abs())
        .collect();
    (r2, if rel.is_empty() { 0.0 } else { stats::median(&rel) })
}

fn ranges(result: &MeasurementResult) -> BTreeMap<String, (f64, f64)> {
    let mut r: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    for o in &result.observations {
        for (name, v) in &o.parameters {
            let e = r.entry(name.clone()).or_insert((*v, *v));
            e.0 = e.0.min(*v);
            e.1 = e.1.max(*v);
        }
    }
    r
}

/// A proposal from an expression of the engine on `result`'s data.
fn proposal(analyser: &str, result: &MeasurementResult, expr: &Expr, names: &[String]) -> ProposedExpression {
    let y: Vec<f64> = result.observations.iter().map(|o| o.value).collect();
    let columns: Vec<Vec<f64>> = names
        .iter()
        .map(|n| result.observations.iter().map(|o| o.parameters[n]).collect())
        .collect();
    let predictions = eval(expr, &columns, y.len());
    let (r2, relative_error) = quality(&y, &predictions);
    ProposedExpression {
        element: result.element.clone(),
        analyser: analyser.to_string(),
        stoex: beagle_fit::stoex_text(expr, names),
        infix: beagle_fit::infix(expr),
        r2,
        relative_error,
        samples: result.samples(),
        parameter_ranges: ranges(result),
        size: expr.size(),
        depth: expr.depth(),
        variables: expr.variables().iter().map(|i| names[*i].clone()).collect(),
        guard: None,
        predictions,
        evidence: None,
    }
}

/// The median of the observations: the simplest expression, and the baseline the others beat.
pub struct ConstantAnalyser;

impl MeasurementResultAnalyser for ConstantAnalyser {
    fn id(&self) -> &str {
        "constant"
    }

    fn can_contribute(&self, view: &MeasurementResultAnalyserView) -> bool {
        pending(view.results(), view.private_data()).is_some()
    }

    fn contribute(&self, view: &mut MeasurementResultAnalyserView, _: &CancelToken) -> Option<String> {
        let id = pending(view.results(), view.private_data())?;
        let result = view.results()[&id].clone();
        let y: Vec<f64> = result.observations.iter().map(|o| o.value).collect();
        let branch = matches!(view.element(&id).map(|e| &e.kind), Some(ElementKind::Branch { .. }));
        let constant = if branch {
            // A transition's observations are 0/1 outcomes (or shares of an execution's
            // decisions): their median is 0 or 1, no probability. The share of all decisions is,
            // and the shares of a branch's transitions add up to 1.
            let trials: f64 = result.observations.iter().map(|o| o.executions as f64).sum();
            let taken: f64 = result.observations.iter().map(|o| o.value * o.executions as f64).sum();
            taken / trials.max(1.0)
        } else {
            stats::median(&y)
        };
        // Six significant digits: far below measurement noise, and no float residue such as
        // 0.035797999999999996 (a median of two values) in the model, hovers and plots.
        let constant = round_significant(constant, 6);
        let p = proposal(self.id(), &result, &Expr::Const(constant), &[]);
        view.add_proposal(p);
        let data = mark(seen(view.private_data()), &id, result.samples());
        view.set_private_data(data);
        Some(id)
    }
}

/// The fitting engine (regression, thresholds, MARS, genetic programming seeded from them), with
/// the target the element's kind implies; branch transitions through `fit_branch`.
pub struct FitAnalyser {
    pub options: FitOptions,
}

impl FitAnalyser {
    pub fn new(options: FitOptions) -> Self {
        FitAnalyser { options }
    }

    fn target(kind: &ElementKind) -> Target {
        match kind {
            ElementKind::ResourceDemand { .. } => Target::Time,
            ElementKind::Loop { .. } => Target::Count,
            ElementKind::Branch { .. } => Target::Probability,
            ElementKind::CallParameter { .. } => Target::Value,
        }
    }
}

impl MeasurementResultAnalyser for FitAnalyser {
    fn id(&self) -> &str {
        "fit"
    }

    fn can_contribute(&self, view: &MeasurementResultAnalyserView) -> bool {
        pending(view.results(), view.private_data()).is_some()
    }

    fn contribute(&self, view: &mut MeasurementResultAnalyserView, cancel: &CancelToken) -> Option<String> {
        let id = pending(view.results(), view.private_data())?;
        let result = view.results()[&id].clone();
        let target = view.element(&id).map(|e| Self::target(&e.kind)).unwrap_or_default();
        // (expression, its variable names, the guard of a decided branch transition)
        let constants = view.code_constants(&id).to_vec();
        let element = view.element(&id).cloned();
        let expr = result
            .dataset_for(element.as_ref())
            .map_err(|e| e.to_string())
            .and_then(|data| {
                dump_for_debugging(&id, &data);
                let expr = if target == Target::Probability {
                    let mut branch = self.options.branch.clone();
                    branch.tree.constants = constants.clone();
                    // Observations aggregated at the source are shares of their executions'
                    // decisions: binomial trials, not coin tosses.
                    if result.observations.iter().any(|o| o.executions > 1) {
                        branch.trials = Some(result.observations.iter().map(|o| o.executions as f64).collect());
                    }
                    fit_branch(&data, &branch).map(|b| {
                        let evidence = beagle_fit::branch::branch_evidence(&data, &b, branch.trials.as_deref());
                        let guard = (b.kind == BranchKind::Guard).then_some(b.guard_stoex).flatten();
                        (b.probability, guard, evidence, None, None)
                    })
                } else {
                    let mut options = self.options.clone();
                    options.target = target;
                    if let Some(t) = &mut options.threshold {
                        t.constants = constants.clone();
                    }
                    if let Some(gp) = &mut options.gp {
                        gp.cancel = Some(cancel.flag());
                        gp.constants.extend(constants.iter().copied());
                    }
                    fit(&data, &options).map(|f| (f.expr, None, f.evidence, f.distribution, f.tail))
                };
                expr.map(|(e, guard, evidence, distribution, tail)| {
                    (e, data.names, guard, evidence, distribution, tail)
                })
                .map_err(|e| e.to_string())
            });
        if cancel.is_cancelled() {
            // An interrupted fit is not a result: the step is redone after a resume.
            return None;
        }
        match expr {
            Ok((expr, names, guard, evidence, distribution, tail)) => {
                let mut p = proposal(self.id(), &result, &expr, &names);
                if let Some(d) = distribution {
                    // Published as measured; the constant stays what the predictions score.
                    p.stoex = d.stoex();
                }
                if let Some(t) = tail {
                    // The law with its residuals' distribution; its mean stays the law's.
                    p.stoex = t.stoex(&p.stoex);
                }
                p.guard = guard;
                p.evidence = Some((&evidence).into());
                view.add_proposal(p)
            }
            Err(e) => view.diagnostic(format!("{id}: no fit: {e}")),
        }
        let data = mark(seen(view.private_data()), &id, result.samples());
        view.set_private_data(data);
        Some(id)
    }
}

/// The original Beagle's proposed-expression analyser: the average of the other analysers'
/// proposals for an element (on the same samples).
pub struct AveragingAnalyser;

impl AveragingAnalyser {
    /// The proposals to average per element: others' proposals on the current samples, when
    /// there are at least two and this analyser has not averaged that many yet.
    fn pending(&self, view: &ProposedExpressionAnalyserView) -> Option<(String, Vec<ProposedExpression>)> {
        let s = seen(view.private_data());
        view.proposals().iter().find_map(|(id, ps)| {
            let result = view.results().get(id)?;
            let (samples, kept) = (result.samples(), result.observations.len());
            let own: Vec<ProposedExpression> = ps
                .iter()
                .filter(|p| p.analyser != self.id() && p.samples == samples && p.predictions.len() == kept)
                .cloned()
                .collect();
            (own.len() >= 2 && s.get(id) != Some(&own.len())).then(|| (id.clone(), own))
        })
    }
}

impl ProposedExpressionAnalyser for AveragingAnalyser {
    fn id(&self) -> &str {
        "averaging"
    }

    fn can_contribute(&self, view: &ProposedExpressionAnalyserView) -> bool {
        self.pending(view).is_some()
    }

    fn contribute(&self, view: &mut ProposedExpressionAnalyserView, _: &CancelToken) -> Option<String> {
        let (id, ps) = self.pending(view)?;
        let result = &view.results()[&id];
        let p = average(self.id(), result, view.element(&id), &ps);
        view.add_proposal(p);
        let data = mark(seen(view.private_data()), &id, ps.len());
        view.set_private_data(data);
        Some(id)
    }
}

/// The proposal that averages `ps` (all on `result`'s samples), as one readable expression: like
/// terms collected (`-1e-5 * n + 0.000915`, never `((a) + (b)) / 2`). Only if some infix could
/// not be read back (not the engine's own output) is the average spelt out as text.
fn average(
    analyser: &str,
    result: &MeasurementResult,
    element: Option<&MeasurableElement>,
    ps: &[ProposedExpression],
) -> ProposedExpression {
    // The column order of the fit that made the proposals: their infix numbers variables by it.
    let names = result.dataset_for(element).map(|d| d.names).unwrap_or_default();
    let parsed: Option<Vec<Expr>> = ps.iter().map(|p| beagle_fit::parse_infix(&p.infix).ok()).collect();
    let fits_names = parsed
        .as_ref()
        .is_some_and(|es| es.iter().all(|e| e.variables().iter().all(|i| *i < names.len())));
    if let (Some(es), true) = (parsed, fits_names) {
        return proposal(analyser, result, &beagle_fit::mean(&es), &names);
    }
    let y: Vec<f64> = result.observations.iter().map(|o| o.value).collect();
    let k = ps.len() as f64;
    let predictions: Vec<f64> = (0..y.len())
        .map(|i| ps.iter().map(|p| p.predictions[i]).sum::<f64>() / k)
        .collect();
    let (r2, relative_error) = quality(&y, &predictions);
    let join = |f: fn(&ProposedExpression) -> &str, sep: &str| {
        let terms: Vec<String> = ps.iter().map(|p| format!("({})", f(p))).collect();
        format!("({}){sep}{}", terms.join(" + "), format_number(k))
    };
    let mut variables: Vec<String> = ps.iter().flat_map(|p| p.variables.clone()).collect();
    variables.sort();
    variables.dedup();
    ProposedExpression {
        element: result.element.clone(),
        analyser: analyser.to_string(),
        stoex: join(|p| &p.stoex, " / "),
        infix: join(|p| &p.infix, "/"),
        r2,
        relative_error,
        samples: result.samples(),
        parameter_ranges: ps[0].parameter_ranges.clone(),
        size: ps.iter().map(|p| p.size).sum::<usize>() + ps.len() + 1,
        depth: ps.iter().map(|p| p.depth).max().unwrap_or(0) + 2,
        variables,
        guard: None,
        predictions,
        evidence: None,
    }
}

/// Debugging aid: with `BEAGLE_FIT_DUMP=DIR`, each dataset the fit sees is written to
/// `DIR/<element>.csv` (`/` in the id as `+`), to be fitted again with `beagle fit` or the fit
/// crate's `debug_fit` example. A law found on one machine can then be studied on another.
fn dump_for_debugging(id: &str, data: &beagle_fit::Dataset) {
    let Some(dir) = std::env::var_os("BEAGLE_FIT_DUMP") else {
        return;
    };
    let path = std::path::Path::new(&dir).join(format!("{}.csv", id.replace('/', "+")));
    if let Err(e) = std::fs::write(&path, beagle_fit::to_csv(data)) {
        eprintln!("BEAGLE_FIT_DUMP: cannot write {}: {e}", path.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blackboard::{Blackboard, ElementKind, MeasurableElement, Observation};
    use crate::views::MeasurementToolView;

    /// A blackboard with one CPU demand measured as `values` (no parameters): (board, its result).
    fn measured_demand(values: &[f64]) -> (Blackboard, MeasurementResult) {
        let element = MeasurableElement::new(ElementKind::ResourceDemand {
            action: "a".into(),
            resource: "cpu".into(),
        });
        let result = MeasurementResult {
            element: element.id.clone(),
            observations: values
                .iter()
                .map(|&value| Observation {
                    run: None,
                    parameters: Default::default(),
                    value,
                    executions: 1,
                    mean: None,
                })
                .collect(),
            overflow: Vec::new(),
            thinned: 0,
            resolution: None,
        };
        let mut bb = Blackboard::new([element]);
        assert!(MeasurementToolView::new(&mut bb, "test").add_result(result.clone()));
        (bb, result)
    }

    #[test]
    fn a_bimodal_demand_measured_per_jvm_is_published_at_its_mean() {
        // What the Java tool does: per JVM and point, far-out values out and one median carrying
        // the JVM's mean (`server/job/src/measuring/java.rs`, `merge`). Nine writes in ten take
        // 5-8 µs, the tenth 35-50 µs; the size does not matter. 60 calls a JVM: within the sample
        // a point keeps (`KEPT_PER_POINT`), whose statistics the median and mean are.
        use rand::{RngExt, SeedableRng};
        for seed in [3u64, 17] {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let element = MeasurableElement::new(ElementKind::ResourceDemand {
                action: "write".into(),
                resource: "cpu".into(),
            });
            let (mut merged, mut all) = (MeasurementResult::new(element.id.clone(), Vec::new()), Vec::new());
            for jvm in 0..12u64 {
                let size = f64::from(1 + (jvm % 6) as u32) * 1000.0;
                let calls: Vec<Observation> = (0..60)
                    .map(|_| {
                        let slow = rng.random::<f64>() < 0.1;
                        let v = if slow {
                            35.0 + 15.0 * rng.random::<f64>()
                        } else {
                            5.0 + 3.0 * rng.random::<f64>()
                        };
                        all.push(v);
                        Observation {
                            run: None,
                            parameters: [("data.BYTESIZE".to_string(), size)].into(),
                            value: v,
                            executions: 1,
                            mean: None,
                        }
                    })
                    .collect();
                let mut one = MeasurementResult::new(element.id.clone(), calls);
                crate::point_stats::remove_outliers(&mut one);
                let mut m = crate::point_stats::medians(&one);
                for o in &mut m.observations {
                    o.run = Some(jvm % 6);
                }
                merged.merge(m);
            }
            let mut bb = Blackboard::new([element.clone()]);
            assert!(MeasurementToolView::new(&mut bb, "java").add_result(merged));
            let fit = FitAnalyser::new(FitOptions {
                gp: None,
                ..FitOptions::default()
            });
            let mut view = MeasurementResultAnalyserView::new(&mut bb, "fit");
            assert!(fit.contribute(&mut view, &CancelToken::new()).is_some());
            let p = &bb.proposals()[&element.id][0];
            let published: f64 = p.infix.parse().unwrap_or(f64::NAN);
            let (mean, median) = (stats::mean(&all), stats::median(&all));
            eprintln!("seed {seed}: median {median:.3}, mean {mean:.3}, published {}", p.infix);
            assert!(
                (published / mean - 1.0).abs() < 0.05,
                "{} for a mean of {mean}",
                p.infix
            );
            let notes = &p.evidence.as_ref().unwrap().notes;
            assert!(notes.iter().any(|n| n.starts_with("level set from means")), "{notes:?}");
        }
    }

    #[test]
    fn the_constant_proposal_carries_no_float_residue() {
        // The median of an even count is the mean of the middle two: 0.035797999999999996 in f64.
        let (mut bb, result) = measured_demand(&[0.035796, 0.0358, 0.03, 0.04]);
        let id = result.element;
        let mut view = MeasurementResultAnalyserView::new(&mut bb, "constant");
        assert_eq!(
            ConstantAnalyser.contribute(&mut view, &CancelToken::new()),
            Some(id.clone())
        );
        let p = &bb.proposals()[&id][0];
        assert_eq!(p.stoex, "0.035798");
    }

    #[test]
    fn the_average_of_constants_is_a_constant() {
        let (mut bb, result) = measured_demand(&[0.06, 0.2, 0.19, 0.07]);
        let id = result.element.clone();
        for (analyser, c) in [("one", 0.19835), ("other", 0.06)] {
            ProposedExpressionAnalyserView::new(&mut bb, analyser).add_proposal(proposal(
                analyser,
                &result,
                &Expr::Const(c),
                &[],
            ));
        }
        let mut view = ProposedExpressionAnalyserView::new(&mut bb, "averaging");
        assert!(AveragingAnalyser.can_contribute(&view));
        assert_eq!(
            AveragingAnalyser.contribute(&mut view, &CancelToken::new()),
            Some(id.clone())
        );
        let average = bb.proposals()[&id].iter().find(|p| p.analyser == "averaging").unwrap();
        assert_eq!(average.stoex, "0.129175");
        assert_eq!((average.size, average.depth), (1, 1));
        assert!(average.predictions.iter().all(|&p| p == 0.129175));
        // Done once per set of proposals.
        let view = ProposedExpressionAnalyserView::new(&mut bb, "averaging");
        assert!(!AveragingAnalyser.can_contribute(&view));
    }
}
