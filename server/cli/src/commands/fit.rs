//! `beagle fit FILE.csv`: the fitting engine on one CSV, following the symbolic-regression
//! benchmark's solver contract (`../shared/bench/sr/CONTRACT.md`): header `x1..xk,y` (or PCM
//! names), budget and seed from `SR_TIME_LIMIT` / `SR_SEED` / `SR_THREADS` or flags, and a last
//! line `expr: ...`.

use crate::error::CliError;
use beagle_fit::{fit, fit_branch, parse_csv, FitOptions, GpOptions, Target};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// CSV with a header of input names and `y` last (`x1,x2,y` or `files.NUMBER_OF_ELEMENTS,y`).
    file: PathBuf,
    /// Wall-clock budget in seconds [env: SR_TIME_LIMIT]. The analysers finish in milliseconds; the
    /// genetic search normally stops earlier (exact fit, stagnation, generation budget) and is
    /// cut at 90 % of the budget otherwise.
    #[arg(long, env = "SR_TIME_LIMIT", default_value_t = 10.0)]
    time_limit: f64,
    /// Seed of every random choice [env: SR_SEED]; the same seed gives the same expression.
    #[arg(long, env = "SR_SEED", default_value_t = 1)]
    seed: u64,
    /// Worker threads of the genetic search [env: SR_THREADS]. The result does not depend on it
    /// (unless the time limit cuts the search).
    #[arg(long, env = "SR_THREADS", default_value_t = 1)]
    threads: usize,
    /// Print the expression as StoEx with the CSV's column names instead of the contract grammar.
    #[arg(long)]
    stoex: bool,
    /// Skip the genetic search (analysers only).
    #[arg(long)]
    no_gp: bool,
    /// What `y` measures: `time` (relative errors), `count` (loop iterations: exact integer
    /// forms), `value` (passed values: absolute errors, integer forms), `probability` (branch
    /// outcomes 0/1 or frequencies: prints a `guard:` line when the branch is deterministic), or
    /// `auto` (time for positive targets, else value).
    #[arg(long, value_enum, default_value_t = TargetArg::Auto)]
    target: TargetArg,
    /// How a constant answer is published: the constant, or the distribution of the observations
    /// (`DoublePDF`, `IntPMF` for counts) in the `--stoex` expression and a `log: distribution:` line.
    #[arg(long, value_enum, default_value_t = SpreadArg::Constant)]
    spread: SpreadArg,
    /// The measurement's resolution, in `y`'s unit: relative errors of times are taken to at
    /// least this much (`beagle analyse` uses the Java probes' cost subtracted per run).
    #[arg(long, default_value_t = 0.0)]
    resolution: f64,
}

/// `--spread`: how a constant answer is published (`beagle fit`, `beagle analyse`).
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum SpreadArg {
    Constant,
    Distribution,
}

