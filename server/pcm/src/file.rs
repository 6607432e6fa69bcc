//! One PCM file: its text, element tree, index (ids, references, specifications), typed view and
//! the diagnostics that need no other file.

use crate::diagnostic::Diagnostic;
use crate::model::{build::Builder, Repository};
use crate::namespaces::{intern_feature, parse_namespace, Package, REFERENCE_ATTRIBUTES};
use crate::reference::{path_steps, Reference, Target};
use crate::span::{LineCol, LineIndex, Span};
use crate::xml::{NodeId, XmlTree};
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// What a file's root element is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    Repository,
    System,
    Allocation,
    UsageModel,
    ResourceEnvironment,
    ResourceTypes,
    Other,
}

/// A StoEx-bearing attribute (`specification="..."`) and what parsing it gave.
#[derive(Clone, Debug)]
pub struct Specification {
    /// The element that holds the attribute (`specification_ParametericResourceDemand`, ...).
    pub node: NodeId,
    /// The raw attribute value in the file (between the quotes).
    pub value: Span,
    /// The unescaped value, as StoEx sees it.
    pub text: String,
    pub expr: Result<beagle_stoex::Expr, SpecError>,
}

/// A StoEx syntax error, with its span already mapped into the file.
#[derive(Clone, Debug, PartialEq)]
pub struct SpecError {
    pub span: Span,
    pub message: String,
}

/// Ids, references and specifications of a file, for lookups by node or by id.
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// `(id value span, node)`, sorted by the id's text: 12 bytes an id, where a hash map of
    /// owned strings took five times that (see benchmarks/pcm-parse).
    ids: Vec<(Span, NodeId)>,
    /// In document order, hence sorted by `node`.
    references: Vec<Reference>,
    /// Nodes holding specifications, in document order (parallel to `ModelFile::specifications`).
    spec_nodes: Vec<NodeId>,
    /// Ids defined more than once: (node of the later definition, id).
    pub(crate) duplicate_ids: Vec<(NodeId, String)>,
}

impl Index {
    pub(crate) fn node_by_id_in(&self, text: &str, id: &str) -> Option<NodeId> {
        let i = self.ids.partition_point(|(s, _)| &text[s.range()] < id);
        self.ids.get(i).filter(|(s, _)| &text[s.range()] == id).map(|&(_, n)| n)
    }

    pub fn references(&self) -> &[Reference] {
        &self.references
    }

    pub fn references_of<'a>(&'a self, node: NodeId, feature: &'a str) -> impl Iterator<Item = &'a Reference> + 'a {
        let start = self.references.partition_point(|r| r.node < node);
        self.references[start..]
            .iter()
            .take_while(move |r| r.node == node)
            .filter(move |r| r.feature == feature)
    }

    pub fn spec_of(&self, node: NodeId) -> Option<usize> {
        self.spec_nodes.binary_search(&node).ok()
    }
}

#[derive(Clone, Debug)]
pub struct ModelFile {
    pub path: PathBuf,
    pub tree: XmlTree,
    pub lines: LineIndex,
    pub kind: FileKind,
    /// The version of the root element's PCM namespace (`5.2`), when it has one.
    pub pcm_version: Option<String>,
    pub index: Index,
    pub specifications: Vec<Specification>,
    /// The typed view, for repository files.
    pub repository: Option<Repository>,
    /// Problems found in this file alone (XML, ids, types, control flow, StoEx, local references).
    pub diagnostics: Vec<Diagnostic>,
}

