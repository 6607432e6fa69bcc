//! `beagle predict --platform other.toml` (issue 39, point 3): a service's times on another
//! platform, from the analysis's counts and a calibration, through the same composition as
//! [`crate::predicting::predict`]. On the measuring platform an action's count-based estimate is
//! `E = Σ_k count_k(inputs) × t_k` and its measured demand `R × E`. On the target (costs `t'_k`,
//! estimate `E'`), [`Rule::Split`] (the default) moves the two parts of the time apart:
//! - what the counts explain moves with the target's costs: `min(R, 1) × E'` (R below 1: the
//!   JIT overlaps the counted work, and does so on the target too; on a platform without a JIT,
//!   `-Xint`, the factor is 1: the interpreter runs the bytecode as the suite timed it);
//! - what they do not (R above 1: native code, memory stalls, work in JDK methods beyond their
//!   calibrated cost) moves as the platforms' native reference does ([`Profile::native_ns`]):
//!   `(R - 1) × E × ν`, ν = target's / measuring platform's.
//!
//! [`Rule::Scaled`] is Krogmann et al.'s `R × E'`: R scales everything, also the time the counts
//! do not see, so that an action whose time is a third in uncalibrated memory stalls triples
//! the target's slowdown of its counted work (`benchmarks/platform/`: the two beside each other).
//! The demand is converted to the model's units as an analysed demand is, and the model is
//! predicted with those demands in place of its own. Actions without counts keep their demands
//! (the measuring platform's) and are named, so that a reader sees what the prediction did not move.

use crate::measuring::counting::cost_or_invoke;
use crate::predicting::predict::{predict_with, read, Deploy, PredictError, ServicePrediction};
use crate::workspace::Workspace;
use beagle_analysis::predict::Bindings;
use beagle_analysis::section_counts::Factor;
use beagle_analysis::section_counts::SectionCounts;
use beagle_analysis::units::DemandUnit;
use beagle_analysis::Store;
use beagle_java::platform::{Profile, NATIVE_REFERENCE};
use beagle_pcm::ModelFile;
use serde::Serialize;
use std::path::PathBuf;

/// A prediction for another platform, and what it was made from.
#[derive(Clone, Debug, Serialize)]
pub struct PlatformPrediction {
    #[serde(flatten)]
    pub prediction: ServicePrediction,
    /// The target platform's name.
    pub platform: String,
    /// Internal actions whose demands were predicted from their counts.
    pub counted: Vec<CountedAction>,
    /// Internal actions with counts but no R (and why), kept as measured.
    pub not_moved: Vec<(String, String)>,
    /// Counted keys the target profile has no timing for (costed as an `invoke`).
    pub uncalibrated: Vec<String>,
    /// Where the rule could not be followed as written.
    pub notes: Vec<String>,
}

/// One action's demand on the target platform.
#[derive(Clone, Debug, Serialize)]
pub struct CountedAction {
    pub action: String,
    pub name: String,
    /// The action's R on the measuring platform.
    pub r: f64,
    /// The factor on the target's count-based estimate (`min(R, 1)`, or 1 without a JIT; R by
    /// [`Rule::Scaled`]).
    pub counted_factor: f64,
    /// The factor on the measuring platform's estimate for the time the counts do not explain
    /// (`(R - 1) × ν`; 0 where R ≤ 1 or by [`Rule::Scaled`]).
    pub unexplained_factor: f64,
    /// The demand in ms on the target, over the inputs (StoEx).
    pub expression_ms: String,
}

/// How a counted action's time moves to the target (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Rule {
    Split,
    Scaled,
}

/// How far from 1 R may be for the counts to carry an action's time: beyond it, most of the time
/// is in what the counts do not time (a JDK method the suite does not benchmark, costed as an
/// invoke; waiting), and scaling it by the counts would move a number the counts do not explain.
pub const R_BAND: f64 = 10.0;

/// Most R may vary over the counted executions (interquartile range / median) to be one factor.
pub const R_SPREAD: f64 = 0.5;

