//! References as the typed views read them: EMF writes one as an attribute holding an id (same
//! file) or as a child element with `href="file#fragment"` (another file). Either way the views
//! keep the id, and resolve it by id, since ids are unique across a model's files.

use crate::reference::Target;
use crate::xml::{NodeId, XmlTree};

/// The id that `feature` of element `node` names, written as an attribute or as an `href` child.
pub(crate) fn reference_id(tree: &XmlTree, node: NodeId, feature: &str) -> Option<String> {
    let token = match tree.raw_value(node, feature) {
        Some(v) => v,
        None => tree.raw_value(tree.child_named(node, feature)?, "href")?,
    };
    Target::parse(token.trim()).id().map(str::to_string)
}

/// The URI (file part) of an `href` child, as written (`MediaStore.resourceenvironment`).
pub(crate) fn href_uri(tree: &XmlTree, node: NodeId, feature: &str) -> Option<String> {
    let href = tree.value(tree.child_named(node, feature)?, "href")?;
    match Target::parse(href.trim()) {
        Target::External { uri, .. } => Some(uri),
        _ => None,
    }
}

/// The root element named `local`: the file's root, or a child of an `xmi:XMI` root (EMF writes
/// a resource holding several objects that way).
pub(crate) fn root_named(tree: &XmlTree, local: &str) -> Option<NodeId> {
    let root = tree.root()?;
    match tree.local_name(root) {
        l if l == local => Some(root),
        "XMI" => tree.children_named(root, local).next(),
        _ => None,
    }
}
