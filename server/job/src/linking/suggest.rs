//! `beagle link --suggest`: the automatic links of a Java workspace as Beagle's own link file,
//! every candidate (used or not) with its confidence and reason, and why the SEFFs that got none
//! got none: text to review and paste into `links.toml`.

use crate::error::JobError;
use crate::workspace::{Source, Workspace};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The suggested links of `ws` as `links.toml` text.
pub fn suggest_links(ws: &Workspace) -> Result<String, JobError> {
    let Some(Source::Java { config, .. }) = &ws.source else {
        return Err(JobError::NotJava);
    };
    let files = crate::measuring::java::read_model_files(&ws.repositories)?;
    let repositories: Vec<&beagle_pcm::model::Repository> =
        files.iter().filter_map(|f| f.repository.as_ref()).collect();
    let (links, misses) = crate::measuring::links::automatic(config, &ws.repositories, &repositories, &BTreeSet::new());
    let mut sources = beagle_java::links::Sources::with_encoding(&config.root, config.encoding);
    let mut out = beagle_java::links::own::write(&links, &mut sources).map_err(|e| JobError::Edit {
        path: config.root.clone(),
        message: e.to_string(),
    })?;
    if !misses.is_empty() {
        out.push_str("\n# No candidate (link these by hand):\n");
        for (seff, why) in misses {
            let _ = writeln!(out, "# {seff}: {why}");
        }
    }
    Ok(out)
}
