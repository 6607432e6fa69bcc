//! Measuring a Java system for a job: links, instrumentation and compilation, then
//! two passes over the launches' parameter points. The first, quick pass covers the ranges
//! coarsely and gives preliminary results; the second adds points where those results err or
//! disagree most (`beagle_java::refine`). Every point's results are stored under a key of the code,
//! the launch, the point and the workload: a rerun measures only what changed, and a failed point
//! (timeout, crash) loses none of the points measured before it.

use crate::context::Context;
use crate::error::JobError;
use crate::measuring::measured::{LaunchPoints, Measured, Requested};
use crate::measuring::requests::{corner_plan, hole_plan, hole_report, wanted_holes, Requests, Seen, POINTS_PER_HOLE};
use crate::observer::{Event, Pass};
use crate::report::{Diagnostic, Report};
use beagle_analysis::{
    analyse, content_key, scope_elements, Blackboard, Control, EventsSummary, MeasurableElement, MeasurementResult,
    ProbeCost, RecordedResults, Scope, StoredMeasurement, Tools,
};
use beagle_java::launch::holes::Hole;
use beagle_java::launch::{
    batch_job, can_batch, coarse_points, describe, move_events, point_job, refine_points, Executor, JavaConfig, JvmJob,
    Launch, Point, RunOutput, Update,
};
use beagle_java::measure::{measure_point, measurement_of, point_key, PointMeasurement};
use beagle_java::prepare::{prepare, Prepared};
use beagle_pcm::{ModelFile, Severity};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn info(report: &mut Report, severity: Severity, element: Option<String>, message: String) {
    report.diagnostics.push(Diagnostic {
        severity,
        ..Diagnostic::info(element, message)
    });
}

/// One measured point, from the store or from a run.
struct Done {
    launch: String,
    point: Point,
    /// 0 for a point's first JVM, `n` for its `n`-th replicate.
    replicate: usize,
    results: Vec<(MeasurableElement, MeasurementResult)>,
    summary: EventsSummary,
    key: String,
    cached: bool,
}

/// What every pass measures with: the prepared system, where its runs go, and the runner of
/// `[runner]` (opened when a point is first to be run: an analysis the store answers needs no
/// connection).
struct Measurer<'a> {
    config: &'a JavaConfig,
    prepared: &'a Prepared,
    work: &'a Path,
    executor: std::cell::OnceCell<Result<Executor, beagle_java::launch::ExecutorError>>,
}

impl Measurer<'_> {
    fn executor(&self, cx: &mut Context) -> Result<&Executor, &beagle_java::launch::ExecutorError> {
        let opened = self.executor.get_or_init(|| {
            let e = Executor::open(&self.config.runner, &self.config.java, &self.prepared.classpath)?;
            for n in &e.notes {
                cx.observer.on(Event::Note(n));
            }
            Ok(e)
        });
        opened.as_ref()
    }
}

/// Waits while the job is paused; true when it is aborted. Checked between points: a point
/// already running finishes (or times out) first.
fn stopped(cx: &Context) -> bool {
    paused_or_cancelled(cx.control)
}

fn paused_or_cancelled(control: &Control) -> bool {
    while control.is_paused() && !control.cancel.is_cancelled() {
        std::thread::sleep(Duration::from_millis(50));
    }
    control.cancel.is_cancelled()
}

/// One JVM of a pass: the points (indices into the pass's points) it measures.
struct Planned {
    job: JvmJob,
    members: Vec<(usize, String)>,
}

/// Measures `points` of `launch` (from the store where it has them); a failed point is an error
/// diagnostic, and a failure every point would share ends the launch's pass.
/// `replicate`: 0 for a point's first measurement, n for its n-th repetition in a fresh JVM
/// (stored under a key of its own). Up to `points_per_jvm` points not in the store share a JVM
/// ([`batch_job`]); when such a JVM fails, its points are measured one by one, so that a
/// point that fails is an error about that point and the others are still measured. The JVMs
/// go to the runner together (up to its `max_parallel` at once); each point is stored as it
/// comes, and the points are returned in the order of `points` whatever order they came in.
fn measure_points(
    m: &Measurer,
    launch: &Launch,
    points: &[Point],
    replicate: usize,
    cx: &mut Context,
    pass: Pass,
) -> Vec<Done> {
    let Measurer {
        config, prepared, work, ..
    } = *m;
    cx.observer.on(Event::PassStarted {
        pass,
        launch: &launch.name,
        points: points.len(),
    });
    let folder = |i: usize| point_dir(m, launch, i, replicate);
    let mut out = Vec::new();
    let mut to_run: Vec<(usize, String)> = Vec::new();
    for (i, point) in points.iter().enumerate() {
        let key = match (point_key(prepared, config, launch, point), replicate) {
            (first, 0) => first,
            (first, n) => content_key(&[first.as_bytes(), b"replicate", n.to_string().as_bytes()]),
        };
        match cx.store.cached_measurement(&key) {
            Ok(Some(m)) => out.push(Done {
                launch: launch.name.clone(),
                point: point.clone(),
                replicate,
                results: m.results,
                summary: m.summary,
                key,
                cached: true,
            }),
            _ => to_run.push((i, key)),
        }
    }
    if !to_run.is_empty() && !stopped(cx) {
        if matches!(launch.target, beagle_java::launch::Target::Command(_)) {
            measure_commands(m, launch, points, &to_run, &folder, replicate, cx, pass, &mut out);
        } else {
            match m.executor(cx) {
                Ok(executor) => {
                    let per_jvm = config.workload.points_per_jvm.max(1);
                    let mut plan = Vec::new();
                    for batch in to_run.chunks(per_jvm) {
                        plan.extend(planned(launch, points, batch, &folder, work, config, true));
                    }
                    let failed_batches = run_planned(executor, m, launch, points, plan, replicate, cx, pass, &mut out);
                    let singles: Vec<Planned> = failed_batches
                        .iter()
                        .flat_map(|batch| planned(launch, points, batch, &folder, work, config, false))
                        .collect();
                    if !singles.is_empty() && !stopped(cx) {
                        run_planned(executor, m, launch, points, singles, replicate, cx, pass, &mut out);
                    }
                }
                Err(e) => info(cx.report, Severity::Error, None, e.to_string()),
            }
        }
    }
    // In the order of `points`, whichever came from the store: the analysis sees the same list
    // however the points were grouped into JVMs and in whatever order they came back.
    out.sort_by_key(|d| points.iter().position(|p| *p == d.point));
    cx.observer.on(Event::PassDone {
        pass,
        launch: &launch.name,
    });
    out
}

