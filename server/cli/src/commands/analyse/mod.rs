//! `beagle analyse`: measurements in, expressions per SEFF element out (and into the model with
//! `--write`). A thin driver of the analysis core: it resolves the workspace, reads (or takes from
//! the store) the measurements, builds the blackboard from the repository, runs the analysis loop
//! with a checkpoint after every step, and reports.
//!
//! The store (`.beagle/beagle.sqlite` next to the workspace) makes runs cheap to repeat: the same
//! measurement inputs are not read again; the same analysis that finished at least as precisely
//! as asked is not run again (`--fresh` forces it); an analysis killed mid-way resumes from its
//! last step; elements another finished analysis of the same measurements made final are reused.

mod atomic;
mod java;
mod measurements;
mod progress;
mod report;
mod workspace;

use beagle_analysis::{
    analyse_with_checkpoints, content_key, scope_elements, Blackboard, Control, FinalExpression, FitnessFunction,
    MeasurableElement, Outcome, RecordedResults, RunDescription, Scope, Status, StopRules, Store, Tools,
};
use beagle_pcm::{ModelFile, Severity};
use measurements::Measured;
use report::{Diagnostic, Report};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use workspace::Source;

#[derive(clap::Args)]
pub struct Args {
    /// A workspace folder with a beagle.toml, or a .repository file.
    #[arg(default_value = ".")]
    path: PathBuf,
    /// Analyse only this component (its name or id).
    #[arg(long, value_name = "NAME|ID", conflicts_with = "action")]
    component: Option<String>,
    /// Analyse only this action (an internal action, loop, branch or external call id).
    #[arg(long, value_name = "ID")]
    action: Option<String>,
    /// Measurements in the Beagle events format (one JSON event per line).
    #[arg(long, value_name = "FILE", conflicts_with = "kieker")]
    events: Option<PathBuf>,
    /// Measurements as a Kieker text log folder (kieker.map + *.dat).
    #[arg(long, value_name = "DIR")]
    kieker: Option<PathBuf>,
    /// Operation mapping (TOML) for Kieker's standard records.
    #[arg(long, value_name = "FILE", requires = "kieker")]
    mapping: Option<PathBuf>,
    /// Write the results into the repository file (atomically, only if it did not change meanwhile).
    #[arg(long)]
    write: bool,
    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
    /// Wall time the analysis may take, in seconds (results are preliminary when it runs out).
    #[arg(long, value_name = "SECONDS")]
    budget: Option<f64>,
    /// Seed of the genetic programming: the same seed gives the same expressions.
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads of the genetic programming (results do not depend on it).
    #[arg(long)]
    threads: Option<usize>,
    /// Leave out the genetic programming (regression, thresholds and MARS only).
    #[arg(long)]
    no_gp: bool,
    /// Analyse again even when the store holds results at least as precise.
    #[arg(long)]
    fresh: bool,
    /// A line per analysis step on stderr.
    #[arg(long, short)]
    verbose: bool,
}

/// What one repository's analysis produced.
struct Analysed {
    path: PathBuf,
    rows: Vec<report::ResultRow>,
    headline: String,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let mut ws = workspace::resolve(&args.path)?;
    if let Some(e) = &args.events {
        ws.source = Some(Source::Events(e.clone()));
    }
    if let Some(k) = &args.kieker {
        ws.source = Some(Source::Kieker {
            dir: k.clone(),
            mapping: args.mapping.clone(),
        });
    }
    let source = ws.source.clone().ok_or_else(|| {
        "no measurements: give --events FILE or --kieker DIR, or name them in beagle.toml's [measurements]".to_string()
    })?;
    let scope = match (&args.component, &args.action) {
        (Some(c), _) => Scope::Component(c.clone()),
        (_, Some(a)) => Scope::Action(a.clone()),
        _ => Scope::Repository,
    };
    let budget_s = args.budget.or(ws.budget_s);
    if budget_s.is_some_and(|b| !(b > 0.0 && b.is_finite())) {
        return Err("--budget must be a positive number of seconds".into());
    }
    let settings = Settings {
        seed: args.seed.or(ws.seed).unwrap_or(1),
        budget_ms: budget_s.map(|b| (b * 1000.0) as u64),
        gp: !args.no_gp,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1),
        fresh: args.fresh,
        verbose: args.verbose,
    };
    let mut store = Store::open(&ws.root).map_err(|e| e.to_string())?;
    let mut report = Report::default();
    let measured = match &source {
        Source::Java { config, links } => java::measure(
            &ws.root,
            &ws.repositories,
            config,
            links.as_deref(),
            &scope,
            &settings,
            &mut store,
            &mut report,
        )?,
        other => measurements::load(other, &mut store)?,
    };
    for note in &measured.notes {
        report.diagnostics.push(Diagnostic {
            severity: "info",
            file: None,
            line: None,
            element: None,
            message: note.clone(),
        });
    }
    let mut analysed = Vec::new();
    for path in &ws.repositories {
        let a = analyse_repository(path, &scope, &measured, &settings, &mut store, args.write, &mut report)?;
        analysed.push(a);
    }
    if !args.json {
        let s = &measured.summary;
        println!(
            "measurements: {} events, {} service executions{}",
            s.events,
            s.executions,
            if measured.cached { " (from the store)" } else { "" }
        );
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
    } else {
        for a in &analysed {
            report::print_text(&a.path, &a.rows, &a.headline);
        }
        for d in &report.diagnostics {
            let at = match (&d.file, d.line) {
                (Some(f), Some(l)) => format!("{f}:{l}: "),
                (Some(f), None) => format!("{f}: "),
                _ => String::new(),
            };
            eprintln!("{}: {at}{}", d.severity, d.message);
        }
    }
    let failed = report.diagnostics.iter().any(|d| d.severity == "error");
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

