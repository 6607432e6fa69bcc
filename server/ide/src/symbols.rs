//! Document symbols (an outline of one file) and workspace symbols (a search over many).
//!
//! A repository's outline follows the typed view: components with their roles and SEFFs, and a
//! SEFF's actions in execution order (PCM files list actions in any order) with the behaviours
//! of loops, branches and forks nested under them. Other PCM files get the tree of their elements
//! that have an `entityName`.

use crate::text::{entity_name, extent, name_span, target_name, type_name};
use crate::typed::execution_order;
use beagle_pcm::model::{
    Action, ActionBody, ActionKind, Behaviour, BranchTransition, Component, DataType, DataTypeKind, Interface,
    Repository, Role, Seff, Signature, TransitionKind,
};
use beagle_pcm::{FileKind, ModelFile, NodeId, Span, XmlTree};
use serde::Serialize;
use std::path::PathBuf;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Symbol {
    pub name: String,
    /// A short description shown next to the name (the element's type, a signature's parameters).
    pub detail: Option<String>,
    pub kind: SymbolKind,
    pub id: Option<String>,
    /// The whole element.
    pub span: Span,
    /// The `entityName`'s value when there is one, else the start tag's name.
    pub selection: Span,
    pub children: Vec<Symbol>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum SymbolKind {
    Repository,
    Component,
    Role,
    Seff,
    /// An internal or forked behaviour.
    Behaviour,
    StartAction,
    StopAction,
    InternalAction,
    ExternalCallAction,
    LoopAction,
    BranchAction,
    BranchTransition,
    /// Any other SEFF action (SetVariable, Acquire, Fork, ...).
    OtherAction,
    Interface,
    Signature,
    DataType,
    System,
    UsageScenario,
    Other,
}

impl SymbolKind {
    fn of_action(kind: ActionKind) -> SymbolKind {
        match kind {
            ActionKind::StartAction => SymbolKind::StartAction,
            ActionKind::StopAction => SymbolKind::StopAction,
            ActionKind::InternalAction => SymbolKind::InternalAction,
            ActionKind::ExternalCallAction => SymbolKind::ExternalCallAction,
            ActionKind::LoopAction | ActionKind::CollectionIteratorAction => SymbolKind::LoopAction,
            ActionKind::BranchAction => SymbolKind::BranchAction,
            _ => SymbolKind::OtherAction,
        }
    }
}

/// The outline of a file; empty when not even its root element could be read.
pub fn document_symbols(file: &ModelFile) -> Vec<Symbol> {
    match &file.repository {
        Some(repo) => vec![Outline { file }.repository(repo)],
        None => generic_symbols(file),
    }
}

struct Outline<'a> {
    file: &'a ModelFile,
}

