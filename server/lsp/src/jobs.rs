//! Background analyses. Requests queue; one worker task runs them one after another, each job on
//! a blocking thread (the analysis core is synchronous) with its own [`Control`] for pause, resume
//! and abort. The job's events come back over a channel: progress becomes `$/progress`,
//! intermediate blackboards become preliminary results in hovers, and the final results are
//! written into the documents as workspace edits.

use crate::progress::ProgressGuard;
use crate::queue::{progress_token, JobSpec};
use crate::results::{RepositoryResults, Stage};
use crate::session::{Handle, Message};
use crate::state::{ClientFacts, LaunchPolicy};
use crate::{apply, trust};
use beagle_analysis::{Control, MeasurementResult, Phase};
use beagle_job::{Event, Observer, Request, Settings, Source};
use beagle_pcm::ModelFile;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};
use tower_lsp_server::ls_types::{MessageActionItem, MessageType};

/// What a job reports to the async side.
enum Update {
    Progress {
        percentage: u32,
        message: String,
    },
    Results {
        repository: PathBuf,
        results: RepositoryResults,
    },
}

/// Lines of the per-file inputs report in the log: files with something not used, and clean
/// files up to this many lines in all, the rest summed.
const INPUT_LINES: usize = 40;

/// Runs queued jobs, one at a time, for as long as the session lasts.
pub async fn worker(session: Handle) {
    while let Some((spec, control)) = session.ask(Message::NextJob).await {
        let outcome = run_job(&session, &spec, control).await;
        release_freed_memory();
        session.send(Message::JobEnded {
            id: spec.id,
            label: spec.label.clone(),
            outcome,
        });
    }
}

/// Hands the memory a finished job freed back to the system. The analysis allocates on its own
/// blocking thread, whose malloc arena keeps what it freed: without this the server stayed at its
/// peak (about 320 MB after an analysis of `fixtures/hotloop`, `benchmarks/lsp/DURING-ANALYSIS.md`)
/// for the rest of the editing session.
fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free pages of the allocator's arenas to the kernel.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Whether the workspace's launches may run: never when the client's policy denies it (an
/// untrusted workspace), else when the client vouched for it, the user said so before, or the
/// user says so now. `Err` says why not.
async fn allowed_to_run(
    session: &Handle,
    facts: &ClientFacts,
    spec: &JobSpec,
    workspace: &beagle_job::Workspace,
) -> std::result::Result<(), &'static str> {
    const NOT_ALLOWED: &str = "running the workspace's launches was not allowed";
    let Some(Source::Java { config, .. }) = &workspace.source else {
        return Ok(()); // Reading measurement files runs nothing.
    };
    let dir = trust::state_dir();
    match facts.launch_policy {
        LaunchPolicy::Deny => {
            return Err("the workspace is not trusted, so Beagle runs none of its code (workspace trust or the beagle.trust setting)")
        }
        LaunchPolicy::Allow => return Ok(()),
        LaunchPolicy::Ask if trust::is_trusted(dir.as_deref(), &spec.root) => return Ok(()),
        LaunchPolicy::Ask if !facts.can_ask => return Err(NOT_ALLOWED),
        LaunchPolicy::Ask => {}
    }
    let allow = "Allow and remember";
    let answer = session
        .client
        .show_message_request(
            MessageType::WARNING,
            format!(
                "Beagle wants to run the launch configurations of {} (beagle.toml): they compile this workspace's code and run it on {}. Allow?",
                spec.root.display(),
                config.runner.name()
            ),
            Some(vec![
                MessageActionItem {
                    title: allow.into(),
                    properties: Default::default(),
                },
                MessageActionItem {
                    title: "Not now".into(),
                    properties: Default::default(),
                },
            ]),
        )
        .await;
    match answer {
        Ok(Some(item)) if item.title == allow => {
            if let Err(e) = trust::remember(dir.as_deref(), &spec.root) {
                session
                    .client
                    .log_message(MessageType::WARNING, format!("cannot remember the answer: {e}"))
                    .await;
            }
            Ok(())
        }
        _ => Err(NOT_ALLOWED),
    }
}

