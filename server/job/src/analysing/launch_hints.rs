//! Which launch parameters bear on a result measured at one distinct point (issue 38, point 5).
//! The fit says that no launch varied an element's inputs, or that its cost differs between
//! launches though nothing its signature declares varies (`beagle_fit::evidence::one_point`);
//! only the Java tool knows the launches. Its reasons get what the launches tell:
//!
//! - inputs no launch varies: the launch parameters held at one value at every launch point
//!   that reached the element (varying one may vary the input), and those whose names are like
//!   the input's (`beagle_java::params::similar`); or, when every launch parameter varied and the
//!   input did not, that none of them sets it;
//! - a cost that differs between launches: the launch parameters it follows (the rank test of
//!   `beagle_analysis::undeclared`, with the launch's parameters as the undeclared ones).

use crate::measuring::measured::LaunchPoints;
use beagle_analysis::{FinalExpression, MeasurableElement, MeasurementResult, Parameters, Status, UndeclaredInput};
use beagle_fit::evidence::one_point::{is_differ_reason, is_fixed_reason};
use beagle_java::launch::PointValue;
use beagle_pcm::model::Repository;
use std::collections::{BTreeMap, BTreeSet};

/// Adds what the launches tell to the one-point reasons of every result in `finals`, from the
/// element's observations in `results` and the launch point of each run.
pub(crate) fn add(
    finals: &mut BTreeMap<String, (MeasurableElement, FinalExpression)>,
    results: &BTreeMap<String, MeasurementResult>,
    launches: &LaunchPoints,
) {
    if launches.is_empty() {
        return;
    }
    for (id, (_, fe)) in finals.iter_mut() {
        let Some(result) = results.get(id) else {
            continue;
        };
        let mut reasons: Vec<&mut Vec<String>> = vec![&mut fe.reasons];
        if let Some(e) = fe.proposal.evidence.as_mut() {
            reasons.push(&mut e.reasons);
        }
        for list in reasons {
            for reason in list.iter_mut() {
                let hint = if is_fixed_reason(reason) {
                    Some(fixed_hint(result, launches))
                } else if is_differ_reason(reason) {
                    followed_hint(result, launches)
                } else {
                    None
                };
                if let Some(hint) = hint.filter(|h| !reason.ends_with(h.as_str())) {
                    reason.push_str(&hint);
                }
            }
        }
    }
}

/// Finds, for every result measured at more than one distinct point, the launch parameters its
/// cost follows beyond the noise that the model does not declare (issue 51, point 2): a catalogue
/// size the driver varies and no signature passes. Such a result is preliminary: its law over the
/// declared inputs is the average over the parameter's launched range, and a reason says so, how
/// much the cost moves across that range, and which signature parameter would carry it. The
/// one-point results have their own hint ([`followed_hint`]). Returns the elements it marked.
pub(crate) fn undeclared(
    finals: &mut BTreeMap<String, (MeasurableElement, FinalExpression)>,
    results: &BTreeMap<String, MeasurementResult>,
    launches: &LaunchPoints,
) -> Vec<String> {
    let mut marked = Vec::new();
    if launches.is_empty() {
        return marked;
    }
    for (id, (_, fe)) in finals.iter_mut() {
        let Some(result) = results.get(id) else {
            continue;
        };
        let Some(evidence) = fe.proposal.evidence.as_mut() else {
            continue;
        };
        let one_point = (evidence.reasons.iter()).any(|r| is_differ_reason(r) || is_fixed_reason(r));
        if one_point || evidence.points < 2 || !evidence.undeclared.is_empty() {
            continue;
        }
        let (found, slight): (Vec<UndeclaredInput>, Vec<UndeclaredInput>) = launch_influences(result, launches)
            .into_iter()
            .partition(|u| u.ratio.max(1.0 / u.ratio) >= MATERIAL);
        for note in slight.iter().map(slight_note) {
            if !evidence.notes.contains(&note) {
                evidence.notes.push(note);
            }
        }
        if found.is_empty() {
            continue;
        }
        for u in &found {
            let reason = undeclared_reason(u);
            evidence.reasons.push(reason.clone());
            fe.reasons.push(reason);
        }
        evidence.undeclared = found;
        evidence.is_final = false;
        fe.status = Status::Preliminary;
        marked.push(id.clone());
    }
    marked
}