impl Outline<'_> {
    fn tree(&self) -> &XmlTree {
        &self.file.tree
    }

    fn symbol(&self, node: NodeId, name: Option<String>, kind: SymbolKind, detail: Option<String>) -> Symbol {
        let tree = self.tree();
        Symbol {
            name: name.unwrap_or_else(|| format!("({})", type_name(tree, node))),
            detail,
            kind,
            id: tree.raw_value(node, "id").map(str::to_string),
            span: extent(tree, node),
            selection: name_span(tree, node),
            children: Vec::new(),
        }
    }

    fn type_detail(&self, node: NodeId) -> Option<String> {
        Some(type_name(self.tree(), node).to_string())
    }

    fn repository(&self, repo: &Repository) -> Symbol {
        let mut s = self.symbol(
            repo.node,
            repo.name.clone(),
            SymbolKind::Repository,
            Some("Repository".into()),
        );
        s.children.extend(repo.components.iter().map(|c| self.component(c)));
        s.children.extend(repo.interfaces.iter().map(|i| self.interface(i)));
        s.children.extend(repo.data_types.iter().map(|d| self.data_type(d)));
        s
    }

    fn component(&self, c: &Component) -> Symbol {
        let mut s = self.symbol(c.node, c.name.clone(), SymbolKind::Component, self.type_detail(c.node));
        let roles = c.provided_roles.iter().map(|r| (r, "provides"));
        let roles = roles.chain(c.required_roles.iter().map(|r| (r, "requires")));
        s.children.extend(roles.map(|(r, verb)| self.role(r, verb)));
        s.children.extend(c.seffs.iter().map(|seff| self.seff(seff)));
        for b in &c.internal_behaviours {
            s.children.push(self.behaviour(b, "internal behaviour"));
        }
        s
    }

    fn role(&self, r: &Role, verb: &str) -> Symbol {
        let detail = match &r.interface {
            Some(i) => format!("{verb} {}", target_name(self.file, i)),
            None => r.kind.clone(),
        };
        self.symbol(r.node, r.name.clone(), SymbolKind::Role, Some(detail))
    }

    fn seff(&self, seff: &Seff) -> Symbol {
        let signature = seff.described_service.as_ref().map(|r| target_name(self.file, r));
        // `IUpload.upload` → `SEFF upload`: the component's outline already names the interfaces.
        let name = signature
            .as_deref()
            .map(|s| format!("SEFF {}", s.rsplit_once('.').map_or(s, |(_, n)| n)));
        let mut s = self.symbol(seff.node, name.or(Some("SEFF".into())), SymbolKind::Seff, signature);
        s.children = self.actions(&seff.behaviour);
        s
    }

    fn behaviour(&self, b: &Behaviour, fallback: &str) -> Symbol {
        let name = entity_name(self.tree(), b.node).unwrap_or_else(|| fallback.to_string());
        let mut s = self.symbol(b.node, Some(name), SymbolKind::Behaviour, None);
        s.children = self.actions(b);
        s
    }

    fn actions(&self, b: &Behaviour) -> Vec<Symbol> {
        execution_order(b).into_iter().map(|a| self.action(a)).collect()
    }

    fn action(&self, a: &Action) -> Symbol {
        let type_name = type_name(self.tree(), a.node);
        let detail = match &a.body {
            ActionBody::ExternalCall {
                called_service: Some(r),
                ..
            } => Some(format!("calls {}", target_name(self.file, r))),
            // An unnamed action is named after its type already.
            _ => a.name.is_some().then(|| type_name.to_string()),
        };
        let name = a.name.clone().unwrap_or_else(|| type_name.to_string());
        let mut s = self.symbol(a.node, Some(name), SymbolKind::of_action(a.kind), detail);
        s.children = match &a.body {
            ActionBody::Loop { body: Some(b), .. } | ActionBody::CollectionIterator { body: Some(b), .. } => {
                self.actions(b)
            }
            ActionBody::Branch { transitions } => transitions.iter().map(|t| self.transition(t)).collect(),
            ActionBody::Fork { behaviours } => behaviours
                .iter()
                .map(|b| self.behaviour(b, "forked behaviour"))
                .collect(),
            _ => Vec::new(),
        };
        s
    }

    fn transition(&self, t: &BranchTransition) -> Symbol {
        let detail = match &t.kind {
            TransitionKind::Probabilistic { probability: Some(p) } => format!("probability {p}"),
            TransitionKind::Probabilistic { probability: None } => "probability (none)".into(),
            TransitionKind::Guarded { .. } => "guarded".into(),
            TransitionKind::Unknown => type_name(self.tree(), t.node).to_string(),
        };
        let mut s = self.symbol(t.node, t.name.clone(), SymbolKind::BranchTransition, Some(detail));
        s.children = t.behaviour.as_ref().map(|b| self.actions(b)).unwrap_or_default();
        s
    }

    fn interface(&self, i: &Interface) -> Symbol {
        let mut s = self.symbol(i.node, i.name.clone(), SymbolKind::Interface, Some(i.kind.clone()));
        s.children = i.signatures.iter().map(|sig| self.signature(sig)).collect();
        s
    }

    fn signature(&self, sig: &Signature) -> Symbol {
        let parameters: Vec<&str> = sig
            .parameters
            .iter()
            .map(|p| p.name.as_deref().unwrap_or("?"))
            .collect();
        let detail = format!("({})", parameters.join(", "));
        self.symbol(sig.node, sig.name.clone(), SymbolKind::Signature, Some(detail))
    }

    fn data_type(&self, d: &DataType) -> Symbol {
        let (name, detail) = match &d.kind {
            DataTypeKind::Primitive(p) => (d.name.clone().or_else(|| Some(p.clone())), "primitive"),
            DataTypeKind::Collection { .. } => (d.name.clone(), "collection"),
            DataTypeKind::Composite { .. } => (d.name.clone(), "composite"),
            DataTypeKind::Unknown => (d.name.clone(), "data type"),
        };
        self.symbol(d.node, name, SymbolKind::DataType, Some(detail.into()))
    }
}

