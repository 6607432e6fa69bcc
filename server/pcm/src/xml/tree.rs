//! A lossless element tree over the original text: every element and attribute knows its byte span.
//!
//! Built from quick-xml events (the floor for speed, see `benchmarks/pcm-parse`); the text itself is
//! never copied or normalised, so writing an unchanged model back is the original bytes.

use super::escape::{unescape_attribute, EntityError, Unescaped};
use crate::span::Span;
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use std::borrow::Cow;

pub type NodeId = u32;
const NONE: u32 = u32::MAX;

/// Index into [`XmlTree::namespaces`]; `NO_NS` when a prefix is unbound.
pub type NsId = u16;
pub const NO_NS: NsId = u16::MAX;

pub const XSI_URI: &str = "http://www.w3.org/2001/XMLSchema-instance";

#[derive(Clone, Debug)]
pub struct Element {
    /// The qualified name as written in the start tag (`repository:Repository`, `steps_Behaviour`).
    pub name: Span,
    /// `<` to `>` of the start tag (or of the whole empty-element tag).
    pub start_tag: Span,
    /// `</...>`; `None` for an empty-element tag `<a/>` (or an element left open at end of file).
    pub end_tag: Option<Span>,
    pub ns: NsId,
    /// `xsi:type`, resolved: the namespace of its prefix and the span of its local part.
    pub xsi_type: Option<(NsId, Span)>,
    pub parent: Option<NodeId>,
    pub depth: u16,
    attrs_start: u32,
    attrs_len: u32,
    first_child: u32,
    last_child: u32,
    next_sibling: u32,
}

impl Element {
    /// From `<` of the start tag to `>` of the end tag.
    pub fn span(&self) -> Span {
        Span {
            start: self.start_tag.start,
            end: self.end_tag.unwrap_or(self.start_tag).end,
        }
    }

    pub fn is_empty_tag(&self) -> bool {
        self.end_tag.is_none()
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Attribute {
    /// The qualified name (`xsi:type`, `specification`).
    pub name: Span,
    /// The raw value between the quotes, still escaped.
    pub value: Span,
    pub quote: u8,
}

/// A problem reading the XML itself, at a byte offset.
#[derive(Clone, Debug, PartialEq)]
pub struct XmlError {
    pub offset: usize,
    pub message: String,
    /// The innermost element open when the error was found.
    pub open: Option<NodeId>,
}

#[derive(Clone, Debug, Default)]
pub struct XmlTree {
    pub text: String,
    elements: Vec<Element>,
    attributes: Vec<Attribute>,
    /// Namespace URIs seen in the file; `NsId`s index into this.
    pub namespaces: Vec<String>,
    /// Malformed XML; the tree holds every element read before the first one.
    pub errors: Vec<XmlError>,
}

impl XmlTree {
    pub fn parse(text: String) -> XmlTree {
        let mut builder = Builder {
            tree: XmlTree {
                text: String::new(),
                elements: Vec::with_capacity(text.len() / 120),
                attributes: Vec::with_capacity(text.len() / 40),
                namespaces: Vec::new(),
                errors: Vec::new(),
            },
            open: Vec::new(),
            bindings: Vec::new(),
        };
        builder.read(&text);
        let mut tree = builder.tree;
        // The capacities above are guesses from the file size; give back what was not used.
        tree.elements.shrink_to_fit();
        tree.attributes.shrink_to_fit();
        tree.text = text;
        tree
    }

    pub fn root(&self) -> Option<NodeId> {
        (!self.elements.is_empty()).then_some(0)
    }

    pub fn len(&self) -> usize {
        self.elements.len()
    }

    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    pub fn element(&self, id: NodeId) -> &Element {
        &self.elements[id as usize]
    }

    /// Every element in document order (ids are assigned in document order).
    pub fn ids(&self) -> impl Iterator<Item = NodeId> {
        0..self.elements.len() as NodeId
    }

    pub fn children(&self, id: NodeId) -> Children<'_> {
        Children {
            tree: self,
            next: self.elements[id as usize].first_child,
        }
    }

    /// Children whose tag's local name is `local` (PCM's containment features are unprefixed).
    pub fn children_named<'a>(&'a self, id: NodeId, local: &'a str) -> impl Iterator<Item = NodeId> + 'a {
        self.children(id).filter(move |&c| self.local_name(c) == local)
    }

    pub fn child_named(&self, id: NodeId, local: &str) -> Option<NodeId> {
        self.children_named(id, local).next()
    }

    pub fn last_child(&self, id: NodeId) -> Option<NodeId> {
        let c = self.elements[id as usize].last_child;
        (c != NONE).then_some(c)
    }

    pub fn str(&self, span: Span) -> &str {
        &self.text[span.range()]
    }

    pub fn qname(&self, id: NodeId) -> &str {
        self.str(self.elements[id as usize].name)
    }

    pub fn local_name(&self, id: NodeId) -> &str {
        let q = self.qname(id);
        q.rsplit_once(':').map_or(q, |(_, l)| l)
    }

    pub fn namespace(&self, ns: NsId) -> Option<&str> {
        self.namespaces.get(ns as usize).map(String::as_str)
    }

    /// `xsi:type` as (namespace URI, local name), e.g. (`.../SEFF/5.2`, `InternalAction`).
    pub fn xsi_type(&self, id: NodeId) -> Option<(Option<&str>, &str)> {
        let (ns, local) = self.elements[id as usize].xsi_type?;
        Some((self.namespace(ns), self.str(local)))
    }

    pub fn attributes(&self, id: NodeId) -> &[Attribute] {
        let e = &self.elements[id as usize];
        &self.attributes[e.attrs_start as usize..(e.attrs_start + e.attrs_len) as usize]
    }

    /// The attribute with this exact qualified name (PCM's own attributes are unprefixed).
    pub fn attribute(&self, id: NodeId, name: &str) -> Option<&Attribute> {
        self.attributes(id).iter().find(|a| self.str(a.name) == name)
    }

    /// The raw (still escaped) value; fast, and exact for values that cannot hold entities (ids).
    pub fn raw_value(&self, id: NodeId, name: &str) -> Option<&str> {
        self.attribute(id, name).map(|a| self.str(a.value))
    }

    /// The unescaped value; a value with a bad entity reads as its raw text (the checker reports it).
    pub fn value(&self, id: NodeId, name: &str) -> Option<Cow<'_, str>> {
        let a = self.attribute(id, name)?;
        Some(self.unescape(a).map_or(Cow::Borrowed(self.str(a.value)), |u| u.text))
    }

