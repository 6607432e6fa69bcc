//! Results into a document as a workspace edit: written into the document's current text (the
//! user may have edited since the analysis began), then sent as the few line ranges that differ,
//! so nothing else in the document moves and the user's unsaved edits stay.

use crate::position;
use beagle_analysis::{FinalExpression, MeasurableElement};
use beagle_pcm::ModelFile;
use ropey::Rope;
use similar::{DiffOp, TextDiff};
use std::collections::BTreeMap;
use std::path::Path;
use tower_lsp_server::ls_types::TextEdit;

/// The edits that write `finals` into `text`; empty when they are written already.
pub fn results_edits(
    path: &Path,
    text: &str,
    finals: &BTreeMap<String, (MeasurableElement, FinalExpression)>,
) -> Result<Vec<TextEdit>, String> {
    let file = ModelFile::parse(path.to_path_buf(), text.to_string());
    if file.repository.is_none() || !file.tree.errors.is_empty() {
        return Err(format!(
            "{}: the repository does not parse now; fix it, then apply the results",
            path.display()
        ));
    }
    let written = beagle_analysis::write_back(&file, finals.values().map(|(e, f)| (e, f)), true)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(minimal_edits(text, &written.text))
}

/// Line-wise differences between `old` and `new` as edits on `old`.
pub fn minimal_edits(old: &str, new: &str) -> Vec<TextEdit> {
    if old == new {
        return Vec::new();
    }
    let rope = Rope::from_str(old);
    let diff = TextDiff::from_lines(old, new);
    let old_lines: Vec<&str> = diff.old_slices().to_vec();
    let new_lines: Vec<&str> = diff.new_slices().to_vec();
    // Byte offset of the start of each old line (and of the end).
    let mut starts = Vec::with_capacity(old_lines.len() + 1);
    let mut at = 0;
    for l in &old_lines {
        starts.push(at);
        at += l.len();
    }
    starts.push(at);
    let mut edits = Vec::new();
    for op in diff.ops() {
        let (old_range, new_range) = match *op {
            DiffOp::Equal { .. } => continue,
            DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            } => (old_index..old_index + old_len, new_index..new_index),
            DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => (old_index..old_index, new_index..new_index + new_len),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => (old_index..old_index + old_len, new_index..new_index + new_len),
        };
        let span = beagle_pcm::Span::new(starts[old_range.start], starts[old_range.end]);
        edits.push(TextEdit {
            range: position::range(&rope, span),
            new_text: new_lines[new_range].concat(),
        });
    }
    edits
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
    fn only_changed_lines_are_edited() {
        let old = "a\nb\nc\nd\ne";
        let new = "a\nB\nc\nd\nx\ne\nf";
        let edits = minimal_edits(old, new);
        assert_eq!(apply(old, &edits), new);
        assert_eq!(edits.len(), 2, "{edits:?}");
        assert_eq!(edits[0].range.start.line, 1);
        assert!(minimal_edits(old, old).is_empty());
        let crlf = "x\r\ny\r\nz";
        assert_eq!(apply(crlf, &minimal_edits(crlf, "x\r\nY\r\nz")), "x\r\nY\r\nz");
    }
}
