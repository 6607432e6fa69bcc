//! Progress of `beagle analyse`: a bar on a terminal (indicatif), one line per step with
//! `--verbose`, nothing otherwise (so that scripts and pipes get only the report).

use beagle_analysis::Phase;
use beagle_job::{Event, Observer};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

pub struct Reporter {
    bar: Option<ProgressBar>,
    verbose: bool,
    step: u64,
}

/// A bar on stderr when it is a terminal (`beagle calibrate` draws its steps with it too).
pub(crate) fn bar(len: usize, prefix: String, unit: &str) -> Option<ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(len as u64);
        let template = format!("{{prefix}} [{{bar:30}}] {{pos}}/{{len}} {unit}  {{elapsed}}  {{msg}}");
        let style = ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        bar.set_style(style);
        bar.set_prefix(prefix);
        bar
    })
}

impl Reporter {
    pub fn new(verbose: bool) -> Reporter {
        Reporter {
            bar: None,
            verbose,
            step: 0,
        }
    }

    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

impl Observer for Reporter {
    fn on(&mut self, event: Event<'_>) {
        match event {
            Event::Stage(s) if self.verbose => eprintln!("{s}"),
            Event::PassStarted { pass, launch, points } => {
                self.finish();
                self.bar = bar(points, format!("{pass}: {launch}"), "points");
            }
            Event::Point {
                pass,
                launch,
                index,
                point,
                ..
            } => {
                if let Some(bar) = &self.bar {
                    bar.set_position(index as u64);
                    bar.set_message(point.to_string());
                }
                if self.verbose {
                    eprintln!("  {pass}: launch `{launch}` at {point}");
                }
            }
            Event::Jobs {
                runner,
                running,
                done,
                points,
                ..
            } => {
                if let Some(bar) = &self.bar {
                    bar.set_position(done as u64);
                    bar.set_message(format!("{running} of {points} running on {runner}"));
                }
            }
            Event::PassDone { .. } | Event::AnalysisDone { .. } => self.finish(),
            // Resuming is news even without --verbose: the work done before is not redone.
            Event::Warning(w) => eprintln!("warning: {w}"),
            Event::Note(n) if self.verbose || n.contains("resuming run") || n.starts_with("preliminary results") => {
                eprintln!("{n}")
            }
            Event::AnalysisStarted {
                repository,
                elements,
                steps,
            } => {
                self.finish();
                self.step = steps;
                self.bar = bar(elements, repository.display().to_string(), "final");
            }
            Event::Analysis {
                progress: p, elements, ..
            } => {
                if p.phase == Phase::Judge {
                    self.step += 1;
                }
                let phase = match p.phase {
                    Phase::Measure => "measuring",
                    Phase::AnalyseResults => "analysing results",
                    Phase::AnalyseProposals => "analysing proposals",
                    Phase::Judge => "judging",
                    Phase::Paused => "paused",
                };
                // A step of the whole analysis names no element: `measuring`, not `measuring `.
                let doing = match p.element.as_deref() {
                    Some(element) if !element.is_empty() => format!("{phase} {element}"),
                    _ => phase.to_string(),
                };
                if let Some(bar) = &self.bar {
                    bar.set_position((p.fraction * elements as f64).round() as u64);
                    bar.set_message(doing.clone());
                }
                if self.verbose && p.phase == Phase::Judge {
                    let best = p.best_fitness.map_or("-".to_string(), |f| format!("{f:.4}"));
                    eprintln!(
                        "step {}: {:.0} % final, worst best fitness {best}",
                        self.step,
                        p.fraction * 100.0
                    );
                } else if self.verbose {
                    eprintln!("  {doing}");
                }
            }
            _ => {}
        }
    }
}
