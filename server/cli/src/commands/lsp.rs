//! `beagle lsp`: the language server on stdin/stdout. Logs go to stderr (stdout is the LSP
//! channel), filtered by `BEAGLE_LOG` (`info` by default; `debug`, `beagle_lsp=trace`, ...).

use crate::error::CliError;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Accepted for clients that pass it (vscode-languageclient's stdio transport); stdio is
    /// the only transport.
    #[arg(long)]
    stdio: bool,
}

pub fn run(_: &Args) -> Result<ExitCode, CliError> {
    let filter = tracing_subscriber::EnvFilter::try_from_env("BEAGLE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(filter)
        .try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(CliError::Runtime)?;
    let orderly = runtime.block_on(beagle_lsp::serve_stdio());
    // Blocking threads (a running analysis) must not hold the process after `exit`.
    runtime.shutdown_timeout(std::time::Duration::from_secs(2));
    Ok(if orderly { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
