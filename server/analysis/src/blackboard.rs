//! The blackboard: everything an analysis knows, in one serialisable value.
//!
//! Beagle's tools hold no state of their own (the design's rule): what they need to remember goes
//! into [`Blackboard::private_data`] under their id. So the whole analysis can be snapshotted,
//! stored and resumed by serialising this one value. Tools never get a `&Blackboard`: they get one
//! of the layered views of [`crate::views`].

use crate::events::Parameters;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// What kind of SEFF element is measured; it decides the fitting target.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ElementKind {
    /// The demand of an `InternalAction` on one resource type.
    ResourceDemand { action: String, resource: String },
    /// The iteration count of a `LoopAction`.
    Loop { loop_id: String },
    /// The probability that a `BranchAction` takes one of its transitions.
    Branch { branch: String, transition: String },
    /// The value an `ExternalCallAction` passes for one characterised parameter of the callee.
    CallParameter { call: String, parameter: String },
}

impl ElementKind {
    /// The element's id on the blackboard: PCM ids joined by `/` (unique per kind: PCM ids are).
    pub fn id(&self) -> String {
        match self {
            ElementKind::ResourceDemand { action, resource } => format!("{action}/{resource}"),
            ElementKind::Loop { loop_id } => loop_id.clone(),
            ElementKind::Branch { branch, transition } => format!("{branch}/{transition}"),
            ElementKind::CallParameter { call, parameter } => format!("{call}/{parameter}"),
        }
    }

    /// The `--json` name of the kind.
    pub fn name(&self) -> &'static str {
        match self {
            ElementKind::ResourceDemand { .. } => "resource_demand",
            ElementKind::Loop { .. } => "loop",
            ElementKind::Branch { .. } => "branch",
            ElementKind::CallParameter { .. } => "call_parameter",
        }
    }
}

/// A SEFF element whose expression Beagle finds.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MeasurableElement {
    pub id: String,
    pub kind: ElementKind,
    /// The SEFF the element belongs to, when known from a model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service: Option<String>,
    /// The variables its expression may use: the SEFF signature's parameters in signature order
    /// (then variables that return values of its external calls set). `None`: whatever the
    /// measurements name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs: Option<Vec<String>>,
}

impl MeasurableElement {
    pub fn new(kind: ElementKind) -> Self {
        MeasurableElement {
            id: kind.id(),
            kind,
            service: None,
            inputs: None,
        }
    }

    /// The element of a SEFF whose expressions may use `inputs`.
    pub fn in_service(mut self, service: &str, inputs: impl IntoIterator<Item = String>) -> Self {
        self.service = Some(service.to_string());
        self.inputs = Some(inputs.into_iter().collect());
        self
    }

    /// Whether a characterised parameter (`files.NUMBER_OF_ELEMENTS`, `request.size.BYTESIZE`) is
    /// one of the element's inputs: its variable, or the variable it is a member of, is.
    pub fn accepts(&self, parameter: &str) -> bool {
        self.inputs.is_none() || self.input_rank(parameter).is_some()
    }

    /// The position among the element's inputs of the input a characterised parameter belongs to.
    fn input_rank(&self, parameter: &str) -> Option<usize> {
        let inputs = self.inputs.as_ref()?;
        let variable = parameter.rsplit_once('.').map_or(parameter, |(v, _)| v);
        let mut prefix = variable;
        loop {
            if let Some(rank) = inputs.iter().position(|i| i == prefix) {
                return Some(rank);
            }
            prefix = prefix.rsplit_once('.')?.0;
        }
    }
}

/// One observation: the parameterisation in force and the observed value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    pub parameters: Parameters,
    pub value: f64,
    /// The run that measured it, where runs share a context that the parameters do not name
    /// (for Java: the launch point, whose JVMs run one workload). The fit holds a run's points
    /// out together and counts them as one piece of evidence (`beagle_fit::Dataset::runs`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<u64>,
    /// How many executions the observation stands for: a measurement tool that aggregates at the
    /// source (an action run 2,000 times in one service execution) reports their mean as `value`
    /// (a branch transition: the share of executions that took it). 1 when absent.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub executions: u64,
    /// The mean of the observations `value` summarises, where it is their median (for Java: one
    /// JVM's runs at a point, `crate::point_stats::medians`). The law's form is fitted to the
    /// medians; its published level to the means, which a simulator adds
    /// (`beagle_fit::level`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean: Option<f64>,
}

