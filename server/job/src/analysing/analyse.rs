//! The analysis of a job (what [`crate::job::run`] does before it validates): resolve the
//! measurements (read them, take them from the store, or measure the Java system), then per
//! repository build the blackboard from the model, run the analysis loop with a checkpoint after
//! every step, and collect the final expressions.
//!
//! The store (`.beagle/beagle.sqlite` next to the workspace) makes jobs cheap to repeat: the same
//! measurement inputs are not read again; the same analysis that finished at least as precisely
//! as asked is not run again (`fresh` forces it); an analysis killed mid-way resumes from its
//! last step; elements another finished analysis of the same measurements made final are reused.
//!
//! Demands stay in milliseconds in the store and the rows' `expression`; each repository's
//! [`DemandUnits`] (from the deployment, [`crate::writing::units`]) converts them where they are
//! written and in the rows' `work_units`.
//!
//! Nothing here prints: progress and intermediate results go to an [`Observer`], the outcome is
//! plain data ([`JobOutput`]), and [`Control`] pauses or aborts the job from another thread.
//!
//! Apart from the job so that the validation of a measurement workspace, which analyses a copy,
//! runs this without depending on the job that validates.

use crate::context::Context;
use crate::error::JobError;
use crate::measuring::measured::Measured;
use crate::observer::{Event, Observer};
use crate::output::{Analysed, JobOutput, MeasuredSummary};
use crate::report::{self, Diagnostic, Report, ResultRow};
use crate::request::Request;
use crate::workspace::Source;
use crate::writing::units::Rates;
use beagle_analysis::{
    analyse_with_checkpoints, content_key, scope_elements, Blackboard, Control, DemandUnits, ElementKind,
    FinalExpression, FitnessFunction, MeasurableElement, MeasurementResult, Outcome, RecordedResults, RunDescription,
    Scope, Status, StopRules, Store, Tools,
};
use beagle_measure::FileError;
use beagle_pcm::{ModelFile, Severity};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Whether a stored final expression is published the way `spread` asks: a constant found
/// under the other setting is measured the same but written differently, so it is redone.
fn published_as_asked(element: &MeasurableElement, fe: &FinalExpression, spread: beagle_fit::Spread) -> bool {
    if matches!(element.kind, beagle_analysis::ElementKind::Branch { .. }) {
        // A branch probability is one number either way.
        return true;
    }
    let distribution = ["DoublePDF[", "IntPMF["]
        .iter()
        .any(|p| fe.proposal.stoex.starts_with(p));
    let constant = fe.proposal.variables.is_empty() && !fe.proposal.stoex.contains('?');
    !constant || distribution == (spread == beagle_fit::Spread::Distribution)
}

/// Measurements, then every repository of the workspace in turn: a job without its validation
/// ([`Settings::validate`](crate::Settings::validate) is not looked at).
pub(crate) fn analyse(
    request: &Request,
    observer: &mut dyn Observer,
    control: &Control,
) -> Result<JobOutput, JobError> {
    let ws = &request.workspace;
    let source = ws.source.clone().ok_or(JobError::NoMeasurements)?;
    // Before measuring: a `measured_on` that names no container fails now, not after an hour.
    let rates = Rates::load(ws)?;
    let mut store = Store::open(&ws.root)?;
    let mut report = Report::default();
    let mut cx = Context {
        settings: &request.settings,
        store: &mut store,
        observer,
        control,
        report: &mut report,
    };
    let measured = match &source {
        Source::Java { config, links } => {
            let measured = crate::measuring::java::measure(
                &ws.root,
                &ws.repositories,
                config,
                links.as_deref(),
                &request.scope,
                &mut cx,
            );
            if measured.is_err() {
                for d in (cx.report.diagnostics.iter()).filter(|d| d.severity == Severity::Warning) {
                    cx.observer.on(Event::Warning(&d.message));
                }
            }
            measured?
        }
        other => {
            cx.observer.on(Event::Stage("reading the measurements"));
            crate::measuring::files::load(other, cx.store, &model_elements(&ws.repositories))?
        }
    };
    for note in &measured.notes {
        cx.report.diagnostics.push(Diagnostic::info(None, note.clone()));
    }
    cx.report.inputs.files = measured.inputs.clone();
    let mut analysed = Vec::new();
    for path in &ws.repositories {
        if control.cancel.is_cancelled() {
            break;
        }
        analysed.push(analyse_repository(path, &request.scope, &measured, &rates, &mut cx)?);
    }
    let demands = (cx.report.results.iter()).any(|r| r.kind == "resource_demand");
    if let (true, Some(note)) = (demands, rates.milliseconds_note()) {
        cx.report.diagnostics.push(Diagnostic::info(None, note));
    }
    // The results as analysed, overridden by the raw observations where the analysis got medians.
    let mut raw: BTreeMap<String, MeasurementResult> = measured
        .results
        .iter()
        .map(|(e, r)| (e.id.clone(), r.clone()))
        .collect();
    raw.extend(measured.raw.iter().map(|(e, r)| (e.id.clone(), r.clone())));
    Ok(JobOutput {
        measured: MeasuredSummary {
            events: measured.summary.events,
            executions: measured.summary.executions,
            cached: measured.cached,
            key: measured.key.clone(),
        },
        raw,
        repositories: analysed,
        report,
        validation: None,
    })
}

