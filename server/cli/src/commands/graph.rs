//! `beagle graph FILE.repository [--seff ID] [--at NAME.CHAR=VALUE ...]`: the diagram data the
//! editor draws, as JSON: one SEFF's graph (with each action's share of the service's predicted
//! demand at the inputs), or without `--seff` the repository's overview. The same function
//! answers the language server's `beagle.seffGraph`; without an editor there are no stored
//! results to show, so nodes carry the model's specifications only.

use crate::error::CliError;
use beagle_analysis::predict::Bindings;
use beagle_lsp::graphs::{repository_graph, seff_graph, GraphRequest};
use beagle_lsp::reads::Cancelled;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The .repository file.
    path: PathBuf,
    /// The SEFF's id; without it, the repository's components.
    #[arg(long, value_name = "ID")]
    seff: Option<String>,
    /// An input characterisation's value for the prediction, e.g. `files.NUMBER_OF_ELEMENTS=20`
    /// (repeatable).
    #[arg(long = "at", value_name = "NAME.CHAR=VALUE")]
    at: Vec<String>,
}

pub fn run(args: &Args) -> Result<ExitCode, CliError> {
    let path = std::fs::canonicalize(&args.path).map_err(|source| CliError::Unreadable {
        path: args.path.clone(),
        source,
    })?;
    // The models around it too: the SEFFs that provide its calls may be in other files.
    let root = beagle_job::workspace::folder_above(&path, None)
        .or_else(|| path.parent().map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("/"));
    let set =
        beagle_lsp::state::build_model_set(&[], std::slice::from_ref(&root), &Cancelled::default()).unwrap_or_default();
    let mut inputs = Bindings::new();
    for a in &args.at {
        let (name, value) = beagle_job::predicting::predict::parse_binding(a)?;
        inputs.insert(name, value);
    }
    let req = GraphRequest {
        path: &path,
        root: &root,
        open: &[],
        results: None,
    };
    let json = match &args.seff {
        Some(seff) => serde_json::to_string_pretty(&seff_graph(&set, &req, seff, &inputs)?)?,
        None => serde_json::to_string_pretty(&repository_graph(&set, &req)?)?,
    };
    println!("{json}");
    Ok(ExitCode::SUCCESS)
}
