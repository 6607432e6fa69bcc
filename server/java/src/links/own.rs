//! Beagle's own link format, `links.toml` (README.md, "Beagle's own format"): readable,
//! diffable, positions as an editor shows them (1-based line:column, columns in characters,
//! `to` the last character, inclusive).

use super::{line_of, normalise, CodeLink, LineIndex, LinkError, LinkOrigin, LinkSet, SourceError, Sources};
use serde::Deserialize;
use std::fmt::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Why links cannot be written: a linked file cannot be had, or a link's range is not in it.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error(transparent)]
    Source(#[from] SourceError),
    #[error("`{element}`: range {range:?} is not in `{}`", file.display())]
    Range {
        element: String,
        range: Range<usize>,
        file: PathBuf,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    link: Vec<toml::Spanned<Entry>>,
    #[serde(default)]
    input: Vec<toml::Spanned<InputEntry>>,
}

/// `[[input]]`: a characterisation given as a Java expression ([`super::GivenInput`]).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InputEntry {
    element: String,
    characterisation: String,
    java: String,
}

/// The characterisations an `[[input]]` may give.
const GIVEN_CHARACTERISATIONS: [&str; 3] = ["VALUE", "BYTESIZE", "NUMBER_OF_ELEMENTS"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    element: String,
    name: Option<String>,
    file: PathBuf,
    from: String,
    to: String,
    /// The receiving class, for code that several components inherit ([`CodeLink::receiver`]).
    class: Option<String>,
}

/// Reads `links.toml` text; Java files are read through `sources` to turn positions into byte
/// ranges of whole statements. Problems name `path` and the line of the offending link; a link
/// that does not resolve is a warning and the others are still read.
pub fn parse(text: &str, path: &Path, sources: &mut Sources) -> Result<LinkSet, LinkError> {
    let file: File = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text.as_bytes(), s.start));
        LinkError::at(path, line, e.message().trim_end().to_string())
    })?;
    let mut out = LinkSet::default();
    let lines = LineIndex::new(text.as_bytes());
    for spanned in file.link {
        let line = lines.line(spanned.span().start);
        let entry = spanned.into_inner();
        match entry_link(entry, line, path, sources) {
            Ok(link) => out.links.push(link),
            Err(e) => out.problems.push(e.warning()),
        }
    }
    for spanned in file.input {
        let line = lines.line(spanned.span().start);
        let entry = spanned.into_inner();
        let given = entry
            .characterisation
            .rsplit_once('.')
            .filter(|(v, c)| !v.is_empty() && GIVEN_CHARACTERISATIONS.contains(c));
        match given {
            Some((variable, characterisation)) if !entry.java.trim().is_empty() => out.inputs.push(super::GivenInput {
                service: entry.element,
                variable: variable.to_string(),
                characterisation: characterisation.to_string(),
                java: entry.java.trim().to_string(),
                file: path.to_path_buf(),
                line,
            }),
            Some(_) => out.problems.push(
                LinkError::at(
                    path,
                    Some(line),
                    format!("`{}`: [[input]] with an empty `java`", entry.element),
                )
                .warning(),
            ),
            None => out.problems.push(
                LinkError::at(
                    path,
                    Some(line),
                    format!(
                        "`{}`: [[input]] characterisation = \"{}\" is not `variable.{}`",
                        entry.element,
                        entry.characterisation,
                        GIVEN_CHARACTERISATIONS.join("` or `variable.")
                    ),
                )
                .warning(),
            ),
        }
    }
    Ok(out)
}

