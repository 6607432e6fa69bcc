//! Diagnostics of the three kinds of file the server knows: PCM models (XML, ids, references
//! across files, successor chains, StoEx), `beagle.toml` (syntax, unknown keys, paths that are
//! missing or leave the workspace), and code link files (syntax, elements, code ranges).
//! Plain functions from a snapshot to LSP diagnostics; the server debounces and publishes.

use crate::documents::{DocKind, Snapshot};
use crate::position;
use beagle_job::{Source, Workspace};
use beagle_pcm::{ModelSet, Severity};
use ropey::Rope;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tower_lsp_server::ls_types::{Diagnostic, DiagnosticSeverity, NumberOrString, Position, Range};

const SOURCE: &str = "beagle";

fn severity(s: Severity) -> DiagnosticSeverity {
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    }
}

fn diagnostic(range: Range, severity: DiagnosticSeverity, code: &str, message: String) -> Diagnostic {
    Diagnostic {
        range,
        severity: Some(severity),
        code: Some(NumberOrString::String(code.to_string())),
        source: Some(SOURCE.to_string()),
        message,
        ..Default::default()
    }
}

/// The whole of 1-based line `line` (clamped to the text), without its line break.
fn line_range(rope: &Rope, line: usize) -> Range {
    let line = line.saturating_sub(1).min(rope.len_lines().saturating_sub(1));
    let slice = rope.line(line);
    let mut chars = slice.len_chars();
    while chars > 0 && matches!(slice.char(chars - 1), '\n' | '\r') {
        chars -= 1;
    }
    let end = slice.char_to_utf16_cu(chars) as u32;
    Range::new(Position::new(line as u32, 0), Position::new(line as u32, end))
}

/// The diagnostics of a document, by kind. `open` are the other open documents (a model's
/// references resolve against their unsaved text); `root` is its workspace folder.
pub fn of_document(doc: &Snapshot, open: &[Arc<Snapshot>], root: Option<&Path>) -> Vec<Diagnostic> {
    match doc.kind {
        DocKind::Model => {
            let mut out = of_model(doc, open);
            out.extend(links_on_model(doc, root));
            out
        }
        DocKind::Config => of_config(doc, root),
        DocKind::Links => of_links(doc, root),
        DocKind::Other => Vec::new(),
    }
}

fn of_model(doc: &Snapshot, open: &[Arc<Snapshot>]) -> Vec<Diagnostic> {
    let model = doc.model();
    let mut set = ModelSet::new();
    for other in open.iter().filter(|o| o.kind == DocKind::Model && o.uri != doc.uri) {
        set.insert_shared(other.model());
    }
    let id = set.insert_shared(model);
    set.check(id)
        .into_iter()
        .map(|d| {
            let message = match &d.element {
                Some(e) if !d.message.contains(e.as_str()) => format!("{} ({e})", d.message),
                _ => d.message.clone(),
            };
            diagnostic(
                position::range(&doc.rope, d.span),
                severity(d.severity),
                d.code,
                message,
            )
        })
        .collect()
}

/// The problems of the workspace's link file shown on the model elements they are about, in
/// the words `beagle analyse` prints: a user reading the model sees that an element's link is
/// stale or was re-anchored without opening the link file.
fn links_on_model(doc: &Snapshot, root: Option<&Path>) -> Vec<Diagnostic> {
    let Some(ws) = beagle_job::workspace::folder_above(&doc.path, root).and_then(|d| beagle_job::resolve(&d).ok())
    else {
        return Vec::new();
    };
    let same = |p: &Path| p.canonicalize().ok() == doc.path.canonicalize().ok();
    if !ws.repositories.iter().any(|r| same(r)) {
        return Vec::new();
    }
    let Some(Source::Java {
        config,
        links: Some(links),
    }) = &ws.source
    else {
        return Vec::new();
    };
    let mut sources = beagle_java::links::Sources::with_encoding(&config.root, config.encoding);
    let Ok(set) = beagle_java::links::read_links_in(links, &mut sources, &config.sources) else {
        return Vec::new();
    };
    let model = doc.model();
    set.problems
        .iter()
        .filter_map(|p| {
            // The element: named by the problem, or the `id` in backquotes its message starts with.
            let id = p
                .element
                .as_deref()
                .and_then(|e| e.split_whitespace().next())
                .or_else(|| p.message.strip_prefix('`').and_then(|m| m.split('`').next()))?;
            let node = model.node_by_id(id)?;
            let span = model.tree.element(node).start_tag;
            Some(diagnostic(
                position::range(&doc.rope, span),
                severity(p.severity),
                "links",
                p.to_string(),
            ))
        })
        .collect()
}