/// The launch parameters `result`'s cost follows at equal declared inputs (or beyond what they
/// explain), as undeclared inputs with their launched ranges.
fn launch_influences(result: &MeasurementResult, launches: &LaunchPoints) -> Vec<UndeclaredInput> {
    let declared: BTreeSet<&str> = (result.observations.iter())
        .flat_map(|o| o.parameters.keys().map(String::as_str))
        .collect();
    let mut names: BTreeMap<String, (String, String)> = BTreeMap::new();
    let mut observed: Vec<(Parameters, f64)> = Vec::new();
    for o in &result.observations {
        let Some((launch, point)) = o.run.and_then(|r| launches.get(&r)) else {
            continue;
        };
        let mut parameters = o.parameters.clone();
        for (p, v) in point {
            if let Some(x) = as_number(v) {
                let name = named(launch, p);
                names.insert(name.clone(), (launch.clone(), p.clone()));
                parameters.insert(name, x);
            }
        }
        observed.push((parameters, o.value));
    }
    // A launch parameter the declared inputs determine is no undeclared input (the driver's
    // `--orders` is `orders.NUMBER_OF_ELEMENTS`, its `--items` per order their ratio), and
    // testing it would only spend the tests' significance.
    let explained: BTreeSet<String> = (names.keys())
        .filter(|n| determined_by(&observed, &declared, n))
        .cloned()
        .collect();
    for (parameters, _) in &mut observed {
        parameters.retain(|n, _| !explained.contains(n));
    }
    let refs: Vec<(&Parameters, f64)> = observed.iter().map(|(p, v)| (p, *v)).collect();
    beagle_analysis::undeclared::influences(&refs, &|n| declared.contains(n))
        .into_iter()
        .filter_map(|i| {
            let (launch, parameter) = names.get(&i.parameter)?.clone();
            let values: Vec<f64> = (observed.iter())
                .filter_map(|(p, _)| p.get(&i.parameter).copied())
                .collect();
            let low = values.iter().copied().fold(f64::INFINITY, f64::min);
            let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            Some(UndeclaredInput {
                parameter,
                launch,
                low,
                high,
                ratio: i.ratio,
                p: i.p,
                integer: values.iter().all(|v| v.fract() == 0.0),
            })
        })
        .collect()
}

/// Share of a launch parameter's variance (of `ln(1 + x)`) that a power law in the declared
/// inputs must explain for the parameter to count as determined by them.
const DETERMINED_R2: f64 = 0.98;

/// Whether launch parameter `name` is a power law of the declared inputs (`R²` of `ln(1 + x)` on
/// theirs at least [`DETERMINED_R2`]), or takes one value.
fn determined_by(observed: &[(Parameters, f64)], declared: &BTreeSet<&str>, name: &str) -> bool {
    let rows: Vec<&Parameters> = (observed.iter().map(|(p, _)| p))
        .filter(|p| p.contains_key(name) && declared.iter().all(|d| p.contains_key(*d)))
        .collect();
    let target: Vec<f64> = rows.iter().map(|p| p[name].abs().ln_1p()).collect();
    let mean = target.iter().sum::<f64>() / target.len().max(1) as f64;
    let total: f64 = target.iter().map(|t| (t - mean).powi(2)).sum();
    if total <= 0.0 {
        return true;
    }
    let mut columns = vec![vec![1.0; rows.len()]];
    columns.extend(
        declared
            .iter()
            .map(|d| rows.iter().map(|p| p[*d].abs().ln_1p()).collect()),
    );
    if rows.len() <= columns.len() {
        return false;
    }
    let Some(c) = beagle_fit::linalg::lstsq(columns.clone(), target.clone()) else {
        return false;
    };
    let residual: f64 = (0..rows.len())
        .map(|i| (target[i] - columns.iter().zip(&c).map(|(col, k)| col[i] * k).sum::<f64>()).powi(2))
        .sum();
    1.0 - residual / total >= DETERMINED_R2
}

/// Least factor across a launch parameter's range that makes it an input the model lacks. Below
/// it, a workload's mix moves a call's cost the way caches and the JIT's profile do (fileshare's
/// small-file write falls 1.4 times from uploads of 1 file to 40, at equal record sizes): worth a
/// note, not a missing input.
const MATERIAL: f64 = 1.5;

/// "rises" or "falls", and by what factor, for the ratio of the upper third's cost to the lower's.
fn direction(ratio: f64) -> (&'static str, f64) {
    if ratio >= 1.0 {
        ("rises", ratio)
    } else {
        ("falls", 1.0 / ratio)
    }
}