fn one() -> u64 {
    1
}

fn is_one(n: &u64) -> bool {
    *n == 1
}

/// Everything measured for one element (observations accumulate over measurement rounds), at most
/// [`crate::point_sample::KEPT_PER_POINT`] per parameter point and run: add them with
/// [`MeasurementResult::absorb`] (see [`crate::point_sample`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MeasurementResult {
    pub element: String,
    pub observations: Vec<Observation>,
    /// Points with more observations than kept: the tally of all of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overflow: Vec<crate::point_tally::PointTally>,
    /// Observations not kept because the element reached its bound of kept observations
    /// ([`crate::point_sample::KEPT_PER_ELEMENT`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub thinned: u64,
    /// The measurement's resolution in the values' unit, where the tool knows it (for Java: the
    /// probes' cost subtracted per run, the largest of the points'): a law's relative error is
    /// taken to at least this much (`beagle_fit::Dataset::resolution`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolution: Option<f64>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl MeasurementResult {
    /// The fitting dataset: the parameters present in every observation, sorted by name.
    pub fn dataset(&self) -> Result<beagle_fit::Dataset, beagle_fit::DatasetError> {
        self.dataset_for(None)
    }

    /// The fitting dataset of `element`'s measurements: the parameters present in every
    /// observation, in the order of the element's inputs (its signature), ties and unknown
    /// parameters by name. Of two equivalent inputs the law keeps the first column, so it is the
    /// first in the signature, as the user wrote it.
    pub fn dataset_for(
        &self,
        element: Option<&MeasurableElement>,
    ) -> Result<beagle_fit::Dataset, beagle_fit::DatasetError> {
        let mut names: Vec<String> = match self.observations.first() {
            Some(o) => o.parameters.keys().cloned().collect(),
            None => Vec::new(),
        };
        names.retain(|n| self.observations.iter().all(|o| o.parameters.contains_key(n)));
        if let Some(element) = element {
            // Stable: parameters of one input stay in name order.
            names.sort_by_key(|n| element.input_rank(n).unwrap_or(usize::MAX));
        }
        let columns = names
            .iter()
            .map(|n| self.observations.iter().map(|o| o.parameters[n]).collect())
            .collect();
        let y = self.observations.iter().map(|o| o.value).collect();
        let data = beagle_fit::Dataset::new(names, columns, y)?;
        let runs: Option<Vec<u64>> = self.observations.iter().map(|o| o.run).collect();
        let data = match runs {
            Some(runs) if !runs.is_empty() => data.with_runs(runs)?,
            _ => data,
        };
        // Means only where every row carries one (else a row's value is its own mean).
        let data = data.with_resolution(self.resolution.unwrap_or(0.0));
        let means: Option<Vec<f64>> = self.observations.iter().map(|o| o.mean).collect();
        match means {
            Some(means) if !means.is_empty() => data.with_means(means),
            _ => Ok(data),
        }
    }
}

/// An expression an analyser proposes for an element, with its quality on the data it saw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProposedExpression {
    pub element: String,
    /// The id of the analyser that proposed it.
    pub analyser: String,
    /// StoEx text with PCM parameter names.
    pub stoex: String,
    /// The fitting engine's infix (variables `x1..xk` in the order of `variables`).
    pub infix: String,
    /// `-inf` for a wrong constant fit (see [`non_finite`] for how it is serialised).
    #[serde(with = "non_finite")]
    pub r2: f64,
    #[serde(with = "non_finite")]
    pub relative_error: f64,
    /// Observations made (kept or not: [`MeasurementResult::samples`]).
    pub samples: usize,
    /// Inputs the data covered: name -> (min, max).
    pub parameter_ranges: BTreeMap<String, (f64, f64)>,
    /// Nodes and levels of the expression, for the fitness function's complexity terms.
    pub size: usize,
    pub depth: usize,
    /// Inputs the expression uses.
    pub variables: Vec<String>,
    /// For a branch transition that the inputs decide: the condition under which it is taken
    /// (StoEx), which a guarded transition takes as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<String>,
    /// The expression's values on the kept observations ([`MeasurementResult::observations`], at
    /// most a bounded sample per point: lets proposed-expression analysers combine proposals
    /// without re-parsing them, and keeps a checkpoint small however many executions there were).
    #[serde(with = "non_finite::vec")]
    pub predictions: Vec<f64>,
    /// What the measurements support (held-out error, intervals, whether final and why not):
    /// set by the fitting engine's rules ([`beagle_fit::evidence`]); `None` for proposals that
    /// were not checked on held-out points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<ProposalEvidence>,
}

