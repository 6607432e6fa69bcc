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