/// The note of a launch parameter the cost follows by less than [`MATERIAL`].
fn slight_note(u: &UndeclaredInput) -> String {
    let (how, factor) = direction(u.ratio);
    format!(
        "its cost {how} {factor:.1} times across {} ({} to {}; rank test {}): the workload's mix, under the {MATERIAL} times that would make it an input the model lacks",
        named(&u.launch, &u.parameter),
        beagle_fit::print::format_number(u.low),
        beagle_fit::print::format_number(u.high),
        beagle_fit::evidence::p_text(u.p),
    )
}

/// The reason of a result that follows an undeclared launch parameter.
pub(crate) fn undeclared_reason(u: &UndeclaredInput) -> String {
    let (how, factor) = direction(u.ratio);
    format!(
        "its cost {how} {factor:.1} times across {} ({} to {}, from its lower to its upper third; rank test {}), which no input of the model declares: the law over the declared inputs is the average over that range as launched; a parameter `{}` ({}) of the signature would carry it",
        named(&u.launch, &u.parameter),
        beagle_fit::print::format_number(u.low),
        beagle_fit::print::format_number(u.high),
        beagle_fit::evidence::p_text(u.p),
        u.parameter,
        if u.integer { "INT" } else { "DOUBLE" },
    )
}

/// What to do about an undeclared launch parameter, naming the signature that would take it:
/// `_pw_train_pairs: its cost follows the launch parameter `catalogue` of `train`, which no input
/// of the model declares; hint: add a parameter `catalogue` (INT) to `IRecommender.train` and
/// pass `catalogue.VALUE` where it is called`.
pub(crate) fn undeclared_hint(repo: &Repository, element: &MeasurableElement, u: &UndeclaredInput) -> String {
    let signature = (element.service.as_deref())
        .and_then(|seff| repo.seffs().find(|(_, s)| s.id.as_deref() == Some(seff)))
        .and_then(|(_, s)| s.described_service.as_ref())
        .and_then(|r| r.target.id())
        .and_then(|sig| repo.signatures().find(|(_, s)| s.id.as_deref() == Some(sig)))
        .map(|(i, s)| {
            format!(
                "`{}.{}`",
                i.name.as_deref().unwrap_or("?"),
                s.name.as_deref().unwrap_or("?")
            )
        });
    format!(
        "{}: its cost follows {} ({:.1} times across {} to {}), which no input of the model declares; hint: add a parameter `{}` ({}) to {} and pass `{}.VALUE` where it is called (the law is the average over the launched range until then)",
        element.id,
        named(&u.launch, &u.parameter),
        direction(u.ratio).1,
        beagle_fit::print::format_number(u.low),
        beagle_fit::print::format_number(u.high),
        u.parameter,
        if u.integer { "INT" } else { "DOUBLE" },
        signature.unwrap_or_else(|| "the service's signature".to_string()),
        u.parameter,
    )
}

fn as_number(v: &PointValue) -> Option<f64> {
    match v {
        PointValue::Number(x) => Some(*x),
        PointValue::Bool(b) => Some(f64::from(u8::from(*b))),
        PointValue::Text(_) => None,
    }
}

/// `` `size` of `upload` ``.
fn named(launch: &str, parameter: &str) -> String {
    format!("`{parameter}` of `{launch}`")
}

/// Per launch and parameter, the values it took at the launch points that measured `result`.
fn values_seen(result: &MeasurementResult, launches: &LaunchPoints) -> BTreeMap<(String, String), Vec<PointValue>> {
    let runs: BTreeSet<u64> = result.observations.iter().filter_map(|o| o.run).collect();
    let mut seen: BTreeMap<(String, String), Vec<PointValue>> = BTreeMap::new();
    for (launch, point) in runs.iter().filter_map(|r| launches.get(r)) {
        for (parameter, value) in point {
            let values = seen.entry((launch.clone(), parameter.clone())).or_default();
            if !values.contains(value) {
                values.push(value.clone());
            }
        }
    }
    seen
}

/// The inputs of `result` (characterised parameters) as variable names: `items` of
/// `items.NUMBER_OF_ELEMENTS`, `size` and `request` of `request.size.BYTESIZE`.
fn input_names(result: &MeasurementResult) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for o in &result.observations {
        for name in o.parameters.keys() {
            let variable = name.rsplit_once('.').map_or(name.as_str(), |(v, _)| v);
            out.extend(variable.split('.').map(str::to_string));
        }
    }
    out
}

