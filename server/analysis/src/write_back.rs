//! Final expressions into the repository, through the PCM crate's edit API, for every kind:
//! demands per resource type, loop iteration counts, branch probabilities or guards, and the
//! characterised inputs of external calls. Only analysed elements change; nothing else moves.
//!
//! What each element gets is decided first, on the file as it is ([`Write`]; branch
//! probabilities are then scaled together so that each branch's sum to 1). The edits are then
//! computed from one parse: every element's edits against the same text, applied together. Only
//! two results that touch the same place (both create the same missing variable usage, say) wait
//! for a second round on the text the first produced; [`compose`] turns the rounds into edits on
//! the original text. The caller gets the new text and those edits (the CLI writes the text
//! atomically, the language server sends the edits as a workspace edit).
//!
//! Branches: a `GuardedBranchTransition` takes the fitted condition when the inputs decide the
//! branch (`n.VALUE > 10`), else `BoolPMF[(true;p)(false;1 - p)]`; a
//! `ProbabilisticBranchTransition` takes a plain number, so a probability that depends on the
//! inputs is written as its mean over the measured workload, with a note saying so.

use crate::blackboard::{ElementKind, FinalExpression, MeasurableElement, Status};
use crate::units::{DemandUnit, DemandUnits};
use beagle_pcm::edit::{apply, EditError, TextEdit, UsageTarget};
use beagle_pcm::model::{ActionBody, TransitionKind, UsageRole};
use beagle_pcm::ModelFile;
use std::fmt;

/// One element written into the model.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    pub element: String,
    /// What was written (a StoEx, or a probability).
    pub value: String,
}

/// The outcome of writing results into one file.
#[derive(Clone, Debug, PartialEq)]
pub struct WriteBack {
    pub text: String,
    /// The edits that make `text` from the file's text: the PCM crate's minimal edits, sorted and
    /// not overlapping.
    pub edits: Vec<TextEdit>,
    pub applied: Vec<Applied>,
    /// What was written differently from the final expression, and why.
    pub notes: Vec<String>,
    /// Preliminary results left out (`include_preliminary` false).
    pub skipped: Vec<String>,
    /// Demands left out because the rates cannot convert them: element id and why.
    pub unconverted: Vec<(String, String)>,
    /// How many times edits were computed on a parse of the text: 1, or more only when results
    /// touched the same place.
    pub rounds: usize,
}

/// Why results could not be written; nothing is written then.
#[derive(Clone, Debug, PartialEq)]
pub struct WriteBackError {
    pub element: String,
    pub error: EditError,
}

impl fmt::Display for WriteBackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write the result of {}: {}", self.element, self.error)
    }
}

impl std::error::Error for WriteBackError {}

/// What one element gets written.
#[derive(Clone, Debug, PartialEq)]
enum Write {
    /// A StoEx into a demand, an iteration count or a variable characterisation.
    Spec(String),
    /// A guarded transition's condition.
    Condition(String),
    /// A probabilistic transition's probability.
    Probability(f64),
}

/// One element's planned write.
struct Planned<'a> {
    element: &'a MeasurableElement,
    write: Write,
}

