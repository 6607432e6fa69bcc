//! Commands that answer questions for clients with their own UI (the VS Code extension's
//! "analyse at the cursor" and its results view): which element is at a position, what was
//! measured and fitted for it, and the values of an expression over a grid. Typed answers
//! ([`crate::protocol::shapes`]), so any client can use them.

use crate::documents::{DocKind, Snapshot};
use crate::error::ServerError;
use crate::position;
use crate::protocol::shapes::{
    ElementAt, ElementKind, ElementResults, EvaluateRequest, EvaluateResult, FitStatus, FittedResult, MeasuredPoint,
    Prediction, UnmodelledTime,
};
use crate::results::RepositoryResults;
use beagle_ide::ElementAtKind;
use beagle_pcm::model::{Behaviour, Repository};
use beagle_pcm::ModelFile;
use std::collections::HashSet;
use tower_lsp_server::ls_types::Position;

/// Most points `beagle.evaluate` computes per call: a chart needs a few hundred.
pub const MAX_BINDINGS: usize = 10_000;

/// `beagle.elementAt`: the element holding `pos`, with its enclosing component.
pub fn element_at(doc: &Snapshot, pos: Position) -> Option<ElementAt> {
    if doc.kind != DocKind::Model {
        return None;
    }
    let model = doc.model();
    let offset = position::offset(&doc.rope, pos);
    let at = beagle_ide::element_at(&model, offset)?;
    let (kind, action_kind) = match at.kind {
        ElementAtKind::Repository => (ElementKind::Repository, None),
        ElementAtKind::Component => (ElementKind::Component, None),
        ElementAtKind::Seff => (ElementKind::Seff, None),
        ElementAtKind::Action(k) => (ElementKind::Action, Some(k.as_str().to_string())),
        ElementAtKind::Other => (ElementKind::Other, None),
    };
    let component_name = at
        .component
        .as_deref()
        .and_then(|c| model.node_by_id(c))
        .and_then(|n| model.tree.value(n, "entityName").map(|v| v.to_string()));
    Some(ElementAt {
        kind,
        action_kind,
        id: at.id,
        name: at.name,
        component: at.component,
        component_name,
        seff: at.seff,
    })
}

/// `beagle.elementResults`: the results about the action, SEFF or component `id` (everything
/// measured inside it), with the action names a view needs, and the unmodelled time of the
/// SEFFs inside it. `results` is empty when nothing about it was analysed yet.
/// `system`: the assembly that binds the repository's calls, for a SEFF's whole-service entry.
pub fn element_results(
    model: &ModelFile,
    results: Option<&RepositoryResults>,
    id: &str,
    system: Option<&beagle_pcm::model::system::Assembly>,
    rates: Option<&beagle_analysis::predict::rates::Rates>,
) -> ElementResults {
    let actions = model
        .repository
        .as_ref()
        .map(|r| actions_within(r, id))
        .unwrap_or_default();
    let name_of = |action: &str| {
        model
            .node_by_id(action)
            .and_then(|n| model.tree.value(n, "entityName").map(|v| v.to_string()))
    };
    let mut list: Vec<FittedResult> = results
        .map(|r| &r.results[..])
        .unwrap_or_default()
        .iter()
        .filter(|r| r.action == id || actions.contains(r.action.as_str()))
        .map(|r| FittedResult::of(r, name_of(&r.action)))
        .collect();
    let mut name = name_of(id);
    // A validated SEFF: first, the whole service, its predicted total over the measured totals.
    if let Some(v) = results.and_then(|r| r.validations.get(id)) {
        list.insert(0, service_entry(model, id, v, system, rates));
        name = name.or(Some(v.service.clone()));
    }
    // Each SEFF's unmodelled time, a row per SEFF in the view.
    let unmodelled = results
        .map(|r| beagle_ide::unmodelled_within(model, &r.validations, id))
        .unwrap_or_default();
    ElementResults {
        repository: model.path.display().to_string(),
        stage: results.map(|r| r.stage.label().to_string()),
        headline: results.map(|r| r.headline.clone()),
        name,
        results: list,
        unmodelled: unmodelled.iter().map(UnmodelledTime::from).collect(),
    }
}

