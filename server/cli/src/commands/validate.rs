//! `beagle validate [PATH] [--json]`: does the model predict its services on measurements it was
//! not fitted to? Per service: points, median and worst relative error, and a table of predicted
//! beside measured total demand (see `beagle_job::validating::validate`).

use crate::error::CliError;
use beagle_job::validating::validate::{ValidateOptions, ValidationReport};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// A workspace folder with a beagle.toml, or a .repository file.
    #[arg(default_value = ".")]
    path: PathBuf,
    #[command(flatten)]
    source: super::source::SourceArgs,
    /// Share of the entry executions held out of the analysis to validate on (measurement
    /// workspaces).
    #[arg(long, default_value_t = 0.2, value_name = "SHARE")]
    hold_out: f64,
    /// Fresh parameter points per launch (Java workspaces).
    #[arg(long, default_value_t = 8, value_name = "N")]
    points: usize,
    /// Seed of what is held out and of the analysis.
    #[arg(long)]
    seed: Option<u64>,
    /// Leave out the genetic programming in the analysis of the rest.
    #[arg(long)]
    no_gp: bool,
    /// Print the validation as JSON: {"services": [{"service", "seff", "points",
    /// "median_relative_error", "max_relative_error", "rows": [{"inputs", "predicted_ms",
    /// "measured_ms", "executions"}]}], "notes": [...]}.
    #[arg(long)]
    json: bool,
    /// Write each service's unmodelled time (what it costs beyond its parts' prediction) into
    /// the model: an internal action `<Component.operation> (unmodelled)` after the SEFF's start.
    #[arg(long)]
    write_unmodelled: bool,
    /// Write each calibration factor into the model: where the probes distorted a service's
    /// measurement, every demand its prediction is composed of, times the plain build's totals
    /// over the prediction (median). Written before the unmodelled time, which then leaves
    /// calibrated services out.
    #[arg(long)]
    write_calibration: bool,
    /// Java: options added to every launch's JVM (the runs stand for another platform), e.g.
    /// `--jvm-args "-XX:TieredStopAtLevel=1"`.
    #[arg(long, value_name = "OPTIONS", allow_hyphen_values = true)]
    jvm_args: Option<String>,
    /// Java: predict for this platform (its profile, `beagle calibrate`) from the analysis's
    /// counts; the model as measured is validated beside it on the same runs ("baseline").
    #[arg(long, value_name = "FILE")]
    platform: Option<PathBuf>,
}

pub fn run(args: &Args) -> Result<ExitCode, CliError> {
    let mut ws = crate::commands::workspace::resolve(&args.path)?;
    args.source.apply(&mut ws)?;
    if !(0.0..1.0).contains(&args.hold_out) || args.hold_out == 0.0 {
        return Err(CliError::HoldOut(args.hold_out));
    }
    let options = ValidateOptions {
        share: args.hold_out,
        points: args.points,
        seed: args.seed.or(ws.seed).unwrap_or(1),
        gp: !args.no_gp,
        jvm_args: (args.jvm_args.as_deref().unwrap_or_default())
            .split_whitespace()
            .map(str::to_string)
            .collect(),
        platform: args
            .platform
            .as_deref()
            .map(beagle_java::platform::Profile::read)
            .transpose()?,
        ..ValidateOptions::default()
    };
    let report = beagle_job::validating::validate::validate(&ws, &options, &mut beagle_job::Quiet)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print(&report);
    }
    if args.write_calibration {
        for line in beagle_job::write_calibration(&report)? {
            eprintln!("written: {line}");
        }
    }
    if args.write_unmodelled {
        for line in beagle_job::write_unmodelled(&ws, &report)? {
            eprintln!("written: {line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Per service a headline and its table, predicted beside measured.
pub fn print(report: &ValidationReport) {
    // Beside a platform's prediction: the model as measured, on the same runs.
    for b in &report.baseline {
        println!(
            "{} as measured (baseline): median error {:.1} %, worst {:.1} %",
            b.service,
            100.0 * b.median_relative_error,
            100.0 * b.max_relative_error
        );
    }
    for s in &report.services {
        println!(
            "{} (SEFF {}): {} points, median error {:.1} %, worst {:.1} %",
            s.service,
            s.seff,
            s.points,
            100.0 * s.median_relative_error,
            100.0 * s.max_relative_error
        );
        // The time no action carries: what the service costs beyond its parts' prediction.
        if let Some(u) = &s.unmodelled {
            println!("  {}", u.describe());
        }
        if let Some(c) = &s.calibration {
            println!("  {}", c.describe());
        }
        let names: Vec<&String> = s.rows.first().map(|r| r.inputs.keys().collect()).unwrap_or_default();
        let header: Vec<String> = names.iter().map(|n| format!("{n:>24}")).collect();
        println!(
            "  {} {:>14} {:>14} {:>8}",
            header.join(" "),
            "predicted ms",
            "measured ms",
            "error"
        );
        for r in &s.rows {
            let cells: Vec<String> = names
                .iter()
                .map(|n| format!("{:>24}", r.inputs.get(*n).map_or("-".into(), |v| format!("{v}"))))
                .collect();
            println!(
                "  {} {:>14.4} {:>14.4} {:>7.1}%",
                cells.join(" "),
                r.predicted_ms,
                r.measured_ms,
                100.0 * r.relative_error()
            );
        }
        for p in &s.problems {
            eprintln!("warning: {}: {p}: not predicted", s.service);
        }
        for n in &s.notes {
            eprintln!("warning: {}: {n}", s.service);
        }
    }
    for n in &report.notes {
        eprintln!("note: {n}");
    }
}