/// Files other than repositories: the root and every element with an `entityName`, nested as in
/// the file (unnamed elements in between are skipped, their named descendants kept).
fn generic_symbols(file: &ModelFile) -> Vec<Symbol> {
    let Some(root) = file.tree.root() else {
        return Vec::new();
    };
    let outline = Outline { file };
    let mut s = outline.symbol(
        root,
        entity_name(&file.tree, root),
        root_kind(file.kind),
        outline.type_detail(root),
    );
    s.children = named_descendants(&outline, root);
    vec![s]
}

fn named_descendants(outline: &Outline, node: NodeId) -> Vec<Symbol> {
    let tree = outline.tree();
    let mut out = Vec::new();
    for child in tree.children(node) {
        match entity_name(tree, child) {
            Some(name) => {
                let kind = generic_kind(tree, child);
                let mut s = outline.symbol(child, Some(name), kind, outline.type_detail(child));
                s.children = named_descendants(outline, child);
                out.push(s);
            }
            None => out.extend(named_descendants(outline, child)),
        }
    }
    out
}

fn root_kind(kind: FileKind) -> SymbolKind {
    match kind {
        FileKind::Repository => SymbolKind::Repository,
        FileKind::System => SymbolKind::System,
        _ => SymbolKind::Other,
    }
}

fn generic_kind(tree: &XmlTree, node: NodeId) -> SymbolKind {
    match tree.local_name(node) {
        "usageScenario_UsageModel" => SymbolKind::UsageScenario,
        "components__Repository" => SymbolKind::Component,
        "interfaces__Repository" => SymbolKind::Interface,
        "providedRoles_InterfaceProvidingEntity" | "requiredRoles_InterfaceRequiringEntity" => SymbolKind::Role,
        _ => SymbolKind::Other,
    }
}

/// A symbol without its children, with the name of the symbol that contains it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FlatSymbol {
    pub name: String,
    pub detail: Option<String>,
    pub kind: SymbolKind,
    pub id: Option<String>,
    pub span: Span,
    pub selection: Span,
    pub container: Option<String>,
}

/// Most results [`workspace_symbols`] returns: an editor shows a list, not a dump.
pub const MAX_WORKSPACE_SYMBOLS: usize = 256;

/// Symbols of all files whose name matches `query`, case-insensitively: exact names first, then
/// prefixes, substrings and finally subsequences (`upld` finds `upload`); an empty query
/// matches everything. At most [`MAX_WORKSPACE_SYMBOLS`].
pub fn workspace_symbols(files: &[&ModelFile], query: &str) -> Vec<(PathBuf, FlatSymbol)> {
    let query = query.to_lowercase();
    let mut found: Vec<(u8, PathBuf, FlatSymbol)> = Vec::new();
    for file in files {
        let mut flat = Vec::new();
        flatten(document_symbols(file), None, &mut flat);
        for symbol in flat {
            if let Some(rank) = match_rank(&symbol.name.to_lowercase(), &query) {
                found.push((rank, file.path.clone(), symbol));
            }
        }
    }
    found.sort_by(|a, b| (a.0, &a.1, a.2.span.start).cmp(&(b.0, &b.1, b.2.span.start)));
    found.truncate(MAX_WORKSPACE_SYMBOLS);
    found.into_iter().map(|(_, path, s)| (path, s)).collect()
}

fn flatten(symbols: Vec<Symbol>, container: Option<&str>, out: &mut Vec<FlatSymbol>) {
    for s in symbols {
        out.push(FlatSymbol {
            name: s.name.clone(),
            detail: s.detail,
            kind: s.kind,
            id: s.id,
            span: s.span,
            selection: s.selection,
            container: container.map(str::to_string),
        });
        flatten(s.children, Some(&s.name), out);
    }
}

/// Lower is better; `None`: no match. Both arguments lower-cased.
fn match_rank(name: &str, query: &str) -> Option<u8> {
    if name == query {
        Some(0)
    } else if name.starts_with(query) {
        Some(1)
    } else if name.contains(query) {
        Some(2)
    } else {
        let mut rest = name.chars();
        query.chars().all(|q| rest.any(|c| c == q)).then_some(3)
    }
}

#[cfg(test)]
mod tests {
    use super::match_rank;

    #[test]
    fn ranks() {
        assert_eq!(match_rank("upload", "upload"), Some(0));
        assert_eq!(match_rank("upload", "up"), Some(1));
        assert_eq!(match_rank("upload", "loa"), Some(2));
        assert_eq!(match_rank("upload", "upld"), Some(3));
        assert_eq!(match_rank("upload", "dlu"), None);
        assert_eq!(match_rank("upload", ""), Some(1));
    }
}
