//! "Link this element to code": a `[[link]]` entry for the workspace's link file, from the
//! automatic mapping when it finds the code, else a template to fill in (whose diagnostics then
//! say what is missing).

use crate::session::Handle;
use beagle_job::Source;
use beagle_pcm::ModelFile;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use tower_lsp_server::ls_types::{Position, Range, TextEdit, Uri, WorkspaceEdit};

/// The link file of the workspace analysing `repository`, and the entry to append for `id`.
pub fn proposal(repository: &Path, root: &Path, id: &str) -> Result<(PathBuf, String), String> {
    let folder = beagle_job::workspace::folder_above(repository, Some(root))
        .ok_or_else(|| format!("no beagle.toml above {} in the workspace", repository.display()))?;
    let ws = beagle_job::resolve(&folder)?;
    let Some(Source::Java { config, links }) = &ws.source else {
        return Err("the workspace does not measure Java code ([java] in beagle.toml)".into());
    };
    let links = links
        .clone()
        .ok_or("beagle.toml names no link file: add `links = \"links.toml\"` under [model]")?;
    if !ws.paths_outside(root).is_empty() {
        return Err("beagle.toml names paths outside the workspace".into());
    }
    let file = ModelFile::read(repository).map_err(|e| format!("{}: {e}", repository.display()))?;
    let repo = file.repository.as_ref().ok_or("not a repository")?;
    let name = file
        .node_by_id(id)
        .and_then(|n| file.tree.value(n, "entityName").map(|v| v.to_string()));
    let existing = beagle_java::links::read_links(&links, &config.root, &config.sources)
        .unwrap_or_default()
        .links;
    if existing.iter().any(|l| l.element == id) {
        return Err(format!("{id} is linked already ({})", links.display()));
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
            let written =
                beagle_java::links::own::write(std::slice::from_ref(&link), &mut sources).map_err(|e| e.to_string())?;
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
pub async fn append(session: &Handle, links: &Path, text: &str) -> Result<bool, String> {
    let uri = Uri::from_file_path(links).ok_or("the link file has no file URI")?;
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
    let r = session.client.apply_edit(edit).await.map_err(|e| e.to_string())?;
    Ok(r.applied)
}