async fn run_job(session: &Handle, spec: &JobSpec, control: Control) -> String {
    let client = &session.client;
    let facts = session.world().await.client;
    let mut workspace = spec.workspace.clone();
    if let (Some(Source::Java { config, .. }), Some(runner)) = (&mut workspace.source, &facts.runner) {
        match beagle_java::launch::runner::from_json(runner, &spec.root) {
            Ok(r) => config.runner = r,
            Err(e) => {
                let message = format!("Beagle: {} not analysed: initializationOptions.runner: {e}", spec.label);
                client.show_message(MessageType::ERROR, &message).await;
                return format!("not analysed: initializationOptions.runner: {e}");
            }
        }
    }
    if let Err(why) = allowed_to_run(session, &facts, spec, &workspace).await {
        let message = format!("Beagle: {} not analysed: {why}", spec.label);
        client.show_message(MessageType::WARNING, &message).await;
        return format!("not analysed: {why}");
    }
    let mut progress = ProgressGuard::begin(
        client,
        facts.work_done_progress,
        progress_token(spec.id),
        format!("Beagle: analysing {}", spec.label),
    )
    .await;
    session.send(Message::JobToken {
        id: spec.id,
        token: progress.token().cloned(),
    });
    if let (Some(Source::Java { config, .. }), Some(r)) = (&mut workspace.source, facts.repetitions) {
        config.workload.repetitions = r;
    }
    let defaults = Settings::default();
    let settings = Settings {
        seed: facts.seed.or(workspace.seed).unwrap_or(defaults.seed),
        budget_ms: facts.budget_s.or(workspace.budget_s).map(|b| (b * 1000.0) as u64),
        gp: facts.gp,
        // One core stays with the editor.
        threads: defaults.threads.saturating_sub(1).max(1),
        fresh: false,
        write: false,
        spread: workspace.spread.unwrap_or(defaults.spread),
        validate: facts.validate,
        // `[java] count` in beagle.toml asks for counts in the editor too.
        count: false,
    };
    let java = matches!(workspace.source, Some(Source::Java { .. }));
    let repositories = workspace.repositories.clone();
    let request = Request {
        workspace,
        scope: spec.scope.clone(),
        settings,
    };
    let (tx, mut rx) = unbounded_channel();
    let job_control = control.clone();
    let mut handle = tokio::task::spawn_blocking(move || {
        let mut observer = JobObserver::new(tx, repositories, java);
        beagle_job::run(&request, &mut observer, &job_control)
    });
    let result = loop {
        tokio::select! {
            Some(update) = rx.recv() => on_update(session, spec.id, &mut progress, update).await,
            joined = &mut handle => break joined,
        }
    };
    while let Ok(update) = rx.try_recv() {
        on_update(session, spec.id, &mut progress, update).await;
    }
    let output = match result {
        Ok(Ok(output)) => output,
        Ok(Err(e)) => {
            let aborted = control.cancel.is_cancelled();
            let message = if aborted {
                "aborted".to_string()
            } else {
                format!("failed: {e}")
            };
            progress.end(message.clone()).await;
            let kind = if aborted { MessageType::INFO } else { MessageType::ERROR };
            client.show_message(kind, format!("Beagle: {}: {e}", spec.label)).await;
            return message;
        }
        Err(panic) => {
            progress.end("failed".into()).await;
            let message = format!("Beagle: {}: the analysis failed unexpectedly ({panic})", spec.label);
            client.show_message(MessageType::ERROR, &message).await;
            return "failed unexpectedly".into();
        }
    };
    for d in &output.report.diagnostics {
        let kind = match d.severity {
            beagle_pcm::Severity::Error => MessageType::ERROR,
            beagle_pcm::Severity::Warning => MessageType::WARNING,
            beagle_pcm::Severity::Info => MessageType::INFO,
        };
        let at = d
            .file
            .as_deref()
            .map(|f| format!("{f}:{}: ", d.line.unwrap_or(0)))
            .unwrap_or_default();
        client.log_message(kind, format!("{at}{}", d.message)).await;
    }
    // What each input file gave: the same lines as the command line's.
    let inputs = &output.report.inputs;
    for line in inputs.describe(INPUT_LINES) {
        client.log_message(MessageType::INFO, format!("inputs: {line}")).await;
    }
    session.send(Message::JobInputs { inputs: inputs.clone() });
    let mut summary = Vec::new();
    for a in &output.repositories {
        let file = ModelFile::from_bytes(a.path.clone(), a.original.clone());
        let stage = if a.aborted { Stage::Aborted } else { Stage::Final };
        let results = RepositoryResults::from_blackboard(
            stage,
            &a.blackboard,
            Some(&output.raw),
            Some(&file),
            a.headline.clone(),
        )
        .with_finals(&a.finals, Some(&output.raw), Some(&file))
        .with_validations(output.validation.as_ref(), &a.path);
        let count = results.finals.len();
        session.send(Message::Results {
            repository: a.path.clone(),
            results,
        });
        let name = a
            .path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().to_string());
        if a.aborted {
            summary.push(format!("{name}: {}", a.headline));
            continue;
        }
        match apply::apply_results(session, &a.path).await {
            Ok(true) => summary.push(format!("{name}: {count} results written")),
            Ok(false) => summary.push(format!("{name}: {count} results (already in the model)")),
            Err(e) => {
                summary.push(format!("{name}: {count} results, not written: {e}"));
            }
        }
    }
    let errors = output
        .report
        .diagnostics
        .iter()
        .filter(|d| d.severity == beagle_pcm::Severity::Error)
        .count();
    if errors > 0 {
        summary.push(format!("{errors} errors (see the log)"));
    }
    let skipped: usize = inputs.files.iter().map(|f| f.skipped).sum();
    let unread = inputs.files.iter().filter(|f| f.unreadable.is_some()).count();
    let mut unused = Vec::new();
    if skipped > 0 {
        unused.push(format!("{skipped} damaged lines skipped"));
    }
    if unread > 0 {
        unused.push(format!("{unread} of {} input files not read", inputs.files.len()));
    }
    if !unused.is_empty() {
        summary.push(format!("{} (see the log)", unused.join(", ")));
    }
    if summary.is_empty() {
        summary.push("nothing analysed".into());
    }
    let text = summary.join("; ");
    let ended = if output.aborted() || control.cancel.is_cancelled() {
        "aborted"
    } else {
        "done"
    };
    progress.end(format!("{ended}: {text}")).await;
    client
        .show_message(
            if errors > 0 {
                MessageType::WARNING
            } else {
                MessageType::INFO
            },
            format!("Beagle: {} {ended}: {text}", spec.label),
        )
        .await;
    session.send(Message::RefreshLenses);
    format!("{ended}: {text}")
}