/// The whole service as a result the results view plots: its predicted total demand (the
/// composed expression summed over resource types, from the document as it is) over the
/// measured totals of its last validation.
fn service_entry(
    model: &ModelFile,
    seff: &str,
    v: &beagle_analysis::validation::ServiceValidation,
    system: Option<&beagle_pcm::model::system::Assembly>,
    rates: Option<&beagle_analysis::predict::rates::Rates>,
) -> FittedResult {
    let composed = beagle_analysis::predict::Predictor::bound(model, system, rates).map(|p| p.compose(seff));
    let total = composed
        .as_ref()
        .and_then(|c| {
            c.demands
                .values()
                .cloned()
                .reduce(|a, b| beagle_stoex::Expr::binary(beagle_stoex::BinaryOp::Add, a, b))
        })
        .map(|e| beagle_analysis::predict::simplify(&e));
    let mut ranges: std::collections::BTreeMap<&str, (f64, f64)> = Default::default();
    for r in &v.rows {
        for (k, x) in &r.inputs {
            let e = ranges.entry(k).or_insert((*x, *x));
            e.0 = e.0.min(*x);
            e.1 = e.1.max(*x);
        }
    }
    let ranges = by_influence(total.as_ref(), ranges, v);
    let total = total.map_or("0".to_string(), |e| beagle_stoex::print(&e));
    let points: Vec<MeasuredPoint> = v
        .rows
        .iter()
        .map(|r| MeasuredPoint {
            parameters: r.inputs.iter().map(|(k, x)| (k.clone(), *x)).collect(),
            n: r.executions as usize,
            executions: r.executions,
            median: r.measured_ms,
            q1: r.measured_ms,
            q3: r.measured_ms,
        })
        .collect();
    let mut reasons: Vec<String> = v.problems.clone();
    reasons.extend(
        composed
            .iter()
            .flat_map(|c| c.problems.iter().map(|p| format!("{}: {}", p.element, p.message))),
    );
    FittedResult {
        element: seff.to_string(),
        action: seff.to_string(),
        action_name: Some(v.service.clone()),
        what: "whole service: predicted total demand (ms) beside the measured totals".into(),
        expression: total,
        guard: None,
        status: if reasons.is_empty() {
            FitStatus::Final
        } else {
            FitStatus::Preliminary
        },
        r2: None,
        relative_error: Some(v.median_relative_error),
        samples: v.rows.iter().map(|r| r.executions).sum::<u64>(),
        parameter_ranges: ranges.iter().map(|(k, (lo, hi))| (k.to_string(), *lo, *hi)).collect(),
        points,
        reasons,
        evidence: None,
        work_units: None,
    }
}

/// The validated inputs' ranges, the one the prediction changes most over its range first (the
/// others held at their median measured value): the results view shows the first input the
/// expression uses, and a service's total over an input it barely depends on (fileshare's
/// `alreadyCompressed`, first by name) says little.
fn by_influence<'a>(
    total: Option<&beagle_stoex::Expr>,
    ranges: std::collections::BTreeMap<&'a str, (f64, f64)>,
    v: &beagle_analysis::validation::ServiceValidation,
) -> Vec<(&'a str, (f64, f64))> {
    let median = |name: &str| {
        let mut xs: Vec<f64> = v.rows.iter().filter_map(|r| r.inputs.get(name).copied()).collect();
        xs.sort_by(f64::total_cmp);
        xs.get(xs.len().saturating_sub(1) / 2).copied()
    };
    let held: std::collections::BTreeMap<&str, f64> = ranges.keys().filter_map(|k| Some((*k, median(k)?))).collect();
    let at = |name: &str, x: f64| {
        let env = |n: &str| if n == name { Some(x) } else { held.get(n).copied() };
        total
            .and_then(|e| beagle_stoex::eval_number(e, &env).ok())
            .filter(|y| y.is_finite())
    };
    let mut out: Vec<(&str, (f64, f64), f64)> = ranges
        .into_iter()
        .map(|(k, (lo, hi))| {
            let change = match (at(k, lo), at(k, hi)) {
                (Some(a), Some(b)) => (b - a).abs(),
                _ => 0.0,
            };
            (k, (lo, hi), change)
        })
        .collect();
    // Stable: equal influence keeps the names' order.
    out.sort_by(|a, b| b.2.total_cmp(&a.2));
    out.into_iter().map(|(k, r, _)| (k, r)).collect()
}