/// `beagle.toml` as the core checks it ([`beagle_job::config_check`]), on its lines.
fn of_config(doc: &Snapshot, root: Option<&Path>) -> Vec<Diagnostic> {
    beagle_job::config_check::check(&doc.path, &doc.text(), root)
        .into_iter()
        .map(|p| diagnostic(line_range(&doc.rope, p.line), severity(p.severity), p.code, p.message))
        .collect()
}

/// The workspace whose `beagle.toml` names `links` as its link file: the nearest one above it
/// (inside `root`).
fn workspace_of_links(links: &Path, root: Option<&Path>) -> Option<Workspace> {
    beagle_job::resolve(&beagle_job::workspace::folder_above(links, root)?).ok()
}

/// The folder Java paths are relative to and the source roots, for the link file `links`.
pub fn java_workspace_of_links(links: &Path, root: Option<&Path>) -> Option<(PathBuf, Vec<PathBuf>)> {
    let ws = workspace_of_links(links, root)?;
    Some(match &ws.source {
        Some(Source::Java { config, .. }) => (config.root.clone(), config.sources.clone()),
        _ => (ws.root.clone(), Vec::new()),
    })
}

fn of_links(doc: &Snapshot, root: Option<&Path>) -> Vec<Diagnostic> {
    let Some(ws) = workspace_of_links(&doc.path, root) else {
        return Vec::new();
    };
    let (java_root, sources) = match &ws.source {
        Some(Source::Java { config, .. }) => (config.root.clone(), config.sources.clone()),
        _ => (ws.root.clone(), Vec::new()),
    };
    let text = doc.text();
    let located = |e: &beagle_java::links::LinkError| {
        let mut message = e.message.clone();
        if let Some(element) = &e.element {
            message = format!("{element}: {message}");
        }
        let severity = match e.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
        };
        diagnostic(line_range(&doc.rope, e.line.unwrap_or(1)), severity, "links", message)
    };
    let set = match beagle_java::links::parse_links(text.as_bytes(), &doc.path, &java_root, &sources) {
        Ok(l) => l,
        Err(e) => return vec![located(&e)],
    };
    let mut models = ModelSet::new();
    for r in &ws.repositories {
        let _ = models.load(r);
    }
    // The words `beagle analyse` prints: links that do not resolve or were re-anchored, then
    // links that resolve to the wrong kind of code.
    set.problems
        .iter()
        .chain(&beagle_java::links::validate(&set.links, &models, &java_root))
        .filter(|e| e.file.as_deref().is_none_or(|f| f == doc.path))
        .map(located)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_range_ends_where_the_line_does() {
        let rope = Rope::from_str("ab\r\nc𝄞\n");
        assert_eq!(
            line_range(&rope, 1),
            Range::new(Position::new(0, 0), Position::new(0, 2))
        );
        assert_eq!(
            line_range(&rope, 2),
            Range::new(Position::new(1, 0), Position::new(1, 3))
        );
        assert_eq!(
            line_range(&rope, 99),
            Range::new(Position::new(2, 0), Position::new(2, 0))
        );
    }
}