/// What the launches tell about inputs that no launch varied.
fn fixed_hint(result: &MeasurementResult, launches: &LaunchPoints) -> String {
    let seen = values_seen(result, launches);
    let inputs = input_names(result);
    // Held at one value: varying it may vary the inputs (the more so under a name like theirs).
    let mut could = Vec::new();
    // Under a name like an input's but varied: it does not reach the input as it is.
    let mut astray = Vec::new();
    for ((launch, parameter), values) in &seen {
        let like = inputs.iter().find(|i| beagle_java::params::similar(parameter, i));
        let like_text = like.map(|i| format!("a name like `{i}`"));
        if values.len() == 1 {
            let held = format!("held at {} at every launch point", values[0]);
            let why: Vec<String> = std::iter::once(held).chain(like_text).collect();
            could.push(format!("{} ({})", named(launch, parameter), why.join("; ")));
        } else if let Some(like) = like_text {
            astray.push(format!(
                "{} has {like} but took {} values while the inputs kept one",
                named(launch, parameter),
                values.len()
            ));
        }
    }
    let mut out = String::new();
    if !could.is_empty() {
        out.push_str(&format!(
            "; launch parameters that could vary them: {}",
            could.join(", ")
        ));
    }
    for a in &astray {
        out.push_str(&format!("; {a}"));
    }
    if out.is_empty() {
        let varied: Vec<String> = seen.keys().map(|(l, p)| named(l, p)).collect();
        if varied.is_empty() {
            return "; the launches that measured it have no parameters: a launch parameter that sets them is needed"
                .to_string();
        }
        return format!(
            "; every launch parameter varied ({}) and its inputs did not: a launch parameter that sets them is needed",
            varied.join(", ")
        );
    }
    out
}