struct Settings {
    seed: u64,
    budget_ms: Option<u64>,
    gp: bool,
    threads: usize,
    fresh: bool,
    verbose: bool,
}

impl Settings {
    fn fit_options(&self) -> beagle_fit::FitOptions {
        let mut options = beagle_fit::FitOptions::default();
        match &mut options.gp {
            Some(gp) if self.gp => {
                gp.seed = self.seed;
                gp.threads = self.threads;
                // A safety net per element; the generation budget normally ends the search first,
                // which keeps results independent of the machine's speed.
                gp.time_limit = Some(Duration::from_secs(20));
            }
            _ => options.gp = None,
        }
        options
    }
}

fn analyse_repository(
    path: &Path,
    scope: &Scope,
    measured: &Measured,
    settings: &Settings,
    store: &mut Store,
    write: bool,
    report: &mut Report,
) -> Result<Analysed, String> {
    let original = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let file = ModelFile::from_bytes(path.to_path_buf(), original.clone());
    let shown = path.display().to_string();
    let repo = file
        .repository
        .as_ref()
        .filter(|_| file.tree.errors.is_empty())
        .ok_or_else(
            || match file.diagnostics.iter().find(|d| d.severity == Severity::Error) {
                Some(d) => format!("{shown}:{}: {}", file.line_col(d.span.start as usize).line, d.message),
                None => format!("{shown}: not a PCM repository"),
            },
        )?;
    for d in file.diagnostics.iter().filter(|d| d.severity == Severity::Error) {
        report.diagnostics.push(Diagnostic {
            severity: "warning",
            file: Some(shown.clone()),
            line: Some(file.line_col(d.span.start as usize).line),
            element: d.element.clone(),
            message: format!("the model has a problem here: {}", d.message),
        });
    }
    let mut model = scope_elements(repo, scope).map_err(|e| format!("{shown}: {e}"))?;
    for message in model.adopt(&measured.elements()) {
        report.diagnostics.push(Diagnostic {
            severity: "warning",
            file: Some(shown.clone()),
            line: None,
            element: None,
            message,
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
        &[settings.gp as u8],
        &serde_json::to_vec(&(&fitness, &stop)).map_err(|e| e.to_string())?,
    ]);
    // Elements another finished analysis of these measurements made final, at least as precisely.
    let mut reused: BTreeMap<String, (MeasurableElement, FinalExpression)> = BTreeMap::new();
    let mut same_run: Option<Blackboard> = None;
    if !settings.fresh {
        for run in store.finished_runs(&measured.key).map_err(|e| e.to_string())? {
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
                if fe.status == Status::Final && model.elements.contains(element) {
                    reused
                        .entry(id.clone())
                        .or_insert_with(|| (element.clone(), fe.clone()));
                }
            }
        }
    }
    let (bb, headline, cached_ids) = if let Some(bb) = same_run {
        let ids = bb.final_expressions().keys().cloned().collect();
        (
            bb,
            "taken from the store (same model, measurements and settings)".to_string(),
            ids,
        )
    } else {
        let todo: Vec<MeasurableElement> = model
            .elements
            .iter()
            .filter(|e| !reused.contains_key(&e.id))
            .cloned()
            .collect();
        let (bb, headline) = run_loop(&shown, todo, fitness, stop, &run_key, scope, measured, settings, store)?;
        (bb, headline, reused.keys().cloned().collect::<Vec<_>>())
    };
    let mut finals: BTreeMap<String, (MeasurableElement, FinalExpression)> = reused;
    for (id, fe) in bb.final_expressions() {
        if let Some(e) = bb.element(id) {
            finals.insert(id.clone(), (e.clone(), fe.clone()));
        }
    }
    for d in bb.diagnostics() {
        report.diagnostics.push(report::from_blackboard(&file, path, &bb, d));
    }
    for e in &model.elements {
        if !finals.contains_key(&e.id) && !bb.diagnostics().iter().any(|d| d.starts_with(&format!("{}:", e.id))) {
            report.diagnostics.push(Diagnostic {
                severity: "warning",
                file: Some(shown.clone()),
                line: report::line_of(&file, beagle_analysis::model::action_of(&e.kind)),
                element: Some(e.id.clone()),
                message: format!("{}: no result (nothing measured it)", e.id),
            });
        }
    }
    let rows: Vec<report::ResultRow> = finals
        .values()
        .map(|(e, fe)| report::row(&file, e, fe, cached_ids.contains(&e.id)))
        .collect();
    report.results.extend(rows.iter().cloned());
    if write {
        let written = beagle_analysis::write_back(&file, finals.values().map(|(e, fe)| (e, fe)), true)
            .map_err(|e| format!("{shown}: {e}"))?;
        for note in &written.notes {
            report.diagnostics.push(Diagnostic {
                severity: "info",
                file: Some(shown.clone()),
                line: None,
                element: note.split_once(':').map(|(id, _)| id.to_string()),
                message: note.clone(),
            });
        }
        if written.text.as_bytes() != original.as_slice() {
            atomic::replace_if_unchanged(path, &original, &written.text)?;
        }
    }
    Ok(Analysed {
        path: path.to_path_buf(),
        rows,
        headline,
    })
}

