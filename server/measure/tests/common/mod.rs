//! What the measure tests share.

use std::path::PathBuf;

/// The log directory inside `fixtures/kieker/<dir>` (real Kieker logs, copied from
/// `../shared/fixtures/kieker` with their SOURCES.md and licence, so that a fresh clone tests alone).
pub fn fixture(dir: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/kieker");
    std::fs::read_dir(root.join(dir))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
}