/// The ids of every action inside the component or SEFF `id` (nested behaviours included);
/// empty for an action or an unknown id.
fn actions_within<'a>(repository: &'a Repository, id: &str) -> HashSet<&'a str> {
    let ids = |b: &'a Behaviour| b.walk().into_iter().filter_map(|a| a.id.as_deref());
    let mut out = HashSet::new();
    for c in &repository.components {
        let whole = c.id.as_deref() == Some(id);
        for s in &c.seffs {
            if whole || s.id.as_deref() == Some(id) {
                out.extend(ids(&s.behaviour));
            }
        }
        if whole {
            for b in &c.internal_behaviours {
                out.extend(ids(b));
            }
        }
    }
    out
}

/// `beagle.evaluate` `[{expression, bindings: [{variable: value}]}]`: the expression's value for
/// each binding (`null` where it has none, say a variable left unbound).
pub fn evaluate(request: &EvaluateRequest) -> Result<EvaluateResult, ServerError> {
    let text = &request.expression;
    let expr = beagle_stoex::parse(text).map_err(|e| ServerError::Arguments(format!("`{text}`: {e}")))?;
    if request.bindings.len() > MAX_BINDINGS {
        return Err(ServerError::Arguments(format!(
            "{} bindings asked for; at most {MAX_BINDINGS} per call",
            request.bindings.len()
        )));
    }
    let values = request
        .bindings
        .iter()
        .map(|b| {
            let env = |name: &str| b.get(name).copied();
            beagle_stoex::eval_number(&expr, &env).ok().filter(|v| v.is_finite())
        })
        .collect();
    Ok(EvaluateResult { values })
}

/// `beagle.predict` `[uri, seffId, {inputs}]`: the service's expected demand per resource type
/// ([`Prediction`]), composed from `model` (the document as it is
/// now) and the workspace's `.system` when it has one (`beagle_job::Workspace::system`).
pub fn predict(
    model: &ModelFile,
    path: &std::path::Path,
    root: &std::path::Path,
    seff: &str,
    inputs: &beagle_analysis::predict::Bindings,
) -> Result<Prediction, ServerError> {
    let predictor = beagle_analysis::predict::Predictor::new(model)
        .ok_or_else(|| ServerError::file(path, "not a PCM repository"))?;
    let (system_path, system_file) = system_of(path, root).unzip();
    let assembly = system_file.as_ref().and_then(beagle_pcm::model::system::assembly);
    let predictor = match &assembly {
        Some(a) => predictor.with_system(a),
        None => predictor,
    };
    let rates = rates_of(path, root);
    let predictor = match &rates {
        Some(r) => predictor.with_rates(r),
        None => predictor,
    };
    let seff = predictor.find_service(seff)?;
    let prediction = predictor.predict(&seff, inputs);
    Ok(Prediction::of(
        &prediction,
        system_path.map(|p| p.display().to_string()),
    ))
}

/// The `.system` that binds the calls of the repository at `path` (its workspace's, see
/// `beagle_job::Workspace::system`), read.
/// The processing rates of the workspace around `path`'s deployment
/// (`beagle_job::predicting::rates`), with which a prediction turns work units into time; `None`
/// without a resource environment.
pub fn rates_of(path: &std::path::Path, root: &std::path::Path) -> Option<beagle_analysis::predict::rates::Rates> {
    let ws = match beagle_job::workspace::folder_above(path, Some(root)) {
        Some(dir) => beagle_job::resolve(&dir).ok(),
        None => beagle_job::resolve(path).ok(),
    }?;
    beagle_job::predicting::rates::rates(&ws, None, &[]).ok().flatten()
}