async fn on_update(session: &Handle, id: u64, progress: &mut ProgressGuard, update: Update) {
    match update {
        Update::Progress { percentage, message } => {
            session.send(Message::JobProgress {
                id,
                percentage,
                message: message.clone(),
            });
            progress.report(percentage, message).await;
        }
        Update::Results { repository, results } => session.send(Message::Results { repository, results }),
    }
}

/// Turns a job's events into updates, on the job's thread: percentages that only grow, and
/// results for hovers at most once a second per repository.
struct JobObserver {
    tx: UnboundedSender<Update>,
    repositories: Vec<PathBuf>,
    files: HashMap<PathBuf, Option<ModelFile>>,
    java: bool,
    percentage: f64,
    raw: Option<BTreeMap<String, MeasurementResult>>,
    current: usize,
    last_results: HashMap<PathBuf, Instant>,
    last_progress: Option<Instant>,
}

impl JobObserver {
    fn new(tx: UnboundedSender<Update>, repositories: Vec<PathBuf>, java: bool) -> JobObserver {
        JobObserver {
            tx,
            repositories,
            files: HashMap::new(),
            java,
            percentage: 0.0,
            raw: None,
            current: 0,
            last_results: HashMap::new(),
            last_progress: None,
        }
    }

    /// Where the analysis part of the bar begins (measuring Java takes most of the time).
    fn analysis_start(&self) -> f64 {
        if self.java {
            60.0
        } else {
            10.0
        }
    }