/// A fitted constant with its 95 % confidence interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// The evidence behind a proposal (plain data of [`beagle_fit::Evidence`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProposalEvidence {
    /// Distinct parameter points and observations.
    pub points: usize,
    pub observations: usize,
    /// Fewest and median repetitions per point.
    pub repetitions: (usize, usize),
    /// Runs the points came from, when fewer than the points (for Java: launch points; the
    /// points of one run count as one piece of evidence and are held out together).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs: Option<usize>,
    /// Most fitted constants the points support (a law that is not exact).
    pub max_constants: usize,
    /// Fitted constants of the expression.
    pub constants: usize,
    /// Rank-test p-value of a dependency on the inputs (with repetitions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dependency_p: Option<f64>,
    /// Whether errors are relative to the value.
    pub relative: bool,
    /// Noise of one observation measured from the repetitions (scaled error).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub noise: Option<f64>,
    /// RMS held-out error at the points, of the expression and of the best constant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holdout_error: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constant_holdout_error: Option<f64>,
    /// p-value of "predicts held-out points better than a constant".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub better_than_constant_p: Option<f64>,
    /// Half-width of the 95 % band of a point's prediction error (scaled error).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub band: Option<f64>,
    /// 95 % intervals of the fitted constants, in the expression's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub intervals: Vec<Interval>,
    /// Inputs dropped because another input always has the same (or a proportional) value:
    /// (kept, dropped).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub equivalent: Vec<(String, String)>,
    pub is_final: bool,
    /// Why the result is preliminary.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    /// The measurements that would settle the reasons.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wants: Vec<Want>,
    /// Why more measurements will not settle the reasons, where the measurement tool has
    /// already measured what the judge asked for and the reasons stayed, or cannot reach what it
    /// asks (then `wants` is empty): a result preliminary for good, not for want of measuring.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settled: Option<String>,
    /// Holes of more than a decade in an input of the law: (input, measured below, above).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<(String, f64, f64)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Launch parameters the cost follows that the model does not declare (the measurement tool
    /// finds them: only it knows the launches).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub undeclared: Vec<UndeclaredInput>,
}

/// A workload parameter the cost follows beyond the noise, which no input of the model carries:
/// the law over the declared inputs is its average over the launched range, and a parameter of
/// the signature would carry it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UndeclaredInput {
    /// The launch parameter (`catalogue`) and its launch (`train`).
    pub parameter: String,
    pub launch: String,
    /// Its launched range, at the launch points that measured the element.
    pub low: f64,
    pub high: f64,
    /// The cost at the parameter's upper third over that at its lower third (at equal declared
    /// inputs, or beyond what they explain).
    pub ratio: f64,
    /// The rank test's p value.
    pub p: f64,
    /// Whether every launched value was an integer: the signature parameter proposed is an `INT`,
    /// else a `DOUBLE`.
    pub integer: bool,
}

/// More evidence a preliminary result asks for ([`beagle_fit::Want`] as plain data).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Want {
    /// New distinct parameter points.
    Points,
    /// Repetitions of measured points (for Java: fresh JVMs).
    Repetitions,
    /// More executions of a branch.
    Trials,
}

impl From<beagle_fit::Want> for Want {
    fn from(w: beagle_fit::Want) -> Self {
        match w {
            beagle_fit::Want::Points => Want::Points,
            beagle_fit::Want::Repetitions => Want::Repetitions,
            beagle_fit::Want::Trials => Want::Trials,
        }
    }
}

