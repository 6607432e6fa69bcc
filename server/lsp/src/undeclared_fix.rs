//! The code action for a launch parameter the cost follows that no input of the model declares
//! (`beagle_analysis::UndeclaredInput`, in an element's `proposal.evidence.undeclared`): where the
//! cursor is in a SEFF one of whose elements has such a parameter, the action adds a parameter of
//! that name (an `INT` where every launched value was an integer, else a `DOUBLE`) to the signature
//! the SEFF describes, one workspace edit of the PCM crate's minimal edit
//! (`ModelFile::add_signature_parameter`). The callers still have to pass it (`catalogue.VALUE`):
//! that is the model's to say, not Beagle's. One action per parameter; none where the signature
//! has a parameter of that name already.

use crate::documents::{DocKind, Snapshot};
use crate::position;
use crate::results::RepositoryResults;
use crate::state::World;
use beagle_pcm::ModelFile;
use ropey::Rope;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Position, TextEdit, Uri, WorkspaceEdit,
};

/// The actions, when the cursor is in a SEFF whose results name undeclared launch parameters.
/// The signature is looked for in the document, then (with `world`) in the other open documents
/// and the workspace's model files.
pub fn undeclared_actions(
    doc: &Snapshot,
    pos: Position,
    results: Option<&RepositoryResults>,
    world: Option<&World>,
) -> Vec<CodeActionOrCommand> {
    let (Some(results), Some(seff)) = (results, doc.seff_at(pos)) else {
        return Vec::new();
    };
    let model = doc.model();
    // Parameter name -> whether every launched value was an integer, over the SEFF's elements.
    let mut undeclared: BTreeMap<&str, bool> = BTreeMap::new();
    for (element, fe) in results.finals.values() {
        if element.service.as_deref() != Some(seff.as_str()) {
            continue;
        }
        for u in fe.proposal.evidence.iter().flat_map(|e| &e.undeclared) {
            *undeclared.entry(u.parameter.as_str()).or_insert(true) &= u.integer;
        }
    }
    if undeclared.is_empty() {
        return Vec::new();
    }
    let Some(signature_id) = (model.repository.as_ref())
        .and_then(|r| r.seffs().find(|(_, s)| s.id.as_deref() == Some(seff.as_str())))
        .and_then(|(_, s)| s.described_service.as_ref())
        .and_then(|r| r.target.id().map(str::to_string))
    else {
        return Vec::new();
    };
    let Some(target) = signature_file(doc, &model, &signature_id, world) else {
        return Vec::new();
    };
    let signature_name = (target.file.repository.as_ref())
        .and_then(|r| {
            r.signatures()
                .find(|(_, s)| s.id.as_deref() == Some(signature_id.as_str()))
        })
        .and_then(|(_, s)| s.name.clone())
        .unwrap_or_else(|| signature_id.clone());
    undeclared
        .into_iter()
        .filter_map(|(parameter, integer)| {
            let primitive = if integer { "INT" } else { "DOUBLE" };
            let edits = target
                .file
                .add_signature_parameter(&signature_id, parameter, primitive)
                .ok()?;
            let edits: Vec<TextEdit> = edits
                .iter()
                .map(|e| TextEdit {
                    range: position::range(&target.rope, e.span),
                    new_text: e.new_text.clone(),
                })
                .collect();
            Some(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!(
                    "Beagle: add parameter `{parameter}: {primitive}` to the signature `{signature_name}` (the cost follows the launch parameter `{parameter}`)"
                ),
                kind: Some(CodeActionKind::QUICKFIX),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(target.uri.clone(), edits)])),
                    ..Default::default()
                }),
                ..Default::default()
            }))
        })
        .collect()
}

/// The file that holds a signature, with what an edit of it needs.
struct SignatureFile {
    uri: Uri,
    rope: Rope,
    file: Arc<ModelFile>,
}

fn has_signature(file: &ModelFile, id: &str) -> bool {
    (file.repository.as_ref()).is_some_and(|r| r.signatures().any(|(_, s)| s.id.as_deref() == Some(id)))
}

