//! Service sites: a SEFF's method records its execution (`enter`/`exit`) and its parameters.

use std::ops::Range;

use tree_sitter::Node;

use super::edits::Side;
use super::tree::{named_children, trim};
use super::{Ctx, InstrumentError, PROBE};
use crate::sections::SectionTable;

pub(crate) fn instrument(
    ctx: &mut Ctx,
    root: Node,
    range: Range<usize>,
    section: i32,
    table: &mut SectionTable,
) -> Result<Option<String>, InstrumentError> {
    let method = method_at(ctx, root, range.clone())?;
    let Some(body) = method.child_by_field_name("body") else {
        return Err(ctx.error(method.start_byte(), "the method has no body (abstract or native)"));
    };
    ctx.claim(method.byte_range());
    let e = ctx.fresh('E');
    // A body several components inherit: the receiving object's class picks the section.
    let mut not_dispatched = None;
    let entered = match table.dispatch.site_table.get(&section) {
        Some(t) if is_static(ctx, method) => {
            not_dispatched = Some(format!(
                "a static method: no receiving object tells the components apart (dispatch table {t})"
            ));
            section.to_string()
        }
        Some(t) => format!("{PROBE}.pick(this, {t})"),
        None => section.to_string(),
    };
    let mut open = format!(" long {e} = {PROBE}.enter({entered});");
    if let Some(params) = method.child_by_field_name("parameters") {
        for p in named_children(params) {
            let name = match p.kind() {
                "formal_parameter" => p.child_by_field_name("name"),
                "spread_parameter" => named_children(p)
                    .into_iter()
                    .find(|c| c.kind() == "variable_declarator")
                    .and_then(|d| d.child_by_field_name("name")),
                _ => None, // receiver parameters (`Foo this`) are not inputs
            };
            if let Some(name) = name {
                let name = ctx.text(name);
                let slot = table.add_slot(name);
                open.push_str(&format!(" {PROBE}.param({e}, {slot}, {name});"));
            }
        }
    }
    // Characterisations the link file gives as Java expressions, after the parameters: a value
    // the expression cannot give (it throws) is no record, and never the program's failure.
    for given in table.given.get(&section).cloned().unwrap_or_default() {
        let slot = table.add_slot(&given.variable);
        table.given_as.insert(slot, given.characterisation.clone());
        open.push_str(&format!(
            " try {{ {PROBE}.param({e}, {slot}, (double) ({})); }} catch (RuntimeException {e}x) {{ }}",
            given.java
        ));
    }
    open.push_str(" try {");
    // A constructor's `this(...)`/`super(...)` must stay first: the execution starts after it.
    let start = named_children(body)
        .into_iter()
        .find(|c| c.kind() == "explicit_constructor_invocation")
        .map_or(body.start_byte() + 1, |c| c.end_byte());
    ctx.insert(start, open, Side::Open);
    ctx.insert(
        body.end_byte() - 1,
        format!(" }} finally {{ {PROBE}.exit({e}); }}"),
        Side::Close,
    );
    Ok(not_dispatched)
}

/// Whether a method is static (or a constructor: no object receives it before it runs).
fn is_static(ctx: &Ctx, method: Node) -> bool {
    method.kind() == "constructor_declaration"
        || named_children(method)
            .into_iter()
            .filter(|c| c.kind() == "modifiers")
            .any(|m| ctx.text(m).split_whitespace().any(|w| w == "static"))
}

/// The method or constructor the range names: it covers the declaration's name and lies within it
/// (comments and annotations around it may or may not be included).
fn method_at<'t>(ctx: &Ctx, root: Node<'t>, range: Range<usize>) -> Result<Node<'t>, InstrumentError> {
    let r = trim(ctx.source, range);
    let mut n = root.descendant_for_byte_range(r.start, r.end);
    while let Some(node) = n {
        if matches!(node.kind(), "method_declaration" | "constructor_declaration") {
            let name = node.child_by_field_name("name").map(|n| n.byte_range());
            if name.is_some_and(|name| r.start <= name.start && name.end <= r.end) {
                return Ok(node);
            }
            break;
        }
        n = node.parent();
    }
    Err(ctx.error(r.start, "the range is not a method or constructor declaration"))
}