/// Every element of every SEFF of the repositories (a repository that cannot be read adds none:
/// its analysis reports why).
pub(crate) fn model_elements(repositories: &[PathBuf]) -> Vec<MeasurableElement> {
    let mut out = Vec::new();
    for path in repositories {
        let Ok(bytes) = std::fs::read(path) else { continue };
        let file = ModelFile::from_bytes(path.clone(), bytes);
        if let Some(model) = file
            .repository
            .as_ref()
            .and_then(|r| scope_elements(r, &Scope::Repository).ok())
        {
            out.extend(model.elements);
        }
    }
    out
}

fn analyse_repository(
    path: &Path,
    scope: &Scope,
    measured: &Measured,
    rates: &Rates,
    cx: &mut Context,
) -> Result<Analysed, JobError> {
    let settings = cx.settings;
    let original = std::fs::read(path).map_err(JobError::unreadable(path))?;
    let file = ModelFile::from_bytes(path.to_path_buf(), original.clone());
    let shown = path.display().to_string();
    let repo = file
        .repository
        .as_ref()
        .filter(|_| file.tree.errors.is_empty())
        .ok_or_else(
            || match file.diagnostics.iter().find(|d| d.severity == Severity::Error) {
                Some(d) => FileError {
                    file: path.to_path_buf(),
                    line: Some(file.line_col(d.span.start as usize).line as usize),
                    message: d.message.clone(),
                },
                None => FileError::new(path, "not a PCM repository"),
            },
        )?;
    for d in file.diagnostics.iter().filter(|d| d.severity == Severity::Error) {
        cx.report.diagnostics.push(Diagnostic {
            severity: Severity::Warning,
            file: Some(shown.clone()),
            line: Some(file.line_col(d.span.start as usize).line),
            element: d.element.clone(),
            message: format!("the model has a problem here: {}", d.message),
        });
    }
    let mut model = scope_elements(repo, scope).map_err(|source| JobError::Scope {
        repository: path.to_path_buf(),
        source,
    })?;
    for message in model.adopt(&measured.elements()) {
        cx.report.diagnostics.push(Diagnostic {
            severity: Severity::Warning,
            file: Some(shown.clone()),
            line: None,
            element: None,
            message,
        });
    }
    // The scope's elements that no measurement reached, for the inputs report.
    let observed: std::collections::BTreeSet<&str> = (measured.results.iter())
        .filter(|(_, r)| r.samples() > 0)
        .map(|(e, _)| e.id.as_str())
        .collect();
    for e in model.elements.iter().filter(|e| !observed.contains(e.id.as_str())) {
        let action = beagle_analysis::model::action_of(&e.kind);
        cx.report.inputs.unmeasured.push(report::Unmeasured {
            element: e.id.clone(),
            name: repo.action(action).and_then(|a| a.name.clone()).unwrap_or_default(),
            file: shown.clone(),
            line: report::line_of(&file, action),
        });
    }
    let fitness = FitnessFunction::default();
    let stop = StopRules {
        budget_ms: settings.budget_ms,
        ..StopRules::default()
    };
    let run_key = content_key(&[
        b"beagle-run",
        env!("CARGO_PKG_VERSION").as_bytes(),
        &original,
        scope.to_string().as_bytes(),
        measured.key.as_bytes(),
        &settings.seed.to_le_bytes(),
        &[settings.gp as u8, settings.spread as u8],
        &serde_json::to_vec(&(&fitness, &stop))?,
    ]);
    // Elements another finished analysis of these measurements made final, at least as precisely.
    let mut reused: BTreeMap<String, (MeasurableElement, FinalExpression)> = BTreeMap::new();
    // The run each reused result comes from.
    let mut reused_from: BTreeMap<String, usize> = BTreeMap::new();
    let mut same_run: Option<Blackboard> = None;
    if !settings.fresh {
        for (index, run) in (cx.store.finished_runs(&measured.key)?).into_iter().enumerate() {
            if !run.is_at_least_as_precise_as(&fitness, &stop) {
                continue;
            }
            if run.run_key == run_key && same_run.is_none() {
                same_run = Some(run.blackboard.clone());
            }
            for (id, fe) in run.blackboard.final_expressions() {
                let Some(element) = run.blackboard.element(id) else {
                    continue;
                };
                if fe.status == Status::Final
                    && model.elements.contains(element)
                    && published_as_asked(element, fe, settings.spread)
                {
                    reused
                        .entry(id.clone())
                        .or_insert_with(|| (element.clone(), fe.clone()));
                    reused_from.entry(id.clone()).or_insert(index);
                }
            }
        }
    }
    // A branch's transitions are published together, summing to 1 (`beagle_analysis::branches`):
    // they are reused only all of them, from one run; else the branch is analysed again.
    let branch_of = |e: &MeasurableElement| match &e.kind {
        ElementKind::Branch { branch, .. } => Some(branch.clone()),
        _ => None,
    };
    let mut runs_of_branch: BTreeMap<String, BTreeSet<Option<usize>>> = BTreeMap::new();
    for e in &model.elements {
        if let Some(b) = branch_of(e) {
            runs_of_branch
                .entry(b)
                .or_default()
                .insert(reused_from.get(&e.id).copied());
        }
    }
    reused.retain(|_, (e, _)| branch_of(e).is_none_or(|b| runs_of_branch[&b].len() == 1));
    let (bb, headline, cached_ids, aborted) = if let Some(bb) = same_run {
        let ids = bb.final_expressions().keys().cloned().collect();
        (
            bb,
            "taken from the store (same model, measurements and settings)".to_string(),
            ids,
            false,
        )
    } else {
        let todo: Vec<MeasurableElement> = model
            .elements
            .iter()
            .filter(|e| !reused.contains_key(&e.id))
            .cloned()
            .collect();
        let run = RunDescription {
            run_key,
            measurement_key: measured.key.clone(),
            // Absolute, so that whoever shows results later (the language server) finds them.
            repository: path
                .canonicalize()
                .map_or_else(|_| shown.clone(), |p| p.display().to_string()),
            scope: scope.to_string(),
            seed: settings.seed,
            budget_ms: settings.budget_ms,
        };
        let (bb, headline, aborted) = run_loop(path, todo, fitness, stop, &run, measured, cx)?;
        (bb, headline, reused.keys().cloned().collect::<Vec<_>>(), aborted)
    };
    let mut finals: BTreeMap<String, (MeasurableElement, FinalExpression)> = reused;
    for (id, fe) in bb.final_expressions() {
        if let Some(e) = bb.element(id) {
            finals.insert(id.clone(), (e.clone(), fe.clone()));
        }
    }
    note_probe_costs(&mut finals, &measured.summary.probe_costs);
    crate::analysing::settled::settle(&mut finals, &measured.requested, &measured.summary.probe_costs);
    crate::analysing::launch_hints::add(&mut finals, bb.results(), &measured.launches);
    for id in crate::analysing::launch_hints::undeclared(&mut finals, bb.results(), &measured.launches) {
        let (e, fe) = &finals[&id];
        for u in fe.proposal.evidence.iter().flat_map(|ev| &ev.undeclared) {
            cx.report.diagnostics.push(Diagnostic {
                severity: Severity::Warning,
                file: Some(shown.clone()),
                line: report::line_of(&file, beagle_analysis::model::action_of(&e.kind)),
                element: Some(id.clone()),
                message: crate::analysing::launch_hints::undeclared_hint(repo, e, u),
            });
        }
    }
    for d in bb.diagnostics() {
        let diagnostic = report::from_blackboard(&file, path, &bb, d);
        // An element the measurement tool could not measure already says why (the Java tool:
        // "not measured: not linked to code"); that it was then never executed adds nothing.
        let said = |e: &String| {
            (cx.report.diagnostics.iter()).any(|o| o.element.as_ref() == Some(e) && o.message.contains("not measured:"))
        };
        if d.ends_with(beagle_analysis::analysis_loop::NEVER_EXECUTED) && diagnostic.element.as_ref().is_some_and(said)
        {
            continue;
        }
        cx.report.diagnostics.push(diagnostic);
    }
    for e in &model.elements {
        if !finals.contains_key(&e.id) && !bb.diagnostics().iter().any(|d| d.starts_with(&format!("{}:", e.id))) {
            cx.report.diagnostics.push(Diagnostic {
                severity: Severity::Warning,
                file: Some(shown.clone()),
                line: report::line_of(&file, beagle_analysis::model::action_of(&e.kind)),
                element: Some(e.id.clone()),
                message: format!("{}: no result (nothing measured it)", e.id),
            });
        }
    }
    let units = rates.units_for(repo);
    let rows: Vec<ResultRow> = finals
        .values()
        .map(|(e, fe)| report::row(&file, e, fe, cached_ids.contains(&e.id), &units))
        .collect();
    cx.report.results.extend(rows.iter().cloned());
    cx.report.diagnostics.extend(unconverted(&file, path, &finals, &units));
    if settings.write {
        let written = beagle_analysis::write_back(&file, finals.values().map(|(e, fe)| (e, fe)), true, &units)
            .map_err(|source| JobError::WriteBack {
                repository: path.to_path_buf(),
                source,
            })?;
        for note in &written.notes {
            cx.report.diagnostics.push(Diagnostic {
                severity: Severity::Info,
                file: Some(shown.clone()),
                line: None,
                element: note.split_once(':').map(|(id, _)| id.to_string()),
                message: note.clone(),
            });
        }
        if written.text.as_bytes() != original.as_slice() {
            crate::atomic::replace_if_unchanged(path, &original, &written.text)?;
        }
    }
    Ok(Analysed {
        path: path.to_path_buf(),
        original,
        rows,
        headline,
        finals,
        units,
        blackboard: bb,
        aborted,
    })
}

