//! The original Beagle's link file, `PcmSourceStatementLinkRepository` (schema: `PCM Source
//! Statement Links.xsd`): per `pcmElementId` a `FirstStatement` and an optional `LastStatement`,
//! each a UTF-16 character offset into the file of a fully qualified class name.
//!
//! The schema says an offset is a statement's first character; the files SoMoX wrote from JaMoPP
//! put it on the `;` that ends a statement or on the whitespace just before one. [`resolve_offset`]
//! accepts all three.

use super::{normalise, CodeLink, LineIndex, LinkError, LinkOrigin, LinkSet, SourceError, Sources};
use crate::syntax::JavaFile;
use quick_xml::events::Event;
use quick_xml::Reader;
use std::collections::{BTreeMap, BTreeSet};
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

/// What the XML says, read without touching any Java file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct XmlFile {
    pub links: Vec<XmlLink>,
    /// `SourceCodeFileHash` per fully qualified class name: the MD5 of the file the offsets were
    /// taken from, and the line it is given on.
    pub hashes: BTreeMap<String, (String, usize)>,
    /// Links that could not be read (a position that is not a number): warnings.
    pub problems: Vec<LinkError>,
    /// Where in the XML text each offset and hash is written (to rewrite them).
    pub spans: BTreeMap<Span, Range<usize>>,
}

/// A number of the XML that can be rewritten: a link's first (`true`) or last position, by
/// the link's index in [`XmlFile::links`], or a class's hash.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Span {
    Position(usize, bool),
    Hash(String),
}

