//! Loop sites: a counter incremented first in the body, reported in a `finally` so that breaks,
//! returns and exceptions still record the iterations made.

use std::ops::Range;

use tree_sitter::Node;

use super::edits::Side;
use super::tree::{exact, is_loop, outer_label, slot, Slot};
use super::{Ctx, InstrumentError, PROBE};

pub(crate) fn instrument(ctx: &mut Ctx, root: Node, range: Range<usize>, section: i32) -> Result<(), InstrumentError> {
    let start = range.start;
    let mut node =
        exact(root, ctx.source, range).ok_or_else(|| ctx.error(start, "the range is not a loop statement"))?;
    while node.kind() == "labeled_statement" {
        node = super::tree::named_children(node).into_iter().last().unwrap_or(node);
        if node.kind() == "labeled_statement" || is_loop(node.kind()) {
            continue;
        }
        break;
    }
    if !is_loop(node.kind()) {
        return Err(ctx.error(
            node.start_byte(),
            format!("the range is not a loop statement (it is a {})", node.kind()),
        ));
    }
    // Wrapping the label keeps `continue label` pointing at a loop.
    let wrapped = outer_label(node);
    if matches!(slot(wrapped), Slot::None | Slot::ExpressionRule) {
        return Err(ctx.error(wrapped.start_byte(), "the loop is not a statement of a block"));
    }
    let body = node
        .child_by_field_name("body")
        .ok_or_else(|| ctx.error(node.start_byte(), "the loop has no body"))?;
    ctx.claim(wrapped.byte_range());
    let l = ctx.fresh('L');
    ctx.insert(wrapped.start_byte(), format!("{{ int {l} = 0; try {{ "), Side::Open);
    if body.kind() == "block" {
        ctx.insert(body.start_byte() + 1, format!(" {l}++;"), Side::Open);
    } else {
        ctx.insert(body.start_byte(), format!("{{ {l}++; "), Side::Open);
        ctx.insert(body.end_byte(), " }".to_string(), Side::Close);
    }
    ctx.insert(
        wrapped.end_byte(),
        format!(" }} finally {{ {PROBE}.loop({section}, {l}); }} }}"),
        Side::Close,
    );
    Ok(())
}
