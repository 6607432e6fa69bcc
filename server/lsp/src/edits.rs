//! Results into a document as a workspace edit: written into the document's current text (the
//! user may have edited since the analysis began) and sent as the PCM crate's minimal edits
//! (`WriteBack::edits`: the bytes of each value, or an inserted element), so nothing else in the
//! document moves and the user's unsaved edits stay. Demands are written in the units `units`
//! says (work units where the workspace has processing rates, `crate::units`).

use crate::error::ServerError;
use crate::position;
use beagle_analysis::{DemandUnits, FinalExpression, MeasurableElement};
use beagle_pcm::ModelFile;
use ropey::Rope;
use std::collections::BTreeMap;
use std::path::Path;
use tower_lsp_server::ls_types::TextEdit;

/// The edits that write `finals` into `text`; empty when they are written already.
pub fn results_edits(
    path: &Path,
    text: &str,
    finals: &BTreeMap<String, (MeasurableElement, FinalExpression)>,
    units: &DemandUnits,
) -> Result<Vec<TextEdit>, ServerError> {
    let file = ModelFile::parse(path.to_path_buf(), text.to_string());
    if file.repository.is_none() || !file.tree.errors.is_empty() {
        return Err(ServerError::file(
            path,
            "the repository does not parse now; fix it, then apply the results",
        ));
    }
    let written = beagle_analysis::write_back(&file, finals.values().map(|(e, f)| (e, f)), true, units)
        .map_err(|e| ServerError::file(path, e.to_string()))?;
    let rope = Rope::from_str(text);
    Ok(written
        .edits
        .iter()
        // A value written already is no edit.
        .filter(|e| text.get(e.span.range()) != Some(e.new_text.as_str()))
        .map(|e| TextEdit {
            range: position::range(&rope, e.span),
            new_text: e.new_text.clone(),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Applies LSP edits (non-overlapping, in order) to a text.
    fn apply(old: &str, edits: &[TextEdit]) -> String {
        let rope = Rope::from_str(old);
        let mut out = String::new();
        let mut at = 0;
        for e in edits {
            let r = position::byte_range(&rope, e.range);
            out.push_str(&old[at..r.start]);
            out.push_str(&e.new_text);
            at = r.end;
        }
        out.push_str(&old[at..]);
        out
    }

    #[test]
    fn results_become_the_pcm_crates_minimal_edits() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/pcm/mediastore/MediaStore.repository");
        // With CRLF line ends and a character outside the BMP before the edits: positions are
        // UTF-16 and lines end at \r\n.
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replacen("<repository:Repository", "<!-- 🦀 -->\n<repository:Repository", 1)
            .replace('\n', "\r\n");
        let element = MeasurableElement::new(beagle_analysis::ElementKind::Loop {
            loop_id: "_JGRMMGrVEeajAsHLADMRRw".into(),
        });
        let finals: BTreeMap<String, (MeasurableElement, FinalExpression)> = [(
            element.id.clone(),
            (
                element.clone(),
                final_expression(&element.id, "audioRequest.Count.VALUE * 2"),
            ),
        )]
        .into();
        let edits = results_edits(&path, &text, &finals, &DemandUnits::milliseconds()).unwrap();
        assert_eq!(edits.len(), 1, "{edits:?}");
        // Only the value's bytes: one line, not the whole line.
        assert_eq!(edits[0].range.start.line, edits[0].range.end.line);
        assert_eq!(edits[0].new_text, "audioRequest.Count.VALUE * 2");
        let after = apply(&text, &edits);
        assert!(
            after.contains("specification=\"audioRequest.Count.VALUE * 2\""),
            "{after}"
        );
        // What the analysis crate writes, to the byte.
        let file = ModelFile::parse(path.clone(), text.clone());
        let written = beagle_analysis::write_back(
            &file,
            finals.values().map(|(e, f)| (e, f)),
            true,
            &DemandUnits::milliseconds(),
        )
        .unwrap();
        assert_eq!(after, written.text);
        // Written already: nothing to do.
        assert!(results_edits(&path, &after, &finals, &DemandUnits::milliseconds())
            .unwrap()
            .is_empty());
    }

    fn final_expression(element: &str, stoex: &str) -> FinalExpression {
        FinalExpression {
            proposal: beagle_analysis::ProposedExpression {
                element: element.into(),
                analyser: "test".into(),
                stoex: stoex.into(),
                infix: String::new(),
                r2: 1.0,
                relative_error: 0.0,
                samples: 1,
                parameter_ranges: BTreeMap::new(),
                size: 1,
                depth: 1,
                variables: vec![],
                guard: None,
                predictions: vec![1.0],
                evidence: None,
            },
            fitness: 0.0,
            status: beagle_analysis::Status::Final,
            reasons: Vec::new(),
            fitted: None,
        }
    }
}
