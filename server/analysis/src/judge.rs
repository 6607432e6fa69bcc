//! The final judge: grades every proposal with the blackboard's fitness function, keeps the best
//! per element (preliminary, or final once good enough), and decides when the analysis stops.
//! Its one piece of memory (contributing steps without improvement) is its private data.

use crate::blackboard::{Blackboard, FinalExpression, Status, Want};
use crate::views::FinalJudgeView;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What the step before the judgement did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// Measurement tools ran.
    Measured,
    /// An analyser contributed (these steps count towards [`FinishReason::NoImprovement`]).
    Analysed,
    /// Nobody could contribute.
    Nothing,
}

/// Why an analysis finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    /// Every element has a final expression.
    AllFinal,
    /// [`crate::StopRules::stall_rounds`] contributing steps improved nothing.
    NoImprovement,
    /// [`crate::StopRules::budget_ms`] spent.
    BudgetSpent,
    /// No tool can contribute any more.
    NobodyCanContribute,
}

#[derive(Default, Serialize, Deserialize)]
struct JudgeData {
    stall: usize,
}

/// See the module documentation.
#[derive(Clone, Debug, Default)]
pub struct FinalJudge;

impl FinalJudge {
    /// Grades the proposals; `true` when some element's best improved meaningfully.
    pub fn grade(&self, view: &mut FinalJudgeView) -> bool {
        let f = view.fitness_function().clone();
        let min = view.blackboard().stop_rules().min_improvement;
        let mut updates = Vec::new();
        // Only a better fitness counts as an improvement (the stall rule); a proposal checked on
        // held-out points replaces an unchecked one whatever their grades.
        let mut improved = false;
        for (id, ps) in view.blackboard().proposals() {
            // Proposals checked on held-out points compete among themselves: their grade is a
            // held-out error, which a training error would undercut unfairly.
            let checked = ps.iter().any(|p| p.evidence.is_some());
            let Some(best) = ps
                .iter()
                .filter(|p| !checked || p.evidence.is_some())
                .map(|p| (f.grade(p), p))
                .filter(|(g, _)| g.is_finite())
                .min_by(|a, b| a.0.total_cmp(&b.0))
            else {
                continue;
            };
            let current = view.blackboard().final_expressions().get(id);
            // Compared with the judge's own choice, not with what a branch derived from it.
            let chosen = current.map(|c| c.fitted.as_ref().unwrap_or(&c.proposal));
            let replaces_unchecked = checked && chosen.is_some_and(|c| c.evidence.is_none());
            let better = current.is_none_or(|c| best.0 < c.fitness - min);
            improved |= better;
            if replaces_unchecked || better {
                let (status, reasons) = f.verdict(best.1);
                let fe = FinalExpression {
                    proposal: best.1.clone(),
                    fitness: best.0,
                    status,
                    reasons,
                    fitted: None,
                };
                updates.push((id.clone(), fe));
            }
        }
        for (id, fe) in updates {
            view.set_final(&id, fe);
        }
        // Chosen one by one, a branch's transitions need not sum to 1: what they publish is
        // derived from the choices together.
        for (id, fe) in crate::branches::reconcile(view.blackboard()) {
            view.set_final(&id, fe);
        }
        improved
    }

    /// The evidence the preliminary results ask for, by what would settle their reasons: per
    /// kind of measurement, the elements that want it. A measurement tool that can measure more
    /// (the Java tool between its passes) measures what is asked; elements that are final, or
    /// preliminary for reasons no measurement settles, ask nothing.
    pub fn wanted_evidence(&self, bb: &Blackboard) -> BTreeMap<Want, Vec<String>> {
        let mut out: BTreeMap<Want, Vec<String>> = BTreeMap::new();
        for (id, fe) in bb.final_expressions() {
            if fe.status == Status::Final {
                continue;
            }
            let wants = fe.proposal.evidence.as_ref().map(|e| e.wants.clone());
            // Never checked on held-out points: too few measurements to check it on.
            for want in wants.unwrap_or_else(|| vec![Want::Points]) {
                out.entry(want).or_default().push(id.clone());
            }
        }
        out
    }

    /// The holes in the inputs of the preliminary results' laws (`beagle_fit`'s coverage rule):
    /// per element, the input and the measured values either side. A measurement tool that can
    /// map them to its own parameters (the Java tool, through its launches) measures there.
    pub fn wanted_holes(&self, bb: &Blackboard) -> Vec<(String, (String, f64, f64))> {
        let mut out = Vec::new();
        for (id, fe) in bb.final_expressions() {
            if fe.status == Status::Final {
                continue;
            }
            for hole in fe.proposal.evidence.iter().flat_map(|e| e.holes.iter()) {
                out.push((id.clone(), hole.clone()));
            }
        }
        out
    }

    /// Grades, then decides: `Some(reason)` when the analysis is finished. `step`: what the step
    /// before did; `spent_ms`: wall time used so far.
    pub fn judge(&self, view: &mut FinalJudgeView, step: StepKind, spent_ms: u64) -> Option<FinishReason> {
        let improved = self.grade(view);
        let mut data: JudgeData = view
            .private_data()
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or_default();
        if step == StepKind::Analysed {
            data.stall = if improved { 0 } else { data.stall + 1 };
        }
        view.set_private_data(serde_json::to_value(&data).unwrap_or_default());
        let bb = view.blackboard();
        let finals = bb.final_expressions();
        let all_final = bb.elements().count() > 0
            && bb
                .elements()
                .all(|e| finals.get(&e.id).is_some_and(|f| f.status == Status::Final));
        let rules = bb.stop_rules();
        if all_final {
            Some(FinishReason::AllFinal)
        } else if rules.budget_ms.is_some_and(|b| spent_ms >= b) {
            Some(FinishReason::BudgetSpent)
        } else if rules.stall_rounds.is_some_and(|s| data.stall >= s) {
            Some(FinishReason::NoImprovement)
        } else if step == StepKind::Nothing {
            Some(FinishReason::NobodyCanContribute)
        } else {
            None
        }
    }
}
