//! Shared by the integration tests: fixture paths and readable renderings.
#![allow(dead_code)] // Each test binary uses part of this.

use beagle_ide::Symbol;
use beagle_pcm::{FileId, ModelFile, ModelSet};
use std::fmt::Write;
use std::path::PathBuf;

/// The workspace's `fixtures/` folder.
pub fn fixture(path: &str) -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures")).join(path)
}

pub fn read(path: &str) -> ModelFile {
    ModelFile::read(&fixture(path)).expect("fixture")
}

pub const FILESHARE: &str = "fileshare/model/fileshare.repository";
pub const MEDIASTORE: &str = "pcm/mediastore/MediaStore.repository";

/// A set holding one file and everything it refers to.
pub fn set_with(path: &str) -> (ModelSet, FileId) {
    let mut set = ModelSet::new();
    let id = set.load(&fixture(path)).expect("fixture");
    set.load_referenced(id);
    (set, id)
}

/// The offset of the `n`th (0-based) occurrence of `needle`, plus `delta`.
pub fn offset_of(text: &str, needle: &str, n: usize, delta: usize) -> usize {
    text.match_indices(needle)
        .nth(n)
        .unwrap_or_else(|| panic!("`{needle}` #{n} not in the text"))
        .0
        + delta
}

/// One line per symbol, indented by depth: `Kind name — detail @line`.
pub fn render_symbols(file: &ModelFile, symbols: &[Symbol]) -> String {
    let mut out = String::new();
    render_into(file, symbols, 0, &mut out);
    out
}

fn render_into(file: &ModelFile, symbols: &[Symbol], depth: usize, out: &mut String) {
    for s in symbols {
        let line = file.line_col(s.selection.start as usize).line;
        let detail = s.detail.as_deref().map(|d| format!(" — {d}")).unwrap_or_default();
        let _ = writeln!(out, "{}{:?} {}{detail} @{line}", "  ".repeat(depth), s.kind, s.name);
        render_into(file, &s.children, depth + 1, out);
    }
}