impl From<&beagle_fit::Evidence> for ProposalEvidence {
    fn from(e: &beagle_fit::Evidence) -> Self {
        ProposalEvidence {
            points: e.points,
            observations: e.rows,
            repetitions: e.repetitions,
            runs: (e.runs < e.points).then_some(e.runs),
            max_constants: e.max_params,
            constants: e.params,
            dependency_p: e.dependency_p,
            relative: e.relative,
            noise: e.noise,
            holdout_error: e.holdout_error,
            constant_holdout_error: e.constant_holdout_error,
            better_than_constant_p: e.better_than_constant_p,
            band: e.band,
            intervals: e
                .intervals
                .iter()
                .map(|i| Interval {
                    value: i.value,
                    low: i.low,
                    high: i.high,
                })
                .collect(),
            equivalent: e
                .equivalent
                .iter()
                .map(|q| (q.kept.clone(), q.dropped.clone()))
                .collect(),
            is_final: e.is_final,
            reasons: e.reasons.clone(),
            wants: e.wants.iter().map(|w| (*w).into()).collect(),
            settled: None,
            holes: (e.holes.iter()).map(|h| (h.input.clone(), h.below, h.above)).collect(),
            notes: e.notes.clone(),
            undeclared: Vec::new(),
        }
    }
}

/// Whether a final expression may still improve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Preliminary,
    Final,
}

/// The judge's choice for an element.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinalExpression {
    pub proposal: ProposedExpression,
    #[serde(with = "non_finite")]
    pub fitness: f64,
    pub status: Status,
    /// Why the status is preliminary (too few points, noise, no better than a constant, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    /// The judge's choice, where `proposal` was derived from it so that the transitions of a
    /// branch sum to 1 ([`crate::branches`]): the next grading compares with this one, and the
    /// derivation starts from it again. `None`: `proposal` is the choice itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fitted: Option<ProposedExpression>,
}

/// How proposals are graded (Krogmann et al. style, as [`beagle_fit::FitnessOptions`]): error
/// weighted against complexity; lower is better. Also when a result counts as final.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FitnessFunction {
    pub error_weight: f64,
    pub depth_threshold: usize,
    pub depth_weight: f64,
    pub size_threshold: usize,
    pub size_weight: f64,
    pub variables_threshold: usize,
    pub variables_weight: f64,
    /// Bounds on the fit to the data that a final proposal must also meet (besides its
    /// evidence, [`FitnessFunction::verdict`]): at most this median relative error ...
    pub final_relative_error: f64,
    /// ... and at least this R^2. The defaults do not constrain (noise is judged by the evidence
    /// rules, against the measured spread); a negative relative error keeps all preliminary.
    pub final_r2: f64,
}

impl Default for FitnessFunction {
    fn default() -> Self {
        let f = beagle_fit::FitnessOptions::default();
        FitnessFunction {
            error_weight: f.error_weight,
            depth_threshold: f.depth_threshold,
            depth_weight: f.depth_weight,
            size_threshold: f.size_threshold,
            size_weight: f.size_weight,
            variables_threshold: f.variables_threshold,
            variables_weight: f.variables_weight,
            final_relative_error: 1e9,
            final_r2: -1e300,
        }
    }
}

impl FitnessFunction {
    /// The fitting engine's options with these weights.
    pub fn options(&self) -> beagle_fit::FitnessOptions {
        beagle_fit::FitnessOptions {
            error_weight: self.error_weight,
            depth_threshold: self.depth_threshold,
            depth_weight: self.depth_weight,
            size_threshold: self.size_threshold,
            size_weight: self.size_weight,
            variables_threshold: self.variables_threshold,
            variables_weight: self.variables_weight,
        }
    }

    /// The fitness of a proposal (lower is better). Its error is the RMS error on held-out
    /// points when the proposal was checked on them (what counts is predicting, not fitting);
    /// else the median relative error on the data, or `1 - R^2` when that is larger (targets
    /// with many zeros, such as branch outcomes).
    pub fn grade(&self, p: &ProposedExpression) -> f64 {
        let error = match p.evidence.as_ref().and_then(|e| e.holdout_error) {
            Some(e) => e,
            None => {
                let r2_error = if p.r2.is_finite() { (1.0 - p.r2).max(0.0) } else { 1.0 };
                p.relative_error.max(r2_error)
            }
        };
        self.options().fitness_of(error, p.size, p.depth, p.variables.len())
    }