/// The JVMs measuring `batch`: one for them all when `together` and the launch allows it, else
/// one per point.
fn planned(
    launch: &Launch,
    points: &[Point],
    batch: &[(usize, String)],
    folder: &dyn Fn(usize) -> PathBuf,
    work: &Path,
    config: &JavaConfig,
    together: bool,
) -> Vec<Planned> {
    let batch_points: Vec<Point> = batch.iter().map(|(i, _)| points[*i].clone()).collect();
    if together && batch.len() > 1 && can_batch(launch, &batch_points) {
        let jvm_dir = work
            .join("runs")
            .join(&launch.name)
            .join(format!("jvm-{}", &batch[0].1[..12]));
        let job = batch_job(launch, &batch_points, &config.workload, &jvm_dir).expect("a main launch");
        return vec![Planned {
            job,
            members: batch.to_vec(),
        }];
    }
    batch
        .iter()
        .map(|(i, key)| Planned {
            job: point_job(launch, &points[*i], &config.workload, &folder(*i)).expect("a main launch"),
            members: vec![(*i, key.clone())],
        })
        .collect()
}

/// Runs `plan` on the runner, filing each point as its JVM ends; the batches that failed (their
/// points to be measured one by one).
#[allow(clippy::too_many_arguments)]
fn run_planned(
    executor: &Executor,
    m: &Measurer,
    launch: &Launch,
    points: &[Point],
    plan: Vec<Planned>,
    replicate: usize,
    cx: &mut Context,
    pass: Pass,
    out: &mut Vec<Done>,
) -> Vec<Vec<(usize, String)>> {
    let jobs: Vec<JvmJob> = plan.iter().map(|p| p.job.clone()).collect();
    let total: usize = plan.iter().map(|p| p.members.len()).sum();
    let remote = !matches!(m.config.runner, beagle_java::launch::Runner::Local);
    // The JVMs running now, by index: a set, not a count, so that an end reported without a
    // start (a spawn that failed) takes nothing off the others.
    let (mut running, mut done) = (std::collections::BTreeSet::new(), 0usize);
    let mut failed_batches = Vec::new();
    let control = cx.control;
    let cancelled = || paused_or_cancelled(control);
    let mut on = |u: Update| {
        match u {
            Update::Running(j) => {
                running.insert(j);
                for (i, _) in &plan[j].members {
                    announce(cx, pass, launch, points, *i);
                }
            }
            Update::Retrying { job, error, attempt } => {
                running.remove(&job);
                cx.observer.on(Event::Note(&format!(
                    "{error}\ntrying again on {} (attempt {} of {})",
                    executor.name(),
                    attempt + 1,
                    m.config.runner.retries() + 1
                )));
            }
            Update::Note(n) => cx.observer.on(Event::Note(&n)),
            Update::Done(j, result) => {
                let Planned { job, members } = &plan[j];
                running.remove(&j);
                match result {
                    Ok(()) => {
                        let dirs: Vec<PathBuf> = match members.len() {
                            1 => vec![job.dir.clone()],
                            _ => {
                                let dirs: Vec<PathBuf> = members
                                    .iter()
                                    .map(|(i, _)| point_dir(m, launch, *i, replicate))
                                    .collect();
                                if let Err(f) = move_events(job, &dirs) {
                                    info(cx.report, Severity::Error, None, job.error(f).to_string());
                                    return;
                                }
                                dirs
                            }
                        };
                        for ((i, key), dir) in members.iter().zip(dirs) {
                            done += 1;
                            let output = RunOutput {
                                events: dir.join(beagle_java::launch::job::EVENTS),
                                wall: Duration::ZERO,
                            };
                            let measured = measurement_of(m.prepared, launch, &points[*i], &output, &key[..12]);
                            file_point(cx, launch, &points[*i], replicate, key, measured, out);
                        }
                    }
                    Err(e) if members.len() > 1 && !e.is_fatal() => {
                        cx.observer.on(Event::Note(&format!(
                            "{} points in one JVM failed ({}); measuring them one by one",
                            members.len(),
                            e.failure_summary()
                        )));
                        failed_batches.push(members.clone());
                    }
                    Err(e) => {
                        done += members.len();
                        info(cx.report, Severity::Error, None, e.to_string());
                    }
                }
            }
        }
        if remote {
            cx.observer.on(Event::Jobs {
                pass,
                launch: &launch.name,
                runner: executor.name(),
                running: running.iter().map(|&j| plan[j].members.len()).sum(),
                done,
                points: total,
            });
        }
    };
    executor.run_all(&jobs, &cancelled, &mut on);
    failed_batches
}

