//! A file's index: its ids, references and specifications, found in one pass over the element
//! tree, for lookups by node or by id.

use crate::namespaces::{intern_feature, REFERENCE_ATTRIBUTES};
use crate::reference::{Reference, Target};
use crate::span::Span;
use crate::xml::{NodeId, XmlTree};
use std::borrow::Cow;

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

    /// One pass over all elements of `tree`: ids, references and specifications (in document
    /// order).
    pub(crate) fn build(tree: &XmlTree) -> (Index, Vec<Specification>) {
        let mut index = Index::default();
        let mut specifications = Vec::new();
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
                    specifications.push(spec);
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
        (index, specifications)
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
