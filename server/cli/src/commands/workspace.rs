//! The workspace a command works in, with the warnings its `beagle.toml` earns first: a table
//! Beagle does not know is ignored, and said so with file and line (issue 41), as the language
//! server shows it.

use crate::error::CliError;
use beagle_job::Workspace;
use std::path::Path;

/// [`beagle_job::resolve`], after printing `warning: FILE:LINE: ...` for each unknown table or
/// top-level key of the folder's `beagle.toml`.
pub fn resolve(path: &Path) -> Result<Workspace, CliError> {
    if path.is_dir() {
        let toml = path.join("beagle.toml");
        if let Ok(text) = std::fs::read_to_string(&toml) {
            for p in beagle_job::config_check::unknown_tables(&text) {
                eprintln!("warning: {}:{}: {}", toml.display(), p.line, p.message);
            }
        }
    }
    Ok(beagle_job::resolve(path)?)
}
