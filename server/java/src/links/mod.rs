//! Code links: which Java code stands for which PCM element (README.md, "Code links").
//!
//! Links come from the original Beagle's XML ([`beagle_xml`]), from Beagle's own TOML
//! ([`own`]) or from the automatic mapping ([`auto`]). Whatever the source, a link's range is
//! normalised to whole syntax nodes ([`normalise`]), so that instrumentation never has to cut a
//! statement in half, and [`validate`] checks it against the model before anything is measured.

pub mod auto;
pub mod beagle_xml;
mod check;
pub mod enclosing;
pub mod own;
pub mod reanchor;
mod sources;
pub use sources::java_files;

pub use check::validate;
pub use sources::{resolve_in_root, SourceError, Sources};

use crate::syntax::{ancestors, is_block, is_statement, JavaFile, METHOD_KINDS};
use beagle_pcm::Severity;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use tree_sitter::Node;

/// One PCM element tied to a byte range of one Java file.
#[derive(Clone, Debug, PartialEq)]
pub struct CodeLink {
    /// The PCM id (a SEFF, an action or a branch transition).
    pub element: String,
    /// The element's name as the link file gives it, checked against the model's entityName.
    pub name: Option<String>,
    /// Relative to the workspace root.
    pub file: PathBuf,
    /// Byte range of the linked node(s): whole statements or a whole method declaration.
    pub range: Range<usize>,
    pub origin: LinkOrigin,
    /// The class whose objects run this code for the element's component (binary name,
    /// `pkg.Outer$Inner`), when the code is declared elsewhere: a method inherited from a base
    /// class runs for every subclass, and the probe tells the components apart by the receiving
    /// object's class ([`crate::sections::Dispatch`]). `None`: whoever runs it.
    pub receiver: Option<String>,
}

/// Where a link came from: errors point there.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkOrigin {
    File { path: PathBuf, line: usize },
    Automatic { confidence: f64, reason: String },
}

/// A characterisation of a service's input that Beagle cannot tell from the code, given in the
/// link file as a Java expression over the method's parameters (`[[input]] element = "_pack"
/// characterisation = "items.BYTESIZE" java = "items.stream().mapToLong(i ->
/// i.getContent().length).sum()"`): evaluated at the service's entry, its value is the
/// characterisation.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GivenInput {
    /// The SEFF whose input it is.
    pub service: String,
    /// The variable (`items`, `request.Files`).
    pub variable: String,
    /// `VALUE`, `BYTESIZE`, `NUMBER_OF_ELEMENTS`.
    pub characterisation: String,
    /// A Java expression of a number, over the method's parameters.
    pub java: String,
    /// The link file and the entry's line.
    pub file: PathBuf,
    pub line: usize,
}

/// A problem with a link file or a link. Names the link file and line, the element and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkError {
    pub severity: Severity,
    /// The link file (absent for automatic links).
    pub file: Option<PathBuf>,
    pub line: Option<usize>,
    /// `_id (name)`, when the problem is about one element.
    pub element: Option<String>,
    pub message: String,
}

impl LinkError {
    /// An error at a place in a link file.
    pub fn at(path: &Path, line: Option<usize>, message: impl Into<String>) -> LinkError {
        LinkError {
            severity: Severity::Error,
            file: Some(path.to_path_buf()),
            line,
            element: None,
            message: message.into(),
        }
    }

    /// An error about a link: located at its origin, naming its element.
    pub fn of(link: &CodeLink, element: String, message: impl Into<String>) -> LinkError {
        let (file, line) = match &link.origin {
            LinkOrigin::File { path, line } => (Some(path.clone()), Some(*line)),
            LinkOrigin::Automatic { .. } => (None, None),
        };
        LinkError {
            severity: Severity::Error,
            file,
            line,
            element: Some(element),
            message: message.into(),
        }
    }

    pub fn warning(mut self) -> LinkError {
        self.severity = Severity::Warning;
        self
    }
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.line) {
            (Some(file), Some(line)) => write!(f, "{}:{line}: ", file.display())?,
            (Some(file), None) => write!(f, "{}: ", file.display())?,
            (None, _) => f.write_str("automatic link: ")?,
        }
        if self.severity == Severity::Warning {
            f.write_str("warning: ")?;
        }
        if let Some(element) = &self.element {
            write!(f, "{element}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for LinkError {}

/// What a link file gives: the links that resolve, and a problem for each that does not (a
/// class the code no longer has, an offset past the end of a changed file) or that was
/// re-anchored. One bad link never costs the others: its element falls back to automatic
/// linking or stays unmeasured, with the problem as the reason.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkSet {
    pub links: Vec<CodeLink>,
    /// Characterisations the file gives as Java expressions (`[[input]]`).
    pub inputs: Vec<GivenInput>,
    /// Warnings for links that were dropped, infos for links that were re-anchored.
    pub problems: Vec<LinkError>,
}

/// Reads a link file, the original Beagle's XML or Beagle's own TOML (told apart by content).
/// `source_roots` (relative to `root` or absolute inside it) resolve the XML's class names.
/// An error only when the file as a whole cannot be read; see [`LinkSet`].
pub fn read_links(path: &Path, root: &Path, source_roots: &[PathBuf]) -> Result<LinkSet, LinkError> {
    read_links_in(path, &mut Sources::new(root), source_roots)
}

/// [`read_links`] with the Java files read through `sources` (its encoding).
pub fn read_links_in(path: &Path, sources: &mut Sources, source_roots: &[PathBuf]) -> Result<LinkSet, LinkError> {
    let bytes = std::fs::read(path).map_err(|e| LinkError::at(path, None, format!("cannot read: {e}")))?;
    parse_links_in(&bytes, path, sources, source_roots)
}

/// [`read_links`] on the bytes of a link file; `path` names it in errors.
pub fn parse_links(bytes: &[u8], path: &Path, root: &Path, source_roots: &[PathBuf]) -> Result<LinkSet, LinkError> {
    parse_links_in(bytes, path, &mut Sources::new(root), source_roots)
}

fn parse_links_in(
    bytes: &[u8],
    path: &Path,
    sources: &mut Sources,
    source_roots: &[PathBuf],
) -> Result<LinkSet, LinkError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        LinkError::at(
            path,
            Some(line_of(bytes, e.valid_up_to())),
            format!("not UTF-8 (byte {})", e.valid_up_to()),
        )
    })?;
    if text.trim_start_matches('\u{feff}').trim_start().starts_with('<') {
        beagle_xml::parse(text, path, sources, source_roots)
    } else {
        own::parse(text, path, sources)
    }
}

