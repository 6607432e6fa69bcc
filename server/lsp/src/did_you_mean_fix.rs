//! The quick fix of the analysis's "did you mean ...?": in a repository of a Java workspace, on a
//! SEFF that no link file links and whose automatic candidate is below the threshold of use, the
//! action that writes that candidate (and the actions the linker found in it) into the
//! workspace's link file, from `beagle_job::link_proposals`. One workspace edit: the entries
//! appended to the link file, or the file created with them and, where `beagle.toml` names no
//! link file, named there (else the analysis would not read it).
//!
//! Offered only where the cursor is in such a SEFF; finding out runs the automatic linker, which
//! parses the workspace's Java sources, so everything cheaper is checked first.

use crate::documents::Snapshot;
use crate::position;
use crate::state::World;
use beagle_job::{LinkProposal, Source, Workspace};
use beagle_pcm::ModelFile;
use ropey::Rope;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CreateFile, CreateFileOptions, DocumentChangeOperation,
    DocumentChanges, OneOf, OptionalVersionedTextDocumentIdentifier, Position, Range, ResourceOp, TextDocumentEdit,
    TextEdit, Uri, WorkspaceEdit,
};

/// The action, when the cursor at `pos` in `doc` is in a SEFF with a proposal.
pub fn did_you_mean_actions(world: &World, doc: &Snapshot, pos: Position) -> Vec<CodeActionOrCommand> {
    let Some(seff) = doc.seff_at(pos) else {
        return Vec::new();
    };
    let model = doc.model();
    let Some(repository) = &model.repository else {
        return Vec::new();
    };
    let root = world.root_of(&doc.path);
    let Some(ws) = java_workspace_of(&doc.path, root.as_deref()) else {
        return Vec::new();
    };
    let files = repositories(world, &ws);
    let repositories: Vec<_> = files.iter().filter_map(|f| f.repository.as_ref()).collect();
    let Ok(found) = beagle_job::link_proposals(&ws, &repositories) else {
        return Vec::new();
    };
    let Some(proposal) = found.proposals.iter().find(|p| p.seff == seff) else {
        return Vec::new();
    };
    let Some(edit) = workspace_edit(world, &ws, &found.link_file, proposal) else {
        return Vec::new();
    };
    let component = repository
        .seffs()
        .find(|(_, s)| s.id.as_deref() == Some(seff.as_str()))
        .and_then(|(c, _)| c.name.clone());
    let service = match (component, proposal.links[0].name.as_deref()) {
        (Some(c), Some(s)) => format!("{c}.{s}"),
        _ => seff.clone(),
    };
    vec![CodeActionOrCommand::CodeAction(CodeAction {
        title: format!(
            "Beagle: Link {service} to {} (confidence {:.2}: {})",
            proposal.method,
            proposal.confidence,
            short_reason(&proposal.reason)
        ),
        kind: Some(CodeActionKind::QUICKFIX),
        edit: Some(edit),
        ..Default::default()
    })]
}

/// The Java workspace that analyses the repository at `path`, when it links automatically (else
/// the analysis asks nothing) and names nothing outside the workspace folder (the fix writes
/// where it names).
fn java_workspace_of(path: &Path, root: Option<&Path>) -> Option<Workspace> {
    let ws = beagle_job::resolve(&beagle_job::workspace::folder_above(path, root)?).ok()?;
    let Some(Source::Java { config, .. }) = &ws.source else {
        return None;
    };
    let inside = ws.paths_outside(root.unwrap_or(&ws.root)).is_empty();
    (config.automatic_links && inside && ws.repositories.iter().any(|r| same_file(r, path))).then_some(ws)
}

/// The workspace's repositories as the editor has them: open ones (the one at the cursor among
/// them) with their unsaved text.
fn repositories(world: &World, ws: &Workspace) -> Vec<Arc<ModelFile>> {
    ws.repositories
        .iter()
        .filter_map(|path| match open(world, path) {
            Some(open) => Some(open.model()),
            None => ModelFile::read(path).ok().map(Arc::new),
        })
        .collect()
}

fn same_file(a: &Path, b: &Path) -> bool {
    a == b || (a.canonicalize().ok()).is_some_and(|a| Some(a) == b.canonicalize().ok())
}