    pub fn unescape(&self, a: &Attribute) -> Result<Unescaped<'_>, EntityError> {
        unescape_attribute(self.str(a.value))
    }

    /// The leading whitespace of the line an element starts on, for indenting new siblings.
    pub fn indentation(&self, id: NodeId) -> &str {
        let start = self.elements[id as usize].start_tag.start as usize;
        let line_start = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
        let prefix = &self.text[line_start..start];
        let ws = prefix.len() - prefix.trim_start_matches([' ', '\t']).len();
        &prefix[..ws]
    }
}

pub struct Children<'a> {
    tree: &'a XmlTree,
    next: u32,
}

impl Iterator for Children<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        (self.next != NONE).then(|| {
            let id = self.next;
            self.next = self.tree.elements[id as usize].next_sibling;
            id
        })
    }
}

struct Builder {
    tree: XmlTree,
    /// Elements whose end tag has not been read yet.
    open: Vec<NodeId>,
    /// In-scope prefix bindings `(prefix span, namespace)`, innermost last, with the depth they end at.
    bindings: Vec<(Span, NsId, usize)>,
}

impl Builder {
    fn read(&mut self, text: &str) {
        // quick-xml skips a byte order mark and counts positions after it; spans count from the
        // file's first byte, so read past the mark ourselves and add it back.
        let bom = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
        let mut reader = Reader::from_str(&text[bom..]);
        let config = reader.config_mut();
        config.check_end_names = true;
        config.trim_text(false);
        let mut seen_root = false;
        loop {
            let before = bom + reader.buffer_position() as usize;
            let event = match reader.read_event() {
                Ok(e) => e,
                Err(e) => {
                    let offset = (bom + reader.error_position() as usize).min(text.len());
                    self.error(offset, format!("malformed XML: {e}"));
                    return;
                }
            };
            let after = bom + reader.buffer_position() as usize;
            match event {
                Event::Start(start) | Event::Empty(start) if seen_root && self.open.is_empty() => {
                    let _ = start;
                    self.error(before, "a second root element; a PCM file has exactly one".into());
                    return;
                }
                Event::Start(start) => {
                    seen_root = true;
                    if !self.start_element(text, &start, Span::new(before, after), false) {
                        return;
                    }
                }
                Event::Empty(start) => {
                    seen_root = true;
                    if !self.start_element(text, &start, Span::new(before, after), true) {
                        return;
                    }
                }
                Event::End(_) => {
                    // quick-xml has checked that the name matches the open element.
                    if let Some(id) = self.open.pop() {
                        self.tree.elements[id as usize].end_tag = Some(Span::new(before, after));
                        self.close_scope();
                    }
                }
                Event::Text(t) if self.open.is_empty() && !t.iter().all(u8::is_ascii_whitespace) => {
                    self.error(before, "text outside the root element".into());
                    return;
                }
                Event::Eof => break,
                _ => {}
            }
        }
        if let Some(&id) = self.open.last() {
            let e = &self.tree.elements[id as usize];
            let name = text[e.name.range()].to_string();
            let at = e.start_tag.start as usize;
            self.error(
                text.len(),
                format!("unexpected end of file: element `{name}` (opened at byte {at}) is not closed"),
            );
        } else if !seen_root {
            self.error(0, "no root element: the file holds no XML element".into());
        }
    }

