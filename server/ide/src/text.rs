//! Small helpers over the XML tree shared by the features: spans an editor selects, names, the
//! element under an offset, and compact number formatting.

use beagle_pcm::model::SpecId;
use beagle_pcm::reference::Reference;
use beagle_pcm::{ModelFile, NodeId, Span, XmlTree};

/// The whole element. An element left open by a truncated file reaches the end of the text, so
/// that what the editor shows inside it still belongs to it.
pub(crate) fn extent(tree: &XmlTree, node: NodeId) -> Span {
    let e = tree.element(node);
    if e.end_tag.is_some() || tree.str(e.start_tag).ends_with("/>") {
        e.span()
    } else {
        Span::new(e.start_tag.start as usize, tree.text.len())
    }
}

/// What an editor selects for an element: its `entityName`'s value, else its tag name.
pub(crate) fn name_span(tree: &XmlTree, node: NodeId) -> Span {
    tree.attribute(node, "entityName")
        .map_or(tree.element(node).name, |a| a.value)
}

/// Where a reference to an element lands: its `id`'s value, else its tag name.
pub(crate) fn id_span(tree: &XmlTree, node: NodeId) -> Span {
    tree.attribute(node, "id").map_or(tree.element(node).name, |a| a.value)
}

pub(crate) fn entity_name(tree: &XmlTree, node: NodeId) -> Option<String> {
    tree.value(node, "entityName").map(|v| v.into_owned())
}

/// The `xsi:type`'s local name (`BasicComponent`), else the tag's local name.
pub(crate) fn type_name(tree: &XmlTree, node: NodeId) -> &str {
    tree.xsi_type(node).map_or_else(|| tree.local_name(node), |(_, t)| t)
}

/// The innermost element whose extent holds `offset` (half-open: the character after the cursor).
pub(crate) fn innermost(tree: &XmlTree, offset: usize) -> Option<NodeId> {
    let inside = |n: NodeId| extent(tree, n).range().contains(&offset);
    let mut node = tree.root().filter(|&r| inside(r))?;
    while let Some(child) = tree.children(node).find(|&c| inside(c)) {
        node = child;
    }
    Some(node)
}

/// The name of a same-file reference's target, qualified by its container's name when it has
/// one (`IStorage.store` for a signature); the referenced id when it does not resolve here.
pub(crate) fn target_name(file: &ModelFile, r: &Reference) -> String {
    let Some(node) = file.resolve_local(&r.target) else {
        return r.target.fragment().to_string();
    };
    let tree = &file.tree;
    let own = entity_name(tree, node).unwrap_or_else(|| r.target.fragment().to_string());
    let parent = tree.element(node).parent.filter(|&p| Some(p) != tree.root());
    match parent.and_then(|p| entity_name(tree, p)) {
        Some(container) => format!("{container}.{own}"),
        None => own,
    }
}

/// Longest specification shown inline (a 100-sample DoublePDF is kilobytes).
const MAX_SPEC_CHARS: usize = 100;

/// A specification in StoEx's canonical form (as written when it does not parse), shortened.
pub(crate) fn spec_text(file: &ModelFile, spec: Option<SpecId>) -> String {
    let Some(s) = spec.and_then(|i| file.specifications.get(i)) else {
        return "(none)".into();
    };
    let text = match &s.expr {
        Ok(e) => beagle_stoex::print(e),
        Err(_) => format!("{} (does not parse)", s.text.trim()),
    };
    shorten(&text, MAX_SPEC_CHARS)
}

pub(crate) fn shorten(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// A number with at most 4 significant digits, without trailing zeros: `0.001235`, `12.5`,
/// `123500`, `1.235e7`.
pub fn format_number(v: f64) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    if v == 0.0 {
        return "0".into();
    }
    let magnitude = v.abs().log10().floor() as i32;
    if !(-3..6).contains(&magnitude) {
        let s = format!("{v:.3e}");
        let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
        return format!("{}e{exponent}", trim_zeros(mantissa));
    }
    let decimals = (3 - magnitude).max(0) as usize;
    if decimals == 0 {
        let scale = 10f64.powi(magnitude - 3);
        return format!("{:.0}", (v / scale).round() * scale);
    }
    trim_zeros(&format!("{v:.decimals$}")).to_string()
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_compact() {
        let cases = [
            (0.0, "0"),
            (1.0, "1"),
            (12.5, "12.5"),
            (4.56789, "4.568"),
            (0.00123456, "0.001235"),
            (123456.0, "123500"),
            (1234.0, "1234"),
            (12345678.0, "1.235e7"),
            (0.0000123, "1.23e-5"),
            (-2.5, "-2.5"),
            (f64::NAN, "NaN"),
        ];
        for (v, expected) in cases {
            assert_eq!(format_number(v), expected, "{v}");
        }
    }

    #[test]
    fn shorten_counts_characters() {
        assert_eq!(shorten("äöü", 2), "äö…");
        assert_eq!(shorten("abc", 3), "abc");
    }
}