/// The launch parameters a cost that differs between launches follows, where the rank test finds
/// any; `None` where it finds none.
fn followed_hint(result: &MeasurementResult, launches: &LaunchPoints) -> Option<String> {
    let observed: Vec<(Parameters, f64)> = (result.observations.iter())
        .filter_map(|o| {
            let (launch, point) = launches.get(&o.run?)?;
            let parameters: Parameters = (point.iter())
                .filter_map(|(p, v)| Some((named(launch, p), as_number(v)?)))
                .collect();
            Some((parameters, o.value))
        })
        .collect();
    let refs: Vec<(&Parameters, f64)> = observed.iter().map(|(p, v)| (p, *v)).collect();
    let found = beagle_analysis::undeclared::influences(&refs, &|_| false);
    if found.is_empty() {
        return None;
    }
    let said: Vec<String> = (found.iter())
        .map(|i| {
            let (how, factor) = if i.ratio >= 1.0 {
                ("rising", i.ratio)
            } else {
                ("falling", 1.0 / i.ratio)
            };
            format!(
                "{} ({how} {factor:.1} times from its lower to its upper third, rank test {})",
                i.parameter,
                beagle_fit::evidence::p_text(i.p)
            )
        })
        .collect();
    Some(format!(
        "; it follows the launch parameter{} {}",
        if said.len() == 1 { "" } else { "s" },
        said.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use beagle_analysis::{ElementKind, Observation, ProposalEvidence, ProposedExpression, Status};
    use beagle_java::launch::Point;

    fn point(files: f64, mode: &str) -> Point {
        [
            ("files".to_string(), PointValue::Number(files)),
            ("mode".to_string(), PointValue::Text(mode.into())),
        ]
        .into()
    }

    fn final_with(reason: &str) -> FinalExpression {
        let proposal = ProposedExpression {
            element: "a/cpu".into(),
            analyser: "fit".into(),
            stoex: "1".into(),
            infix: "1".into(),
            r2: 0.0,
            relative_error: 0.0,
            samples: 24,
            parameter_ranges: BTreeMap::new(),
            size: 1,
            depth: 1,
            variables: Vec::new(),
            guard: None,
            predictions: Vec::new(),
            evidence: Some(ProposalEvidence {
                reasons: vec![reason.to_string()],
                ..ProposalEvidence::default()
            }),
        };
        FinalExpression {
            proposal,
            fitness: 0.0,
            status: Status::Preliminary,
            reasons: vec![reason.to_string()],
            fitted: None,
        }
    }

    /// 12 launch points, `files` = 1..=12 and `mode` always `fast`; run `r` measured its element
    /// at `value(r)` (twice), with `input` in its parameters.
    fn measured(input: Option<(&str, f64)>, value: &dyn Fn(u64) -> f64) -> (MeasurementResult, LaunchPoints) {
        let launches: LaunchPoints = (0..12u64)
            .map(|r| (r, ("upload".to_string(), point((r + 1) as f64, "fast"))))
            .collect();
        let observations = (0..24u64)
            .map(|i| Observation {
                run: Some(i % 12),
                parameters: input.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
                value: value(i % 12) * if i < 12 { 1.0 } else { 1.05 },
                executions: 1,
                mean: None,
            })
            .collect();
        (MeasurementResult::new("a/cpu", observations), launches)
    }

    fn finals(reason: &str) -> BTreeMap<String, (MeasurableElement, FinalExpression)> {
        let e = MeasurableElement::new(ElementKind::ResourceDemand {
            action: "a".into(),
            resource: "cpu".into(),
        });
        BTreeMap::from([("a/cpu".to_string(), (e, final_with(reason)))])
    }

    #[test]
    fn inputs_no_launch_varies_name_the_launch_parameters_held_or_named_alike() {
        let reason =
            "no launch varies its inputs: files.NUMBER_OF_ELEMENTS = 20 at every point (1 distinct parameter point)";
        let (result, launches) = measured(Some(("files.NUMBER_OF_ELEMENTS", 20.0)), &|_| 1.0);
        let results = BTreeMap::from([("a/cpu".to_string(), result)]);
        let mut f = finals(reason);
        add(&mut f, &results, &launches);
        let said = f["a/cpu"].1.reasons[0].clone();
        assert_eq!(
            said,
            format!("{reason}; launch parameters that could vary them: `mode` of `upload` (held at fast at every launch point); `files` of `upload` has a name like `files` but took 12 values while the inputs kept one")
        );
        assert_eq!(f["a/cpu"].1.proposal.evidence.as_ref().unwrap().reasons[0], said);
        // Added once, however often the report is made.
        add(&mut f, &results, &launches);
        assert_eq!(f["a/cpu"].1.reasons[0], said);
        // An input named like nothing, every parameter varied: none of them sets it.
        let varied: LaunchPoints = (0..12u64)
            .map(|r| {
                (
                    r,
                    (
                        "upload".to_string(),
                        [("size".to_string(), PointValue::Number(r as f64))].into(),
                    ),
                )
            })
            .collect();
        let (result, _) = measured(Some(("digest.BYTESIZE", 32.0)), &|_| 1.0);
        let results = BTreeMap::from([("a/cpu".to_string(), result)]);
        let mut f = finals(reason);
        add(&mut f, &results, &varied);
        assert!(
            f["a/cpu"].1.reasons[0].ends_with(
                "; every launch parameter varied (`size` of `upload`) and its inputs did not: a launch parameter that sets them is needed"
            ),
            "{}",
            f["a/cpu"].1.reasons[0]
        );
    }

    #[test]
    fn a_cost_that_differs_between_launches_names_the_parameter_it_follows() {
        let reason = "its cost differs between launches beyond their noise (medians from 0.1 to 1.2, 12 times, at 12 launches each measured more than once; p < 0.001), though nothing the signature declares varies: it depends on something the model does not declare";
        let (result, launches) = measured(None, &|r| 0.1 * (r + 1) as f64);
        let results = BTreeMap::from([("a/cpu".to_string(), result)]);
        let mut f = finals(reason);
        add(&mut f, &results, &launches);
        let said = &f["a/cpu"].1.reasons[0];
        assert!(said.starts_with(reason), "{said}");
        assert!(
            said.contains("; it follows the launch parameter `files` of `upload` (rising "),
            "{said}"
        );
        assert!(said.ends_with(", rank test p < 0.001)"), "{said}");
        // A cost the launch parameters do not order: nothing is added.
        let (result, _) = measured(None, &|r| if r % 2 == 0 { 0.1 } else { 1.0 });
        let results = BTreeMap::from([("a/cpu".to_string(), result)]);
        let mut f = finals(reason);
        add(&mut f, &results, &launches);
        assert_eq!(f["a/cpu"].1.reasons[0], reason);
        // Other reasons are left alone.
        let mut f = finals("held-out points scatter 16 % about it");
        add(&mut f, &results, &launches);
        assert_eq!(f["a/cpu"].1.reasons[0], "held-out points scatter 16 % about it");
    }

    /// 36 launch points of `train` over `orders` (declared as `orders.NUMBER_OF_ELEMENTS`) and a
    /// `catalogue` no input declares; the cost is `orders * effect(catalogue)`, twice per run.
    fn catalogue_runs(effect: &dyn Fn(f64) -> f64) -> (MeasurementResult, LaunchPoints) {
        let mut launches = LaunchPoints::new();
        let mut observations = Vec::new();
        for r in 0..36u64 {
            let orders = 10.0 + 7.0 * ((r * 5) % 36) as f64;
            let catalogue = [200.0, 2000.0, 20000.0][(r % 3) as usize];
            let point: Point = [
                ("orders".to_string(), PointValue::Number(orders)),
                ("catalogue".to_string(), PointValue::Number(catalogue)),
            ]
            .into();
            launches.insert(r, ("train".to_string(), point));
            for k in 0..2 {
                observations.push(Observation {
                    run: Some(r),
                    parameters: [("orders.NUMBER_OF_ELEMENTS".to_string(), orders)].into(),
                    value: 0.01 * orders * effect(catalogue) * if k == 0 { 1.0 } else { 1.02 },
                    executions: 1,
                    mean: None,
                });
            }
        }
        (MeasurementResult::new("a/cpu", observations), launches)
    }

    #[test]
    fn a_launch_parameter_no_input_declares_is_named_and_keeps_the_law_preliminary() {
        let mut f = finals("held-out points scatter 16 % about it");
        f.get_mut("a/cpu").unwrap().1.status = Status::Final;
        f.get_mut("a/cpu").unwrap().1.proposal.evidence.as_mut().unwrap().points = 36;
        let (result, launches) = catalogue_runs(&|c| 1.0 + c / 10000.0);
        let results = BTreeMap::from([("a/cpu".to_string(), result)]);
        let marked = undeclared(&mut f, &results, &launches);
        assert_eq!(marked, ["a/cpu"]);
        let fe = &f["a/cpu"].1;
        assert_eq!(fe.status, Status::Preliminary);
        let evidence = fe.proposal.evidence.as_ref().unwrap();
        assert!(!evidence.is_final);
        assert_eq!(evidence.undeclared.len(), 1, "{:?}", evidence.undeclared);
        let u = &evidence.undeclared[0];
        assert_eq!(
            (u.parameter.as_str(), u.launch.as_str(), u.low, u.high, u.integer),
            ("catalogue", "train", 200.0, 20000.0, true)
        );
        let reason = fe.reasons.last().unwrap();
        assert!(reason.starts_with("its cost rises 2."), "{reason}");
        assert!(
            reason.contains("across `catalogue` of `train` (200 to 20000"),
            "{reason}"
        );
        assert!(
            !fe.reasons.iter().any(|r| r.contains("`orders` of")),
            "{:?}",
            fe.reasons
        );
        // Said once however often the report is made; `orders` (the declared input's) never.
        assert!(undeclared(&mut f, &results, &launches).is_empty());
    }

    #[test]
    fn a_slight_trend_with_a_launch_parameter_is_a_note_and_none_no_word() {
        let mut f = finals("held-out points scatter 16 % about it");
        f.get_mut("a/cpu").unwrap().1.proposal.evidence.as_mut().unwrap().points = 36;
        let (result, launches) = catalogue_runs(&|c| 1.0 + c / 100000.0);
        let results = BTreeMap::from([("a/cpu".to_string(), result)]);
        assert!(undeclared(&mut f, &results, &launches).is_empty());
        let evidence = f["a/cpu"].1.proposal.evidence.as_ref().unwrap();
        assert!(evidence.undeclared.is_empty());
        assert!(
            evidence
                .notes
                .iter()
                .any(|n| n.starts_with("its cost rises 1.2 times across `catalogue` of `train`")),
            "{:?}",
            evidence.notes
        );
        let (result, launches) = catalogue_runs(&|_| 1.0);
        let results = BTreeMap::from([("a/cpu".to_string(), result)]);
        let mut f = finals("held-out points scatter 16 % about it");
        f.get_mut("a/cpu").unwrap().1.proposal.evidence.as_mut().unwrap().points = 36;
        assert!(undeclared(&mut f, &results, &launches).is_empty());
        assert!(f["a/cpu"].1.proposal.evidence.as_ref().unwrap().notes.is_empty());
    }
}
