//! The analysis loop, as the design's pseudocode has it: measure while there is something to
//! measure; else let one measurement-result analyser that can contribute contribute; else one
//! proposed-expression analyser; and the final judge after every step, until it says finished.
//! Between steps the loop honours pause and abort ([`Control`]) and counts the time budget; long
//! steps get the cancellation token. Everything it knows is on the blackboard, so running it again
//! on the same blackboard continues where it stopped.

use crate::analysers::{AveragingAnalyser, ConstantAnalyser, FitAnalyser};
use crate::analysers::{MeasurementResultAnalyser, ProposedExpressionAnalyser};
use crate::blackboard::{Blackboard, ElementKind};
use crate::control::Control;
use crate::judge::{FinalJudge, FinishReason, StepKind};
use crate::measurement::MeasurementTool;
use crate::views::{
    FinalJudgeView, MeasurementResultAnalyserView, MeasurementToolView, ProposedExpressionAnalyserView,
};
use std::time::{Duration, Instant};

/// The note of an element that no measurement observed (after `"{id}: "`).
pub const NEVER_EXECUTED: &str = "not measured: never executed (no measurement tool measured it)";

/// The set of tools in use (configurable: any implementations of the traits).
pub struct Tools {
    pub measurement: Vec<Box<dyn MeasurementTool>>,
    pub result_analysers: Vec<Box<dyn MeasurementResultAnalyser>>,
    pub proposal_analysers: Vec<Box<dyn ProposedExpressionAnalyser>>,
    pub judge: FinalJudge,
}

impl Tools {
    /// Constant, fitting engine and averaging analysers over the given measurement tools.
    pub fn standard(measurement: Vec<Box<dyn MeasurementTool>>, fit: beagle_fit::FitOptions) -> Self {
        Tools {
            measurement,
            result_analysers: vec![Box::new(ConstantAnalyser), Box::new(FitAnalyser::new(fit))],
            proposal_analysers: vec![Box::new(AveragingAnalyser)],
            judge: FinalJudge,
        }
    }
}

/// What the loop is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Measure,
    AnalyseResults,
    AnalyseProposals,
    Judge,
    Paused,
}

/// A progress event.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub phase: Phase,
    /// The element the step worked on, if one.
    pub element: Option<String>,
    /// Share of the elements with a final expression.
    pub fraction: f64,
    /// The element's best fitness so far (the worst over all elements when no element).
    pub best_fitness: Option<f64>,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Finished(FinishReason),
    /// Aborted through the cancellation token; the blackboard holds everything done so far.
    Aborted,
}

fn progress(bb: &Blackboard, phase: Phase, element: Option<String>) -> Progress {
    let finals = bb.final_expressions();
    let total = bb.elements().count().max(1) as f64;
    let done = finals
        .values()
        .filter(|f| f.status == crate::blackboard::Status::Final)
        .count();
    let best_fitness = match &element {
        Some(id) => finals.get(id).map(|f| f.fitness),
        None => finals.values().map(|f| f.fitness).max_by(f64::total_cmp),
    };
    Progress {
        phase,
        element,
        fraction: done as f64 / total,
        best_fitness,
    }
}

/// Runs the loop on `bb` (see the module documentation).
pub fn analyse(bb: &mut Blackboard, tools: &Tools, control: &Control, on: &mut dyn FnMut(&Progress)) -> Outcome {
    // The checkpoint never fails, so neither does this.
    match analyse_with_checkpoints(bb, tools, control, on, &mut |_| Ok::<(), std::convert::Infallible>(())) {
        Ok(outcome) => outcome,
        Err(never) => match never {},
    }
}

/// [`analyse`], handing the blackboard to `checkpoint` after every judged step (the store writes
/// it). A failing checkpoint stops the loop with its error: an analysis that cannot be saved
/// should not go on as if it could be resumed.
pub fn analyse_with_checkpoints<E>(
    bb: &mut Blackboard,
    tools: &Tools,
    control: &Control,
    on: &mut dyn FnMut(&Progress),
    checkpoint: &mut dyn FnMut(&Blackboard) -> Result<(), E>,
) -> Result<Outcome, E> {
    let base = bb.spent_ms;
    let start = Instant::now();
    let mut paused = Duration::ZERO;
    let cancel = &control.cancel;
    loop {
        if control.is_paused() {
            on(&progress(bb, Phase::Paused, None));
            let t = Instant::now();
            while control.is_paused() && !cancel.is_cancelled() {
                std::thread::sleep(Duration::from_millis(2));
            }
            paused += t.elapsed();
        }
        if cancel.is_cancelled() {
            return Ok(Outcome::Aborted);
        }
        let (phase, element, kind) = step(bb, tools, control);
        bb.steps += 1;
        bb.spent_ms = base + start.elapsed().saturating_sub(paused).as_millis() as u64;
        if cancel.is_cancelled() {
            // The interrupted step left nothing half-done (analysers do not record an interrupted
            // fit), but its blackboard is not checkpointed: the caller keeps the last one.
            return Ok(Outcome::Aborted);
        }
        on(&progress(bb, phase, element));
        let spent = bb.spent_ms;
        let verdict = tools.judge.judge(&mut FinalJudgeView::new(bb), kind, spent);
        on(&progress(bb, Phase::Judge, None));
        checkpoint(bb)?;
        if let Some(reason) = verdict {
            return Ok(Outcome::Finished(reason));
        }
    }
}

/// One step: (phase, element, what it did).
fn step(bb: &mut Blackboard, tools: &Tools, control: &Control) -> (Phase, Option<String>, StepKind) {
    let cancel = &control.cancel;
    if !bb.to_measure.is_empty() {
        for tool in &tools.measurement {
            tool.measure(&mut MeasurementToolView::new(bb, tool.id()), cancel);
        }
        crate::untaken::complete_untaken_transitions(bb);
        // What no tool observed is not asked again. It gets no result: an element that never ran
        // in a measured execution of its SEFF has no law to find (observations from other SEFFs'
        // executions or from warm-up are not its own: the tools drop them).
        for id in std::mem::take(&mut bb.to_measure) {
            let message = match bb.elements.get(&id).map(|e| &e.kind) {
                // The call ran (its other parameters were measured): this one is no value the
                // code passes, which "never executed" would hide.
                Some(ElementKind::CallParameter { call, parameter })
                    if bb
                        .results
                        .keys()
                        .any(|r| r.strip_prefix(call.as_str()).is_some_and(|r| r.starts_with('/'))) =>
                {
                    format!(
                        "{id}: not measured: the call ran, but no value its code passes stands for `{parameter}` (no parameter of the called method is matched to it: rename or link it)"
                    )
                }
                _ => format!("{id}: {NEVER_EXECUTED}"),
            };
            bb.diagnostics.push(message);
        }
        return (Phase::Measure, None, StepKind::Measured);
    }
    for a in &tools.result_analysers {
        let mut view = MeasurementResultAnalyserView::new(bb, a.id());
        if a.can_contribute(&view) {
            let element = a.contribute(&mut view, cancel);
            return (Phase::AnalyseResults, element, StepKind::Analysed);
        }
    }
    for a in &tools.proposal_analysers {
        let mut view = ProposedExpressionAnalyserView::new(bb, a.id());
        if a.can_contribute(&view) {
            let element = a.contribute(&mut view, cancel);
            return (Phase::AnalyseProposals, element, StepKind::Analysed);
        }
    }
    (Phase::Judge, None, StepKind::Nothing)
}
