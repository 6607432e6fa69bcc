//! Arbitrary bytes as a link file, either format (told apart by content), through `parse_links`
//! against a small workspace with one Java file: never a panic, errors name the link file.
//!
//! Seeds: `seeds/links/`.

#![no_main]

use beagle_java::links::parse_links;
use libfuzzer_sys::fuzz_target;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A workspace with `src/q/Quirks.java` (non-ASCII text before the code, so that UTF-16 and byte
/// offsets differ), made once per process.
fn workspace() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let root = std::env::temp_dir().join(format!("beagle-links-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(root.join("src/q")).unwrap();
        std::fs::write(
            root.join("src/q/Quirks.java"),
            include_str!("../../tests/links/quirks/src/q/Quirks.java"),
        )
        .unwrap();
        root
    })
}

fuzz_target!(|data: &[u8]| {
    let root = workspace();
    match parse_links(data, Path::new("fuzz-links"), root, &[PathBuf::from("src")]) {
        Ok(links) => {
            for l in links {
                assert!(l.range.start < l.range.end, "{l:?}");
            }
        }
        Err(e) => assert!(e.to_string().starts_with("fuzz-links"), "{e}"),
    }
});
