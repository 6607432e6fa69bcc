//! Measuring a Java system for `beagle analyse`: links, instrumentation and compilation, then
//! two passes over the launches' parameter points. The first, quick pass covers the ranges
//! coarsely and gives preliminary results; the second adds points where those results err or
//! disagree most (`beagle_java::refine`). Every point's results are stored under a key of the code,
//! the launch, the point and the workload: a rerun measures only what changed, and a failed point
//! (timeout, crash) loses none of the points measured before it.

use super::measurements::Measured;
use super::report::{Diagnostic, Report};
use super::Settings;
use beagle_analysis::{
    analyse, content_key, scope_elements, Blackboard, Control, EventsSummary, MeasurableElement, MeasurementResult,
    RecordedResults, Scope, Store, StoredMeasurement, Tools,
};
use beagle_java::launch::{coarse_points, describe, refine_points, JavaConfig, Launch, Point};
use beagle_java::links::{CodeLink, LinkOrigin};
use beagle_java::measure::{measure_point, point_key, PointMeasurement};
use beagle_java::prepare::{prepare, Prepared};
use beagle_pcm::ModelFile;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::{BTreeMap, BTreeSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Automatic links below this confidence are proposed, not used.
const TRUSTED_CONFIDENCE: f64 = 0.8;

fn info(report: &mut Report, severity: &'static str, element: Option<String>, message: String) {
    report.diagnostics.push(Diagnostic {
        severity,
        file: None,
        line: None,
        element,
        message,
    });
}

/// One measured point, from the store or from a run.
struct Done {
    launch: String,
    point: Point,
    results: Vec<(MeasurableElement, MeasurementResult)>,
    summary: EventsSummary,
    key: String,
    cached: bool,
}

/// What every pass measures with: the prepared system, where its runs go, how chatty to be.
struct Measurer<'a> {
    config: &'a JavaConfig,
    prepared: &'a Prepared,
    work: &'a Path,
    verbose: bool,
}

/// Measures `points` of `launch` (from the store where it has them); a failed point is an error
/// diagnostic, and a failure every point would share ends the launch's pass.
fn measure_points(
    m: &Measurer,
    launch: &Launch,
    points: &[Point],
    store: &mut Store,
    report: &mut Report,
    pass: &str,
) -> Vec<Done> {
    let Measurer {
        config,
        prepared,
        work,
        verbose,
    } = *m;
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(points.len() as u64);
        let style = ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} points  {elapsed}  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        bar.set_style(style);
        bar.set_prefix(format!("{pass}: {}", launch.name));
        bar
    });
    let mut out = Vec::new();
    for (i, point) in points.iter().enumerate() {
        let shown = describe(point);
        if let Some(bar) = &bar {
            bar.set_position(i as u64);
            bar.set_message(shown.clone());
        }
        let key = point_key(prepared, config, launch, point);
        if let Ok(Some(m)) = store.cached_measurement(&key) {
            out.push(Done {
                launch: launch.name.clone(),
                point: point.clone(),
                results: m.results,
                summary: m.summary,
                key,
                cached: true,
            });
            continue;
        }
        if verbose {
            eprintln!("  {pass}: launch `{}` at {shown}", launch.name);
        }
        let dir = work.join("runs").join(&launch.name).join(i.to_string());
        match measure_point(config, prepared, launch, point, &dir, &key[..12]) {
            Ok(PointMeasurement {
                results,
                summary,
                notes,
                outliers,
                ..
            }) => {
                for n in notes {
                    info(report, "warning", None, n);
                }
                if verbose && outliers > 0 {
                    eprintln!("    {outliers} timings removed as outliers");
                }
                let stored = StoredMeasurement {
                    input_key: key.clone(),
                    tool: "java".into(),
                    summary: summary.clone(),
                    results: results.clone(),
                };
                if let Err(e) = store.save_measurement(&stored) {
                    info(
                        report,
                        "warning",
                        None,
                        format!("cannot store the measurement of {shown}: {e}"),
                    );
                }
                out.push(Done {
                    launch: launch.name.clone(),
                    point: point.clone(),
                    results,
                    summary,
                    key,
                    cached: false,
                });
            }
            Err(e) => {
                let fatal = e.is_fatal();
                info(report, "error", None, e.to_string());
                if fatal {
                    break;
                }
            }
        }
    }
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    out
}

/// Observations of every point, per element; timings as one median per parameter point.
fn merge(done: &[Done]) -> Vec<(MeasurableElement, MeasurementResult)> {
    let mut by_id: BTreeMap<String, (MeasurableElement, MeasurementResult)> = BTreeMap::new();
    for d in done {
        for (e, r) in &d.results {
            let entry = by_id.entry(e.id.clone()).or_insert_with(|| {
                (
                    e.clone(),
                    MeasurementResult {
                        element: e.id.clone(),
                        observations: Vec::new(),
                    },
                )
            });
            entry.1.observations.extend(r.observations.iter().cloned());
        }
    }
    by_id
        .into_values()
        .map(|(e, r)| match e.kind {
            beagle_analysis::ElementKind::ResourceDemand { .. } => {
                let m = beagle_analysis::medians(&r);
                (e, m)
            }
            _ => (e, r),
        })
        .collect()
}