/// The open document of the file at `path`.
fn open(world: &World, path: &Path) -> Option<Arc<Snapshot>> {
    world.documents.values().find(|d| same_file(&d.path, path)).cloned()
}

/// A file as the edit finds it: open in the editor (its version) or on disk, or missing.
struct Target {
    uri: Uri,
    version: Option<i32>,
    text: Option<String>,
}

fn target(world: &World, path: &Path) -> Option<Target> {
    Some(match open(world, path) {
        Some(doc) => Target {
            uri: doc.uri.clone(),
            version: Some(doc.version),
            text: Some(doc.text()),
        },
        None => Target {
            uri: Uri::from_file_path(path)?,
            version: None,
            text: std::fs::read_to_string(path).ok(),
        },
    })
}

/// An insertion of `text` at byte `offset` of `into`.
fn insert(into: &str, offset: usize, text: String) -> TextEdit {
    let at = position::position(&Rope::from_str(into), offset);
    TextEdit {
        range: Range::new(at, at),
        new_text: text,
    }
}

/// The edit that writes `proposal` into the link file; `None` where it cannot be written: a
/// link file in the original Beagle's XML, a new file the client cannot create, a `beagle.toml`
/// that cannot be made to name it.
fn workspace_edit(
    world: &World,
    ws: &Workspace,
    link_file: &beagle_job::LinkFile,
    proposal: &LinkProposal,
) -> Option<WorkspaceEdit> {
    let links = target(world, &link_file.path)?;
    let appended = proposal.text_for(links.text.as_deref())?;
    let existing = links.text.as_deref().unwrap_or("");
    let create = links.text.is_none().then(|| links.uri.clone());
    let mut edits = vec![(links.uri, links.version, insert(existing, existing.len(), appended))];
    if !link_file.named {
        let toml_path = ws.root.join("beagle.toml");
        let config = target(world, &toml_path)?;
        let text = config.text?;
        let relative = link_file
            .path
            .strip_prefix(&ws.root)
            .ok()?
            .to_string_lossy()
            .replace('\\', "/");
        let (at, line) = beagle_job::linking::file::name_link_file(&toml_path, &text, &relative)?;
        edits.push((config.uri, config.version, insert(&text, at, line)));
    }
    if world.client.document_changes {
        let created = create.map(|uri| {
            DocumentChangeOperation::Op(ResourceOp::Create(CreateFile {
                uri,
                options: Some(CreateFileOptions {
                    overwrite: Some(false),
                    ignore_if_exists: Some(true),
                }),
                annotation_id: None,
            }))
        });
        let edited = edits.into_iter().map(|(uri, version, edit)| {
            DocumentChangeOperation::Edit(TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier { uri, version },
                edits: vec![OneOf::Left(edit)],
            })
        });
        return Some(WorkspaceEdit {
            document_changes: Some(DocumentChanges::Operations(created.into_iter().chain(edited).collect())),
            ..Default::default()
        });
    }
    // Without document changes a client can only edit files that exist.
    if create.is_some() {
        return None;
    }
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for (uri, _, edit) in edits {
        changes.entry(uri).or_default().push(edit);
    }
    Some(WorkspaceEdit {
        changes: Some(changes),
        ..Default::default()
    })
}

/// The linker's reason without what the title says already: the class's match with the
/// component, unless the class was a guess (several of one name).
fn short_reason(reason: &str) -> String {
    let kept: Vec<&str> = reason
        .split("; ")
        .filter(|part| !(part.starts_with("class ") && part.contains(" matches component ") && !part.contains('(')))
        .collect();
    if kept.is_empty() {
        reason.to_string()
    } else {
        kept.join("; ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_short_reason_leaves_out_a_sure_class_match() {
        assert_eq!(
            short_reason("class Compression matches component Compression; method compressBytes(input) has a name like signature compress's"),
            "method compressBytes(input) has a name like signature compress's"
        );
        let guess =
            "class Store matches component Store (one of 2 classes of that name); method put(x) matches signature put";
        assert_eq!(short_reason(guess), guess);
    }
}
