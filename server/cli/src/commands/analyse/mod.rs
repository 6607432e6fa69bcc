//! `beagle analyse`: measurements in, expressions per SEFF element out (and into the model with
//! `--write`). A thin layer over `beagle_job`: it turns flags into a job request, draws progress
//! on a terminal, and prints the report as text or JSON.

pub(crate) mod progress;
mod text;

use crate::error::CliError;
use beagle_analysis::{Control, Scope};
use beagle_job::{Request, Settings};
use beagle_pcm::Severity;
use std::path::PathBuf;
use std::process::ExitCode;

/// Lines of the per-file inputs report in the text output: files with something not used are
/// always listed, clean files up to this many lines, the rest summed.
const INPUT_LINES: usize = 12;

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
    #[command(flatten)]
    source: super::source::SourceArgs,
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
    /// How a constant answer is published: the constant, or the measured distribution
    /// (`DoublePDF`, `IntPMF` for counts). Default: `[analysis] spread` of beagle.toml, else constant.
    #[arg(long, value_enum)]
    spread: Option<super::fit::SpreadArg>,
    /// A line per analysis step on stderr.
    #[arg(long, short)]
    verbose: bool,
    /// Then validate the model on measurements it was not fitted to (`beagle validate`); with
    /// --json, its report is under "validation".
    #[arg(long)]
    validate: bool,
    /// With --write and --validate: also write each service's unmodelled time into the model
    /// (an internal action `<Component.operation> (unmodelled)`; `beagle validate
    /// --write-unmodelled`). By default it is only reported.
    #[arg(long, requires_all = ["write", "validate"])]
    write_unmodelled: bool,
    /// With --write and --validate: also write each calibration factor into the model (`beagle
    /// validate --write-calibration`). By default it is only reported.
    #[arg(long, requires_all = ["write", "validate"])]
    write_calibration: bool,
    /// Then count the work per section in JVMs with the counting agent (bytecode instructions,
    /// JDK calls, arrays; as `[java] count = true`), for `beagle predict --platform`.
    #[arg(long)]
    count: bool,
}

pub fn run(args: &Args) -> Result<ExitCode, CliError> {
    let mut ws = crate::commands::workspace::resolve(&args.path)?;
    args.source.apply(&mut ws)?;
    let scope = match (&args.component, &args.action) {
        (Some(c), _) => Scope::Component(c.clone()),
        (_, Some(a)) => Scope::Action(a.clone()),
        _ => Scope::Repository,
    };
    let budget_s = args.budget.or(ws.budget_s);
    if budget_s.is_some_and(|b| !(b > 0.0 && b.is_finite())) {
        return Err(CliError::Budget);
    }
    let defaults = Settings::default();
    let settings = Settings {
        seed: args.seed.or(ws.seed).unwrap_or(defaults.seed),
        budget_ms: budget_s.map(|b| (b * 1000.0) as u64),
        gp: !args.no_gp,
        threads: args.threads.unwrap_or(defaults.threads).max(1),
        fresh: args.fresh,
        write: args.write,
        spread: args.spread.map(Into::into).or(ws.spread).unwrap_or(defaults.spread),
        validate: args.validate,
        count: args.count,
    };
    let request = Request {
        workspace: ws,
        scope,
        settings,
    };
    let mut reporter = progress::Reporter::new(args.verbose);
    let output = beagle_job::run(&request, &mut reporter, &Control::new())?;
    reporter.finish();
    let report = &output.report;
    let validation = &output.validation;
    if args.json {
        let mut value = serde_json::to_value(report)?;
        if let Some(v) = validation {
            value["validation"] = serde_json::to_value(v)?;
        }
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        let m = &output.measured;
        println!(
            "measurements: {} events, {} service executions{}",
            m.events,
            m.executions,
            if m.cached { " (from the store)" } else { "" }
        );
        let inputs = report.inputs.describe(INPUT_LINES);
        if !inputs.is_empty() {
            println!("inputs:");
            for line in inputs {
                println!("  {line}");
            }
        }
        for a in &output.repositories {
            text::print(&a.path, &a.rows, &a.headline);
        }
        for d in &report.diagnostics {
            let at = match (&d.file, d.line) {
                (Some(f), Some(l)) => format!("{f}:{l}: "),
                (Some(f), None) => format!("{f}: "),
                _ => String::new(),
            };
            eprintln!("{}: {at}{}", d.severity, d.message);
        }
        if let Some(v) = validation {
            println!("validation:");
            super::validate::print(v);
        }
    }
    if let (true, Some(v)) = (args.write_calibration, validation) {
        for line in beagle_job::write_calibration(v)? {
            eprintln!("written: {line}");
        }
    }
    if let (true, Some(v)) = (args.write_unmodelled, validation) {
        for line in beagle_job::write_unmodelled(&request.workspace, v)? {
            eprintln!("written: {line}");
        }
    }
    let failed = report.diagnostics.iter().any(|d| d.severity == Severity::Error);
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