/// Files larger than this are refused: spans are `u32`.
pub const MAX_FILE_SIZE: usize = u32::MAX as usize;

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
            let mut file = ModelFile::parse(path, String::new());
            file.diagnostics = vec![Diagnostic::error(
                "too-large",
                Span::default(),
                None,
                "files over 4 GiB are not supported",
            )];
            return file;
        }
        let tree = XmlTree::parse(text);
        let lines = LineIndex::new(&tree.text);
        let mut file = ModelFile {
            path,
            lines,
            kind: FileKind::Other,
            pcm_version: None,
            index: Index::default(),
            specifications: Vec::new(),
            repository: None,
            diagnostics: Vec::new(),
            tree,
        };
        file.index_tree();
        if let Some(root) = file.tree.root() {
            let (kind, version) = file.root_kind(root);
            file.kind = kind;
            file.pcm_version = version;
            if kind == FileKind::Repository {
                let builder = Builder {
                    tree: &file.tree,
                    index: &file.index,
                };
                file.repository = Some(builder.repository(root));
            }
        }
        file.diagnostics = crate::check::local::check(&file);
        file
    }

    /// The original text; for a file read without errors, byte-identical to what was read.
    pub fn text(&self) -> &str {
        &self.tree.text
    }

    pub fn line_col(&self, offset: usize) -> LineCol {
        self.lines.line_col(&self.tree.text, offset)
    }

    /// The `id` of a node, or of its nearest ancestor that has one.
    pub fn nearest_id(&self, mut node: NodeId) -> Option<String> {
        loop {
            if let Some(id) = self.tree.raw_value(node, "id") {
                return Some(id.to_string());
            }
            node = self.tree.element(node).parent?;
        }
    }

    /// The element with this `id` (its first definition if there are several).
    pub fn node_by_id(&self, id: &str) -> Option<NodeId> {
        self.index.node_by_id_in(&self.tree.text, id)
    }

    /// Resolves a same-file target (an id or an EMF path).
    pub fn resolve_local(&self, target: &Target) -> Option<NodeId> {
        match target {
            Target::Id(id) => self.node_by_id(id),
            Target::Path(path) => self.resolve_path(path),
            Target::External { fragment, .. } => self.resolve_fragment(fragment),
        }
    }

    /// A fragment after `#`: an id, or an EMF path such as `//@dataTypes__Repository.0`.
    pub fn resolve_fragment(&self, fragment: &str) -> Option<NodeId> {
        if fragment.starts_with('/') {
            self.resolve_path(fragment)
        } else {
            self.node_by_id(fragment)
        }
    }

    fn resolve_path(&self, path: &str) -> Option<NodeId> {
        let mut node = self.tree.root()?;
        // `/` and `/0` name the (first) root object; `/0/@a.1` is `//@a.1`.
        if matches!(path, "/" | "/0") {
            return Some(node);
        }
        let path = path.strip_prefix("/0").unwrap_or(path);
        for (feature, i) in path_steps(path)? {
            node = self.tree.children_named(node, feature).nth(i)?;
        }
        Some(node)
    }

    fn root_kind(&self, root: NodeId) -> (FileKind, Option<String>) {
        let ns = self
            .tree
            .namespace(self.tree.element(root).ns)
            .and_then(parse_namespace);
        let Some(ns) = ns else { return (FileKind::Other, None) };
        let kind = match (ns.package, self.tree.local_name(root)) {
            (Package::Repository, "Repository") => FileKind::Repository,
            (Package::System, "System") => FileKind::System,
            (Package::Allocation, "Allocation") => FileKind::Allocation,
            (Package::UsageModel, "UsageModel") => FileKind::UsageModel,
            (Package::ResourceEnvironment, "ResourceEnvironment") => FileKind::ResourceEnvironment,
            (Package::ResourceType, "ResourceRepository") => FileKind::ResourceTypes,
            _ => FileKind::Other,
        };
        (kind, Some(ns.version.to_string()))
    }

    /// One pass over all elements: ids, references and specifications.
    fn index_tree(&mut self) {
        let tree = &self.tree;
        let index = &mut self.index;
        for node in tree.ids() {
            for attr in tree.attributes(node) {
                let name = tree.str(attr.name);
                if name == "id" {
                    index.ids.push((attr.value, node));
                } else if name == "href" {
                    let feature = intern_feature(tree.local_name(node));
                    push_tokens(&mut index.references, tree, node, feature, attr.value);
                } else if REFERENCE_ATTRIBUTES.contains(&name) {
                    push_tokens(&mut index.references, tree, node, intern_feature(name), attr.value);
                } else if name == "specification" {
                    let spec = specification(tree, node, attr);
                    index.spec_nodes.push(node);
                    self.specifications.push(spec);
                }
            }
        }
        // A stable sort keeps document order among equal ids: the first definition wins, as in EMF.
        let text = &tree.text;
        index
            .ids
            .sort_by(|(a, _), (b, _)| text[a.range()].cmp(&text[b.range()]));
        for pair in index.ids.windows(2) {
            if text[pair[0].0.range()] == text[pair[1].0.range()] {
                index
                    .duplicate_ids
                    .push((pair[1].1, text[pair[1].0.range()].to_string()));
            }
        }
        index.duplicate_ids.sort_by_key(|&(n, _)| n);
    }
}

fn push_tokens(out: &mut Vec<Reference>, tree: &XmlTree, node: NodeId, feature: Cow<'static, str>, value: Span) {
    let raw = tree.str(value);
    let mut offset = 0;
    for token in raw.split(' ') {
        if !token.is_empty() {
            let start = value.start as usize + offset;
            // Ids and paths hold no entities, but a file path in an href may: unescape it.
            let text =
                crate::xml::unescape_attribute(token).map_or_else(|_| token.to_string(), |u| u.text.into_owned());
            out.push(Reference {
                node,
                feature: feature.clone(),
                span: Span::new(start, start + token.len()),
                target: Target::parse(&text),
            });
        }
        offset += token.len() + 1;
    }
}

fn specification(tree: &XmlTree, node: NodeId, attr: &crate::xml::Attribute) -> Specification {
    let base = attr.value.start as usize;
    match tree.unescape(attr) {
        Err(e) => Specification {
            node,
            value: attr.value,
            text: tree.str(attr.value).to_string(),
            expr: Err(SpecError {
                span: Span::new(base + e.offset, base + e.offset + 1),
                message: e.message,
            }),
        },
        Ok(u) => {
            let expr = beagle_stoex::parse(&u.text).map_err(|e| {
                let start = base + u.raw_offset(e.offset);
                let end = (base + u.raw_offset(e.offset + e.len)).max(start + usize::from(e.len == 0));
                SpecError {
                    span: Span::new(start, end.min(attr.value.end as usize).max(start)),
                    message: e.message,
                }
            });
            Specification {
                node,
                value: attr.value,
                text: u.text.into_owned(),
                expr,
            }
        }
    }
}
