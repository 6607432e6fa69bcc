//! The quick fix of `characterisation-not-passed`: a specification reads `items.NUMBER_OF_ELEMENTS`
//! where every caller passes the size as `items.VALUE` (or the other way round); the action writes
//! the callers' word in its place, one text edit of the variable
//! (`beagle_pcm::check::vocabulary::not_passed` says where and what). Offered where the cursor is
//! on such a variable; none where the callers pass no size under either name (nothing to rename to).

use crate::documents::{DocKind, Snapshot};
use crate::position;
use std::collections::HashMap;
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Position, Range, TextEdit, WorkspaceEdit,
};

pub fn vocabulary_actions(doc: &Snapshot, pos: Position) -> Vec<CodeActionOrCommand> {
    if doc.kind != DocKind::Model {
        return Vec::new();
    }
    let model = doc.model();
    let Some(repository) = &model.repository else {
        return Vec::new();
    };
    let offset = position::offset(&doc.rope, pos);
    beagle_pcm::check::vocabulary::not_passed(&model, repository)
        .into_iter()
        .filter(|n| (n.span.start as usize..=n.span.end as usize).contains(&offset))
        .filter_map(|n| {
            let replacement = n.replacement?;
            let range = Range::new(
                position::position(&doc.rope, n.span.start as usize),
                position::position(&doc.rope, n.span.end as usize),
            );
            Some(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("Beagle: write `{replacement}`, what the callers pass"),
                kind: Some(CodeActionKind::QUICKFIX),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(
                        doc.uri.clone(),
                        vec![TextEdit {
                            range,
                            new_text: replacement,
                        }],
                    )])),
                    ..Default::default()
                }),
                ..Default::default()
            }))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::Document;
    use std::path::PathBuf;

    /// On `zip`'s `items.NUMBER_OF_ELEMENTS` (every caller of `pack` passes `items.VALUE`) the
    /// editor offers to write `items.VALUE` in its place, one edit of that variable; after it the
    /// check is clean. Elsewhere nothing is offered.
    #[test]
    fn the_callers_word_is_offered_on_the_variable_no_caller_sets() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/downloads/model/downloads.repository");
        let text = std::fs::read_to_string(&path).unwrap();
        let uri: tower_lsp_server::ls_types::Uri = "file:///w/model/downloads.repository".parse().unwrap();
        let doc = Document::open(uri.clone(), PathBuf::from("/w/model/downloads.repository"), 1, &text).snapshot();
        let at = text.find("0.01 * items.NUMBER_OF_ELEMENTS").unwrap() + 10;
        let offered = vocabulary_actions(&doc, position::position(&doc.rope, at));
        assert_eq!(offered.len(), 1);
        let CodeActionOrCommand::CodeAction(action) = &offered[0] else {
            panic!("a code action")
        };
        assert_eq!(action.title, "Beagle: write `items.VALUE`, what the callers pass");
        let edits = &action.edit.as_ref().unwrap().changes.as_ref().unwrap()[&uri];
        assert_eq!(edits.len(), 1);
        let start = position::offset(&doc.rope, edits[0].range.start);
        let end = position::offset(&doc.rope, edits[0].range.end);
        let fixed = format!("{}{}{}", &text[..start], edits[0].new_text, &text[end..]);
        assert!(
            fixed.contains("specification=\"0.01 * items.VALUE\""),
            "{}",
            &fixed[start - 40..end + 40]
        );
        let file = beagle_pcm::ModelFile::parse(path, fixed);
        assert!(beagle_pcm::check::local::check(&file)
            .iter()
            .all(|d| d.code != "characterisation-not-passed"));
        // Elsewhere (on a guard of the download), nothing.
        let guard = text.find("request.Files.VALUE &gt; 1").unwrap();
        assert!(vocabulary_actions(&doc, position::position(&doc.rope, guard)).is_empty());
    }
}