/// Runs (or resumes) the analysis loop, checkpointing every step into the store.
#[allow(clippy::too_many_arguments)]
fn run_loop(
    shown: &str,
    elements: Vec<MeasurableElement>,
    fitness: FitnessFunction,
    stop: StopRules,
    run_key: &str,
    scope: &Scope,
    measured: &Measured,
    settings: &Settings,
    store: &mut Store,
) -> Result<(Blackboard, String), String> {
    let count = elements.len();
    let fresh_bb = Blackboard::new(elements)
        .with_fitness(fitness)
        .with_stop_rules(stop)
        .with_code_constants(measured.constants.clone());
    let (mut bb, run, resumed) = match store.unfinished_run(run_key).map_err(|e| e.to_string())? {
        Some(r) if !settings.fresh => (r.blackboard, r.run, Some(r.step)),
        _ => {
            let description = RunDescription {
                run_key: run_key.to_string(),
                measurement_key: measured.key.clone(),
                repository: shown.to_string(),
                scope: scope.to_string(),
                seed: settings.seed,
                budget_ms: settings.budget_ms,
            };
            let run = store.start_run(&description, &fresh_bb).map_err(|e| e.to_string())?;
            (fresh_bb, run, None)
        }
    };
    if let Some(step) = resumed {
        eprintln!("{shown}: resuming run {} from step {step}", run.0);
    }
    let tools = Tools::standard(
        vec![Box::new(RecordedResults {
            id: measured.tool.clone(),
            results: measured.results.clone(),
        })],
        settings.fit_options(),
    );
    let control = Control::new();
    let mut progress = progress::Reporter::new(shown, count, settings.verbose, bb.steps());
    let started = Instant::now();
    let outcome = analyse_with_checkpoints(&mut bb, &tools, &control, &mut |p| progress.on(p, count), &mut |bb| {
        store.checkpoint(run, bb.steps(), bb).map_err(|e| e.to_string())
    });
    progress.finish();
    let outcome = outcome.map_err(|e| format!("{shown}: the analysis stopped: {e}"))?;
    let took = started.elapsed().as_secs_f64();
    let headline = match outcome {
        Outcome::Finished(reason) => {
            store.finish_run(run, reason, &bb).map_err(|e| e.to_string())?;
            let why = match reason {
                beagle_analysis::FinishReason::AllFinal => "every element final",
                beagle_analysis::FinishReason::NoImprovement => "no further improvement",
                beagle_analysis::FinishReason::BudgetSpent => "budget spent",
                beagle_analysis::FinishReason::NobodyCanContribute => "nothing more to learn from these measurements",
            };
            format!("{count} elements analysed in {} steps, {took:.1} s ({why})", bb.steps())
        }
        Outcome::Aborted => {
            store.abort_run(run, &bb).map_err(|e| e.to_string())?;
            format!("aborted after {} steps; `beagle analyse` again resumes", bb.steps())
        }
    };
    Ok((bb, headline))
}