    fn error(&mut self, offset: usize, message: String) {
        let open = self.open.last().copied();
        self.tree.errors.push(XmlError { offset, message, open });
    }

    /// Adds an element; false when its tag cannot be mapped back onto the text.
    fn start_element(&mut self, text: &str, start: &BytesStart<'_>, tag: Span, empty: bool) -> bool {
        let Some(name) = offset_in(text, start.name().as_ref()) else {
            self.error(tag.start as usize, "cannot locate the tag name in the text".into());
            return false;
        };
        let id = self.tree.elements.len() as NodeId;
        let depth = self.open.len();
        let attrs_start = self.tree.attributes.len() as u32;
        for attr in start.attributes().with_checks(true) {
            let attr = match attr {
                Ok(a) => a,
                Err(e) => {
                    self.error(tag.start as usize, format!("malformed attribute: {e}"));
                    return false;
                }
            };
            let (Some(name), Some(value)) = (offset_in(text, attr.key.as_ref()), offset_in(text, &attr.value)) else {
                self.error(tag.start as usize, "cannot locate an attribute in the text".into());
                return false;
            };
            let quote = text.as_bytes().get(value.end as usize).copied().unwrap_or(b'"');
            self.tree.attributes.push(Attribute { name, value, quote });
        }
        let attrs_len = self.tree.attributes.len() as u32 - attrs_start;
        // Namespace declarations on this element are in scope for its own name and attributes.
        for a in &self.tree.attributes[attrs_start as usize..] {
            let qn = &text[a.name.range()];
            let prefix = if qn == "xmlns" {
                Span::empty(a.name.start as usize)
            } else if let Some(p) = qn.strip_prefix("xmlns:") {
                Span::new(a.name.end as usize - p.len(), a.name.end as usize)
            } else {
                continue;
            };
            let uri = &text[a.value.range()];
            let ns = match self.tree.namespaces.iter().position(|n| n == uri) {
                Some(i) => i as NsId,
                None => {
                    self.tree.namespaces.push(uri.to_string());
                    (self.tree.namespaces.len() - 1) as NsId
                }
            };
            self.bindings.push((prefix, ns, depth));
        }
        let qname = &text[name.range()];
        let ns = self.resolve(text, qname.split_once(':').map_or("", |(p, _)| p));
        let xsi_type = self.tree.attributes[attrs_start as usize..]
            .iter()
            .find(|a| {
                let qn = &text[a.name.range()];
                qn.split_once(':').is_some_and(|(p, l)| {
                    l == "type" && self.resolve(text, p) != NO_NS && self.ns_is(self.resolve(text, p), XSI_URI)
                })
            })
            .map(|a| {
                let v = &text[a.value.range()];
                match v.split_once(':') {
                    Some((p, l)) => (
                        self.resolve(text, p),
                        Span::new(a.value.end as usize - l.len(), a.value.end as usize),
                    ),
                    None => (self.resolve(text, ""), a.value),
                }
            });
        let parent = self.open.last().copied();
        self.tree.elements.push(Element {
            name,
            start_tag: tag,
            end_tag: None,
            ns,
            xsi_type,
            parent,
            depth: depth.min(u16::MAX as usize) as u16,
            attrs_start,
            attrs_len,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
        });
        if let Some(p) = parent {
            let prev = self.tree.elements[p as usize].last_child;
            if prev == NONE {
                self.tree.elements[p as usize].first_child = id;
            } else {
                self.tree.elements[prev as usize].next_sibling = id;
            }
            self.tree.elements[p as usize].last_child = id;
        }
        if empty {
            self.close_scope_at(depth);
        } else {
            self.open.push(id);
        }
        true
    }