/// Point `i` of a pass is measured now.
fn announce(cx: &mut Context, pass: Pass, launch: &Launch, points: &[Point], i: usize) {
    cx.observer.on(Event::Point {
        pass,
        launch: &launch.name,
        index: i,
        points: points.len(),
        point: &describe(&points[i]),
    });
}

/// Point `i`'s own folder: its JVM's, or where a batch JVM's events for it are moved.
fn point_dir(m: &Measurer, launch: &Launch, i: usize, replicate: usize) -> PathBuf {
    match replicate {
        0 => m.work.join("runs").join(&launch.name).join(i.to_string()),
        n => m
            .work
            .join("runs")
            .join(&launch.name)
            .join(format!("{i}-replicate-{n}")),
    }
}

/// Files a measured point: its notes in the report, its results in the store and in `out`.
fn file_point(
    cx: &mut Context,
    launch: &Launch,
    point: &Point,
    replicate: usize,
    key: &str,
    measured: PointMeasurement,
    out: &mut Vec<Done>,
) {
    let shown = describe(point);
    let PointMeasurement {
        results,
        summary,
        notes,
        outliers,
        ..
    } = measured;
    for n in notes {
        info(cx.report, Severity::Warning, None, n);
    }
    if outliers > 0 {
        cx.observer
            .on(Event::Note(&format!("{shown}: {outliers} timings removed as outliers")));
    }
    save(cx, key, &summary, &results, &format!("the measurement of {shown}"));
    out.push(Done {
        launch: launch.name.clone(),
        point: point.clone(),
        replicate,
        results,
        summary,
        key: key.to_string(),
        cached: false,
    });
}

/// A `command` launch runs its own processes, here, one point after another.
#[allow(clippy::too_many_arguments)]
fn measure_commands(
    m: &Measurer,
    launch: &Launch,
    points: &[Point],
    to_run: &[(usize, String)],
    folder: &dyn Fn(usize) -> PathBuf,
    replicate: usize,
    cx: &mut Context,
    pass: Pass,
    out: &mut Vec<Done>,
) {
    if !matches!(m.config.runner, beagle_java::launch::Runner::Local) {
        cx.observer.on(Event::Note(&format!(
            "launch `{}` is a command: it runs on this machine, not on {}",
            launch.name,
            m.config.runner.name()
        )));
    }
    for (i, key) in to_run {
        if stopped(cx) {
            break;
        }
        announce(cx, pass, launch, points, *i);
        match measure_point(m.config, m.prepared, launch, &points[*i], &folder(*i), &key[..12]) {
            Ok(measured) => file_point(cx, launch, &points[*i], replicate, key, measured, out),
            Err(e) => {
                info(cx.report, Severity::Error, None, e.to_string());
                if e.is_fatal() {
                    break;
                }
            }
        }
    }
}

/// What each launch point measured.
fn seen(done: &[Done]) -> Vec<Seen<'_>> {
    done.iter().map(|d| (&d.point, d.results.as_slice())).collect()
}

/// Observations of every point, per element. A timing is one median per JVM and parameter
/// point (carrying the JVM's mean, which sets the published level: `beagle_fit::level`), a
/// passed value one mean: the runs inside one JVM share its JIT decisions and heap layout and are no independent
/// repetitions (taken as such, they would make every difference between JVMs look like a
/// dependency on the inputs). Points measured in more than one JVM (the replicates, or element
/// points that several launch points reach) carry the repetitions that measure the noise.
/// Every observation carries its launch point as its run (numbered in the order of the launch
/// points, whatever order they were measured in): the element points of one upload share its
/// workload and JVMs, and the fit holds them out together.
fn merge(done: &[Done]) -> Vec<(MeasurableElement, MeasurementResult)> {
    let runs = run_numbers(done);
    let mut by_id: BTreeMap<String, (MeasurableElement, MeasurementResult)> = BTreeMap::new();
    for d in done {
        let run = Some(runs[&launch_point(d)]);
        for (e, r) in &d.results {
            let entry = by_id
                .entry(e.id.clone())
                .or_insert_with(|| (e.clone(), MeasurementResult::new(e.id.clone(), Vec::new())));
            let mut r = match e.kind {
                beagle_analysis::ElementKind::ResourceDemand { .. } => beagle_analysis::medians(r),
                // What one call passes on average in this JVM: a mixture (half the files
                // compressed) is averaged, not split at its median (`beagle_analysis::means`).
                beagle_analysis::ElementKind::CallParameter { .. } => beagle_analysis::means(r),
                _ => r.clone(),
            };
            for o in &mut r.observations {
                o.run = run;
            }
            for t in &mut r.overflow {
                t.run = run;
            }
            entry.1.merge(r);
        }
    }
    by_id.into_values().collect()
}