    fn progress(&mut self, percentage: f64, message: String, force: bool) {
        self.percentage = self.percentage.max(percentage.clamp(0.0, 100.0));
        let due = self
            .last_progress
            .is_none_or(|t| t.elapsed() >= Duration::from_millis(100));
        if force || due {
            self.last_progress = Some(Instant::now());
            let _ = self.tx.send(Update::Progress {
                percentage: self.percentage.floor() as u32,
                message,
            });
        }
    }

    fn file(&mut self, path: &std::path::Path) -> Option<&ModelFile> {
        self.files
            .entry(path.to_path_buf())
            .or_insert_with(|| ModelFile::read(path).ok())
            .as_ref()
    }

    fn send_results(&mut self, path: PathBuf, bb: &beagle_analysis::Blackboard, headline: &str) {
        let raw = self.raw.take();
        let file = self.file(&path).cloned();
        let mut results =
            RepositoryResults::from_blackboard(Stage::Preliminary, bb, raw.as_ref(), file.as_ref(), headline.into());
        if let Some(file) = &file {
            results.retain_actions(|a| file.node_by_id(a).is_some());
        }
        self.raw = raw;
        let _ = self.tx.send(Update::Results {
            repository: path,
            results,
        });
    }
}

impl Observer for JobObserver {
    fn on(&mut self, event: Event<'_>) {
        match event {
            Event::Stage(s) => self.progress(self.percentage, s.to_string(), true),
            Event::PassStarted { pass, launch, points } => self.progress(
                self.percentage,
                format!("{pass}: launch `{launch}`, {points} points"),
                true,
            ),
            Event::Point {
                pass,
                launch,
                index,
                points,
                point,
            } => {
                let (base, span) = if pass.refines() { (40.0, 20.0) } else { (0.0, 40.0) };
                let at = base + span * index as f64 / points.max(1) as f64;
                self.progress(
                    at,
                    format!("{pass}: `{launch}` at {point} ({}/{points})", index + 1),
                    false,
                );
            }
            Event::Jobs {
                pass,
                launch,
                runner,
                running,
                done,
                points,
            } => {
                let (base, span) = if pass.refines() { (40.0, 20.0) } else { (0.0, 40.0) };
                let at = base + span * done as f64 / points.max(1) as f64;
                // Sent whenever it changes (a few times per JVM): it is what the user waits on.
                self.progress(
                    at,
                    format!("{pass}: `{launch}`: {running} of {points} points running on {runner}, {done} done"),
                    true,
                );
            }
            Event::Preliminary { blackboard, raw } => {
                self.raw = Some(raw.iter().map(|(e, r)| (e.id.clone(), r.clone())).collect());
                for path in self.repositories.clone() {
                    self.send_results(path, blackboard, "preliminary results from the quick pass");
                }
            }
            Event::AnalysisStarted { repository, .. } => {
                self.current = self.repositories.iter().position(|r| r == repository).unwrap_or(0);
                let at = self.analysis_start();
                let name = repository.file_name().unwrap_or_default().to_string_lossy().to_string();
                self.progress(at, format!("analysing {name}"), true);
            }
            Event::Analysis { progress, .. } => {
                let n = self.repositories.len().max(1) as f64;
                let start = self.analysis_start();
                let at = start + (100.0 - start) * (self.current as f64 + progress.fraction) / n;
                let phase = match progress.phase {
                    Phase::Measure => "measuring",
                    Phase::AnalyseResults => "fitting",
                    Phase::AnalyseProposals => "refining proposals",
                    Phase::Judge => "judging",
                    Phase::Paused => "paused",
                };
                let element = progress.element.as_deref().unwrap_or("");
                self.progress(
                    at,
                    format!("{phase} {element}").trim_end().to_string(),
                    progress.phase == Phase::Paused,
                );
            }
            Event::Checkpoint { repository, blackboard } => {
                let due = self
                    .last_results
                    .get(repository)
                    .is_none_or(|t| t.elapsed() >= Duration::from_secs(1));
                if due {
                    self.last_results.insert(repository.to_path_buf(), Instant::now());
                    self.send_results(repository.to_path_buf(), blackboard, "analysis running");
                }
            }
            Event::PassDone { .. } | Event::AnalysisDone { .. } => {}
            Event::Note(n) => tracing::info!("{n}"),
            Event::Warning(w) => tracing::warn!("{w}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use beagle_analysis::{
        analyse, results_from_events, scope_elements, Blackboard, RecordedResults, ResultOptions, Scope, Tools,
    };

    /// A blackboard of the events example after a quick analysis (no genetic programming).
    fn analysed_example() -> (PathBuf, Blackboard) {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/events-example");
        let path = dir.join("FileShare.repository");
        let file = ModelFile::read(&path).unwrap();
        let events = beagle_measure::events_format::read_events(&dir.join("upload.events")).unwrap();
        let results = results_from_events(&events, &ResultOptions::default());
        let scope = scope_elements(file.repository.as_ref().unwrap(), &Scope::Repository).unwrap();
        let mut bb = Blackboard::new(scope.elements);
        let options = beagle_fit::FitOptions {
            gp: None,
            ..Default::default()
        };
        let tools = Tools::standard(
            vec![Box::new(RecordedResults {
                id: "events".into(),
                results,
            })],
            options,
        );
        analyse(&mut bb, &tools, &Control::new(), &mut |_| {});
        (path, bb)
    }

    #[test]
    fn checkpoints_become_preliminary_results_at_most_once_a_second() {
        let (path, bb) = analysed_example();
        let (tx, mut rx) = unbounded_channel();
        let mut observer = JobObserver::new(tx, vec![path.clone()], false);
        let started = Instant::now();
        for _ in 0..3 {
            observer.on(Event::Checkpoint {
                repository: &path,
                blackboard: &bb,
            });
        }
        let took = started.elapsed();
        let mut results = Vec::new();
        while let Ok(u) = rx.try_recv() {
            if let Update::Results { repository, results: r } = u {
                assert_eq!(repository, path);
                results.push(r);
            }
        }
        // Three checkpoints within a second: one update. A machine that stalled this thread for
        // a second or more between them may have made each one due, but never more than one for
        // each second begun (three for three would be no throttle at all in well under a second).
        let most = 1 + took.as_secs() as usize;
        assert!(
            !results.is_empty() && results.len() <= most,
            "{} updates from three checkpoints in {took:?}",
            results.len()
        );
        let r = &results[0];
        assert_eq!(r.stage, Stage::Preliminary);
        let lp = r
            .results
            .iter()
            .find(|x| x.action == "_fs_per_file")
            .expect("the loop's result");
        assert_eq!(lp.expression, "files.NUMBER_OF_ELEMENTS");
        assert!(!lp.points.is_empty(), "with its table of points");
    }

    #[test]
    fn progress_only_grows_and_maps_passes_and_analysis() {
        let (tx, mut rx) = unbounded_channel();
        let repo = PathBuf::from("/w/a.repository");
        let mut observer = JobObserver::new(tx, vec![repo.clone()], true);
        observer.on(Event::Point {
            pass: beagle_job::Pass::Quick,
            launch: "upload",
            index: 5,
            points: 10,
            point: "files=3",
        });
        observer.on(Event::Point {
            pass: beagle_job::Pass::Quick,
            launch: "upload",
            index: 1,
            points: 10,
            point: "files=1",
        });
        observer.on(Event::AnalysisStarted {
            repository: &repo,
            elements: 3,
            steps: 0,
        });
        let mut seen = Vec::new();
        while let Ok(Update::Progress { percentage, message }) = rx.try_recv() {
            seen.push((percentage, message));
        }
        assert_eq!(seen[0], (20, "quick pass: `upload` at files=3 (6/10)".to_string()));
        assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0), "{seen:?}");
        assert_eq!(seen.last().unwrap().0, 60, "the analysis part begins at 60 % for Java");
    }
}
