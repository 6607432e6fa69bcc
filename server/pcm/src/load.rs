//! Reading a model file: its text (UTF-8, or reported and replaced), the element tree, the
//! index and the typed view ([`ModelFile::unchecked`]), then the checks that need no other file.
//! Here, above both, so that the file model does not depend on its checks.

use crate::diagnostic::Diagnostic;
use crate::file::{ModelFile, MAX_FILE_SIZE};
use crate::span::Span;
use std::path::{Path, PathBuf};

impl ModelFile {
    /// Reads a file from disk. Bytes that are not UTF-8 are reported and replaced, so that the rest
    /// of the file can still be checked (such a file is never written back by Beagle).
    pub fn read(path: &Path) -> std::io::Result<ModelFile> {
        let bytes = std::fs::read(path)?;
        Ok(ModelFile::from_bytes(path.to_path_buf(), bytes))
    }

    pub fn from_bytes(path: PathBuf, bytes: Vec<u8>) -> ModelFile {
        match String::from_utf8(bytes) {
            Ok(text) => ModelFile::parse(path, text),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                // The bad bytes became U+FFFD (3 bytes): the span covers that character.
                let width = text[at..].chars().next().map_or(0, char::len_utf8);
                let mut file = ModelFile::parse(path, text);
                file.diagnostics.insert(
                    0,
                    Diagnostic::error(
                        "encoding",
                        Span::new(at, at + width),
                        None,
                        format!("the file is not valid UTF-8 (byte {at}); invalid bytes were read as U+FFFD"),
                    ),
                );
                file
            }
        }
    }

    /// Parses and indexes a file's text. Never fails: problems become diagnostics.
    pub fn parse(path: PathBuf, text: String) -> ModelFile {
        if text.len() > MAX_FILE_SIZE {
            let mut file = ModelFile::unchecked(path, String::new());
            file.diagnostics = vec![Diagnostic::error(
                "too-large",
                Span::default(),
                None,
                "files over 4 GiB are not supported",
            )];
            return file;
        }
        let mut file = ModelFile::unchecked(path, text);
        file.diagnostics = crate::check::local::check(&file);
        file
    }
}