/// A launch point's label: its launch and its parameters' values.
fn launch_point(d: &Done) -> String {
    format!("{}\u{0}{:?}", d.launch, d.point)
}

/// The run number of each launch point ([`launch_point`]), in the order of their labels.
fn run_numbers(done: &[Done]) -> BTreeMap<String, u64> {
    let mut runs: BTreeMap<String, u64> = done.iter().map(|d| (launch_point(d), 0)).collect();
    for (label, run) in runs.values_mut().enumerate() {
        *run = label as u64;
    }
    runs
}

/// The launch point of each run that [`merge`] numbers.
fn launch_points(done: &[Done]) -> LaunchPoints {
    let runs = run_numbers(done);
    (done.iter())
        .map(|d| (runs[&launch_point(d)], (d.launch.clone(), d.point.clone())))
        .collect()
}

/// The probes' cost subtracted per element, over every point.
fn probe_costs(done: &[Done]) -> BTreeMap<String, ProbeCost> {
    let mut costs: BTreeMap<String, ProbeCost> = BTreeMap::new();
    for d in done {
        for (element, cost) in &d.summary.probe_costs {
            costs.entry(element.clone()).or_default().add(cost);
        }
    }
    costs
}

/// Demands whose net time per run is below four calibration noises get no law: they are too
/// short to measure (said as a warning naming the element), not fitted to noise around zero.
fn drop_too_short(
    results: Vec<(MeasurableElement, MeasurementResult)>,
    costs: &BTreeMap<String, ProbeCost>,
    report: &mut Report,
) -> Vec<(MeasurableElement, MeasurementResult)> {
    results
        .into_iter()
        .filter(|(e, _)| {
            let beagle_analysis::ElementKind::ResourceDemand { action, .. } = &e.kind else {
                return true;
            };
            match costs.get(action).filter(|c| c.too_short()) {
                Some(cost) => {
                    let why = cost.too_short_reason();
                    info(
                        report,
                        Severity::Warning,
                        Some(e.id.clone()),
                        format!("{}: not measured: {why}", e.id),
                    );
                    false
                }
                None => true,
            }
        })
        .collect()
}

/// Each demand at the resolution its probes allow: the cost subtracted per run (in ms, the
/// values' unit). The probes' cost is calibrated in every JVM, in a loop of its own; around a
/// short section the JIT may treat them otherwise, so a net time of the order of the cost is
/// known only to about the cost. The small-file write of 1-3 KB records came out at 13-50 ns
/// per call in some JVMs' medians, net of 150 ns: relative to 13 ns, every law missed by
/// 1,000 % and more, and the write was published as a constant with a band of ±6,400 %.
fn at_resolution(
    results: Vec<(MeasurableElement, MeasurementResult)>,
    costs: &BTreeMap<String, ProbeCost>,
) -> Vec<(MeasurableElement, MeasurementResult)> {
    results
        .into_iter()
        .map(|(e, mut r)| {
            if let beagle_analysis::ElementKind::ResourceDemand { action, .. } = &e.kind {
                if let Some(cost) = costs.get(action).filter(|c| c.runs > 0) {
                    r.resolution = Some(cost.subtracted_per_run() * 1e-6);
                }
            }
            (e, r)
        })
        .collect()
}

/// The quick pass's measured points to measure again in a fresh JVM: `n` of them, evenly spread
/// over the pass's list (which starts with the two corners of the parameter ranges).
fn replicate_points(points: &[Point], n: usize) -> Vec<Point> {
    let n = n.min(points.len());
    (0..n).map(|i| points[i * points.len() / n].clone()).collect()
}

/// Rounds of requests after the first preliminary analysis: each measures what the last
/// analysis asked for.
const MAX_ROUNDS: usize = 2;

/// What the judge of the preliminary analysis asks the Java tool to measure next.
#[derive(Debug, Default, PartialEq)]
struct MorePlan {
    /// Elements that want new distinct points (refined where they err or disagree).
    points: BTreeSet<String>,
    /// Elements that want repetitions (fresh JVMs at measured points) or branch trials.
    repetitions: BTreeSet<String>,
}

impl MorePlan {
    fn from_wanted(wanted: &BTreeMap<beagle_analysis::Want, Vec<String>>) -> MorePlan {
        use beagle_analysis::Want;
        let mut plan = MorePlan::default();
        for (want, ids) in wanted {
            let to = match want {
                Want::Points => &mut plan.points,
                Want::Repetitions | Want::Trials => &mut plan.repetitions,
            };
            to.extend(ids.iter().cloned());
        }
        plan
    }

