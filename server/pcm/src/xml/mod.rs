//! The XML layer: a lossless tree with spans, and attribute escaping. Knows nothing of PCM.

pub mod escape;
pub mod tree;

pub use escape::{escape_attribute, unescape_attribute, EntityError, Unescaped};
pub use tree::{Attribute, Element, NodeId, NsId, XmlError, XmlTree, NO_NS, XSI_URI};
