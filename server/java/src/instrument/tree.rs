//! Tree-sitter helpers for instrumentation: finding the node a site's range names, and where a
//! statement sits (in a block, or as the sole body of an `if`, loop, label or switch rule).

use tree_sitter::Node;

/// Kinds whose named children are a list of statements sharing one scope.
pub(crate) fn is_block_like(kind: &str) -> bool {
    matches!(kind, "block" | "constructor_body" | "switch_block_statement_group")
}

pub(crate) fn is_loop(kind: &str) -> bool {
    matches!(
        kind,
        "for_statement" | "enhanced_for_statement" | "while_statement" | "do_statement"
    )
}

pub(crate) fn is_comment(kind: &str) -> bool {
    matches!(kind, "line_comment" | "block_comment")
}

/// The range without surrounding whitespace (links may include it).
pub(crate) fn trim(source: &str, range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let text = &source[range.clone()];
    let start = range.start + (text.len() - text.trim_start().len());
    let end = range.end - (text.len() - text.trim_end().len());
    start..end.max(start)
}

/// The outermost node spanning exactly `range` (after trimming), if any.
pub(crate) fn exact<'t>(root: Node<'t>, source: &str, range: std::ops::Range<usize>) -> Option<Node<'t>> {
    let r = trim(source, range);
    let mut n = root.descendant_for_byte_range(r.start, r.end)?;
    if n.start_byte() != r.start || n.end_byte() != r.end {
        return None;
    }
    while let Some(p) = n.parent() {
        if p.start_byte() == n.start_byte() && p.end_byte() == n.end_byte() {
            n = p;
        } else {
            break;
        }
    }
    Some(n)
}

/// How a statement is held by its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// One of a block's statements: code can go before or after it.
    InBlock,
    /// The sole body of an `if` part, loop or switch rule: inserted code needs braces.
    Body,
    /// The body of a label: code must go before the label (or `continue label` breaks).
    Labeled,
    /// The rule body of a switch expression: needs braces and `yield`.
    ExpressionRule,
    /// Not a statement.
    None,
}

/// Where `node` sits as a statement.
pub(crate) fn slot(node: Node) -> Slot {
    let Some(parent) = node.parent() else { return Slot::None };
    let kind = parent.kind();
    if is_block_like(kind) {
        return if is_comment(node.kind()) || node.kind() == "switch_label" {
            Slot::None
        } else {
            Slot::InBlock
        };
    }
    let is_field = |name: &str| parent.child_by_field_name(name).is_some_and(|c| c.id() == node.id());
    match kind {
        "labeled_statement" => Slot::Labeled,
        "if_statement" if is_field("consequence") || is_field("alternative") => Slot::Body,
        k if is_loop(k) && is_field("body") => Slot::Body,
        "switch_rule" if node.kind() != "switch_label" => {
            if switch_is_statement(parent.parent().and_then(|b| b.parent())) {
                Slot::Body
            } else {
                Slot::ExpressionRule
            }
        }
        _ => Slot::None,
    }
}

/// Whether a `switch_expression` node is used as a statement (tree-sitter-java parses both
/// forms as `switch_expression`).
pub(crate) fn switch_is_statement(switch: Option<Node>) -> bool {
    switch.is_some_and(|s| s.kind() == "switch_expression" && !matches!(slot(s), Slot::None | Slot::ExpressionRule))
}

/// The outermost chain of labels around `node` (the node itself when unlabelled).
pub(crate) fn outer_label(mut node: Node) -> Node {
    while let Some(p) = node.parent().filter(|p| p.kind() == "labeled_statement") {
        node = p;
    }
    node
}

/// The first named child that is not a comment.
pub(crate) fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut c = node.walk();
    node.named_children(&mut c).filter(|n| !is_comment(n.kind())).collect()
}

/// 1-based line and column (in characters) of a byte offset.
pub(crate) fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let before = &source[..offset.min(source.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}