/// The quick preliminary analysis between the passes (no genetic programming).
fn preliminary(
    elements: &[MeasurableElement],
    results: &[(MeasurableElement, MeasurementResult)],
    constants: &BTreeMap<String, Vec<f64>>,
) -> Blackboard {
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
    analyse(&mut bb, &tools, &Control::new(), &mut |_| {});
    bb
}

fn links_for(
    config: &JavaConfig,
    links_path: Option<&Path>,
    repositories: &[&beagle_pcm::model::Repository],
    report: &mut Report,
) -> Result<Vec<CodeLink>, String> {
    let mut links = match links_path {
        Some(p) => beagle_java::links::read_links(p, &config.root, &config.sources).map_err(|e| e.to_string())?,
        None => Vec::new(),
    };
    if config.automatic_links {
        let linked: BTreeSet<String> = links.iter().map(|l| l.element.clone()).collect();
        for l in beagle_java::links::auto::automatic_links(repositories, &config.root, &config.sources, &linked) {
            let LinkOrigin::Automatic { confidence, reason } = &l.origin else {
                continue;
            };
            let used = *confidence >= TRUSTED_CONFIDENCE;
            info(
                report,
                "info",
                Some(l.element.clone()),
                format!(
                    "{}: automatic link to {} ({}confidence {confidence:.2}): {reason}",
                    l.element,
                    l.file.display(),
                    if used { "used; " } else { "not used, " }
                ),
            );
            if used {
                links.push(l);
            }
        }
    }
    Ok(links)
}

/// Measures the Java system for the scope of every repository.
#[allow(clippy::too_many_arguments)]
pub fn measure(
    root: &Path,
    repositories: &[PathBuf],
    config: &JavaConfig,
    links_path: Option<&Path>,
    scope: &Scope,
    settings: &Settings,
    store: &mut Store,
    report: &mut Report,
) -> Result<Measured, String> {
    let files: Vec<ModelFile> = repositories
        .iter()
        .map(|p| {
            std::fs::read(p)
                .map(|b| ModelFile::from_bytes(p.clone(), b))
                .map_err(|e| format!("{}: cannot read: {e}", p.display()))
        })
        .collect::<Result<_, _>>()?;
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
            Err(e) => errors.push(format!("{}: {e}", path.display())),
        }
    }
    if elements.is_empty() {
        return Err(errors.join("\n"));
    }
    let links = links_for(config, links_path, &repos, report)?;
    let work = root.join(".beagle").join("java");
    let prepared = prepare(config, &repos, &elements, &services, &links, &work)?;
    for (id, why) in &prepared.unlinked {
        info(
            report,
            "warning",
            Some(id.clone()),
            format!("{id}: not measured: {why}"),
        );
    }
    let measurer = Measurer {
        config,
        prepared: &prepared,
        work: &work,
        verbose: settings.verbose,
    };
    let mut done: Vec<Done> = Vec::new();
    for launch in &config.launches {
        let points = coarse_points(launch, config.workload.points, settings.seed);
        done.extend(measure_points(&measurer, launch, &points, store, report, "quick pass"));
    }
    if config.workload.refine > 0 && !done.is_empty() {
        let bb = preliminary(&elements, &merge(&done), &prepared.constants);
        let finals = bb
            .final_expressions()
            .values()
            .filter(|f| f.status == beagle_analysis::Status::Final)
            .count();
        eprintln!(
            "preliminary results from {} points: {finals} of {} elements final; refining",
            done.len(),
            elements.len()
        );
        for launch in &config.launches {
            let mine: Vec<(Point, &[(MeasurableElement, MeasurementResult)])> = done
                .iter()
                .filter(|d| d.launch == launch.name)
                .map(|d| (d.point.clone(), d.results.as_slice()))
                .collect();
            let scores = beagle_java::refine::point_scores(&bb, &mine);
            let points = refine_points(launch, &scores, config.workload.refine, settings.seed);
            done.extend(measure_points(&measurer, launch, &points, store, report, "refining"));
        }
    }
    if done.is_empty() {
        return Err("no parameter point could be measured (see the errors above)".into());
    }
    let mut summary = EventsSummary::default();
    for d in &done {
        summary.events += d.summary.events;
        summary.executions += d.summary.executions;
        summary.service_calls += d.summary.service_calls;
    }
    let keys: Vec<&[u8]> = done.iter().map(|d| d.key.as_bytes()).collect();
    Ok(Measured {
        key: content_key(&keys),
        tool: "java".into(),
        summary,
        results: merge(&done),
        cached: done.iter().all(|d| d.cached),
        notes: Vec::new(),
        constants: prepared.constants.clone(),
    })
}