    /// For the progress note: what is asked and for how many elements.
    fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.points.is_empty() {
            parts.push(format!("more points for {}", count(self.points.len(), "element")));
        }
        if !self.repetitions.is_empty() {
            parts.push(format!("more JVMs for {}", count(self.repetitions.len(), "element")));
        }
        if parts.is_empty() {
            "no element asks for more measurements".to_string()
        } else {
            format!("the judge asks for {}", parts.join(" and "))
        }
    }
}

fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// The quick preliminary analysis between the passes (no genetic programming), under the job's
/// `control`: it waits while the job is paused, and is `None` when the job is aborted.
fn preliminary(
    elements: &[MeasurableElement],
    results: &[(MeasurableElement, MeasurementResult)],
    constants: &BTreeMap<String, Vec<f64>>,
    control: &Control,
) -> Option<Blackboard> {
    let mut bb = Blackboard::new(elements.iter().cloned()).with_code_constants(constants.clone());
    let options = beagle_fit::FitOptions {
        gp: None,
        ..Default::default()
    };
    let tools = Tools::standard(
        vec![Box::new(RecordedResults {
            id: "java".into(),
            results: results.to_vec(),
        })],
        options,
    );
    match analyse(&mut bb, &tools, control, &mut |_| {}) {
        beagle_analysis::Outcome::Aborted => None,
        _ => Some(bb),
    }
}

/// The model files at `paths`, read and parsed (a file that is no repository has none).
pub(crate) fn read_model_files(paths: &[PathBuf]) -> Result<Vec<ModelFile>, JobError> {
    paths
        .iter()
        .map(|p| {
            std::fs::read(p)
                .map(|b| ModelFile::from_bytes(p.clone(), b))
                .map_err(JobError::unreadable(p))
        })
        .collect()
}

/// Keeps a measurement in the store under `key`; a store that cannot keep it is a warning about
/// `what` (the analysis goes on with it in memory).
fn save(
    cx: &mut Context,
    key: &str,
    summary: &EventsSummary,
    results: &[(MeasurableElement, MeasurementResult)],
    what: &str,
) {
    let stored = StoredMeasurement {
        input_key: key.to_string(),
        tool: "java".into(),
        summary: summary.clone(),
        results: results.to_vec(),
        inputs: Vec::new(),
        notes: Vec::new(),
    };
    if let Err(e) = cx.store.save_measurement(&stored) {
        info(cx.report, Severity::Warning, None, format!("cannot store {what}: {e}"));
    }
}

/// The Java sources linked to the scope of every repository, instrumented and compiled under
/// `<root>/.beagle/java` (what was not linked, and why, into the report), and that folder.
pub(crate) fn prepare_workspace(
    root: &Path,
    repositories: &[PathBuf],
    config: &JavaConfig,
    links_path: Option<&Path>,
    scope: &Scope,
    build: Build,
    cx: &mut Context,
) -> Result<PreparedWorkspace, JobError> {
    let files = read_model_files(repositories)?;
    let repos: Vec<&beagle_pcm::model::Repository> = files.iter().filter_map(|f| f.repository.as_ref()).collect();
    let mut elements = Vec::new();
    let mut services = BTreeSet::new();
    let mut errors = Vec::new();
    for (repo, path) in repos.iter().zip(repositories) {
        match scope_elements(repo, scope) {
            Ok(m) => {
                elements.extend(m.elements);
                services.extend(m.services.into_keys());
            }
            Err(e) => errors.push((path.clone(), e)),
        }
    }
    if elements.is_empty() {
        return Err(JobError::NothingInScope(errors));
    }
    cx.observer.on(Event::Stage("linking the model to the code"));
    let said_before = cx.report.diagnostics.len();
    let crate::measuring::links::Linked { links, inputs } =
        crate::measuring::links::links_for(config, links_path, repositories, &repos, cx.report)?;
    // Measuring without a single link runs every launch for nothing: stop here and say why, with
    // every reason the linking gave (the report with them is not printed when the job fails).
    if links.is_empty() {
        return Err(JobError::NothingLinked {
            links: links_path.map(Path::to_path_buf),
            automatic: config.automatic_links,
            reasons: cx.report.diagnostics[said_before..]
                .iter()
                .map(|d| d.message.clone())
                .collect(),
        });
    }
    let work = root.join(".beagle").join("java");
    cx.observer
        .on(Event::Stage("instrumenting and compiling the Java sources"));
    let prepared = prepare(config, &repos, &elements, &services, &links, &inputs, &work)?;
    // The plain build: the same sources with probes only at the entry and exit of the services
    // (and their parameters), as close to production as a measurement can be.
    let plain = match build {
        Build::Instrumented => None,
        Build::AlsoPlain => Some(prepare(
            config,
            &repos,
            &[],
            &services,
            &links,
            &inputs,
            &root.join(".beagle").join("java-plain"),
        )?),
    };
    for note in &prepared.notes {
        info(cx.report, Severity::Warning, None, note.clone());
    }
    for note in &prepared.infos {
        info(cx.report, Severity::Info, None, note.clone());
    }
    // An element of a SEFF that is itself not linked: that SEFF's warning says it; the element's
    // own line is an info.
    let unlinked_services: BTreeSet<&str> = prepared
        .unlinked
        .iter()
        .map(|(id, _)| id.as_str())
        .filter(|id| services.contains(*id))
        .collect();
    for (id, why) in &prepared.unlinked {
        let in_unlinked_service = elements
            .iter()
            .find(|e| e.id == *id)
            .and_then(|e| e.service.as_deref())
            .is_some_and(|s| unlinked_services.contains(s));
        let severity = if in_unlinked_service {
            Severity::Info
        } else {
            Severity::Warning
        };
        info(
            cx.report,
            severity,
            Some(id.clone()),
            format!("{id}: not measured: {why}"),
        );
    }
    Ok(PreparedWorkspace {
        prepared,
        plain,
        work,
        elements,
    })
}

