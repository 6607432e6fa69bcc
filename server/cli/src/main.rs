//! `beagle`: Beagle's command line. Each subcommand is a thin layer over the core crates.

mod commands;
mod error;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "beagle",
    version,
    about = "Measure what each part of a Palladio component model costs, as a function of its inputs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Analyse measurements of a PCM repository: an expression per resource demand, loop, branch
    /// and call parameter, as a function of the service's inputs.
    Analyse(commands::analyse::Args),
    /// Calibrate a platform: run a benchmark suite in a JVM on this machine (instruction classes
    /// compiled and interpreted, JDK methods per call and per element, the clock) and write its
    /// profile, which `beagle predict --platform` reads.
    Calibrate(commands::calibrate::Args),
    /// Parse PCM files (or every PCM file under a folder), resolve references, report diagnostics.
    Check(commands::check::Args),
    /// Fit a parametric expression to measurements in a CSV (the benchmark's solver contract).
    Fit(commands::fit::Args),
    /// Print a SEFF's diagram as JSON (`--seff`), or the repository's components, roles and
    /// SEFFs: what the editor's diagram draws (the `beagle.seffGraph` command's answer).
    Graph(commands::graph::Args),
    /// Print the links automatic linking suggests for a Java workspace, as a link file
    /// (`--suggest`): every candidate with its confidence and reason.
    Link(commands::link::Args),
    /// Serve the Language Server Protocol on stdin/stdout (what editors start).
    Lsp(commands::lsp::Args),
    /// Predict a service's expected demand per resource type for given inputs, composed from the
    /// SEFFs of the repository as it is (loops, branches, calls into other components).
    Predict(commands::predict::Args),
    /// Validate the model on measurements it was not fitted to: per service, predicted beside
    /// measured total demand.
    Validate(commands::validate::Args),
    /// Work with stochastic expressions.
    #[command(subcommand)]
    Stoex(commands::stoex::Command),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Analyse(args) => commands::analyse::run(&args),
        Command::Calibrate(args) => commands::calibrate::run(&args),
        Command::Check(args) => commands::check::run(&args),
        Command::Stoex(cmd) => commands::stoex::run(&cmd),
        Command::Fit(args) => commands::fit::run(&args),
        Command::Graph(args) => commands::graph::run(&args),
        Command::Link(args) => commands::link::run(&args),
        Command::Lsp(args) => commands::lsp::run(&args),
        Command::Predict(args) => commands::predict::run(&args),
        Command::Validate(args) => commands::validate::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