/// The text of `file` with the final expressions of `results` written in, demands in the units
/// `units` says; all or nothing.
pub fn write_back<'a>(
    file: &ModelFile,
    results: impl IntoIterator<Item = (&'a MeasurableElement, &'a FinalExpression)>,
    include_preliminary: bool,
    units: &DemandUnits,
) -> Result<WriteBack, WriteBackError> {
    let mut out = WriteBack {
        text: file.text().to_string(),
        edits: Vec::new(),
        applied: Vec::new(),
        notes: Vec::new(),
        skipped: Vec::new(),
        unconverted: Vec::new(),
        rounds: 0,
    };
    let mut planned = Vec::new();
    for (element, fe) in results {
        if fe.status == Status::Preliminary && !include_preliminary {
            out.skipped.push(element.id.clone());
            continue;
        }
        let unit = demand_unit(file, &element.kind, units);
        if let Some(DemandUnit::Unconvertible(why)) = unit {
            out.unconverted.push((element.id.clone(), why));
            continue;
        }
        let (mut write, note) = plan(file, &element.kind, fe).map_err(|error| WriteBackError {
            element: element.id.clone(),
            error,
        })?;
        if let (Some(DemandUnit::WorkUnits(c)), Write::Spec(ms)) = (unit, &write) {
            write = Write::Spec(c.to_units(ms));
        }
        out.notes.extend(note.map(|n| format!("{}: {n}", element.id)));
        planned.push(Planned { element, write });
    }
    normalise_probabilities(file, &mut planned, &mut out.notes);
    out.applied = planned
        .iter()
        .map(|p| Applied {
            element: p.element.id.clone(),
            value: match &p.write {
                Write::Spec(s) | Write::Condition(s) => s.clone(),
                Write::Probability(v) => v.to_string(),
            },
        })
        .collect();
    // Rounds: every pending element's edits on the same parse; those that touch a place an
    // earlier one of the round touches wait for the next.
    let mut current = file.clone();
    let mut pending: Vec<&Planned> = planned.iter().collect();
    let mut rounds: Vec<Vec<TextEdit>> = Vec::new();
    while !pending.is_empty() {
        let mut taken: Vec<TextEdit> = Vec::new();
        let mut later = Vec::new();
        for p in pending {
            let edits = edits_for(&current, &p.element.kind, &p.write).map_err(|error| WriteBackError {
                element: p.element.id.clone(),
                error,
            })?;
            if edits.iter().any(|e| taken.iter().any(|t| touch(e, t))) {
                later.push(p);
            } else {
                taken.extend(edits);
            }
        }
        let element = || pending_name(&later, &planned);
        let text = apply(current.text(), &taken).map_err(|error| WriteBackError {
            element: element(),
            error,
        })?;
        taken.sort_by_key(|e| (e.span.start, e.span.end));
        rounds.push(taken);
        current = if later.is_empty() {
            out.text = text;
            break;
        } else {
            ModelFile::parse(file.path.clone(), text)
        };
        pending = later;
    }
    if planned.is_empty() {
        out.rounds = 0;
    } else {
        out.rounds = rounds.len();
        out.edits = rounds
            .into_iter()
            .reduce(|first, second| compose(&first, &second, &out.text))
            .unwrap_or_default();
    }
    Ok(out)
}

/// The unit a demand is written in; `None` for every other kind of element.
fn demand_unit(file: &ModelFile, kind: &ElementKind, units: &DemandUnits) -> Option<DemandUnit> {
    let ElementKind::ResourceDemand { action, resource } = kind else {
        return None;
    };
    match &file.repository {
        Some(repo) => Some(units.of_action(repo, action, resource)),
        // Not a repository: the edit names the problem.
        None => Some(DemandUnit::Milliseconds),
    }
}

/// For an error while applying a round: the first element of the round (all or nothing anyway).
fn pending_name(later: &[&Planned], planned: &[Planned]) -> String {
    planned
        .iter()
        .find(|p| !later.iter().any(|l| std::ptr::eq(*l, *p)))
        .or(planned.first())
        .map_or_else(String::new, |p| p.element.id.clone())
}

/// Whether two edits of one round would touch the same place: they overlap, or one inserts
/// where the other starts or ends (two insertions at one point would come out in either order).
fn touch(a: &TextEdit, b: &TextEdit) -> bool {
    let (a0, a1, b0, b1) = (a.span.start, a.span.end, b.span.start, b.span.end);
    (a0 < b1 && b0 < a1) || ((a0 == a1 || b0 == b1) && a0 <= b1 && b0 <= a1)
}

