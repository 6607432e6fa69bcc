//! Analysis results as a hover shows them: per measurable element its expression, quality and
//! statistics per parameter point. Filled from a blackboard (the language server keeps one per
//! analysed repository), so hovers need no analysis types.

use beagle_analysis::model::{action_of, resource_name};
use beagle_analysis::{
    point_stats, Blackboard, ElementKind, FinalExpression, MeasurableElement, MeasurementResult, Status,
};
use beagle_pcm::model::ActionBody;
use beagle_pcm::ModelFile;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ElementResult {
    /// The measurable element's id on the blackboard (`<action>/<resource>`, ...).
    pub element: String,
    /// The PCM action it belongs to.
    pub action: String,
    /// What is measured, for people: `CPU demand`, `loop iterations`, `branch -> large`,
    /// `call parameter data.BYTESIZE`.
    pub what: String,
    /// StoEx.
    pub expression: String,
    /// For a branch transition the inputs decide: the condition under which it is taken (StoEx).
    pub guard: Option<String>,
    pub status: ResultStatus,
    pub r2: Option<f64>,
    pub relative_error: Option<f64>,
    pub samples: usize,
    /// Per input: the smallest and largest value measured.
    pub parameter_ranges: Vec<(String, f64, f64)>,
    /// Statistics per parameter point, outliers left out (see `beagle_analysis::point_stats`).
    pub points: Vec<PointRow>,
    /// Why the result is preliminary.
    pub reasons: Vec<String>,
    /// What the measurements support: distinct points, held-out error, band, intervals of the
    /// constants, equivalent inputs.
    pub evidence: Option<beagle_analysis::ProposalEvidence>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ResultStatus {
    /// May still improve with more measurements.
    Preliminary,
    Final,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PointRow {
    pub parameters: Vec<(String, f64)>,
    /// Observations the statistics are over (outliers and anything beyond a point's sample left
    /// out).
    pub n: usize,
    /// Service executions measured at the point (more than `n` where observations stand for
    /// several executions or the point kept a sample).
    pub executions: u64,
    pub median: f64,
    pub q1: f64,
    pub q3: f64,
}

impl ElementResult {
    /// The resource type id of a demand's result (`<action>/<resource type>`; see [`what`]).
    pub fn demand_resource(&self) -> Option<&str> {
        let resource = self.element.strip_prefix(self.action.as_str())?.strip_prefix('/')?;
        self.what.ends_with(" demand").then_some(resource)
    }
}

/// One result per final expression on the blackboard, in element order. Points come from `raw`
/// (every repetition, when the caller has them) or else from the blackboard's own observations;
/// `file` names branch transitions (their ids otherwise).
pub fn element_results(
    bb: &Blackboard,
    raw: Option<&BTreeMap<String, MeasurementResult>>,
    file: Option<&ModelFile>,
) -> Vec<ElementResult> {
    bb.final_expressions()
        .iter()
        .map(|(id, fe)| {
            let kind = bb.element(id).map(|e| &e.kind);
            let observations = raw.and_then(|r| r.get(id)).or_else(|| bb.results().get(id));
            result(id, kind, fe, observations, file)
        })
        .collect()
}

/// Results of final expressions that are not on the blackboard: those an analysis reused from
/// an earlier one of the same measurements (its blackboard holds only what it analysed itself).
/// Points come from `raw`.
pub fn reused_results<'a>(
    finals: impl IntoIterator<Item = (&'a MeasurableElement, &'a FinalExpression)>,
    raw: Option<&BTreeMap<String, MeasurementResult>>,
    file: Option<&ModelFile>,
) -> Vec<ElementResult> {
    finals
        .into_iter()
        .map(|(e, fe)| result(&e.id, Some(&e.kind), fe, raw.and_then(|r| r.get(&e.id)), file))
        .collect()
}

fn result(
    id: &str,
    kind: Option<&ElementKind>,
    fe: &FinalExpression,
    observations: Option<&MeasurementResult>,
    file: Option<&ModelFile>,
) -> ElementResult {
    let p = &fe.proposal;
    // An element the blackboard does not declare: its id starts with its action's.
    let action = kind.map_or_else(|| id.split('/').next().unwrap_or(id), action_of);
    let points: Vec<PointRow> = observations
        .map(point_stats)
        .unwrap_or_default()
        .into_iter()
        .map(|s| PointRow {
            parameters: s.parameters.into_iter().collect(),
            n: s.n,
            executions: s.executions,
            median: s.median,
            q1: s.q1,
            q3: s.q3,
        })
        .collect();
    let measured = observations.map(ranges).unwrap_or_default();
    let parameter_ranges = if measured.is_empty() {
        p.parameter_ranges
            .iter()
            .map(|(k, &(lo, hi))| (k.clone(), lo, hi))
            .collect()
    } else {
        measured
    };
    ElementResult {
        element: id.to_string(),
        action: action.to_string(),
        what: kind.map_or_else(|| "expression".to_string(), |k| what(k, file)),
        expression: p.stoex.clone(),
        guard: p.guard.clone(),
        status: match fe.status {
            Status::Final => ResultStatus::Final,
            Status::Preliminary => ResultStatus::Preliminary,
        },
        r2: p.r2.is_finite().then_some(p.r2),
        relative_error: p.relative_error.is_finite().then_some(p.relative_error),
        samples: p.samples,
        parameter_ranges,
        points,
        reasons: fe.reasons.clone(),
        evidence: p.evidence.clone(),
    }
}

/// Smallest and largest value of every parameter the observations name.
fn ranges(result: &MeasurementResult) -> Vec<(String, f64, f64)> {
    let mut out: BTreeMap<&str, (f64, f64)> = BTreeMap::new();
    for o in &result.observations {
        for (name, &v) in &o.parameters {
            let r = out.entry(name).or_insert((v, v));
            *r = (r.0.min(v), r.1.max(v));
        }
    }
    out.into_iter().map(|(k, (lo, hi))| (k.to_string(), lo, hi)).collect()
}

fn what(kind: &ElementKind, file: Option<&ModelFile>) -> String {
    match kind {
        ElementKind::ResourceDemand { resource, .. } => format!("{} demand", resource_name(resource)),
        ElementKind::Loop { .. } => "loop iterations".into(),
        ElementKind::Branch { branch, transition } => {
            let name = file.and_then(|f| transition_name(f, branch, transition));
            format!("branch -> {}", name.as_deref().unwrap_or(transition))
        }
        ElementKind::CallParameter { parameter, .. } => format!("call parameter {parameter}"),
    }
}

fn transition_name(file: &ModelFile, branch: &str, transition: &str) -> Option<String> {
    match &file.repository.as_ref()?.action(branch)?.body {
        ActionBody::Branch { transitions } => transitions
            .iter()
            .find(|t| t.id.as_deref() == Some(transition))
            .and_then(|t| t.name.clone()),
        _ => None,
    }
}