/// Reads the links of the XML without touching any Java file. An error only when the file is
/// not the original Beagle's link file or not well-formed XML.
pub fn parse_xml(text: &str, path: &Path) -> Result<XmlFile, LinkError> {
    let mut reader = Reader::from_str(text);
    let mut out: Vec<XmlLink> = Vec::new();
    let mut hashes = BTreeMap::new();
    let mut problems = Vec::new();
    // Links with a damaged position, dropped after reading.
    let mut damaged: BTreeSet<usize> = BTreeSet::new();
    // A `SourceCodeFileHash` being read: (class, line), waiting for its text.
    let mut hash_of: Option<(String, usize)> = None;
    // Where the text of the element being read is (to rewrite it).
    let mut text_span: Option<Range<usize>> = None;
    let mut spans = BTreeMap::new();
    let mut seen_root = false;
    // The position element being read: (is_first, class, line), waiting for its text.
    let mut pending: Option<(bool, String, usize)> = None;
    let mut number = String::new();
    let lines = LineIndex::new(text.as_bytes());
    loop {
        let at = reader.buffer_position() as usize;
        let line = lines.line(at);
        let event = reader.read_event().map_err(|e| {
            let pos = reader.error_position() as usize;
            LinkError::at(path, Some(lines.line(pos)), format!("XML: {e}"))
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
                        text_span = None;
                    }
                    "SourceCodeFileHash" => {
                        if let Some(class) = attr("sourceCodeFile")? {
                            let md5 = attr("algorithm")?.is_none_or(|a| a.eq_ignore_ascii_case("md5"));
                            if md5 {
                                hash_of = Some((class, line));
                                number.clear();
                                text_span = None;
                            }
                        }
                    }
                    _ => {}
                }
            }
            Event::Text(t) if pending.is_some() || hash_of.is_some() => {
                let end = reader.buffer_position() as usize;
                text_span = Some(end - t.len()..end);
                number.push_str(&String::from_utf8_lossy(&t))
            }
            Event::End(e) => {
                let name = e.local_name();
                if name.as_ref() == b"SourceCodeFileHash" {
                    if let Some((class, hline)) = hash_of.take() {
                        hashes.insert(class.clone(), (number.trim().to_ascii_lowercase(), hline));
                        if let Some(span) = text_span.take() {
                            spans.insert(Span::Hash(class), span);
                        }
                    }
                }
                let is_position = matches!(name.as_ref(), b"FirstStatement" | b"LastStatement");
                if let (true, Some((first, class, pline))) = (is_position, pending.take()) {
                    let Ok(offset) = number.trim().parse::<usize>() else {
                        let element = out.last().map(|l| l.element.clone()).unwrap_or_default();
                        problems.push(
                            LinkError::at(
                                path,
                                Some(pline),
                                format!("`{element}`: `{}` is not a character offset", number.trim()),
                            )
                            .warning(),
                        );
                        damaged.insert(out.len() - 1);
                        continue;
                    };
                    let position = Position {
                        class,
                        offset,
                        line: pline,
                    };
                    if let Some(span) = text_span.take() {
                        spans.insert(Span::Position(out.len() - 1, first), span);
                    }
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
    let mut links = Vec::with_capacity(out.len());
    let links_read = out.len();
    let mut dropped = BTreeSet::new();
    for (i, l) in out.into_iter().enumerate() {
        if damaged.contains(&i) {
            dropped.insert(i);
            continue;
        }
        if l.first.class.is_empty() {
            problems.push(LinkError::at(path, Some(l.line), format!("`{}`: no FirstStatement", l.element)).warning());
            dropped.insert(i);
            continue;
        }
        links.push(l);
    }
    // Span indices are those of all links read; keep them for the links kept.
    let kept: Vec<usize> = (0..links_read).filter(|i| !dropped.contains(i)).collect();
    let spans = spans
        .into_iter()
        .filter_map(|(k, v)| match k {
            Span::Position(i, first) => kept.iter().position(|j| *j == i).map(|n| (Span::Position(n, first), v)),
            hash => Some((hash, v)),
        })
        .collect();
    Ok(XmlFile {
        links,
        hashes,
        problems,
        spans,
    })
}

/// Why a class name leads to no Java file.
#[derive(Debug, thiserror::Error)]
pub enum ClassError {
    #[error("`{class}` is not a fully qualified class name")]
    NotAClassName { class: String },
    /// A source root that cannot be made workspace-relative.
    #[error(transparent)]
    Root(#[from] SourceError),
    /// `file`: where the class would be, under each of the (workspace-relative) `roots`.
    #[error("class `{class}`: no `{}` under the source roots ({})", file.display(), quoted(roots))]
    NoFile {
        class: String,
        file: PathBuf,
        roots: Vec<PathBuf>,
    },
}

fn quoted(paths: &[PathBuf]) -> String {
    let quoted: Vec<String> = paths.iter().map(|p| format!("`{}`", p.display())).collect();
    quoted.join(", ")
}

/// The workspace-relative file of a fully qualified class name: `a.b.C` is `a/b/C.java` under
/// one of the source roots; a nested class `a.b.C.D` lives in `a/b/C.java`.
pub fn class_file(class: &str, sources: &Sources, source_roots: &[PathBuf]) -> Result<PathBuf, ClassError> {
    let parts: Vec<&str> = class.split(['.', '$']).collect();
    if parts.iter().any(|p| p.is_empty() || p.contains(['/', '\\'])) {
        return Err(ClassError::NotAClassName {
            class: class.to_string(),
        });
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
    let mut file: PathBuf = parts.iter().collect();
    file.set_extension("java");
    Err(ClassError::NoFile {
        class: class.to_string(),
        file,
        roots,
    })
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

/// Reads the XML and resolves every link to its Java code. A link that does not resolve is a
/// warning; the links of a class whose file changed since they were made (its MD5 differs) are
/// re-anchored ([`super::reanchor`]) with an info each, or are warnings when they cannot be.
pub fn parse(text: &str, path: &Path, sources: &mut Sources, source_roots: &[PathBuf]) -> Result<LinkSet, LinkError> {
    let xml = parse_xml(text, path)?;
    let mut out = LinkSet {
        problems: xml.problems.clone(),
        ..LinkSet::default()
    };
    for (link, resolved) in resolve_all(&xml, path, sources, source_roots) {
        match resolved {
            Ok(Resolved { range, file, moved }) => {
                if let Some(m) = moved {
                    out.problems.push(m);
                }
                out.links.push(CodeLink {
                    element: link.element.clone(),
                    name: None,
                    file,
                    range,
                    origin: LinkOrigin::File {
                        path: path.to_path_buf(),
                        line: link.line,
                    },
                    receiver: None,
                });
            }
            Err(e) => out.problems.push(e.warning()),
        }
    }
    Ok(out)
}

/// The link file with every re-anchored position written in, and the hash of each class whose
/// links all landed updated to the file as it is (so the next reading takes them as they are):
/// the quick fix of the re-anchoring infos. `None` when nothing was re-anchored. The number of
/// positions rewritten comes with the text.
pub fn reanchored_text(
    text: &str,
    path: &Path,
    sources: &mut Sources,
    source_roots: &[PathBuf],
) -> Result<Option<(String, usize)>, LinkError> {
    let xml = parse_xml(text, path)?;
    let shifts = class_shifts(&xml, sources, source_roots);
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    let mut moved = 0;
    for (class, result) in &shifts {
        let Ok((by_position, _, count)) = result else { continue };
        for ((index, first), d) in by_position {
            let link = &xml.links[*index];
            let offset = if *first {
                link.first.offset
            } else {
                link.last.as_ref().map_or(link.first.offset, |l| l.offset)
            };
            if let Some(span) = xml.spans.get(&Span::Position(*index, *first)) {
                if *d != 0 {
                    moved += 1;
                }
                edits.push((span.clone(), ((offset as isize + d).max(0)).to_string()));
            }
        }
        if by_position.len() == *count {
            if let (Some(span), Ok(file)) = (
                xml.spans.get(&Span::Hash(class.clone())),
                class_file(class, sources, source_roots),
            ) {
                if let Ok(md5) = sources.md5(&file) {
                    edits.push((span.clone(), md5));
                }
            }
        }
    }
    if edits.is_empty() {
        return Ok(None);
    }
    edits.sort_by_key(|e| std::cmp::Reverse(e.0.start));
    let mut out = text.to_string();
    for (span, with) in edits {
        out.replace_range(span, &with);
    }
    Ok(Some((out, moved)))
}

/// A link resolved: its file, its range, and the info saying it was re-anchored.
struct Resolved {
    file: PathBuf,
    range: Range<usize>,
    moved: Option<LinkError>,
}

/// Every link of the XML with its resolution, in file order.
fn resolve_all<'x>(
    xml: &'x XmlFile,
    path: &Path,
    sources: &mut Sources,
    source_roots: &[PathBuf],
) -> Vec<(&'x XmlLink, Result<Resolved, LinkError>)> {
    let shifts = class_shifts(xml, sources, source_roots);
    xml.links
        .iter()
        .enumerate()
        .map(|(i, link)| (link, resolve_one(i, link, &shifts, path, sources, source_roots)))
        .collect()
}

/// Per class whose file changed: the shift of each position (by link index and first/last), the
/// confidence, and the class's positions count; `Err` with why when its links cannot be
/// re-anchored.
type ClassShifts = BTreeMap<String, Result<(BTreeMap<(usize, bool), isize>, f64, usize), NotReanchored>>;

/// A changed class whose links cannot be re-anchored: only `landed` of its `positions` land on
/// statements under any consistent shift.
#[derive(Debug, thiserror::Error)]
#[error("`{class}` changed since the links were made (its MD5 differs) and its links cannot be re-anchored: only {landed} of its {positions} positions land on statements under any consistent shift")]
struct NotReanchored {
    class: String,
    landed: usize,
    positions: usize,
}

fn class_shifts(xml: &XmlFile, sources: &mut Sources, source_roots: &[PathBuf]) -> ClassShifts {
    let mut out = ClassShifts::new();
    for (class, (hash, _)) in &xml.hashes {
        let Ok(file) = class_file(class, sources, source_roots) else {
            continue;
        };
        let Ok(now) = sources.md5(&file) else { continue };
        if now == *hash {
            continue;
        }
        let mut keys = Vec::new();
        let mut positions = Vec::new();
        for (i, l) in xml.links.iter().enumerate() {
            if l.first.class == *class {
                keys.push((i, true));
                positions.push(l.first.offset);
            }
            if let Some(last) = l.last.as_ref().filter(|p| p.class == *class) {
                keys.push((i, false));
                positions.push(last.offset);
            }
        }
        let Ok(java) = sources.load(&file) else { continue };
        let a = super::reanchor::reanchor(java, &positions);
        let entry = if a.confidence >= super::reanchor::MIN_CONFIDENCE {
            let shifts = keys
                .into_iter()
                .zip(&a.shifts)
                .filter_map(|(k, d)| d.map(|d| (k, d)))
                .collect();
            Ok((shifts, a.confidence, positions.len()))
        } else {
            Err(NotReanchored {
                class: class.clone(),
                landed: a.shifts.iter().filter(|s| s.is_some()).count(),
                positions: positions.len(),
            })
        };
        out.insert(class.clone(), entry);
    }
    out
}

fn resolve_one(
    index: usize,
    link: &XmlLink,
    shifts: &ClassShifts,
    path: &Path,
    sources: &mut Sources,
    source_roots: &[PathBuf],
) -> Result<Resolved, LinkError> {
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
    // Positions as they are now: shifted when the class changed.
    let (first_offset, last_offset, moved) = match shifts.get(&link.first.class) {
        None => (link.first.offset, last.offset, None),
        Some(Err(why)) => {
            return Err(LinkError::at(
                path,
                Some(link.line),
                format!("`{}`: {why}", link.element),
            ));
        }
        Some(Ok((by_position, confidence, count))) => {
            let (Some(d1), d2) = (
                by_position.get(&(index, true)).copied(),
                by_position.get(&(index, false)).copied(),
            ) else {
                return Err(LinkError::at(
                    path,
                    Some(link.line),
                    format!(
                        "`{}`: `{}` changed since the links were made (its MD5 differs) and offset {} lands on no statement under the shifts that re-anchor the class's other links",
                        link.element, link.first.class, link.first.offset
                    ),
                ));
            };
            let d2 = match (link.last.is_some(), d2) {
                (false, _) => d1,
                (true, Some(d)) => d,
                (true, None) => {
                    return Err(LinkError::at(
                        path,
                        Some(last.line),
                        format!(
                            "`{}`: `{}` changed since the links were made (its MD5 differs) and its last offset {} lands on no statement",
                            link.element, link.first.class, last.offset
                        ),
                    ));
                }
            };
            let moved = |p: usize, d: isize| (p as isize + d).max(0) as usize;
            let shown = |d: isize| {
                if d == 0 {
                    "unmoved".to_string()
                } else {
                    format!("moved by {d:+} characters")
                }
            };
            let what = if d1 == d2 {
                shown(d1)
            } else {
                format!("{} (first), {} (last)", shown(d1), shown(d2))
            };
            let info = LinkError {
                severity: beagle_pcm::Severity::Info,
                file: Some(path.to_path_buf()),
                line: Some(link.line),
                element: Some(link.element.clone()),
                message: format!(
                    "re-anchored: `{}` changed since the links were made (its MD5 differs); this link is {what} (confidence {:.2}: {} of the class's {count} positions land on statements)",
                    link.first.class,
                    confidence,
                    (confidence * *count as f64).round() as usize
                ),
            };
            (moved(link.first.offset, d1), moved(last.offset, d2), Some(info))
        }
    };
    let java = sources
        .load(&file)
        .map_err(|m| LinkError::at(path, Some(link.first.line), format!("`{}`: {m}", link.element)))?;
    let first_at = Position {
        offset: first_offset,
        ..link.first.clone()
    };
    let last_at = Position {
        offset: last_offset,
        ..last.clone()
    };
    let first = statement(java, &first_at, path, &link.element)?;
    let last = statement(java, &last_at, path, &link.element)?;
    let range = normalise(java, first.start..last.end.max(first.start)).ok_or_else(|| {
        LinkError::at(
            path,
            Some(link.line),
            format!(
                "`{}`: no statement from {first_offset} to {last_offset} in `{}`",
                link.element,
                file.display()
            ),
        )
    })?;
    Ok(Resolved { file, range, moved })
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
    super::own::write(&links.links, &mut sources).map_err(|e| LinkError::at(path, None, e.to_string()))
}