/// Why the counts do not carry an action's time, if they do not.
fn not_carried(f: &beagle_analysis::section_counts::Factor) -> Option<String> {
    if !(f.r.is_finite() && (1.0 / R_BAND..=R_BAND).contains(&f.r)) {
        return Some(format!(
            "its counts carry little of its time (R = {:.3}, outside 1/{R_BAND}..{R_BAND}: what it calls is not calibrated, or it waits): kept as measured",
            f.r
        ));
    }
    if f.spread > R_SPREAD {
        return Some(format!(
            "R varies by {:.0} % over its inputs (more than {:.0} %): its time does not follow its counts; kept as measured",
            f.spread * 100.0,
            R_SPREAD * 100.0
        ));
    }
    None
}

/// `factor × 1e-6 × (t1 × (law1) + ...)` over `counts`' laws with costs `cost(key)` (ns), as
/// StoEx in ms; `None` when no key costs anything.
fn estimate_ms(counts: &SectionCounts, factor: f64, cost: impl Fn(&str) -> f64) -> Option<String> {
    let terms: Vec<String> = (counts.laws.iter())
        .filter_map(|(key, law)| {
            let t = cost(key);
            (t > 0.0).then(|| format!("{} * ({})", beagle_stoex::format_double(t), law.stoex))
        })
        .collect();
    (factor > 0.0 && !terms.is_empty()).then(|| {
        format!(
            "{} * ({})",
            beagle_stoex::format_double(factor * 1e-6),
            terms.join(" + ")
        )
    })
}

/// The demand of `counts` on `profile`'s platform by `rule`: the expression in ms, its counted
/// and unexplained factors, and a note where the rule could not be followed as written.
pub fn platform_demand(
    counts: &SectionCounts,
    factor: &Factor,
    profile: &Profile,
    rule: Rule,
) -> (CountedAction, Option<String>) {
    let interpreted = profile.interpreted_only();
    let mut note = None;
    let split = rule == Rule::Split && !factor.costs.is_empty();
    if rule == Rule::Split && !split {
        note = Some(format!(
            "{}: the store keeps no costs of the measuring platform (counted before they were kept): R scales all its time; count again to split it",
            counts.name
        ));
    }
    let (counted_factor, unexplained_factor) = if split {
        let nu = match (profile.native_ns(), factor.native_ns) {
            (Some(there), Some(here)) => there / here,
            _ => {
                if factor.r > 1.0 {
                    note = Some(format!(
                        "{}: a profile without the native reference ({NATIVE_REFERENCE}): the time its counts do not explain is kept as measured",
                        counts.name
                    ));
                }
                1.0
            }
        };
        let counted = if interpreted { 1.0 } else { factor.r.min(1.0) };
        (counted, (factor.r - 1.0).max(0.0) * nu)
    } else {
        // R is what the JIT makes of the algorithm against the suite's timings (Krogmann et
        // al.); a platform without a JIT runs the bytecode as the suite timed it.
        (if interpreted { 1.0 } else { factor.r }, 0.0)
    };
    let parts: Vec<String> = [
        estimate_ms(counts, counted_factor, |k| cost_or_invoke(profile, k)),
        estimate_ms(counts, unexplained_factor, |k| {
            factor.costs.get(k).copied().unwrap_or(0.0)
        }),
    ]
    .into_iter()
    .flatten()
    .collect();
    let expression_ms = if parts.is_empty() {
        "0".into()
    } else {
        parts.join(" + ")
    };
    let action = CountedAction {
        action: counts.action.clone(),
        name: counts.name.clone(),
        r: factor.r,
        counted_factor,
        unexplained_factor,
        expression_ms,
    };
    (action, note)
}