/// Which builds [`prepare_workspace`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Build {
    /// The instrumented build alone (what an analysis measures with).
    Instrumented,
    /// Also the plain build, probed only at the services' entries and exits (validation).
    AlsoPlain,
}

/// What [`prepare_workspace`] gives.
pub(crate) struct PreparedWorkspace {
    pub prepared: Prepared,
    /// The plain build, when asked for ([`Build::AlsoPlain`]).
    pub plain: Option<Prepared>,
    /// `<root>/.beagle/java`.
    pub work: PathBuf,
    /// The scope's elements.
    pub elements: Vec<MeasurableElement>,
}

/// Measures the Java system for the scope of every repository.
pub(crate) fn measure(
    root: &Path,
    repositories: &[PathBuf],
    config: &JavaConfig,
    links_path: Option<&Path>,
    scope: &Scope,
    cx: &mut Context,
) -> Result<Measured, JobError> {
    let seed = cx.settings.seed;
    let PreparedWorkspace {
        prepared,
        work,
        elements,
        ..
    } = prepare_workspace(root, repositories, config, links_path, scope, Build::Instrumented, cx)?;
    let measurer = Measurer {
        config,
        prepared: &prepared,
        work: &work,
        executor: Default::default(),
    };
    let mut done: Vec<Done> = Vec::new();
    for launch in &config.launches {
        let points = coarse_points(launch, config.workload.points, seed);
        let quick = measure_points(&measurer, launch, &points, 0, cx, Pass::Quick);
        // Only points that could be measured are measured again (a hang is not repeated).
        let measured: Vec<Point> = quick.iter().map(|d| d.point.clone()).collect();
        done.extend(quick);
        let again = replicate_points(&measured, config.workload.replicates);
        if !again.is_empty() && !stopped(cx) {
            done.extend(measure_points(&measurer, launch, &again, 1, cx, Pass::Replicates));
        }
    }
    let asks_more = config.workload.refine > 0 || config.workload.replicates > 0;
    let mut requested = BTreeMap::new();
    if asks_more && !done.is_empty() && !stopped(cx) {
        requested = more_rounds(&measurer, &elements, &mut done, cx)?;
    }
    if cx.control.cancel.is_cancelled() {
        return Err(JobError::AbortedWhileMeasuring);
    }
    if done.is_empty() {
        return Err(JobError::NoPointMeasured {
            reasons: cx
                .report
                .diagnostics
                .iter()
                .filter(|d| d.severity != Severity::Info)
                .map(|d| format!("{}: {}", d.severity, d.message))
                .collect(),
        });
    }
    let mut summary = EventsSummary::default();
    for d in &done {
        summary.events += d.summary.events;
        summary.executions += d.summary.executions;
        summary.service_calls += d.summary.service_calls;
    }
    summary.probe_costs = probe_costs(&done);
    let keys: Vec<&[u8]> = done.iter().map(|d| d.key.as_bytes()).collect();
    let key = content_key(&keys);
    let raw = at_resolution(
        drop_too_short(merge(&done), &summary.probe_costs, cx.report),
        &summary.probe_costs,
    );
    // The observations under the measurements' key, so that whoever shows the results later
    // (a restarted language server) finds every repetition.
    save(cx, &key, &summary, &raw, "the measurements");
    Ok(Measured {
        key,
        tool: "java".into(),
        summary,
        results: raw.clone(),
        raw,
        cached: done.iter().all(|d| d.cached),
        notes: Vec::new(),
        inputs: Vec::new(),
        constants: prepared.constants.clone(),
        requested,
        launches: launch_points(&done),
    })
}