/// `second` (edits on the text `first` produced) after `first` (edits on an original text), as
/// edits on the original: each group of edits that overlap or touch, mapped back to the original,
/// becomes one edit whose new text is taken from `result` (the text after both).
pub fn compose(first: &[TextEdit], second: &[TextEdit], result: &str) -> Vec<TextEdit> {
    // Where each of `first`'s new texts lies in the intermediate text.
    let mut placed = Vec::with_capacity(first.len());
    let mut delta: i64 = 0;
    for e in first {
        let start = (i64::from(e.span.start) + delta) as usize;
        placed.push((start, start + e.new_text.len()));
        delta += e.new_text.len() as i64 - i64::from(e.span.end - e.span.start);
    }
    // An intermediate position in the original: (position, the `first` edit it falls in).
    let to_original = |q: usize, at_end: bool| -> usize {
        let mut delta: i64 = 0;
        for (e, &(s1, e1)) in first.iter().zip(&placed) {
            if q < s1 {
                break;
            }
            if q <= e1 {
                return if at_end {
                    e.span.end as usize
                } else {
                    e.span.start as usize
                };
            }
            delta += e.new_text.len() as i64 - i64::from(e.span.end - e.span.start);
        }
        (q as i64 - delta) as usize
    };
    // Every edit's range in the original, with its change in length.
    let mut ranges: Vec<(usize, usize, i64)> = first
        .iter()
        .map(|e| {
            (
                e.span.start as usize,
                e.span.end as usize,
                e.new_text.len() as i64 - i64::from(e.span.end - e.span.start),
            )
        })
        .collect();
    for e in second {
        let lo = to_original(e.span.start as usize, false);
        let hi = to_original(e.span.end as usize, true).max(lo);
        ranges.push((lo, hi, e.new_text.len() as i64 - i64::from(e.span.end - e.span.start)));
    }
    ranges.sort_by_key(|r| (r.0, r.1));
    let mut groups: Vec<(usize, usize, i64)> = Vec::new();
    for (lo, hi, d) in ranges {
        match groups.last_mut() {
            Some(g) if lo <= g.1 => {
                g.1 = g.1.max(hi);
                g.2 += d;
            }
            _ => groups.push((lo, hi, d)),
        }
    }
    let mut shift: i64 = 0;
    groups
        .into_iter()
        .map(|(lo, hi, d)| {
            let start = (lo as i64 + shift) as usize;
            let end = (hi as i64 + shift + d) as usize;
            shift += d;
            TextEdit {
                span: beagle_pcm::Span::new(lo, hi),
                new_text: result[start..end].to_string(),
            }
        })
        .collect()
}

/// A branch's published probabilities sum to 1 ([`crate::branches`]), but a transition written as
/// the mean of its expression over the measurements is rounded on its own, and an older result may
/// be written beside a newer one. A branch whose every transition is written gets them scaled
/// and rounded together so that the numbers in the file sum to exactly 1, as PCM requires.
fn normalise_probabilities(file: &ModelFile, planned: &mut [Planned], notes: &mut Vec<String>) {
    let Some(repo) = &file.repository else {
        return;
    };
    for (_, seff) in repo.seffs() {
        for action in seff.behaviour.walk() {
            let (Some(branch), ActionBody::Branch { transitions }) = (&action.id, &action.body) else {
                continue;
            };
            if transitions.is_empty()
                || transitions
                    .iter()
                    .any(|t| matches!(t.kind, TransitionKind::Guarded { .. }))
            {
                continue;
            }
            // Each transition's planned probability, in the branch's order.
            let index: Option<Vec<usize>> = transitions
                .iter()
                .map(|t| {
                    let id = format!("{branch}/{}", t.id.as_deref()?);
                    planned
                        .iter()
                        .position(|p| p.element.id == id && matches!(p.write, Write::Probability(_)))
                })
                .collect();
            let Some(index) = index else { continue };
            let probabilities: Vec<f64> = index
                .iter()
                .map(|&i| match planned[i].write {
                    Write::Probability(p) => p,
                    _ => unreachable!("filtered above"),
                })
                .collect();
            let sum: f64 = probabilities.iter().sum();
            let Some(scaled) = crate::branches::shares(&probabilities, crate::branches::MAX_DECIMALS) else {
                continue;
            };
            if scaled == probabilities {
                continue;
            }
            for (&i, p) in index.iter().zip(scaled) {
                planned[i].write = Write::Probability(p);
            }
            if (sum - 1.0).abs() > 1e-6 {
                notes.push(format!(
                    "{branch}: the transitions' probabilities summed to {sum}; scaled to sum to 1"
                ));
            }
        }
    }
}

/// The edits that write `write` for element `kind` into `file`.
fn edits_for(file: &ModelFile, kind: &ElementKind, write: &Write) -> Result<Vec<TextEdit>, EditError> {
    match (kind, write) {
        (ElementKind::ResourceDemand { action, resource }, Write::Spec(s)) => {
            file.set_resource_demand(action, resource, s)
        }
        (ElementKind::Loop { loop_id }, Write::Spec(s)) => file.set_loop_iteration_count(loop_id, s),
        (ElementKind::CallParameter { call, parameter }, Write::Spec(s)) => {
            let (variable, characterisation) = parameter.rsplit_once('.').ok_or_else(|| {
                EditError::NotFound(format!(
                    "`{parameter}` is not a characterised variable (`name.VALUE`, `name.BYTESIZE`, ...)"
                ))
            })?;
            let target = UsageTarget {
                action_id: call,
                role: UsageRole::Input,
                variable,
                characterisation,
            };
            file.set_variable_characterisation(&target, s)
        }
        (ElementKind::Branch { transition, .. }, Write::Condition(s)) => file.set_branch_condition(transition, s),
        (ElementKind::Branch { transition, .. }, Write::Probability(p)) => file.set_branch_probability(transition, *p),
        (kind, write) => Err(EditError::NotFound(format!(
            "{write:?} cannot be written into {kind:?}"
        ))),
    }
}