/// The repositories with every counted action's CPU demand replaced by its demand on the
/// platform of `profile` by `rule`, in the model's units.
pub struct Rewritten {
    pub files: Vec<(PathBuf, ModelFile)>,
    pub counted: Vec<CountedAction>,
    pub not_moved: Vec<(String, String)>,
    pub uncalibrated: Vec<String>,
    /// Where the rule could not be followed as written.
    pub notes: Vec<String>,
}

/// Rewrites `files` (the workspace's repositories) for the platform of `profile` from the counts
/// the store keeps (see the module documentation).
pub fn rewrite(
    ws: &Workspace,
    files: &[(PathBuf, ModelFile)],
    profile: &Profile,
    rule: Rule,
) -> Result<Rewritten, PredictError> {
    let store = Store::open(&ws.root).map_err(|e| PredictError::Store { message: e.to_string() })?;
    let mut out = Rewritten {
        files: Vec::new(),
        counted: Vec::new(),
        not_moved: Vec::new(),
        uncalibrated: Vec::new(),
        notes: Vec::new(),
    };
    let mut uncalibrated = std::collections::BTreeSet::new();
    for (path, file) in files {
        let counts = (store.section_counts(&crate::measuring::counting::store_key(&ws.root, path)))
            .map_err(|e| PredictError::Store { message: e.to_string() })?;
        let units = crate::writing::units::demand_units(ws, file)
            .map_err(|e| PredictError::Store { message: e.to_string() })?;
        let mut text = file.tree.text.clone();
        for c in counts.values() {
            let Some(f) = &c.factor else {
                out.not_moved.push((
                    c.name.clone(),
                    "no R: the analysis had no profile of its platform".into(),
                ));
                continue;
            };
            if let Some(why) = not_carried(f) {
                out.not_moved.push((c.name.clone(), why));
                continue;
            }
            for key in c.laws.keys() {
                if profile.cost_ns(key).is_none() && key != "others" {
                    uncalibrated.insert(key.clone());
                }
            }
            let (counted, note) = platform_demand(c, f, profile, rule);
            out.notes.extend(note);
            let ms = counted.expression_ms.clone();
            let Some(repository) = file.repository.as_ref() else {
                continue;
            };
            let written = match units.of_action(repository, &c.action, beagle_pcm::edit::resource_type_id("CPU")) {
                DemandUnit::Milliseconds => ms.clone(),
                DemandUnit::WorkUnits(conv) => conv.to_units(&ms),
                DemandUnit::Unconvertible(why) => {
                    out.not_moved.push((c.name.clone(), why));
                    continue;
                }
            };
            let current = ModelFile::from_bytes(path.clone(), text.clone().into_bytes());
            let edited = (current.set_resource_demand(&c.action, "CPU", &written))
                .and_then(|edits| beagle_pcm::edit::apply(&text, &edits));
            match edited {
                Ok(t) => {
                    text = t;
                    out.counted.push(counted);
                }
                Err(e) => out.not_moved.push((c.name.clone(), format!("{e:?}"))),
            }
        }
        out.files
            .push((path.clone(), ModelFile::from_bytes(path.clone(), text.into_bytes())));
    }
    out.uncalibrated = uncalibrated.into_iter().collect();
    Ok(out)
}

/// Predicts `service` at `inputs` on the platform of `profile` (see the module documentation).
pub fn predict_on_platform(
    ws: &Workspace,
    service: &str,
    inputs: &Bindings,
    deploy: &Deploy,
    profile: &Profile,
) -> Result<PlatformPrediction, PredictError> {
    let files = (ws.repositories.iter())
        .map(|p| Ok((p.clone(), read(p)?)))
        .collect::<Result<Vec<_>, PredictError>>()?;
    let rewritten = rewrite(ws, &files, profile, Rule::Split)?;
    let prediction = predict_with(ws, &rewritten.files, service, inputs, deploy)?;
    Ok(PlatformPrediction {
        prediction,
        platform: profile.platform.name.clone(),
        counted: rewritten.counted,
        not_moved: rewritten.not_moved,
        uncalibrated: rewritten.uncalibrated,
        notes: rewritten.notes,
    })
}
