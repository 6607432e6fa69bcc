//! "Link this element to code": a `[[link]]` entry for the workspace's link file, from the
//! automatic mapping when it finds the code, else a template to fill in (whose diagnostics then
//! say what is missing).

use crate::error::ServerError;
use crate::session::Handle;
use beagle_job::Source;
use beagle_pcm::ModelFile;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use tower_lsp_server::ls_types::{Position, Range, TextEdit, Uri, WorkspaceEdit};

/// The link file of the workspace analysing `repository`, and the entry to append for `id`.
pub fn proposal(repository: &Path, root: &Path, id: &str) -> Result<(PathBuf, String), ServerError> {
    let folder = beagle_job::workspace::folder_above(repository, Some(root))
        .ok_or_else(|| ServerError::file(repository, "no beagle.toml above it in the workspace"))?;
    let ws = beagle_job::resolve(&folder)?;
    let config_file = folder.join("beagle.toml");
    let workspace = |message: &str| ServerError::Workspace {
        config: config_file.clone(),
        message: message.into(),
    };
    let Some(Source::Java { config, links }) = &ws.source else {
        return Err(workspace(
            "the workspace does not measure Java code ([java] in beagle.toml)",
        ));
    };
    let links = links
        .clone()
        .ok_or_else(|| workspace("names no link file: add `links = \"links.toml\"` under [model]"))?;
    if !ws.paths_outside(root).is_empty() {
        return Err(workspace("names paths outside the workspace"));
    }
    let file = ModelFile::read(repository).map_err(|source| ServerError::Io {
        path: repository.to_path_buf(),
        source,
    })?;
    let repo = file
        .repository
        .as_ref()
        .ok_or_else(|| ServerError::file(repository, "not a repository"))?;
    let name = file
        .node_by_id(id)
        .and_then(|n| file.tree.value(n, "entityName").map(|v| v.to_string()));
    let existing = beagle_java::links::read_links(&links, &config.root, &config.sources)
        .unwrap_or_default()
        .links;
    if existing.iter().any(|l| l.element == id) {
        return Err(ServerError::file(&links, format!("{id} is linked already")));
    }
    let linked: BTreeSet<String> = existing.iter().map(|l| l.element.clone()).collect();
    let found = beagle_java::links::auto::automatic_links_except(
        &[repo],
        &config.root,
        &config.sources,
        &linked,
        &config.exclude,
    )
    .into_iter()
    .find(|l| l.element == id);
    let text = match found {
        Some(link) => {
            let mut sources = beagle_java::links::Sources::new(&config.root);
            let written = beagle_java::links::own::write(std::slice::from_ref(&link), &mut sources)?;
            // Only the entry, not the file header `write` starts with.
            let entry = written.split_once("\n[[link]]").map_or(written.clone(), |(_, e)| format!("[[link]]{e}"));
            let why = match &link.origin {
                beagle_java::links::LinkOrigin::Automatic { confidence, reason } => {
                    format!("# proposed by the automatic mapping (confidence {confidence:.2}): {reason}\n")
                }
                _ => String::new(),
            };
            format!("\n{why}{entry}")
        }
        None => format!(
            "\n# fill in the code of {}: the file (relative to beagle.toml) and the range\n[[link]]\nelement = \"{id}\"\nname = \"{}\"\nfile = \"\"\nfrom = \"1:1\"\nto = \"1:1\"\n",
            name.as_deref().unwrap_or(id),
            name.as_deref().unwrap_or("").replace('"', "\\\"")
        ),
    };
    Ok((links, text))
}

/// Appends `text` to the link file through the client (the file's open buffer if it is open).
pub async fn append(session: &Handle, links: &Path, text: &str) -> Result<bool, ServerError> {
    let uri = Uri::from_file_path(links).ok_or_else(|| ServerError::file(links, "has no file URI"))?;
    let end = match session.world().await.snapshot(&uri) {
        Some(s) => crate::position::position(&s.rope, s.rope.len_bytes()),
        None => {
            let current = std::fs::read_to_string(links).unwrap_or_default();
            crate::position::position(&ropey::Rope::from_str(&current), current.len())
        }
    };
    let edit = WorkspaceEdit {
        changes: Some(
            [(
                uri,
                vec![TextEdit {
                    range: Range::new(end, Position::new(end.line, end.character)),
                    new_text: text.to_string(),
                }],
            )]
            .into_iter()
            .collect(),
        ),
        ..Default::default()
    };
    let r = session
        .client
        .apply_edit(edit)
        .await
        .map_err(|e| ServerError::Editor(e.to_string()))?;
    Ok(r.applied)
}