/// The document itself, another open document, or a model file of the workspace (as the world's
/// model set read it from disk) that holds signature `id`.
fn signature_file(doc: &Snapshot, model: &Arc<ModelFile>, id: &str, world: Option<&World>) -> Option<SignatureFile> {
    if has_signature(model, id) {
        return Some(SignatureFile {
            uri: doc.uri.clone(),
            rope: doc.rope.clone(),
            file: model.clone(),
        });
    }
    let world = world?;
    let open = world.open_snapshots();
    if let Some(s) = (open.iter()).find(|s| s.kind == DocKind::Model && has_signature(&s.model(), id)) {
        return Some(SignatureFile {
            uri: s.uri.clone(),
            rope: s.rope.clone(),
            file: s.model(),
        });
    }
    let set = world.model_set.as_ref()?;
    let (_, file) = set.files().find(|(_, f)| has_signature(f, id))?;
    // A file open in the editor is edited at its open version, never at what the disk holds.
    if open.iter().any(|s| s.path == file.path) {
        return None;
    }
    Some(SignatureFile {
        uri: Uri::from_file_path(&file.path)?,
        rope: Rope::from_str(file.text()),
        file: Arc::new(file.clone()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::Document;
    use beagle_analysis::{
        ElementKind, FinalExpression, MeasurableElement, ProposalEvidence, ProposedExpression, Status, UndeclaredInput,
    };
    use std::collections::BTreeMap;
    use std::path::PathBuf;

    fn undeclared(parameter: &str, launch: &str, integer: bool) -> UndeclaredInput {
        UndeclaredInput {
            parameter: parameter.into(),
            launch: launch.into(),
            low: 100.0,
            high: 3000.0,
            ratio: 4.2,
            p: 0.001,
            integer,
        }
    }

    fn results(undeclared: Vec<UndeclaredInput>) -> RepositoryResults {
        let element = MeasurableElement::new(ElementKind::ResourceDemand {
            action: "_pw_train_pairs".into(),
            resource: "_oro4gG3fEdy4YaaT-RYrLQ".into(),
        })
        .in_service("_pw_train", ["orderItems.NUMBER_OF_ELEMENTS".to_string()]);
        let proposal = ProposedExpression {
            element: element.id.clone(),
            analyser: "fit".into(),
            stoex: "0.001 * orderItems.NUMBER_OF_ELEMENTS".into(),
            infix: "0.001 * x1".into(),
            r2: 0.9,
            relative_error: 0.1,
            samples: 30,
            parameter_ranges: BTreeMap::new(),
            size: 3,
            depth: 2,
            variables: vec!["orderItems.NUMBER_OF_ELEMENTS".into()],
            guard: None,
            predictions: Vec::new(),
            evidence: Some(ProposalEvidence {
                undeclared,
                ..Default::default()
            }),
        };
        let fe = FinalExpression {
            proposal,
            fitness: 0.1,
            status: Status::Preliminary,
            reasons: Vec::new(),
            fitted: None,
        };
        RepositoryResults {
            stage: crate::results::Stage::Final,
            results: Vec::new(),
            finals: BTreeMap::from([(element.id.clone(), (element, fe))]),
            headline: String::new(),
            validations: BTreeMap::new(),
        }
    }

    /// Inside the training SEFF, whose pairs' cost follows the launch parameter `catalogue` that
    /// no input declares, the editor offers to add `catalogue: INT` to `train` (once, however many
    /// launches name it); applied, the signature has it. Outside the SEFF, without results or
    /// without an undeclared parameter, nothing is offered; a DOUBLE where a launch took a fraction.
    #[test]
    fn an_undeclared_launch_parameter_is_offered_as_a_signature_parameter() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pairwise/model/pairwise.repository");
        let text = std::fs::read_to_string(&path).unwrap();
        let uri: Uri = "file:///w/model/pairwise.repository".parse().unwrap();
        let doc = Document::open(uri, PathBuf::from("/w/model/pairwise.repository"), 1, &text).snapshot();
        let inside = position::position(&doc.rope, text.find("id=\"_pw_train_pairs\"").unwrap());
        let found = results(vec![
            undeclared("catalogue", "train", true),
            undeclared("catalogue", "other", true),
        ]);
        let offered = undeclared_actions(&doc, inside, Some(&found), None);
        assert_eq!(offered.len(), 1);
        let CodeActionOrCommand::CodeAction(action) = &offered[0] else {
            panic!("a code action")
        };
        assert_eq!(
            action.title,
            "Beagle: add parameter `catalogue: INT` to the signature `train` (the cost follows the launch parameter `catalogue`)"
        );
        let edits = &action.edit.as_ref().unwrap().changes.as_ref().unwrap()[&doc.uri];
        let mut new = text.clone();
        let mut ranges: Vec<(std::ops::Range<usize>, &str)> = edits
            .iter()
            .map(|e| (position::byte_range(&doc.rope, e.range), e.new_text.as_str()))
            .collect();
        ranges.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
        for (r, t) in ranges {
            new.replace_range(r, t);
        }
        let file = ModelFile::parse(path.clone(), new);
        let repo = file.repository.as_ref().unwrap();
        let (_, train) = repo
            .signatures()
            .find(|(_, s)| s.id.as_deref() == Some("_pw_IRecommender_train"))
            .unwrap();
        let added = train.parameters.last().unwrap();
        assert_eq!(added.name.as_deref(), Some("catalogue"));
        assert_eq!(
            added.data_type.as_ref().map(|r| r.target.fragment()),
            Some("//@dataTypes__Repository.0")
        );

        // A launch that took a fraction makes it a DOUBLE.
        let mixed = results(vec![
            undeclared("catalogue", "train", true),
            undeclared("catalogue", "other", false),
        ]);
        let offered = undeclared_actions(&doc, inside, Some(&mixed), None);
        let CodeActionOrCommand::CodeAction(action) = &offered[0] else {
            panic!("a code action")
        };
        assert!(action.title.contains("`catalogue: DOUBLE`"), "{}", action.title);

        assert!(undeclared_actions(&doc, inside, None, None).is_empty());
        assert!(undeclared_actions(&doc, inside, Some(&results(Vec::new())), None).is_empty());
        let outside = position::position(&doc.rope, text.find("<interfaces__Repository").unwrap());
        assert!(undeclared_actions(&doc, outside, Some(&found), None).is_empty());
        // Once the signature has the parameter, nothing more is offered.
        let done = Document::open(
            doc.uri.clone(),
            PathBuf::from("/w/model/pairwise.repository"),
            2,
            file.text(),
        )
        .snapshot();
        let inside = position::position(&done.rope, file.text().find("id=\"_pw_train_pairs\"").unwrap());
        assert!(undeclared_actions(&done, inside, Some(&found), None).is_empty());
    }
}