/// What `fe` writes for element `kind`, and a note when that is not the expression itself.
fn plan(file: &ModelFile, kind: &ElementKind, fe: &FinalExpression) -> Result<(Write, Option<String>), EditError> {
    let stoex = fe.proposal.stoex.as_str();
    match kind {
        ElementKind::Branch { branch, transition } => branch_plan(file, branch, transition, fe),
        // An element the file lacks is named when its edits are computed; nothing is written then.
        _ => Ok((Write::Spec(stoex.to_string()), None)),
    }
}

fn branch_plan(
    file: &ModelFile,
    branch: &str,
    transition: &str,
    fe: &FinalExpression,
) -> Result<(Write, Option<String>), EditError> {
    let kind = file
        .repository
        .as_ref()
        .and_then(|r| r.action(branch))
        .and_then(|a| match &a.body {
            ActionBody::Branch { transitions } => transitions.iter().find(|t| t.id.as_deref() == Some(transition)),
            _ => None,
        })
        .map(|t| t.kind.clone())
        .ok_or_else(|| EditError::NotFound(format!("no transition `{transition}` in branch `{branch}`")))?;
    let p = &fe.proposal;
    let constant = constant_of(&p.stoex);
    // The probability to write when the expression is not one number: its mean over the workload.
    let mean = || {
        let n = p.predictions.len().max(1) as f64;
        round(p.predictions.iter().sum::<f64>() / n)
    };
    match kind {
        TransitionKind::Guarded { .. } => {
            let (spec, note) = match (&p.guard, constant) {
                (Some(guard), _) => (guard.clone(), None),
                (None, Some(c)) => (bool_pmf(c), None),
                (None, None) => (
                    bool_pmf(mean()),
                    Some(format!(
                        "the probability depends on the inputs ({}); written as its mean over the measurements",
                        p.stoex
                    )),
                ),
            };
            Ok((Write::Condition(spec), note))
        }
        _ => {
            let (probability, note) = match constant {
                Some(c) => (round(c), None),
                None => (
                    mean(),
                    Some(format!(
                        "a probabilistic transition takes a number, but the probability depends on the \
                         inputs ({}); written as its mean over the measurements (a guarded transition \
                         would express it)",
                        p.guard.as_deref().unwrap_or(&p.stoex)
                    )),
                ),
            };
            Ok((Write::Probability(probability), note))
        }
    }
}

/// The value of a StoEx that is one number.
fn constant_of(stoex: &str) -> Option<f64> {
    use beagle_stoex::ExprKind;
    match beagle_stoex::parse(stoex).ok()?.kind {
        ExprKind::Int(i) => Some(i as f64),
        ExprKind::Double(d) => Some(d),
        _ => None,
    }
}

/// Probabilities to six decimals: more is noise, and the file stays readable.
fn round(p: f64) -> f64 {
    ((p * 1e6).round() / 1e6).clamp(0.0, 1.0)
}

/// A guard that holds with probability `p`.
fn bool_pmf(p: f64) -> String {
    let p = round(p);
    if p >= 1.0 {
        "true".into()
    } else if p <= 0.0 {
        "false".into()
    } else {
        format!("BoolPMF[(true;{p})(false;{})]", round(1.0 - p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_are_rounded_and_guards_are_bool_pmfs() {
        assert_eq!(round(0.300000000004), 0.3);
        assert_eq!(bool_pmf(0.25), "BoolPMF[(true;0.25)(false;0.75)]");
        assert_eq!(bool_pmf(1.0), "true");
        assert_eq!(bool_pmf(0.0), "false");
        assert_eq!(constant_of("0.25"), Some(0.25));
        assert_eq!(constant_of("3"), Some(3.0));
        assert_eq!(constant_of("n.VALUE > 3"), None);
    }
}
