//! Progress of `beagle analyse`: a bar on a terminal (indicatif), one line per step with
//! `--verbose`, nothing otherwise (so that scripts and pipes get only the report).

use beagle_analysis::{Phase, Progress};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

pub struct Reporter {
    bar: Option<ProgressBar>,
    verbose: bool,
    step: u64,
}

impl Reporter {
    pub fn new(label: &str, elements: usize, verbose: bool, first_step: u64) -> Reporter {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(elements as u64);
            let style = ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} final  {elapsed}  {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            bar.set_style(style);
            bar.set_prefix(label.to_string());
            bar
        });
        Reporter {
            bar,
            verbose,
            step: first_step,
        }
    }

    pub fn on(&mut self, p: &Progress, elements: usize) {
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
        let element = p.element.as_deref().unwrap_or("");
        if let Some(bar) = &self.bar {
            bar.set_position((p.fraction * elements as f64).round() as u64);
            bar.set_message(format!("{phase} {element}"));
        }
        if self.verbose && p.phase == Phase::Judge {
            let best = p.best_fitness.map_or("-".to_string(), |f| format!("{f:.4}"));
            eprintln!(
                "step {}: {:.0} % final, worst best fitness {best}",
                self.step,
                p.fraction * 100.0
            );
        } else if self.verbose {
            eprintln!("  {phase} {element}");
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
