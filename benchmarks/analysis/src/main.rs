//! Beagle's import speed and the analysis loop's own overhead, each against a named peer measured
//! in the same run (see README.md). `run.sh` drives the subcommands and the Python peers; every
//! measurement is one JSON line on standard output, and `report` turns the lines into RESULTS.md.

mod generate;
mod import;
mod loop_bench;
// The machine description both benchmarks print (one copy, in pcm-parse).
#[path = "../../pcm-parse/src/machine.rs"]
mod machine;
mod report;

use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;

#[derive(Parser)]
#[command(about = "Import speed and analysis-loop overhead of Beagle, against named peers")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Writes events.jsonl, kieker-cipm/ and kieker-oer/ into DIR (seeded).
    Generate {
        dir: PathBuf,
        #[arg(long, default_value_t = 1_000_000)]
        events: usize,
        #[arg(long, default_value_t = 1_000_000)]
        oer_records: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// read_events on FILE, best of RUNS.
    Events {
        file: PathBuf,
        #[arg(long, default_value_t = 5)]
        runs: usize,
    },
    /// read_log + convert on the Kieker log DIR (KIND cipm or oer), best of RUNS.
    Kieker {
        dir: PathBuf,
        #[arg(long)]
        kind: String,
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Check once that the conversion gives exactly the events of this events file.
        #[arg(long)]
        same_as: Option<PathBuf>,
    },
    /// The analysis loop against direct fitting, for each number of services (5 elements each).
    Loop {
        /// `no-gp` (regression, thresholds, MARS), `regression` (regression only) or `constant`
        /// (the constant analyser alone against medians).
        #[arg(long, default_value = "no-gp")]
        config: String,
        #[arg(long, value_delimiter = ',', default_value = "1,4,16")]
        services: Vec<usize>,
        #[arg(long, default_value_t = 200)]
        executions: usize,
        #[arg(long, default_value_t = 5)]
        runs: usize,
    },
    /// Renders the JSON lines of RESULTS as Markdown (RESULTS.md) on standard output.
    Report {
        results: PathBuf,
        /// `python --version` of the peers' interpreter.
        #[arg(long, default_value = "unknown")]
        python: String,
    },
}

fn emit(line: &serde_json::Value) {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}").expect("stdout");
    out.flush().expect("stdout");
}

fn main() {
    match Cli::parse().command {
        Command::Generate {
            dir,
            events,
            oer_records,
            seed,
        } => {
            let g = generate::generate(&dir, events, oer_records, seed).expect("writing the inputs");
            eprintln!(
                "generated {} events, {} CIPM records, {} OperationExecutionRecords in {}",
                g.events,
                g.cipm_records,
                g.oer_records,
                dir.display()
            );
        }
        Command::Events { file, runs } => import::events(&file, runs).iter().for_each(emit),
        Command::Kieker {
            dir,
            kind,
            runs,
            same_as,
        } => emit(&import::kieker(&dir, &kind, runs, same_as.as_deref())),
        Command::Loop {
            config,
            services,
            executions,
            runs,
        } => {
            for s in services {
                emit(&loop_bench::measure(&config, s, executions, runs));
            }
        }
        Command::Report { results, python } => {
            let text = std::fs::read_to_string(&results).expect("results file");
            print!("{}", report::render(&text, &python));
        }
    }
}
