//! One PCM file: its text, element tree, index (ids, references, specifications), typed view and
//! the diagnostics that need no other file.

use crate::diagnostic::Diagnostic;
pub use crate::index::{Index, SpecError, Specification};
use crate::model::{build::Builder, Repository};
use crate::namespaces::{parse_namespace, Package};
use crate::reference::{path_steps, Target};
use crate::span::{LineCol, LineIndex};
use crate::xml::{NodeId, XmlTree};
use std::path::PathBuf;

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
    /// The file's tree, index and typed view, with no diagnostics yet ([`ModelFile::parse`]
    /// adds them): what the checks look at.
    pub(crate) fn unchecked(path: PathBuf, text: String) -> ModelFile {
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
        (file.index, file.specifications) = Index::build(&file.tree);
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
}
