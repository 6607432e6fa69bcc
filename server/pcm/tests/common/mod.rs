//! Shared helpers for the integration tests: fixture paths and edit checking.

#![allow(dead_code)]

use beagle_pcm::edit::{apply, TextEdit};
use beagle_pcm::{ModelFile, Severity};
use std::path::{Path, PathBuf};

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pcm")
}

pub fn fixture(rel: &str) -> PathBuf {
    fixtures().join(rel)
}

pub fn read(rel: &str) -> ModelFile {
    ModelFile::read(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Every PCM file under fixtures/pcm, sorted.
pub fn all_model_files() -> Vec<PathBuf> {
    beagle_pcm::workspace::find_model_files(&fixtures()).unwrap()
}

pub fn errors(file: &ModelFile) -> Vec<String> {
    file.diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{:?} {}", d.span, d.message))
        .collect()
}

/// Applies edits, re-parses, and checks that every byte outside the edited spans is unchanged and
/// that the edit added no error. Returns the new file and a unified diff for a snapshot.
pub fn apply_and_check(file: &ModelFile, edits: &[TextEdit]) -> (ModelFile, String) {
    let old = file.text();
    let new = apply(old, edits).expect("edits apply");
    // Outside the edits, the bytes are the same: walk both texts edit by edit.
    let mut sorted = edits.to_vec();
    sorted.sort_by_key(|e| e.span.start);
    let (mut at_old, mut at_new) = (0usize, 0usize);
    for e in &sorted {
        let r = e.span.range();
        assert_eq!(
            old[at_old..r.start],
            new[at_new..at_new + (r.start - at_old)],
            "bytes before an edit changed"
        );
        at_new += r.start - at_old + e.new_text.len();
        at_old = r.end;
    }
    assert_eq!(old[at_old..], new[at_new..], "bytes after the last edit changed");
    let reparsed = ModelFile::parse(file.path.clone(), new.clone());
    let before = errors(file);
    let after = errors(&reparsed);
    assert!(after.len() <= before.len(), "the edit added errors: {after:#?}");
    let diff = similar::TextDiff::from_lines(old, &new)
        .unified_diff()
        .context_radius(1)
        .to_string();
    (reparsed, diff)
}
