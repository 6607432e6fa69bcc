//! Final expressions into the repository, through the PCM crate's edit API, for every kind:
//! demands per resource type, loop iteration counts, branch probabilities or guards, and the
//! characterised inputs of external calls. Only analysed elements change; nothing else moves.
//!
//! Edits are applied one element at a time on the text the previous one produced (re-parsed),
//! so two results that both create the same missing variable usage, say, cannot collide. The
//! caller gets the new text and decides how to publish it (the CLI writes it atomically, the
//! language server sends the difference as a workspace edit).
//!
//! Branches: a `GuardedBranchTransition` takes the fitted condition when the inputs decide the
//! branch (`n.VALUE > 10`), else `BoolPMF[(true;p)(false;1 - p)]`; a
//! `ProbabilisticBranchTransition` takes a plain number, so a probability that depends on the
//! inputs is written as its mean over the measured workload, with a note saying so.

use crate::blackboard::{ElementKind, FinalExpression, MeasurableElement, Status};
use beagle_pcm::edit::{apply, EditError, UsageTarget};
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
    pub applied: Vec<Applied>,
    /// What was written differently from the final expression, and why.
    pub notes: Vec<String>,
    /// Preliminary results left out (`include_preliminary` false).
    pub skipped: Vec<String>,
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

/// The text of `file` with the final expressions of `results` written in; all or nothing.
pub fn write_back<'a>(
    file: &ModelFile,
    results: impl IntoIterator<Item = (&'a MeasurableElement, &'a FinalExpression)>,
    include_preliminary: bool,
) -> Result<WriteBack, WriteBackError> {
    let mut out = WriteBack {
        text: file.text().to_string(),
        applied: Vec::new(),
        notes: Vec::new(),
        skipped: Vec::new(),
    };
    let mut current = file.clone();
    for (element, fe) in results {
        if fe.status == Status::Preliminary && !include_preliminary {
            out.skipped.push(element.id.clone());
            continue;
        }
        let fail = |error| WriteBackError {
            element: element.id.clone(),
            error,
        };
        let (edits, value, note) = edits_for(&current, &element.kind, fe).map_err(fail)?;
        let text = apply(current.text(), &edits).map_err(fail)?;
        current = ModelFile::parse(file.path.clone(), text);
        out.applied.push(Applied {
            element: element.id.clone(),
            value,
        });
        out.notes.extend(note.map(|n| format!("{}: {n}", element.id)));
    }
    normalise_probabilities(&mut current, &mut out).map_err(|(element, error)| WriteBackError { element, error })?;
    out.text = current.text().to_string();
    Ok(out)
}

/// A branch's published probabilities sum to 1 ([`crate::branches`]), but a transition written as
/// the mean of its expression over the measurements is rounded on its own, and an older result may
/// be written beside a newer one. A branch whose every transition was written gets them scaled
/// and rounded together so that the numbers in the file sum to exactly 1, as PCM requires.
fn normalise_probabilities(current: &mut ModelFile, out: &mut WriteBack) -> Result<(), (String, EditError)> {
    let Some(repo) = current.repository.clone() else {
        return Ok(());
    };
    let written: std::collections::BTreeMap<String, f64> = out
        .applied
        .iter()
        .filter_map(|a| Some((a.element.clone(), a.value.parse::<f64>().ok()?)))
        .collect();
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
            let values: Option<Vec<(String, f64)>> = transitions
                .iter()
                .map(|t| {
                    let id = t.id.clone()?;
                    let p = *written.get(&format!("{branch}/{id}"))?;
                    Some((id, p))
                })
                .collect();
            let Some(values) = values else { continue };
            let sum: f64 = values.iter().map(|(_, p)| p).sum();
            let probabilities: Vec<f64> = values.iter().map(|(_, p)| *p).collect();
            let Some(scaled) = crate::branches::shares(&probabilities, crate::branches::MAX_DECIMALS) else {
                continue;
            };
            if scaled == probabilities {
                continue;
            }
            for ((id, p), scaled) in values.iter().zip(scaled) {
                if scaled == *p {
                    continue;
                }
                let element = format!("{branch}/{id}");
                let edits = current
                    .set_branch_probability(id, scaled)
                    .map_err(|e| (element.clone(), e))?;
                let text = apply(current.text(), &edits).map_err(|e| (element.clone(), e))?;
                *current = ModelFile::parse(current.path.clone(), text);
                if let Some(a) = out.applied.iter_mut().find(|a| a.element == element) {
                    a.value = scaled.to_string();
                }
            }
            if (sum - 1.0).abs() > 1e-6 {
                out.notes.push(format!(
                    "{branch}: the transitions' probabilities summed to {sum}; scaled to sum to 1"
                ));
            }
        }
    }
    Ok(())
}

type Edits = (Vec<beagle_pcm::edit::TextEdit>, String, Option<String>);

fn edits_for(file: &ModelFile, kind: &ElementKind, fe: &FinalExpression) -> Result<Edits, EditError> {
    let stoex = fe.proposal.stoex.as_str();
    match kind {
        ElementKind::ResourceDemand { action, resource } => {
            Ok((file.set_resource_demand(action, resource, stoex)?, stoex.into(), None))
        }
        ElementKind::Loop { loop_id } => Ok((file.set_loop_iteration_count(loop_id, stoex)?, stoex.into(), None)),
        ElementKind::CallParameter { call, parameter } => {
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
            Ok((file.set_variable_characterisation(&target, stoex)?, stoex.into(), None))
        }
        ElementKind::Branch { branch, transition } => branch_edits(file, branch, transition, fe),
    }
}

fn branch_edits(file: &ModelFile, branch: &str, transition: &str, fe: &FinalExpression) -> Result<Edits, EditError> {
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
            Ok((file.set_branch_condition(transition, &spec)?, spec, note))
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
            let edits = file.set_branch_probability(transition, probability)?;
            Ok((edits, probability.to_string(), note))
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