/// Rounds of what the judge of a preliminary analysis asks for (`requests`): holes in an
/// element's input mapped to launch points, more points where the laws err or disagree, more
/// JVMs where the noise is not measured. Until nothing is asked or [`MAX_ROUNDS`] rounds ran;
/// the report then says which hole requests were met, and why the others were not. Returns what
/// was measured for each element at its request.
fn more_rounds(
    measurer: &Measurer,
    elements: &[MeasurableElement],
    done: &mut Vec<Done>,
    cx: &mut Context,
) -> Result<BTreeMap<String, Requested>, JobError> {
    let config = measurer.config;
    let seed = cx.settings.seed;
    let mut requests = Requests::default();
    let mut left: Vec<Hole> = Vec::new();
    let mut rounds = 0;
    for round in 0..=MAX_ROUNDS {
        let measured = merge(done);
        let Some(bb) = preliminary(elements, &measured, &measurer.prepared.constants, cx.control) else {
            return Err(JobError::AbortedWhileMeasuring);
        };
        let wanted = beagle_analysis::FinalJudge.wanted_evidence(&bb);
        let plan = MorePlan::from_wanted(&wanted);
        left = wanted_holes(&bb);
        if round == MAX_ROUNDS || stopped(cx) {
            break;
        }
        cx.observer.on(Event::Preliminary {
            blackboard: &bb,
            raw: &measured,
        });
        let finals = (bb.final_expressions().values())
            .filter(|f| f.status == beagle_analysis::Status::Final)
            .count();
        cx.observer.on(Event::Note(&format!(
            "preliminary results from {} points: {finals} of {} elements final; {}{}",
            done.len(),
            elements.len(),
            plan.describe(),
            match left.len() {
                0 => String::new(),
                n => format!("; {n} holes in elements' inputs to fill"),
            }
        )));
        let before = done.len();
        for launch in &config.launches {
            let (holes, points, again) = {
                let mine: Vec<&Done> = done.iter().filter(|d| d.launch == launch.name).collect();
                let seen: Vec<Seen> = mine.iter().map(|d| (&d.point, d.results.as_slice())).collect();
                let holes = hole_plan(
                    launch,
                    &seen,
                    &left,
                    config.workload.refine.max(POINTS_PER_HOLE),
                    seed + round as u64,
                    &mut requests,
                );
                let measures =
                    |ids: &BTreeSet<String>| mine.iter().any(|d| d.results.iter().any(|(e, _)| ids.contains(&e.id)));
                let mut points = if config.workload.refine > 0 && measures(&plan.points) {
                    let scored: Vec<(Point, &[(MeasurableElement, MeasurementResult)])> =
                        mine.iter().map(|d| (d.point.clone(), d.results.as_slice())).collect();
                    let scores = beagle_java::refine::point_scores_of(&bb, &scored, &|id| plan.points.contains(id));
                    refine_points(launch, &scores, config.workload.refine, seed + round as u64)
                } else {
                    Vec::new()
                };
                // Elements that few points reach get points where they are reached: the refinement
                // goes where the laws err, which may be anywhere but their corner.
                if config.workload.refine > 0 {
                    for p in corner_plan(launch, &seen, &plan.points) {
                        if !points.contains(&p) {
                            points.push(p);
                        }
                    }
                }
                // A further JVM at the replicated points: the noise gets as many degrees of
                // freedom again, and a spread that one pair of JVMs hid shows.
                let again = if measures(&plan.repetitions) {
                    let quick: Vec<Point> = mine
                        .iter()
                        .filter(|d| d.replicate == 0)
                        .map(|d| d.point.clone())
                        .collect();
                    replicate_points(&quick, config.workload.replicates)
                } else {
                    Vec::new()
                };
                (holes, points, again)
            };
            if !holes.is_empty() && !stopped(cx) {
                let measured = measure_points(measurer, launch, &holes, 0, cx, Pass::FillingHoles);
                requests.served(&seen(&measured), |r, n| r.points += n);
                done.extend(measured);
            }
            if !points.is_empty() && !stopped(cx) {
                let measured = measure_points(measurer, launch, &points, 0, cx, Pass::Refining);
                requests.served(&seen(&measured), |r, n| r.points += n);
                done.extend(measured);
            }
            if !again.is_empty() && !stopped(cx) {
                let replicate = 2 + round;
                let measured = measure_points(measurer, launch, &again, replicate, cx, Pass::MoreReplicates);
                requests.served(&seen(&measured), |r, n| r.jvms += n);
                done.extend(measured);
            }
        }
        rounds = round + 1;
        if done.len() == before {
            break;
        }
    }
    for (warning, line) in hole_report(&requests, &left, rounds) {
        let severity = if warning { Severity::Warning } else { Severity::Info };
        info(cx.report, severity, None, line);
    }
    Ok(requests.requested(&left))
}

#[cfg(test)]
mod tests {
    use super::*;
    use beagle_analysis::{ElementKind, Observation};
    use beagle_java::launch::PointValue;

    fn run(size: f64, values: &[f64]) -> Done {
        let observations = |values: &[f64]| -> Vec<Observation> {
            values
                .iter()
                .map(|v| Observation {
                    run: None,
                    parameters: [("data.BYTESIZE".to_string(), size)].into(),
                    value: *v,
                    executions: 1,
                    mean: None,
                })
                .collect()
        };
        let demand = MeasurableElement::new(ElementKind::ResourceDemand {
            action: "hash".into(),
            resource: "cpu".into(),
        });
        let loop_ = MeasurableElement::new(ElementKind::Loop {
            loop_id: "files".into(),
        });
        Done {
            launch: "upload".into(),
            point: [("size".to_string(), PointValue::Number(size))].into(),
            replicate: 0,
            results: vec![
                (
                    demand.clone(),
                    MeasurementResult {
                        element: demand.id.clone(),
                        observations: observations(values),
                        overflow: Vec::new(),
                        thinned: 0,
                        resolution: None,
                    },
                ),
                (
                    loop_.clone(),
                    MeasurementResult {
                        element: loop_.id.clone(),
                        observations: observations(&[3.0, 3.0, 3.0]),
                        overflow: Vec::new(),
                        thinned: 0,
                        resolution: None,
                    },
                ),
            ],
            summary: EventsSummary::default(),
            key: format!("{size}"),
            cached: false,
        }
    }