    /// Whether a proposal is final, and if not, why. Final means it predicts: the evidence
    /// rules of the fitting engine ([`beagle_fit::evidence`]) found it final. A proposal never
    /// checked on held-out points is preliminary. `final_relative_error` and `final_r2` are
    /// further bounds on the fit to the data (a negative `final_relative_error` keeps every
    /// result preliminary).
    pub fn verdict(&self, p: &ProposedExpression) -> (Status, Vec<String>) {
        let mut reasons = match &p.evidence {
            Some(e) => e.reasons.clone(),
            None => vec!["not checked on held-out points".to_string()],
        };
        if p.evidence.as_ref().is_some_and(|e| e.is_final && e.reasons.is_empty())
            && !(p.relative_error <= self.final_relative_error && p.r2 >= self.final_r2)
        {
            reasons.push(format!(
                "outside the fitness function's bounds (relative error <= {}, R² >= {})",
                self.final_relative_error, self.final_r2
            ));
        }
        let status = if reasons.is_empty() && p.evidence.as_ref().is_some_and(|e| e.is_final) {
            Status::Final
        } else {
            Status::Preliminary
        };
        (status, reasons)
    }

    /// Whether a proposal is good enough to stop looking ([`FitnessFunction::verdict`]).
    pub fn is_final(&self, p: &ProposedExpression) -> bool {
        self.verdict(p).0 == Status::Final
    }
}

/// When the judge stops besides "all final" and "nobody can contribute".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StopRules {
    /// Wall time the analysis may use over all its runs (milliseconds); `None`: unlimited.
    pub budget_ms: Option<u64>,
    /// Stop after this many contributing steps without a meaningful improvement of any best
    /// fitness; `None`: never.
    pub stall_rounds: Option<usize>,
    /// An improvement of less than this is not meaningful.
    pub min_improvement: f64,
}

impl Default for StopRules {
    fn default() -> Self {
        StopRules {
            budget_ms: None,
            stall_rounds: None,
            min_improvement: 1e-6,
        }
    }
}

/// Serde for floats that may be non-finite (R² of a wrong fit, predictions of an expression that
/// overflows): serde_json writes NaN and ±inf as `null` and then cannot read them back, which
/// would make a stored snapshot unreadable. Finite values stay JSON numbers; NaN, `inf` and `-inf`
/// are written as those strings; `null` reads as NaN.
pub(crate) mod non_finite {
    use serde::{Deserialize, Deserializer, Serializer};

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Repr {
        Number(f64),
        Text(String),
        Null(()),
    }

    fn from_repr<E: serde::de::Error>(r: Repr) -> Result<f64, E> {
        match r {
            Repr::Number(v) => Ok(v),
            Repr::Null(()) => Ok(f64::NAN),
            Repr::Text(t) => match t.as_str() {
                "NaN" => Ok(f64::NAN),
                "inf" => Ok(f64::INFINITY),
                "-inf" => Ok(f64::NEG_INFINITY),
                other => Err(E::custom(format!(
                    "expected a number, \"NaN\", \"inf\" or \"-inf\", found {other:?}"
                ))),
            },
        }
    }

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if v.is_finite() {
            s.serialize_f64(*v)
        } else if v.is_nan() {
            s.serialize_str("NaN")
        } else if *v > 0.0 {
            s.serialize_str("inf")
        } else {
            s.serialize_str("-inf")
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        from_repr(Repr::deserialize(d)?)
    }

    pub mod vec {
        use serde::ser::SerializeSeq;
        use serde::{Deserialize, Deserializer, Serialize, Serializer};

        struct One(f64);

        impl Serialize for One {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                super::serialize(&self.0, s)
            }
        }

        pub fn serialize<S: Serializer>(v: &[f64], s: S) -> Result<S::Ok, S::Error> {
            let mut seq = s.serialize_seq(Some(v.len()))?;
            for x in v {
                seq.serialize_element(&One(*x))?;
            }
            seq.end()
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
            Vec::<super::Repr>::deserialize(d)?
                .into_iter()
                .map(super::from_repr)
                .collect()
        }
    }
}