/// One `[[link]]` resolved to its code.
fn entry_link(entry: Entry, line: usize, path: &Path, sources: &mut Sources) -> Result<CodeLink, LinkError> {
    let error = |m: String| LinkError::at(path, Some(line), format!("`{}`: {m}", entry.element));
    let java = sources.load(&entry.file).map_err(|e| error(e.to_string()))?;
    let position = |key: &str, value: &str| -> Result<usize, LinkError> {
        let (l, c) = value
            .split_once(':')
            .and_then(|(l, c)| Some((l.trim().parse::<usize>().ok()?, c.trim().parse::<usize>().ok()?)))
            .ok_or_else(|| error(format!("{key} = \"{value}\" is not \"line:column\"")))?;
        java.offset_of(l, c).ok_or_else(|| {
            let size = match java.text.split('\n').nth(l.wrapping_sub(1)) {
                Some(line) if l > 0 => format!("line {l} has {} characters", line.chars().count()),
                _ => format!("{} lines", java.text.lines().count()),
            };
            error(format!(
                "{key} = \"{value}\" is not in `{}` ({size})",
                entry.file.display()
            ))
        })
    };
    let from = position("from", &entry.from)?;
    let to = position("to", &entry.to)?;
    // `to` names the last character: the range ends after it.
    let end = to + java.text[to..].chars().next().map_or(0, char::len_utf8);
    if end <= from {
        return Err(error(format!(
            "to = \"{}\" is before from = \"{}\"",
            entry.to, entry.from
        )));
    }
    let range = normalise(java, from..end).ok_or_else(|| {
        error(format!(
            "no statement or method between {} and {} in `{}`",
            entry.from,
            entry.to,
            entry.file.display()
        ))
    })?;
    Ok(CodeLink {
        element: entry.element,
        name: entry.name,
        file: entry.file,
        range,
        origin: LinkOrigin::File {
            path: path.to_path_buf(),
            line,
        },
        receiver: entry.class,
    })
}

/// The comment a written `links.toml` starts with.
pub const HEADER: &str =
    "# PCM element -> code. Paths are relative to the workspace; positions are line:column, both\n\
                          # 1-based, columns counting characters; `to` is the last character.\n";

/// Writes links as `links.toml`, ordered by file, then position, then element, so that a
/// regenerated file diffs line by line against the old one.
pub fn write(links: &[CodeLink], sources: &mut Sources) -> Result<String, WriteError> {
    Ok(format!("{HEADER}{}", write_entries(links, sources)?))
}

/// The `[[link]]` entries [`write`] writes, without its header: each starts with a blank line,
/// so that they can be appended to a link file that ends with a line break.
pub fn write_entries(links: &[CodeLink], sources: &mut Sources) -> Result<String, WriteError> {
    let mut sorted: Vec<&CodeLink> = links.iter().collect();
    sorted.sort_by(|a, b| {
        (&a.file, a.range.start, a.range.end, &a.element).cmp(&(&b.file, b.range.start, b.range.end, &b.element))
    });
    let mut out = String::new();
    for link in sorted {
        let java = sources.load(&link.file)?;
        if link.range.end > java.text.len() || link.range.start >= link.range.end {
            return Err(WriteError::Range {
                element: link.element.clone(),
                range: link.range.clone(),
                file: link.file.clone(),
            });
        }
        let (fl, fc) = java.line_col(link.range.start);
        let (tl, tc) = java.line_col(link.range.end - 1);
        out.push_str("\n[[link]]\n");
        let _ = writeln!(out, "element = {}", quote(&link.element));
        if let Some(name) = &link.name {
            let _ = writeln!(out, "name = {}", quote(name));
        }
        let file = link
            .file
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        let _ = writeln!(out, "file = {}", quote(&file));
        let _ = writeln!(out, "from = \"{fl}:{fc}\"");
        let _ = writeln!(out, "to = \"{tl}:{tc}\"");
        if let Some(class) = &link.receiver {
            let _ = writeln!(out, "class = {}", quote(class));
        }
        if let LinkOrigin::Automatic { confidence, reason } = &link.origin {
            let _ = writeln!(
                out,
                "# automatic, confidence {confidence:.2}: {}",
                reason.replace('\n', " ")
            );
        }
    }
    Ok(out)
}

/// A TOML basic string.
fn quote(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}