    #[test]
    fn the_preliminary_analysis_obeys_pause_and_abort() {
        // It once ran under a fresh Control: pause and abort were ignored while it fitted.
        let measured = merge(&[run(1000.0, &[5.0, 5.1]), run(2000.0, &[9.9]), run(4000.0, &[20.2])]);
        let elements: Vec<MeasurableElement> = measured.iter().map(|(e, _)| e.clone()).collect();
        let constants = BTreeMap::new();
        let aborted = Control::new();
        aborted.abort();
        assert!(preliminary(&elements, &measured, &constants, &aborted).is_none());
        // Paused: nothing is fitted until it is resumed. Told by the event, not by a time: the
        // fit returns only after the resume (a clock read after the spawn could start late on a
        // busy machine and see less than the pause). A fit that ignored the pause returns at once,
        // before the resume 300 ms later (the fit of three points takes milliseconds).
        let paused = Control::new();
        paused.pause();
        let resumed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let resume = {
            let (c, resumed) = (paused.clone(), resumed.clone());
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(300));
                resumed.store(true, std::sync::atomic::Ordering::SeqCst);
                c.resume();
            })
        };
        let bb = preliminary(&elements, &measured, &constants, &paused).expect("resumed, not aborted");
        assert!(
            resumed.load(std::sync::atomic::Ordering::SeqCst),
            "the fit returned before it was resumed"
        );
        resume.join().unwrap();
        assert!(
            bb.final_expressions().contains_key("hash/cpu"),
            "{:?}",
            bb.final_expressions().keys()
        );
    }

    #[test]
    fn a_timing_is_one_median_per_jvm_and_point_and_counts_keep_every_value() {
        // Two JVMs at the same point (a replicate) and one elsewhere: three timings, two of them
        // the repetitions of one point; the loop keeps all nine counts.
        let merged = merge(&[
            run(1000.0, &[5.0, 1.0, 2.0]),
            run(1000.0, &[4.0, 4.5, 9.0]),
            run(2000.0, &[7.0]),
        ]);
        let by_id: BTreeMap<String, &MeasurementResult> = merged.iter().map(|(e, r)| (e.id.clone(), r)).collect();
        let timings: Vec<f64> = by_id["hash/cpu"].observations.iter().map(|o| o.value).collect();
        assert_eq!(timings, vec![2.0, 4.5, 7.0]);
        assert_eq!(by_id["files"].observations.len(), 9);
        // Each observation names its launch point as its run, in the launch points' order
        // whatever the order they were measured in: the replicate shares its point's run.
        let runs: Vec<Option<u64>> = by_id["hash/cpu"].observations.iter().map(|o| o.run).collect();
        assert_eq!(runs, vec![Some(0), Some(0), Some(1)]);
        let reordered = merge(&[run(2000.0, &[7.0]), run(1000.0, &[5.0, 1.0, 2.0])]);
        let hash = &reordered.iter().find(|(e, _)| e.id == "hash/cpu").unwrap().1;
        let runs: Vec<(f64, Option<u64>)> = hash.observations.iter().map(|o| (o.value, o.run)).collect();
        assert_eq!(runs, vec![(7.0, Some(1)), (2.0, Some(0))]);
    }

    #[test]
    fn replicates_spread_over_the_quick_pass() {
        let points: Vec<Point> = (0..14)
            .map(|i| [("n".to_string(), PointValue::Number(f64::from(i)))].into())
            .collect();
        let again = replicate_points(&points, 4);
        let picked: Vec<String> = again.iter().map(describe).collect();
        assert_eq!(picked, vec!["n=0", "n=3", "n=7", "n=10"]);
        assert_eq!(
            replicate_points(&points[..2], 4).len(),
            2,
            "never more than were measured"
        );
        assert!(replicate_points(&points, 0).is_empty());
    }

    #[test]
    fn the_plan_follows_what_the_judge_asks() {
        use beagle_analysis::Want;
        let wanted: BTreeMap<Want, Vec<String>> = [
            (Want::Points, vec!["hash/cpu".to_string(), "files".to_string()]),
            (Want::Repetitions, vec!["write/cpu".to_string()]),
            (Want::Trials, vec!["mail/yes".to_string()]),
        ]
        .into();
        let plan = MorePlan::from_wanted(&wanted);
        assert_eq!(plan.points, ["files".to_string(), "hash/cpu".to_string()].into());
        assert_eq!(
            plan.repetitions,
            ["mail/yes".to_string(), "write/cpu".to_string()].into()
        );
        assert_eq!(
            plan.describe(),
            "the judge asks for more points for 2 elements and more JVMs for 2 elements"
        );
        let none = MorePlan::from_wanted(&BTreeMap::new());
        assert_eq!(none, MorePlan::default());
        assert_eq!(none.describe(), "no element asks for more measurements");
    }
}