/// Everything an analysis knows (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Blackboard {
    pub(crate) elements: BTreeMap<String, MeasurableElement>,
    pub(crate) to_measure: BTreeSet<String>,
    pub(crate) results: BTreeMap<String, MeasurementResult>,
    pub(crate) proposals: BTreeMap<String, Vec<ProposedExpression>>,
    pub(crate) finals: BTreeMap<String, FinalExpression>,
    pub(crate) fitness: FitnessFunction,
    pub(crate) stop: StopRules,
    /// Per tool id, whatever that tool needs to remember.
    pub(crate) private_data: BTreeMap<String, serde_json::Value>,
    /// Wall time spent by previous and current runs (milliseconds), for the budget.
    pub(crate) spent_ms: u64,
    /// Things the analysis could not do (elements nobody measured, failed fits).
    pub(crate) diagnostics: Vec<String>,
    /// Steps the analysis loop has taken (a resumed analysis goes on counting).
    #[serde(default)]
    pub(crate) steps: u64,
    /// Numeric constants in and around each element's code (element id -> constants), handed to
    /// the fitting as candidate constants and thresholds.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) code_constants: BTreeMap<String, Vec<f64>>,
    /// Per element, why its cost follows a parameter its signature does not declare
    /// ([`crate::undeclared`]): reasons every proposal for it carries.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) undeclared: BTreeMap<String, Vec<String>>,
}

/// How the message of a measured parameter the service's signature lacks ends.
pub const NOT_AN_INPUT: &str = ", which is not an input of the service's signature; ignored";

impl Blackboard {
    /// A blackboard on which every element is still to be measured.
    pub fn new(elements: impl IntoIterator<Item = MeasurableElement>) -> Self {
        let mut bb = Blackboard::default();
        for e in elements {
            bb.to_measure.insert(e.id.clone());
            bb.elements.insert(e.id.clone(), e);
        }
        bb
    }

    pub fn with_fitness(mut self, fitness: FitnessFunction) -> Self {
        self.fitness = fitness;
        self
    }

    pub fn with_stop_rules(mut self, stop: StopRules) -> Self {
        self.stop = stop;
        self
    }

    /// Constants found in the elements' code (element id -> constants).
    pub fn with_code_constants(mut self, constants: BTreeMap<String, Vec<f64>>) -> Self {
        self.code_constants = constants;
        self
    }

    pub fn code_constants(&self, id: &str) -> &[f64] {
        self.code_constants.get(id).map_or(&[], Vec::as_slice)
    }

    pub fn elements(&self) -> impl Iterator<Item = &MeasurableElement> {
        self.elements.values()
    }

    pub fn element(&self, id: &str) -> Option<&MeasurableElement> {
        self.elements.get(id)
    }

    pub fn to_measure(&self) -> &BTreeSet<String> {
        &self.to_measure
    }

    pub fn results(&self) -> &BTreeMap<String, MeasurementResult> {
        &self.results
    }

    pub fn proposals(&self) -> &BTreeMap<String, Vec<ProposedExpression>> {
        &self.proposals
    }

    pub fn final_expressions(&self) -> &BTreeMap<String, FinalExpression> {
        &self.finals
    }

    pub fn fitness_function(&self) -> &FitnessFunction {
        &self.fitness
    }

    pub fn stop_rules(&self) -> &StopRules {
        &self.stop
    }

    pub fn private_data(&self, tool: &str) -> Option<&serde_json::Value> {
        self.private_data.get(tool)
    }

    pub fn spent_ms(&self) -> u64 {
        self.spent_ms
    }

    pub fn diagnostics(&self) -> &[String] {
        &self.diagnostics
    }

    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Adds observations; the element is no longer to be measured. Parameters that are not the
    /// element's inputs are dropped (results are parametric over the signature's inputs only),
    /// each name reported once.
    pub(crate) fn add_result(&mut self, mut result: MeasurementResult) {
        if result.observations.is_empty() && result.overflow.is_empty() {
            // No observation is no measurement: the element stays to be measured (and is reported
            // as never executed if nothing else observes it), rather than measured as nothing.
            return;
        }
        self.to_measure.remove(&result.element);
        if let Some(element) = self.elements.get(&result.element) {
            // Before they are dropped: does the cost follow a parameter the signature lacks?
            let observed: Vec<(&Parameters, f64)> =
                result.observations.iter().map(|o| (&o.parameters, o.value)).collect();
            let found = crate::undeclared::influences(&observed, &|n| element.accepts(n));
            let reasons: Vec<String> = found
                .iter()
                .map(|i| crate::undeclared::reason(&result.element, i))
                .collect();
            if !reasons.is_empty() {
                self.undeclared.insert(result.element.clone(), reasons);
            }
            let mut dropped = BTreeSet::new();
            let tallied = result.overflow.iter_mut().map(|t| &mut t.parameters);
            for parameters in result.observations.iter_mut().map(|o| &mut o.parameters).chain(tallied) {
                parameters.retain(|name, _| {
                    let keep = element.accepts(name);
                    if !keep {
                        dropped.insert(name.clone());
                    }
                    keep
                });
            }
            // Said once per service (every element of it sees the same parameters), not once
            // per element.
            let owner = element.service.as_deref().unwrap_or(&result.element);
            for name in dropped {
                let message = format!("{owner}: measurements name `{name}`{NOT_AN_INPUT}");
                if !self.diagnostics.contains(&message) {
                    self.diagnostics.push(message);
                }
            }
        }
        let into = self
            .results
            .entry(result.element.clone())
            .or_insert_with(|| MeasurementResult::new(result.element.clone(), Vec::new()));
        into.merge(result);
    }

