//! Open documents: the editor's text in a rope, changed incrementally, and parsed lazily once per
//! version (a 10 MB repository takes a while to parse; hovers reuse the parse).
//!
//! Changes are applied in the order the client sent them: the server applies each `didChange`
//! synchronously at the very start of its handler, before any `.await`, and tower-lsp-server
//! starts handlers in arrival order.

use crate::position;
use beagle_pcm::ModelFile;
use ropey::Rope;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use tower_lsp_server::ls_types::{Position, TextDocumentContentChangeEvent, Uri};

/// What kind of file a document is, from its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocKind {
    /// A PCM model file (`.repository`, `.system`, ...).
    Model,
    /// A workspace's `beagle.toml`.
    Config,
    /// Code links (`*.toml` named by a `beagle.toml`, or `*links*.toml`).
    Links,
    Other,
}

impl DocKind {
    pub fn of(path: &std::path::Path) -> DocKind {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if beagle_pcm::workspace::is_model_file(path) {
            DocKind::Model
        } else if name == "beagle.toml" {
            DocKind::Config
        } else if (name.ends_with(".toml") || name.ends_with(".xml")) && name.contains("links") {
            // Beagle's own `links.toml`, or the original Beagle's XML
            // (`..._source_statement_links.xml`, `links.xml`).
            DocKind::Links
        } else {
            DocKind::Other
        }
    }
}

/// One immutable version of a document, shared with read requests.
#[derive(Debug)]
pub struct Snapshot {
    pub uri: Uri,
    pub path: PathBuf,
    pub kind: DocKind,
    pub version: i32,
    pub rope: Rope,
    parsed: OnceLock<Arc<ModelFile>>,
}

impl Snapshot {
    /// The model parsed from this version (parsed on first use, then shared).
    pub fn model(&self) -> Arc<ModelFile> {
        self.parsed
            .get_or_init(|| {
                let path = beagle_pcm::workspace::normalise(&self.path);
                Arc::new(ModelFile::parse(path, self.rope.to_string()))
            })
            .clone()
    }

    /// The id of the SEFF the cursor at `pos` is in, in a model document: where the SEFF's quick
    /// fixes are offered.
    pub fn seff_at(&self, pos: Position) -> Option<String> {
        if self.kind != DocKind::Model {
            return None;
        }
        let offset = position::offset(&self.rope, pos);
        beagle_ide::element_at(&self.model(), offset).and_then(|at| at.seff)
    }

    pub fn text(&self) -> String {
        self.rope.to_string()
    }
}

#[derive(Debug)]
pub struct Document {
    current: Arc<Snapshot>,
}

impl Document {
    pub fn open(uri: Uri, path: PathBuf, version: i32, text: &str) -> Document {
        let kind = DocKind::of(&path);
        Document {
            current: Arc::new(Snapshot {
                uri,
                path,
                kind,
                version,
                rope: Rope::from_str(text),
                parsed: OnceLock::new(),
            }),
        }
    }

    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.current.clone()
    }

    pub fn version(&self) -> i32 {
        self.current.version
    }

    /// Applies the changes of one `didChange`, in order. A range change edits the rope; a change
    /// without a range replaces the whole text.
    pub fn change(&mut self, version: i32, changes: Vec<TextDocumentContentChangeEvent>) {
        let mut rope = self.current.rope.clone();
        for c in changes {
            match c.range {
                Some(range) => {
                    let bytes = position::byte_range(&rope, range);
                    let (from, to) = (rope.byte_to_char(bytes.start), rope.byte_to_char(bytes.end));
                    rope.remove(from..to);
                    rope.insert(from, &c.text);
                }
                None => rope = Rope::from_str(&c.text),
            }
        }
        let old = &self.current;
        self.current = Arc::new(Snapshot {
            uri: old.uri.clone(),
            path: old.path.clone(),
            kind: old.kind,
            version,
            rope,
            parsed: OnceLock::new(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_lsp_server::ls_types::{Position, Range};

    fn change(range: Option<((u32, u32), (u32, u32))>, text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: range.map(|((a, b), (c, d))| Range::new(Position::new(a, b), Position::new(c, d))),
            range_length: None,
            text: text.to_string(),
        }
    }

    #[test]
    fn incremental_changes_apply_in_order_in_utf16() {
        let uri: Uri = "file:///w/a.repository".parse().unwrap();
        let mut doc = Document::open(uri, PathBuf::from("/w/a.repository"), 1, "<a 𝄞=\"1\"/>\nsecond\n");
        let before = doc.snapshot();
        doc.change(
            2,
            vec![
                // After "<a 𝄞" (1 + 1 + 1 + 2 code units): insert; then edit the next line.
                change(Some(((0, 5), (0, 5))), "x"),
                change(Some(((1, 0), (1, 6))), "2nd"),
                change(Some(((2, 0), (2, 0))), "third"),
            ],
        );
        assert_eq!(doc.snapshot().text(), "<a 𝄞x=\"1\"/>\n2nd\nthird");
        assert_eq!(doc.version(), 2);
        // Earlier snapshots stay as they were (read requests hold them).
        assert_eq!(before.text(), "<a 𝄞=\"1\"/>\nsecond\n");
        doc.change(3, vec![change(None, "whole")]);
        assert_eq!(doc.snapshot().text(), "whole");
    }

    #[test]
    fn kinds_from_names() {
        assert_eq!(DocKind::of(std::path::Path::new("/w/m.repository")), DocKind::Model);
        assert_eq!(DocKind::of(std::path::Path::new("/w/m.system")), DocKind::Model);
        assert_eq!(DocKind::of(std::path::Path::new("/w/beagle.toml")), DocKind::Config);
        assert_eq!(DocKind::of(std::path::Path::new("/w/model/links.toml")), DocKind::Links);
        assert_eq!(
            DocKind::of(std::path::Path::new(
                "/w/model/internal_architecture_model_source_statement_links.xml"
            )),
            DocKind::Links
        );
        assert_eq!(DocKind::of(std::path::Path::new("/w/x.java")), DocKind::Other);
    }
}