    fn ns_is(&self, ns: NsId, uri: &str) -> bool {
        self.tree.namespaces.get(ns as usize).is_some_and(|n| n == uri)
    }

    fn resolve(&self, text: &str, prefix: &str) -> NsId {
        self.bindings
            .iter()
            .rev()
            .find(|(p, _, _)| &text[p.range()] == prefix)
            .map_or(NO_NS, |&(_, ns, _)| ns)
    }

    fn close_scope(&mut self) {
        let depth = self.open.len();
        self.close_scope_at(depth);
    }

    fn close_scope_at(&mut self, depth: usize) {
        while self.bindings.last().is_some_and(|&(_, _, d)| d >= depth) {
            self.bindings.pop();
        }
    }
}

/// Where a slice borrowed from `text` starts, as a span; `None` if it is not part of `text`.
fn offset_in(text: &str, part: &[u8]) -> Option<Span> {
    let base = text.as_ptr() as usize;
    let p = part.as_ptr() as usize;
    (p >= base && p + part.len() <= base + text.len()).then(|| Span::new(p - base, p - base + part.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r#"<?xml version="1.0"?>
<r:Root xmlns:r="urn:r" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="root">
  <kid xsi:type="r:Thing" id='a' name="x &lt; y"/>
  <kid id="b"><inner xmlns:r="urn:other" xsi:type="r:Other"/></kid>
</r:Root>
"#;

    #[test]
    fn spans_point_at_names_and_values() {
        let t = XmlTree::parse(DOC.to_string());
        assert!(t.errors.is_empty(), "{:?}", t.errors);
        assert_eq!(t.len(), 4);
        let root = t.root().unwrap();
        assert_eq!(t.qname(root), "r:Root");
        assert_eq!(t.local_name(root), "Root");
        assert_eq!(t.namespace(t.element(root).ns), Some("urn:r"));
        let kids: Vec<_> = t.children(root).collect();
        assert_eq!(kids.len(), 2);
        let a = t.attribute(kids[0], "id").unwrap();
        assert_eq!(t.str(a.value), "a");
        assert_eq!(a.quote, b'\'');
        assert_eq!(t.str(a.name), "id");
        assert_eq!(t.value(kids[0], "name").unwrap(), "x < y");
        assert_eq!(t.xsi_type(kids[0]), Some((Some("urn:r"), "Thing")));
        assert!(t.element(kids[0]).is_empty_tag());
        assert_eq!(
            t.str(t.element(kids[1]).span()),
            r#"<kid id="b"><inner xmlns:r="urn:other" xsi:type="r:Other"/></kid>"#
        );
        assert_eq!(t.indentation(kids[1]), "  ");
    }

    #[test]
    fn prefixes_are_scoped() {
        let t = XmlTree::parse(DOC.to_string());
        let inner = t.ids().last().unwrap();
        assert_eq!(t.xsi_type(inner), Some((Some("urn:other"), "Other")));
        assert_eq!(t.element(inner).parent, Some(2));
    }

    #[test]
    fn malformed_input_keeps_what_was_read() {
        let cut = &DOC[..DOC.find("<inner").unwrap() + 3];
        let t = XmlTree::parse(cut.to_string());
        assert_eq!(t.errors.len(), 1, "{:?}", t.errors);
        assert!(t.len() >= 3);
        let t = XmlTree::parse("<a><b></a>".into());
        assert_eq!(t.errors.len(), 1);
        assert!(t.errors[0].message.contains("malformed XML"), "{:?}", t.errors);
        let t = XmlTree::parse("".into());
        assert!(t.errors[0].message.contains("no root element"));
        let t = XmlTree::parse("<a/><b/>".into());
        assert!(t.errors[0].message.contains("second root"));
        let t = XmlTree::parse(r#"<a x="1" x="2"/>"#.into());
        assert!(t.errors[0].message.contains("attribute"), "{:?}", t.errors);
    }
}