    pub(crate) fn add_proposal(&mut self, mut proposal: ProposedExpression) {
        // A cost that follows an input the signature lacks: no law in the declared inputs is final.
        if let (Some(reasons), Some(evidence)) = (self.undeclared.get(&proposal.element), proposal.evidence.as_mut()) {
            for r in reasons {
                if !evidence.reasons.contains(r) {
                    evidence.reasons.push(r.clone());
                }
            }
            evidence.is_final = false;
        }
        self.proposals
            .entry(proposal.element.clone())
            .or_default()
            .push(proposal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_round_trip() {
        let e = MeasurableElement::new(ElementKind::ResourceDemand {
            action: "_a".into(),
            resource: "CPU".into(),
        });
        let mut bb = Blackboard::new([
            e.clone(),
            MeasurableElement::new(ElementKind::Loop { loop_id: "_l".into() }),
        ]);
        bb.add_result(MeasurementResult {
            element: e.id.clone(),
            observations: vec![Observation {
                run: None,
                parameters: [("n.VALUE".to_string(), 3.0)].into(),
                value: 101.5,
                executions: 1,
                mean: None,
            }],
            overflow: Vec::new(),
            thinned: 0,
            resolution: None,
        });
        bb.add_proposal(ProposedExpression {
            element: e.id.clone(),
            analyser: "constant".into(),
            stoex: "101.5".into(),
            infix: "101.5".into(),
            r2: 1.0,
            relative_error: 0.0,
            samples: 1,
            parameter_ranges: [("n.VALUE".to_string(), (3.0, 3.0))].into(),
            size: 1,
            depth: 1,
            variables: vec![],
            guard: None,
            predictions: vec![101.5],
            evidence: None,
        });
        bb.private_data.insert("fit".into(), serde_json::json!({"_a/CPU": 1}));
        let text = serde_json::to_string(&bb).unwrap();
        let back: Blackboard = serde_json::from_str(&text).unwrap();
        assert_eq!(back, bb);
        assert_eq!(back.to_measure().len(), 1);
        assert_eq!(e.id, "_a/CPU");
    }

    #[test]
    fn results_keep_only_the_signature_inputs() {
        let kind = ElementKind::Loop { loop_id: "_l".into() };
        let e = MeasurableElement::new(kind).in_service("_seff", ["files".to_string(), "req".to_string()]);
        assert!(e.accepts("files.NUMBER_OF_ELEMENTS"));
        assert!(e.accepts("req.size.BYTESIZE"));
        assert!(!e.accepts("filesize.VALUE"));
        assert!(!e.accepts("other.VALUE"));
        let mut bb = Blackboard::new([e]);
        let parameters: Parameters = [
            ("files.NUMBER_OF_ELEMENTS".to_string(), 3.0),
            ("tmp.VALUE".to_string(), 1.0),
        ]
        .into();
        let o = Observation {
            run: None,
            parameters,
            value: 3.0,
            executions: 1,
            mean: None,
        };
        let r = MeasurementResult {
            element: "_l".into(),
            observations: vec![o.clone(), o],
            overflow: Vec::new(),
            thinned: 0,
            resolution: None,
        };
        bb.add_result(r);
        let kept: Vec<&String> = bb.results()["_l"].observations[1].parameters.keys().collect();
        assert_eq!(kept, vec!["files.NUMBER_OF_ELEMENTS"]);
        assert_eq!(bb.diagnostics().len(), 1, "{:?}", bb.diagnostics());
        assert!(bb.diagnostics()[0].starts_with("_seff: ") && bb.diagnostics()[0].contains("tmp.VALUE"));
    }

    /// Issue 50: every element of a service sees the same parameters; one the signature lacks is
    /// said once for the service, not once per element (before: 7 lines for the download's
    /// `local.VALUE`).
    #[test]
    fn a_parameter_the_signature_lacks_is_said_once_per_service() {
        let element = |id: &str| {
            MeasurableElement::new(ElementKind::Loop { loop_id: id.into() }).in_service("_seff", ["files".to_string()])
        };
        let mut bb = Blackboard::new([element("_l1"), element("_l2")]);
        for id in ["_l1", "_l2"] {
            let o = Observation {
                run: None,
                parameters: [("files.VALUE".to_string(), 3.0), ("local.VALUE".to_string(), 1.0)].into(),
                value: 3.0,
                executions: 1,
                mean: None,
            };
            bb.add_result(MeasurementResult {
                element: id.into(),
                observations: vec![o],
                overflow: Vec::new(),
                thinned: 0,
                resolution: None,
            });
        }
        assert_eq!(
            bb.diagnostics(),
            ["_seff: measurements name `local.VALUE`, which is not an input of the service's signature; ignored"]
        );
    }

    #[test]
    fn non_finite_floats_survive_serde() {
        let p = ProposedExpression {
            element: "x".into(),
            analyser: "constant".into(),
            stoex: "1".into(),
            infix: "1".into(),
            r2: f64::NEG_INFINITY,
            relative_error: f64::NAN,
            samples: 3,
            parameter_ranges: BTreeMap::new(),
            size: 1,
            depth: 1,
            variables: vec![],
            guard: None,
            predictions: vec![1.0, f64::INFINITY, f64::NAN],
            evidence: None,
        };
        let text = serde_json::to_string(&p).unwrap();
        assert!(text.contains(r#""r2":"-inf""#), "{text}");
        assert!(text.contains(r#""predictions":[1.0,"inf","NaN"]"#), "{text}");
        let back: ProposedExpression = serde_json::from_str(&text).unwrap();
        assert_eq!(back.r2, f64::NEG_INFINITY);
        assert!(back.relative_error.is_nan());
        assert_eq!(back.predictions[..2], [1.0, f64::INFINITY]);
        assert!(back.predictions[2].is_nan());
        // What older versions wrote (serde_json's null) still reads, as NaN.
        let old = text.replace(r#""r2":"-inf""#, r#""r2":null"#);
        let back: ProposedExpression = serde_json::from_str(&old).unwrap();
        assert!(back.r2.is_nan());
        let bad = text.replace(r#""r2":"-inf""#, r#""r2":"many""#);
        assert!(serde_json::from_str::<ProposedExpression>(&bad).is_err());
    }

    #[test]
    fn floats_read_back_bit_exact() {
        // serde_json reads some floats 1 ulp off unless `float_roundtrip` is on; a resumed analysis
        // must continue from exactly the blackboard it stopped with.
        let values = [-0.21951219512195386, 0.1 + 0.2, 1e-300 / 3.0, 123456.789e-17];
        let text = serde_json::to_string(&values).unwrap();
        let back: Vec<f64> = serde_json::from_str(&text).unwrap();
        assert_eq!(
            back.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            values.map(f64::to_bits)
        );
    }

    #[test]
    fn dataset_uses_common_parameters() {
        let r = MeasurementResult {
            element: "x".into(),
            observations: vec![
                Observation {
                    run: None,
                    parameters: [("a".to_string(), 1.0), ("b".to_string(), 2.0)].into(),
                    value: 1.0,
                    executions: 1,
                    mean: None,
                },
                Observation {
                    run: None,
                    parameters: [("a".to_string(), 2.0)].into(),
                    value: 2.0,
                    executions: 1,
                    mean: None,
                },
            ],
            overflow: Vec::new(),
            thinned: 0,
            resolution: None,
        };
        let d = r.dataset().unwrap();
        assert_eq!(d.names, vec!["a".to_string()]);
        assert_eq!(d.columns, vec![vec![1.0, 2.0]]);
    }
}