pub fn system_of(path: &std::path::Path, root: &std::path::Path) -> Option<(std::path::PathBuf, ModelFile)> {
    let ws = match beagle_job::workspace::folder_above(path, Some(root)) {
        Some(dir) => beagle_job::resolve(&dir).ok(),
        None => beagle_job::resolve(path).ok(),
    };
    let system = ws?.system()?;
    let file = ModelFile::read(&system).ok()?;
    Some((system, file))
}

#[cfg(test)]
mod tests {
    use super::by_influence;
    use beagle_analysis::validation::{Row, ServiceValidation};

    #[test]
    fn the_input_the_prediction_changes_most_over_comes_first() {
        // Inputs named so that the weak one sorts first by name, as fileshare's do.
        let rows: Vec<Row> = [(0.0, 4.0, 1.0e4), (3.0, 20.0, 2.0e5), (1.0, 38.0, 4.0e5)]
            .iter()
            .map(|(a, n, s)| Row {
                inputs: [("a.VALUE", *a), ("files.NUMBER_OF_ELEMENTS", *n), ("size.BYTESIZE", *s)]
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v))
                    .collect(),
                predicted_ms: 0.0,
                measured_ms: 1.0,
                executions: 1,
            })
            .collect();
        let v = ServiceValidation {
            repository: String::new(),
            service: "C.s".into(),
            seff: "s".into(),
            points: rows.len(),
            median_relative_error: 0.0,
            max_relative_error: 0.0,
            rows,
            problems: Vec::new(),
            notes: Vec::new(),
            unmodelled: None,
            calibration: None,
        };
        fn ranges(v: &ServiceValidation) -> std::collections::BTreeMap<&str, (f64, f64)> {
            let mut m = std::collections::BTreeMap::new();
            for r in &v.rows {
                for (k, x) in &r.inputs {
                    let e = m.entry(k.as_str()).or_insert((*x, *x));
                    e.0 = f64::min(e.0, *x);
                    e.1 = f64::max(e.1, *x);
                }
            }
            m
        }
        let order = |law: &str| -> Vec<String> {
            let e = beagle_stoex::parse(law).unwrap();
            by_influence(Some(&e), ranges(&v), &v)
                .into_iter()
                .map(|(k, _)| k.to_string())
                .collect()
        };
        // Over their ranges: a moves it by 0.06, files by 34 · 0.5 = 17, size by 3.9E5 · 1E-4 = 39.
        assert_eq!(
            order("0.02 * a.VALUE + 0.5 * files.NUMBER_OF_ELEMENTS + 1.0E-4 * size.BYTESIZE"),
            ["size.BYTESIZE", "files.NUMBER_OF_ELEMENTS", "a.VALUE"]
        );
        assert_eq!(
            order("0.02 * a.VALUE + 2 * files.NUMBER_OF_ELEMENTS + 1.0E-6 * size.BYTESIZE"),
            ["files.NUMBER_OF_ELEMENTS", "size.BYTESIZE", "a.VALUE"]
        );
        // The ranges travel with their names.
        let e = beagle_stoex::parse("size.BYTESIZE").unwrap();
        assert_eq!(
            by_influence(Some(&e), ranges(&v), &v)[0],
            ("size.BYTESIZE", (1.0e4, 4.0e5))
        );
        // Nothing to evaluate: the names' order.
        let none: Vec<&str> = by_influence(None, ranges(&v), &v).into_iter().map(|(k, _)| k).collect();
        assert_eq!(none, ["a.VALUE", "files.NUMBER_OF_ELEMENTS", "size.BYTESIZE"]);
    }
}
