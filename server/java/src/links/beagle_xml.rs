//! The original Beagle's link file, `PcmSourceStatementLinkRepository` (schema: `PCM Source
//! Statement Links.xsd`): per `pcmElementId` a `FirstStatement` and an optional `LastStatement`,
//! each a UTF-16 character offset into the file of a fully qualified class name.
//!
//! The schema says an offset is a statement's first character; the files SoMoX wrote from JaMoPP
//! put it on the `;` that ends a statement or on the whitespace just before one. [`resolve_offset`]
//! accepts all three.

use super::{line_of, normalise, CodeLink, LinkError, LinkOrigin, Sources};
use crate::syntax::JavaFile;
use quick_xml::events::Event;
use quick_xml::Reader;
use std::ops::Range;
use std::path::{Path, PathBuf};
use tree_sitter::Node;

/// One `PcmSourceStatementLink` as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XmlLink {
    pub element: String,
    /// 1-based line of the `PcmSourceStatementLink` element.
    pub line: usize,
    pub first: Position,
    pub last: Option<Position>,
}

/// A `FirstStatement` or `LastStatement`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Fully qualified class name.
    pub class: String,
    /// UTF-16 character offset.
    pub offset: usize,
    pub line: usize,
}

/// Reads the links of the XML without touching any Java file.
pub fn parse_xml(text: &str, path: &Path) -> Result<Vec<XmlLink>, LinkError> {
    let mut reader = Reader::from_str(text);
    let mut out: Vec<XmlLink> = Vec::new();
    let mut seen_root = false;
    // The position element being read: (is_first, class, line), waiting for its text.
    let mut pending: Option<(bool, String, usize)> = None;
    let mut number = String::new();
    loop {
        let at = reader.buffer_position() as usize;
        let line = line_of(text.as_bytes(), at);
        let event = reader.read_event().map_err(|e| {
            let pos = reader.error_position() as usize;
            LinkError::at(path, Some(line_of(text.as_bytes(), pos)), format!("XML: {e}"))
        })?;
        match event {
            Event::Start(e) | Event::Empty(e) => {
                let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                let attr = |key: &str| -> Result<Option<String>, LinkError> {
                    for a in e.attributes() {
                        let a = a.map_err(|err| LinkError::at(path, Some(line), format!("XML: {err}")))?;
                        if a.key.local_name().as_ref() == key.as_bytes() {
                            let raw = String::from_utf8_lossy(&a.value).into_owned();
                            let value = quick_xml::escape::unescape(&raw)
                                .map_err(|err| LinkError::at(path, Some(line), format!("XML: {err}")))?;
                            return Ok(Some(value.into_owned()));
                        }
                    }
                    Ok(None)
                };
                match name.as_str() {
                    "PcmSourceStatementLinkRepository" => seen_root = true,
                    "PcmSourceStatementLink" => {
                        let element = attr("pcmElementId")?.ok_or_else(|| {
                            LinkError::at(path, Some(line), "PcmSourceStatementLink without pcmElementId")
                        })?;
                        out.push(XmlLink {
                            element,
                            line,
                            first: Position {
                                class: String::new(),
                                offset: 0,
                                line,
                            },
                            last: None,
                        });
                    }
                    "FirstStatement" | "LastStatement" => {
                        let class = attr("sourceCodeFile")?
                            .ok_or_else(|| LinkError::at(path, Some(line), format!("{name} without sourceCodeFile")))?;
                        if out.is_empty() {
                            return Err(LinkError::at(
                                path,
                                Some(line),
                                format!("{name} outside a PcmSourceStatementLink"),
                            ));
                        }
                        pending = Some((name == "FirstStatement", class, line));
                        number.clear();
                    }
                    _ => {}
                }
            }
            Event::Text(t) if pending.is_some() => number.push_str(&String::from_utf8_lossy(&t)),
            Event::End(e) => {
                let name = e.local_name();
                let is_position = matches!(name.as_ref(), b"FirstStatement" | b"LastStatement");
                if let (true, Some((first, class, pline))) = (is_position, pending.take()) {
                    let offset = number.trim().parse::<usize>().map_err(|_| {
                        LinkError::at(
                            path,
                            Some(pline),
                            format!("`{}` is not a character offset", number.trim()),
                        )
                    })?;
                    let position = Position {
                        class,
                        offset,
                        line: pline,
                    };
                    let link = out.last_mut().expect("positions are only read inside a link");
                    if first {
                        link.first = position;
                    } else {
                        link.last = Some(position);
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !seen_root {
        return Err(LinkError::at(
            path,
            Some(1),
            "not a PcmSourceStatementLinkRepository (the original Beagle's link file)",
        ));
    }
    if let Some(l) = out.iter().find(|l| l.first.class.is_empty()) {
        return Err(LinkError::at(
            path,
            Some(l.line),
            format!("`{}`: no FirstStatement", l.element),
        ));
    }
    Ok(out)
}

/// The workspace-relative file of a fully qualified class name: `a.b.C` is `a/b/C.java` under
/// one of the source roots; a nested class `a.b.C.D` lives in `a/b/C.java`.
pub fn class_file(class: &str, sources: &Sources, source_roots: &[PathBuf]) -> Result<PathBuf, String> {
    let parts: Vec<&str> = class.split(['.', '$']).collect();
    if parts.iter().any(|p| p.is_empty() || p.contains(['/', '\\'])) {
        return Err(format!("`{class}` is not a fully qualified class name"));
    }
    let roots: Vec<PathBuf> = if source_roots.is_empty() {
        vec![PathBuf::new()]
    } else {
        source_roots
            .iter()
            .map(|r| sources.relative_root(r))
            .collect::<Result<_, _>>()?
    };
    for n in (1..=parts.len()).rev() {
        let mut rel: PathBuf = parts[..n].iter().collect();
        rel.set_extension("java");
        for root in &roots {
            let candidate = root.join(&rel);
            if sources.exists(&candidate) {
                return Ok(candidate);
            }
        }
    }
    let mut rel: PathBuf = parts.iter().collect();
    rel.set_extension("java");
    let roots: Vec<String> = roots.iter().map(|r| format!("`{}`", r.display())).collect();
    Err(format!(
        "class `{class}`: no `{}` under the source roots ({})",
        rel.display(),
        roots.join(", ")
    ))
}

/// The statement a SoMoX/JaMoPP offset names: the statement whose last character is there (the
/// `;`); on whitespace or a comment, the statement starting right after it; else the innermost
/// statement containing it; else the statement starting after it.
///
/// Whitespace goes to the next statement before the containing one: between two statements of a
/// loop body, the containing statement is the loop, and that is never what the offset meant.
pub fn resolve_offset(file: &JavaFile, byte: usize) -> Option<Node<'_>> {
    if let Some(s) = file.statement_ending_at(byte) {
        return Some(s);
    }
    let after = file.skip_trivia(byte);
    if after != byte {
        if let Some(s) = file.statement_after(byte) {
            return Some(s);
        }
    }
    file.statement_at(byte).or_else(|| file.statement_after(byte))
}

/// Reads the XML and resolves every link to its Java code.
pub fn parse(
    text: &str,
    path: &Path,
    sources: &mut Sources,
    source_roots: &[PathBuf],
) -> Result<Vec<CodeLink>, LinkError> {
    let mut out = Vec::new();
    for link in parse_xml(text, path)? {
        let last = link.last.clone().unwrap_or_else(|| link.first.clone());
        if last.class != link.first.class {
            return Err(LinkError::at(
                path,
                Some(last.line),
                format!(
                    "`{}`: first and last statement are in different classes (`{}`, `{}`)",
                    link.element, link.first.class, last.class
                ),
            ));
        }
        let file = class_file(&link.first.class, sources, source_roots)
            .map_err(|m| LinkError::at(path, Some(link.first.line), format!("`{}`: {m}", link.element)))?;
        let java = sources
            .load(&file)
            .map_err(|m| LinkError::at(path, Some(link.first.line), format!("`{}`: {m}", link.element)))?;
        let first = statement(java, &link.first, path, &link.element)?;
        let last = statement(java, &last, path, &link.element)?;
        let range = normalise(java, first.start..last.end.max(first.start)).ok_or_else(|| {
            LinkError::at(
                path,
                Some(link.line),
                format!(
                    "`{}`: no statement from {} to {} in `{}`",
                    link.element,
                    link.first.offset,
                    link.last.as_ref().map_or(link.first.offset, |l| l.offset),
                    file.display()
                ),
            )
        })?;
        out.push(CodeLink {
            element: link.element,
            name: None,
            file,
            range,
            origin: LinkOrigin::File {
                path: path.to_path_buf(),
                line: link.line,
            },
        });
    }
    Ok(out)
}

/// The byte range of the statement at a position.
fn statement(java: &JavaFile, p: &Position, path: &Path, element: &str) -> Result<Range<usize>, LinkError> {
    let byte = java.byte_offset(p.offset).ok_or_else(|| {
        LinkError::at(
            path,
            Some(p.line),
            format!(
                "`{element}`: offset {} is outside `{}` ({} characters)",
                p.offset,
                p.class,
                java.char_offset(java.text.len())
            ),
        )
    })?;
    resolve_offset(java, byte).map(|n| n.byte_range()).ok_or_else(|| {
        LinkError::at(
            path,
            Some(p.line),
            format!("`{element}`: no statement at offset {} of `{}`", p.offset, p.class),
        )
    })
}

/// Converts a Beagle XML link file into Beagle's own TOML format.
pub fn convert(path: &Path, root: &Path, source_roots: &[PathBuf]) -> Result<String, LinkError> {
    let links = super::read_links(path, root, source_roots)?;
    let mut sources = Sources::new(root);
    super::own::write(&links, &mut sources).map_err(|m| LinkError::at(path, None, m))
}
