//! The quick fix on the original Beagle's link file: write the re-anchored positions in (the
//! infos the diagnostics show) and the changed classes' hashes, as one edit of the whole file.

use crate::diagnostics::java_workspace_of_links;
use crate::documents::{DocKind, Snapshot};
use std::collections::HashMap;
use std::path::Path;
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Position, Range, TextEdit, WorkspaceEdit,
};

/// The fix for a link file whose links were re-anchored, if any.
pub fn reanchor_actions(doc: &Snapshot, root: Option<&Path>) -> Vec<CodeActionOrCommand> {
    if doc.kind != DocKind::Links {
        return Vec::new();
    }
    let text = doc.text();
    if !text.trim_start_matches('\u{feff}').trim_start().starts_with('<') {
        return Vec::new();
    }
    let Some((java_root, sources)) = java_workspace_of_links(&doc.path, root) else {
        return Vec::new();
    };
    let mut files = beagle_java::links::Sources::new(&java_root);
    let Ok(Some((fixed, moved))) =
        beagle_java::links::beagle_xml::reanchored_text(&text, &doc.path, &mut files, &sources)
    else {
        return Vec::new();
    };
    let end = crate::position::position(&doc.rope, doc.rope.len_bytes());
    let edit = TextEdit {
        range: Range::new(Position::new(0, 0), end),
        new_text: fixed,
    };
    let title = if moved > 0 {
        format!("Beagle: write the {moved} re-anchored positions into the link file")
    } else {
        "Beagle: record the changed classes' hashes in the link file".to_string()
    };
    vec![CodeActionOrCommand::CodeAction(CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(doc.uri.clone(), vec![edit])])),
            ..Default::default()
        }),
        ..Default::default()
    })]
}
