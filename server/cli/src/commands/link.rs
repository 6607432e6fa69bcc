//! `beagle link --suggest`: the links automatic linking would make, as a link file to review.

use crate::error::CliError;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The workspace: a folder with beagle.toml (a Java workspace, `[java]`).
    #[arg(default_value = ".")]
    path: PathBuf,
    /// Print every candidate link (used or not, each with its confidence and reason) in Beagle's
    /// own link format, ready to paste into the file `[model] links` names; the SEFFs without a
    /// candidate, with why, as comments at the end.
    #[arg(long, required = true)]
    suggest: bool,
}

pub fn run(args: &Args) -> Result<ExitCode, CliError> {
    let ws = crate::commands::workspace::resolve(&args.path)?;
    print!("{}", beagle_job::suggest_links(&ws)?);
    Ok(ExitCode::SUCCESS)
}
