//! The code action that puts a SEFF's unmodelled time into the model: where the last validation
//! found a law for the time no action of the SEFF carries (`beagle_analysis::unmodelled`), the
//! cursor in that SEFF is offered an internal action `<Component.operation> (unmodelled)` right
//! after its start, as one workspace edit of the PCM crate's minimal edits
//! (`ModelFile::set_unmodelled_action`). Reported by default; written only when chosen. The law is
//! in milliseconds; where the workspace has processing rates it is written in CPU work units
//! (`crate::units`), and not offered where they cannot convert it.

use crate::documents::Snapshot;
use crate::position;
use crate::results::RepositoryResults;
use beagle_analysis::DemandUnit;
use std::collections::HashMap;
use std::path::Path;
use tower_lsp_server::ls_types::{CodeAction, CodeActionKind, CodeActionOrCommand, Position, TextEdit, WorkspaceEdit};

/// The action, when the cursor is in a SEFF whose validation has an unmodelled-time law.
pub fn unmodelled_actions(
    doc: &Snapshot,
    pos: Position,
    results: Option<&RepositoryResults>,
    root: Option<&Path>,
) -> Vec<CodeActionOrCommand> {
    let (Some(results), Some(seff)) = (results, doc.seff_at(pos)) else {
        return Vec::new();
    };
    let model = doc.model();
    let Some((v, u)) = (results.validations.get(&seff)).and_then(|v| v.unmodelled.as_ref().map(|u| (v, u))) else {
        return Vec::new();
    };
    // A called SEFF's time is inside its callers' totals: written there, it would count twice;
    // a model that predicts more than was measured misses no time.
    if model.seff_is_called(&seff) || u.median_share <= 0.0 {
        return Vec::new();
    }
    let component = (model.repository.as_ref())
        .and_then(|r| r.seffs().find(|(_, s)| s.id.as_deref() == Some(seff.as_str())))
        .and_then(|(c, _)| c.id.clone())
        .unwrap_or_default();
    let Ok(units) = crate::units::demand_units(&doc.path, root, &model) else {
        return Vec::new();
    };
    let law = match units.of(&component, beagle_pcm::edit::resource_type_id("CPU")) {
        DemandUnit::Milliseconds => u.stoex.clone(),
        DemandUnit::WorkUnits(c) => c.to_units(&u.stoex),
        DemandUnit::Unconvertible(_) => return Vec::new(),
    };
    let Ok(edits) = model.set_unmodelled_action(&seff, &v.service, "CPU", &law) else {
        return Vec::new();
    };
    let edits: Vec<TextEdit> = edits
        .iter()
        .map(|e| TextEdit {
            range: position::range(&doc.rope, e.span),
            new_text: e.new_text.clone(),
        })
        .collect();
    vec![CodeActionOrCommand::CodeAction(CodeAction {
        title: format!(
            "Beagle: Put the unmodelled time of {} into the model ({:.0} % of its measured time; {} ms per call)",
            v.service,
            100.0 * u.median_share,
            u.stoex
        ),
        kind: Some(CodeActionKind::QUICKFIX),
        edit: Some(WorkspaceEdit {
            changes: Some(HashMap::from([(doc.uri.clone(), edits)])),
            ..Default::default()
        }),
        ..Default::default()
    })]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::Document;
    use beagle_analysis::unmodelled::Unmodelled;
    use beagle_analysis::validation::{Row, ServiceValidation};
    use std::collections::BTreeMap;
    use std::path::PathBuf;

    fn results(with_law: bool) -> RepositoryResults {
        let v = ServiceValidation {
            repository: String::new(),
            service: "BusinessCore.upload".into(),
            seff: "_fs_upload_seff".into(),
            points: 3,
            median_relative_error: 0.1,
            max_relative_error: 0.5,
            rows: vec![Row {
                inputs: BTreeMap::new(),
                predicted_ms: 1.0,
                measured_ms: 1.2,
                executions: 3,
            }],
            problems: Vec::new(),
            notes: Vec::new(),
            unmodelled: with_law.then(|| Unmodelled {
                median_share: 0.2,
                share_spread: 0.05,
                stoex: "0.02 * files.NUMBER_OF_ELEMENTS + 0.1".into(),
                status: "final".into(),
                points: 10,
            }),
            calibration: None,
        };
        RepositoryResults {
            stage: crate::results::Stage::Final,
            results: Vec::new(),
            finals: BTreeMap::new(),
            headline: String::new(),
            validations: BTreeMap::from([(v.seff.clone(), v)]),
        }
    }

    /// Inside the upload SEFF, with a validation that found a law, the editor offers one edit:
    /// applied, the SEFF's chain runs start → "BusinessCore.upload (unmodelled)" → the old first
    /// action. Without a law, or outside any SEFF, nothing is offered.
    #[test]
    fn the_unmodelled_time_is_offered_inside_its_seff_and_nowhere_else() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/fileshare/model/fileshare.repository");
        let text = std::fs::read_to_string(&path).unwrap();
        let uri: tower_lsp_server::ls_types::Uri = "file:///w/model/fileshare.repository".parse().unwrap();
        let doc = Document::open(uri, PathBuf::from("/w/model/fileshare.repository"), 1, &text).snapshot();
        let inside = text.find("id=\"_fs_partition\"").unwrap();
        let pos = position::position(&doc.rope, inside);
        let offered = unmodelled_actions(&doc, pos, Some(&results(true)), None);
        assert_eq!(offered.len(), 1);
        let CodeActionOrCommand::CodeAction(action) = &offered[0] else {
            panic!("a code action")
        };
        assert!(
            action.title.contains("BusinessCore.upload") && action.title.contains("20 %"),
            "{}",
            action.title
        );
        let edits = &action.edit.as_ref().unwrap().changes.as_ref().unwrap()[&doc.uri];
        assert_eq!(edits.len(), 3);
        // Applied back to front, the model's chain holds the new action first.
        let mut new = text.clone();
        let mut ranges: Vec<(std::ops::Range<usize>, &str)> = edits
            .iter()
            .map(|e| (position::byte_range(&doc.rope, e.range), e.new_text.as_str()))
            .collect();
        ranges.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
        for (r, t) in ranges {
            new.replace_range(r, t);
        }
        let file = beagle_pcm::ModelFile::parse(path.clone(), new);
        let repo = file.repository.as_ref().unwrap();
        let (_, seff) = repo
            .seffs()
            .find(|(_, s)| s.id.as_deref() == Some("_fs_upload_seff"))
            .unwrap();
        let order: Vec<_> = seff.behaviour.ordered().collect();
        assert_eq!(order[1].name.as_deref(), Some("BusinessCore.upload (unmodelled)"));
        assert_eq!(order[2].id.as_deref(), Some("_fs_partition"));

        assert!(unmodelled_actions(&doc, pos, Some(&results(false)), None).is_empty());
        assert!(unmodelled_actions(&doc, pos, None, None).is_empty());
        let outside = position::position(&doc.rope, text.find("<repository:Repository").unwrap_or(0));
        assert!(unmodelled_actions(&doc, outside, Some(&results(true)), None).is_empty());
    }
}