/// One warning per reason a demand has no work units (a component on containers that disagree
/// names them once, not per action), at the first such demand's line.
fn unconverted(
    file: &ModelFile,
    path: &Path,
    finals: &BTreeMap<String, (MeasurableElement, FinalExpression)>,
    units: &DemandUnits,
) -> Vec<Diagnostic> {
    let Some(repo) = &file.repository else {
        return Vec::new();
    };
    let mut by_reason: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for (e, _) in finals.values() {
        if let ElementKind::ResourceDemand { action, resource } = &e.kind {
            if let beagle_analysis::DemandUnit::Unconvertible(why) = units.of_action(repo, action, resource) {
                by_reason.entry(why).or_default().push(action);
            }
        }
    }
    (by_reason.into_iter())
        .map(|(why, actions)| Diagnostic {
            severity: Severity::Warning,
            file: Some(path.display().to_string()),
            line: report::line_of(file, actions[0]),
            element: Some(actions[0].to_string()),
            message: format!(
                "{}: {} without work units: {why}; shown in milliseconds and not written into the model \
                 (Palladio would read milliseconds as work units)",
                actions.join(", "),
                if actions.len() == 1 {
                    "a demand".to_string()
                } else {
                    format!("{} demands", actions.len())
                }
            ),
        })
        .collect()
}

