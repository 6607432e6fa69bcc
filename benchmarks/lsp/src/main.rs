//! Latency of the Beagle language server against a peer language server: the same LSP client,
//! the same documents and the same requests (hover, documentSymbol, diagnostics after didOpen
//! and didChange), idle and while an analysis runs. See README.md; `run.sh` runs everything.

mod client;
mod during;
mod during_report;
mod generate;
mod measure;
mod report;

use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::PathBuf;

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
#[allow(clippy::large_enum_variant)] // parsed once
enum Cmd {
    /// Writes a generated PCM repository of at least BYTES bytes.
    Generate {
        out: PathBuf,
        #[arg(long, default_value_t = 10_000_000)]
        bytes: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Starts a server (the command after `--`), runs the requests on one input and appends
    /// one JSON line per request kind to --out.
    Measure {
        #[arg(long)]
        server: String,
        #[arg(long, default_value = "")]
        server_version: String,
        /// idle | busy
        #[arg(long)]
        phase: String,
        /// The model file to open (inside --root).
        #[arg(long)]
        input: PathBuf,
        /// The input's name in the tables.
        #[arg(long)]
        label: String,
        /// The workspace folder (rootUri).
        #[arg(long)]
        root: PathBuf,
        #[arg(long, default_value = "xml")]
        language_id: String,
        /// initializationOptions (JSON).
        #[arg(long, default_value = "{}")]
        init_options: String,
        /// The server's own wait before diagnostics of an opened document (ms), for the tables.
        #[arg(long, default_value_t = 0.0)]
        open_delay_ms: f64,
        /// The server's own debounce of diagnostics after a change (ms), for the tables.
        #[arg(long, default_value_t = 0.0)]
        change_delay_ms: f64,
        #[arg(long, default_value_t = 500)]
        hovers: usize,
        #[arg(long, default_value_t = 50)]
        symbols: usize,
        #[arg(long, default_value_t = 20)]
        changes: usize,
        #[arg(long, default_value_t = 10)]
        edit_hovers: usize,
        #[arg(long, default_value_t = 5)]
        opens: usize,
        /// KEY=VALUE for the server's environment (repeatable).
        #[arg(long)]
        env: Vec<String>,
        /// Where the server's stderr goes.
        #[arg(long, default_value = "/dev/null")]
        stderr: PathBuf,
        #[arg(long)]
        out: PathBuf,
        #[arg(last = true, required = true)]
        cmd: Vec<String>,
    },
    /// Starts a server, opens the inputs, and hovers on them while an analysis runs inside the
    /// server (--analyse) or beside it (the command after --beside-cmd, up to `--`); appends
    /// JSON lines (hovers per input and phase, memory of the run) to --out.
    During {
        #[arg(long)]
        server: String,
        #[arg(long, default_value = "")]
        server_version: String,
        /// in-server | beside
        #[arg(long)]
        mode: String,
        /// Workspace folders (repeatable; the first is the rootUri).
        #[arg(long, required = true)]
        folder: Vec<PathBuf>,
        /// LABEL=FILE of a document to open and hover on (repeatable).
        #[arg(long, required = true)]
        input: Vec<String>,
        #[arg(long, default_value = "xml")]
        language_id: String,
        #[arg(long, default_value = "{}")]
        init_options: String,
        /// The model the server analyses (`beagle.analyseRepository`).
        #[arg(long)]
        analyse: Option<PathBuf>,
        /// A command that runs beside the server instead (space-separated words).
        #[arg(long, default_value = "")]
        beside_cmd: String,
        #[arg(long, default_value = "/dev/null")]
        beside_log: PathBuf,
        #[arg(long, default_value_t = 100)]
        before_hovers: usize,
        /// Pause after each hover (ms).
        #[arg(long, default_value_t = 20)]
        gap_ms: u64,
        #[arg(long, default_value_t = 4000)]
        rss_limit_mb: u64,
        #[arg(long, default_value_t = 600)]
        max_s: u64,
        #[arg(long)]
        env: Vec<String>,
        #[arg(long, default_value = "/dev/null")]
        stderr: PathBuf,
        #[arg(long)]
        out: PathBuf,
        #[arg(last = true, required = true)]
        cmd: Vec<String>,
    },
    /// Renders the results of `during` runs as markdown.
    ReportDuring {
        results: PathBuf,
        #[arg(long)]
        fact: Vec<String>,
    },
    /// Renders RESULTS.md from the JSON lines.
    Report {
        results: PathBuf,
        /// "key=value" facts about the run for the header (repeatable, in order).
        #[arg(long)]
        fact: Vec<String>,
    },
}

fn parse_env(env: &[String]) -> Vec<(String, String)> {
    env.iter()
        .map(|kv| {
            let (k, v) = kv.split_once('=').expect("--env KEY=VALUE");
            (k.to_string(), v.to_string())
        })
        .collect()
}

fn main() {
    match Cli::parse().command {
        Cmd::Generate { out, bytes, seed } => {
            let (text, s) = generate::repository(bytes, seed);
            std::fs::write(&out, text).expect("write the repository");
            println!(
                "{}: {} bytes, {} components, {} SEFFs, {} actions",
                out.display(),
                s.bytes,
                s.components,
                s.seffs,
                s.actions
            );
        }
        Cmd::Measure {
            server,
            server_version,
            phase,
            input,
            label,
            root,
            language_id,
            init_options,
            open_delay_ms,
            change_delay_ms,
            hovers,
            symbols,
            changes,
            edit_hovers,
            opens,
            env,
            stderr,
            out,
            cmd,
        } => {
            let env = parse_env(&env);
            let o = measure::Options {
                server,
                server_version,
                phase,
                input: input.canonicalize().expect("input"),
                label,
                root: root.canonicalize().expect("root"),
                language_id,
                init_options: serde_json::from_str(&init_options).expect("--init-options: JSON"),
                open_delay_ms,
                change_delay_ms,
                hovers,
                symbols,
                changes,
                edit_hovers,
                opens,
                cmd,
                env,
                stderr,
            };
            let bytes = std::fs::metadata(&o.input).map(|m| m.len() as usize).unwrap_or(0);
            let rows = measure::run(&o);
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&out)
                .expect("results file");
            for r in &rows {
                let line = measure::to_json(&o, bytes, r);
                eprintln!(
                    "  {:<28} n={:<4} median {:>9.3} ms  p99 {:>9.3} ms  answered {}",
                    r.request,
                    line["n"],
                    line["median_ms"].as_f64().unwrap_or(f64::NAN),
                    line["p99_ms"].as_f64().unwrap_or(f64::NAN),
                    r.answered
                );
                writeln!(f, "{line}").unwrap();
            }
        }
        Cmd::During {
            server,
            server_version,
            mode,
            folder,
            input,
            language_id,
            init_options,
            analyse,
            beside_cmd,
            beside_log,
            before_hovers,
            gap_ms,
            rss_limit_mb,
            max_s,
            env,
            stderr,
            out,
            cmd,
        } => {
            let o = during::Options {
                server,
                server_version,
                mode,
                folders: folder.iter().map(|f| f.canonicalize().expect("folder")).collect(),
                inputs: input
                    .iter()
                    .map(|kv| {
                        let (k, v) = kv.split_once('=').expect("--input LABEL=FILE");
                        (k.to_string(), PathBuf::from(v).canonicalize().expect("input file"))
                    })
                    .collect(),
                language_id,
                init_options: serde_json::from_str(&init_options).expect("--init-options: JSON"),
                env: parse_env(&env),
                stderr,
                analyse: analyse.map(|a| a.canonicalize().expect("--analyse")),
                beside: beside_cmd.split_whitespace().map(String::from).collect(),
                beside_log,
                before_hovers,
                gap: std::time::Duration::from_millis(gap_ms),
                rss_limit_mb,
                max: std::time::Duration::from_secs(max_s),
                cmd,
            };
            let lines = during::run(&o);
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&out)
                .expect("results file");
            for line in &lines {
                eprintln!("  {line}");
                writeln!(f, "{line}").unwrap();
            }
        }
        Cmd::ReportDuring { results, fact } => {
            let text = std::fs::read_to_string(&results).expect("results");
            print!("{}", during_report::render(&text, &fact));
        }
        Cmd::Report { results, fact } => {
            let text = std::fs::read_to_string(&results).expect("results");
            print!("{}", report::render(&text, &fact));
        }
    }
}