impl From<SpreadArg> for beagle_fit::Spread {
    fn from(s: SpreadArg) -> beagle_fit::Spread {
        match s {
            SpreadArg::Constant => beagle_fit::Spread::Constant,
            SpreadArg::Distribution => beagle_fit::Spread::Distribution,
        }
    }
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum TargetArg {
    Auto,
    Time,
    Count,
    Probability,
    Value,
}

impl From<TargetArg> for Target {
    fn from(t: TargetArg) -> Target {
        match t {
            TargetArg::Auto => Target::Auto,
            TargetArg::Time => Target::Time,
            TargetArg::Count => Target::Count,
            TargetArg::Probability => Target::Probability,
            TargetArg::Value => Target::Value,
        }
    }
}

pub fn run(args: &Args) -> Result<ExitCode, CliError> {
    let started = Instant::now();
    if !args.time_limit.is_finite() || args.time_limit <= 0.0 || args.threads == 0 {
        return Err(CliError::FitLimits);
    }
    let path = || args.file.clone();
    let text = std::fs::read_to_string(&args.file).map_err(|source| CliError::Unreadable { path: path(), source })?;
    let data = parse_csv(&text)
        .map_err(|source| CliError::Csv { path: path(), source })?
        .with_resolution(args.resolution);
    let options = FitOptions {
        gp: (!args.no_gp).then(|| GpOptions {
            seed: args.seed,
            threads: args.threads,
            // The safety net: 90 % of the budget, less what reading the file took.
            time_limit: Some(Duration::from_secs_f64(args.time_limit * 0.9).saturating_sub(started.elapsed())),
            ..GpOptions::default()
        }),
        target: args.target.into(),
        spread: args.spread.into(),
        ..FitOptions::default()
    };
    let result = fit(&data, &options).map_err(|source| CliError::Fit { path: path(), source })?;
    if options.target == Target::Probability {
        let branch = fit_branch(&data, &options.branch).map_err(|source| CliError::Fit { path: path(), source })?;
        if let (Some(infix), Some(stoex)) = (&branch.guard_infix, &branch.guard_stoex) {
            println!("guard: {}", if args.stoex { stoex } else { infix });
        }
    }
    println!(
        "log: {} rows, best from {}, R^2 {:.6}, median relative error {:.4}, {} candidates",
        data.len(),
        result.source,
        result.r2,
        result.relative_error,
        result.candidates.len()
    );
    if let Some(gp) = &result.gp {
        println!(
            "log: gp: {} generations, {} evaluations, stopped by {} after {:.3} s, {} candidates, best {}",
            gp.generations,
            gp.evaluations,
            gp.stop,
            gp.elapsed.as_secs_f64(),
            gp.candidates,
            gp.best.as_deref().unwrap_or("-")
        );
    }
    for line in evidence_lines(&result.evidence) {
        println!("log: {line}");
    }
    if let Some(d) = &result.distribution {
        println!("log: distribution: {}", d.stoex());
    }
    println!("size: {}", result.size);
    println!("expr: {}", if args.stoex { &result.stoex } else { &result.infix });
    Ok(ExitCode::SUCCESS)
}

/// The evidence behind a fit, one `log:` line each: points, held-out error and band, intervals,
/// notes, and the status with its reasons.
pub fn evidence_lines(e: &beagle_fit::Evidence) -> Vec<String> {
    use beagle_fit::format_number;
    let mut out = vec![format!(
        "evidence: {} observations at {} distinct points{} ({} to {} repetitions), at most {} coefficients supported, {} used{}",
        e.rows,
        e.points,
        if e.runs < e.points {
            format!(" from {} runs", e.runs)
        } else {
            String::new()
        },
        e.repetitions.0,
        e.repetitions.1,
        e.max_params,
        e.params,
        match e.dependency_p {
            Some(p) => format!(", rank test for a dependency {}", beagle_fit::evidence::p_text(p)),
            None => String::new(),
        }
    )];
    if let Some(h) = e.holdout_error {
        let mut line = format!("held-out error {}", e.error_text(h));
        if let Some(c) = e.constant_holdout_error {
            line += &format!(" (a constant: {})", e.error_text(c));
        }
        if let Some(n) = e.noise {
            line += &format!(", noise of one observation {}", e.error_text(n));
        }
        if let Some(b) = e.band {
            line += &format!(", 95 % band ±{}", e.error_text(b));
        }
        out.push(line);
    }
    if !e.intervals.is_empty() {
        let parts: Vec<String> = e
            .intervals
            .iter()
            .map(|i| {
                format!(
                    "{} [{}, {}]",
                    format_number(i.value),
                    format_number(beagle_fit::regression::round_significant(i.low, 3)),
                    format_number(beagle_fit::regression::round_significant(i.high, 3))
                )
            })
            .collect();
        out.push(format!("95 % intervals: {}", parts.join(", ")));
    }
    out.extend(e.notes.iter().cloned());
    out.push(format!("status: {}", e.status_text()));
    out
}