/// 1-based line of byte `offset`.
pub(crate) fn line_of(text: &[u8], offset: usize) -> usize {
    text[..offset.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

/// The lines of a text, found once: a link file is read entry by entry, and counting the lines
/// before each entry anew made reading 4,200 links take 1.4 s (the language server reads the
/// link file on every open of the model; issue 49's 3 MB repository).
pub(crate) struct LineIndex {
    newlines: Vec<usize>,
}

impl LineIndex {
    pub(crate) fn new(text: &[u8]) -> LineIndex {
        LineIndex {
            newlines: text
                .iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n')
                .map(|(i, _)| i)
                .collect(),
        }
    }

    /// 1-based line of byte `offset`, as [`line_of`].
    pub(crate) fn line(&self, offset: usize) -> usize {
        self.newlines.partition_point(|&n| n < offset) + 1
    }
}

/// Nodes a link may start or end on: statements and method declarations.
fn is_unit(n: Node) -> bool {
    is_statement(n) || METHOD_KINDS.contains(&n.kind())
}

/// The whole syntax nodes covering the code in `range`: the innermost statement (or method)
/// at its first and at its last character, lifted until both are siblings; the result runs
/// from the start of the first to the end of the last. Leading and trailing whitespace and
/// comments do not count. `None` when no statement or method is there.
pub fn normalise(file: &JavaFile, range: Range<usize>) -> Option<Range<usize>> {
    let start = file.skip_trivia(range.start);
    let end = file.trim_trivia_end(range.end.max(start));
    if end <= start {
        let s = file.statement_after(start)?;
        return Some(s.byte_range());
    }
    let unit_at = |offset: usize| -> Option<Node> {
        let node = file.root().descendant_for_byte_range(offset, offset + 1)?;
        ancestors(node).find(|n| is_unit(*n))
    };
    let first = unit_at(start)?;
    let last = unit_at(end - 1)?;
    let first_chain: Vec<Node> = ancestors(first).filter(|n| is_unit(*n)).collect();
    let last_chain: Vec<Node> = ancestors(last).filter(|n| is_unit(*n)).collect();
    // The innermost pair of units, one from each chain, that are the same node or siblings.
    for a in &first_chain {
        for b in &last_chain {
            if a == b {
                return Some(a.byte_range());
            }
            if a.parent() == b.parent() && a.parent().is_some_and(is_block) && a.start_byte() <= b.start_byte() {
                return Some(a.start_byte()..b.end_byte());
            }
        }
    }
    None
}

/// The unit nodes of a normalised range: one node, or sibling statements of one block.
pub fn nodes_of<'t>(file: &'t JavaFile, range: &Range<usize>) -> Vec<Node<'t>> {
    let Some(first) = file.statement_after(range.start).or_else(|| {
        let n = file.root().descendant_for_byte_range(range.start, range.end)?;
        ancestors(n).find(|n| METHOD_KINDS.contains(&n.kind()) && n.byte_range() == *range)
    }) else {
        return Vec::new();
    };
    if let Some(method) = ancestors(first).find(|n| METHOD_KINDS.contains(&n.kind()) && n.byte_range() == *range) {
        return vec![method];
    }
    let outermost = ancestors(first)
        .take_while(|n| n.start_byte() == range.start && n.end_byte() <= range.end)
        .filter(|n| is_unit(*n))
        .last()
        .unwrap_or(first);
    let mut out = vec![outermost];
    let mut n = outermost;
    while n.end_byte() < range.end {
        match n.next_named_sibling() {
            Some(s) if s.end_byte() <= range.end => {
                if is_unit(s) {
                    out.push(s);
                }
                n = s;
            }
            _ => return Vec::new(),
        }
    }
    if n.end_byte() == range.end {
        out
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod line_index_tests {
    use super::{line_of, LineIndex};
    use proptest::prelude::*;

    proptest! {
        // The index answers as counting does, at every offset of any text: inside a line, on
        // its newline, past the end.
        #[test]
        fn the_line_index_agrees_with_counting_the_newlines(text in "[a\\n\\r€]{0,60}", extra in 0usize..4) {
            let bytes = text.as_bytes();
            let index = LineIndex::new(bytes);
            for offset in 0..=bytes.len() + extra {
                prop_assert_eq!(index.line(offset), line_of(bytes, offset), "offset {}", offset);
            }
        }
    }
}
