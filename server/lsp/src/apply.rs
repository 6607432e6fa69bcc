//! Writing a repository's results into the model through the client (`workspace/applyEdit`), so
//! the edit lands in the editor's buffer (undoable, unsaved) rather than behind its back on disk.

use crate::edits::results_edits;
use crate::error::ServerError;
use crate::results::key;
use crate::session::Handle;
use std::collections::HashMap;
use std::path::Path;
use tower_lsp_server::ls_types::{
    DocumentChanges, OneOf, OptionalVersionedTextDocumentIdentifier, TextDocumentEdit, Uri, WorkspaceEdit,
};

/// Applies the results held for `path`. `Ok(false)`: nothing to change. Computed against the
/// document's current text; sent with its version, so a client whose user typed meanwhile
/// refuses it, and then it is computed again (up to three times).
pub async fn apply_results(session: &Handle, path: &Path) -> Result<bool, ServerError> {
    for _ in 0..3 {
        let world = session.world().await;
        let (uri, version, text, finals) = {
            let results = world
                .results
                .get(path)
                .ok_or_else(|| ServerError::file(path, "no results to apply"))?;
            let wanted = key(path);
            let open = world.open_snapshots().into_iter().find(|s| key(&s.path) == wanted);
            match open {
                Some(s) => (s.uri.clone(), Some(s.version), Some(s.text()), results.finals.clone()),
                None => {
                    let uri = Uri::from_file_path(path).ok_or_else(|| ServerError::file(path, "not a file path"))?;
                    (uri, None, None, results.finals.clone())
                }
            }
        };
        let text = match text {
            Some(t) => t,
            None => std::fs::read_to_string(path).map_err(|source| ServerError::Io {
                path: path.to_path_buf(),
                source,
            })?,
        };
        let owned = path.to_path_buf();
        let root = world.root_of(path);
        let edits = tokio::task::spawn_blocking(move || {
            // The units from the deployment as it is now, against the text as it is now.
            let model = beagle_pcm::ModelFile::parse(owned.clone(), text.clone());
            let units = crate::units::demand_units(&owned, root.as_deref(), &model)
                .map_err(|e| ServerError::file(&owned, e.to_string()))?;
            results_edits(&owned, &text, &finals, &units)
        })
        .await
        .map_err(|e| ServerError::Internal(e.to_string()))??;
        if edits.is_empty() {
            return Ok(false);
        }
        let edit = if world.client.document_changes {
            WorkspaceEdit {
                document_changes: Some(DocumentChanges::Edits(vec![TextDocumentEdit {
                    text_document: OptionalVersionedTextDocumentIdentifier {
                        uri: uri.clone(),
                        version,
                    },
                    edits: edits.into_iter().map(OneOf::Left).collect(),
                }])),
                ..Default::default()
            }
        } else {
            WorkspaceEdit {
                changes: Some(HashMap::from([(uri.clone(), edits)])),
                ..Default::default()
            }
        };
        let response = session
            .client
            .apply_edit(edit)
            .await
            .map_err(|e| ServerError::Editor(format!("the editor did not apply the results: {e}")))?;
        if response.applied {
            return Ok(true);
        }
        let now = session.world().await.snapshot(&uri).map(|s| s.version);
        if now == version {
            return Err(ServerError::Editor(format!(
                "the editor refused the edit{}",
                response.failure_reason.map(|r| format!(": {r}")).unwrap_or_default()
            )));
        }
        // The user edited meanwhile: compute again on the new text.
    }
    Err(ServerError::Editor(
        "the document kept changing; apply the results later (Beagle: Apply Results)".into(),
    ))
}
