//! Call sites: `call(section)` right before the statement that makes an external call, so the
//! callee's next entry on this thread is attributed to the call.

use std::ops::Range;

use tree_sitter::Node;

use super::edits::Side;
use super::tree::{exact, outer_label, slot, Slot};
use super::{Ctx, InstrumentError, PROBE};

pub(crate) fn instrument(ctx: &mut Ctx, root: Node, range: Range<usize>, section: i32) -> Result<(), InstrumentError> {
    let stmt = statement_at(ctx, root, range)?;
    let stmt = outer_label(stmt);
    ctx.claim(stmt.byte_range());
    let call = format!("{PROBE}.call({section}); ");
    match slot(stmt) {
        Slot::InBlock => ctx.insert(stmt.start_byte(), call, Side::Open),
        Slot::Body => {
            ctx.insert(stmt.start_byte(), format!("{{ {call}"), Side::Open);
            ctx.insert(stmt.end_byte(), " }".to_string(), Side::Close);
        }
        Slot::ExpressionRule if stmt.kind() == "expression_statement" => {
            ctx.insert(stmt.start_byte(), format!("{{ {call}yield "), Side::Open);
            ctx.insert(stmt.end_byte(), " }".to_string(), Side::Close);
        }
        Slot::ExpressionRule => {
            ctx.insert(stmt.start_byte(), format!("{{ {call}"), Side::Open);
            ctx.insert(stmt.end_byte(), " }".to_string(), Side::Close);
        }
        Slot::Labeled | Slot::None => return Err(ctx.error(stmt.start_byte(), "the range is not a statement")),
    }
    Ok(())
}

/// The statement the range names: exactly a statement, or the innermost statement around it
/// (a link may name just the call expression).
fn statement_at<'t>(ctx: &Ctx, root: Node<'t>, range: Range<usize>) -> Result<Node<'t>, InstrumentError> {
    let r = super::tree::trim(ctx.source, range.clone());
    let mut n = exact(root, ctx.source, range).or_else(|| root.descendant_for_byte_range(r.start, r.end));
    while let Some(node) = n {
        if slot(node) != Slot::None {
            return Ok(node);
        }
        if matches!(
            node.kind(),
            "method_declaration" | "constructor_declaration" | "lambda_expression" | "class_body"
        ) {
            break;
        }
        n = node.parent();
    }
    Err(ctx.error(r.start, "the range is not a statement"))
}