/// A demand's evidence says what the probes' own cost was and that it was subtracted (the Java
/// tool reports demands net of it: `beagle_analysis::ProbeCost`).
fn note_probe_costs(
    finals: &mut BTreeMap<String, (MeasurableElement, FinalExpression)>,
    costs: &BTreeMap<String, beagle_analysis::ProbeCost>,
) {
    for (e, fe) in finals.values_mut() {
        let ElementKind::ResourceDemand { action, .. } = &e.kind else {
            continue;
        };
        let (Some(cost), Some(evidence)) = (costs.get(action), fe.proposal.evidence.as_mut()) else {
            continue;
        };
        let note = cost.describe();
        if !evidence.notes.contains(&note) {
            evidence.notes.push(note);
        }
    }
}

/// Runs (or resumes) the analysis loop, checkpointing every step into the store. Returns the
/// blackboard, a headline, and whether it was aborted.
fn run_loop(
    path: &Path,
    elements: Vec<MeasurableElement>,
    fitness: FitnessFunction,
    stop: StopRules,
    description: &RunDescription,
    measured: &Measured,
    cx: &mut Context,
) -> Result<(Blackboard, String, bool), JobError> {
    let shown = &path.display().to_string();
    let count = elements.len();
    let fresh_bb = Blackboard::new(elements)
        .with_fitness(fitness)
        .with_stop_rules(stop)
        .with_code_constants(measured.constants.clone());
    let (mut bb, run) = match cx.store.unfinished_run(&description.run_key)? {
        Some(r) if !cx.settings.fresh => {
            cx.observer.on(Event::Note(&format!(
                "{shown}: resuming run {} from step {}",
                r.run.0, r.step
            )));
            (r.blackboard, r.run)
        }
        _ => {
            let run = cx.store.start_run(description, &fresh_bb)?;
            (fresh_bb, run)
        }
    };
    let tools = Tools::standard(
        vec![Box::new(RecordedResults {
            id: measured.tool.clone(),
            results: measured.results.clone(),
        })],
        cx.settings.fit_options(),
    );
    let started = Instant::now();
    cx.observer.on(Event::AnalysisStarted {
        repository: path,
        elements: count,
        steps: bb.steps(),
    });
    let (store, observer) = (&mut *cx.store, &mut *cx.observer);
    // Both callbacks want the observer: progress reports, checkpoints show intermediate results.
    let observer = std::cell::RefCell::new(observer);
    let outcome = analyse_with_checkpoints(
        &mut bb,
        &tools,
        cx.control,
        &mut |p| {
            observer.borrow_mut().on(Event::Analysis {
                repository: path,
                progress: p,
                elements: count,
            })
        },
        &mut |bb| {
            observer.borrow_mut().on(Event::Checkpoint {
                repository: path,
                blackboard: bb,
            });
            store.checkpoint(run, bb.steps(), bb)
        },
    );
    let observer = observer.into_inner();
    observer.on(Event::AnalysisDone { repository: path });
    let outcome = outcome.map_err(|source| JobError::Stopped {
        repository: path.to_path_buf(),
        source,
    })?;
    let took = started.elapsed().as_secs_f64();
    match outcome {
        Outcome::Finished(reason) => {
            store.finish_run(run, reason, &bb)?;
            let why = match reason {
                beagle_analysis::FinishReason::AllFinal => "every element final",
                beagle_analysis::FinishReason::NoImprovement => "no further improvement",
                beagle_analysis::FinishReason::BudgetSpent => "budget spent",
                beagle_analysis::FinishReason::NobodyCanContribute => "nothing more to learn from these measurements",
            };
            let headline = format!("{count} elements analysed in {} steps, {took:.1} s ({why})", bb.steps());
            Ok((bb, headline, false))
        }
        Outcome::Aborted => {
            store.abort_run(run, &bb)?;
            let headline = format!("aborted after {} steps; analysing again resumes", bb.steps());
            Ok((bb, headline, true))
        }
    }
}
