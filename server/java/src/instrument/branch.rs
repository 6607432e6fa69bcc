//! Branch sites: `branch(t)` first in each transition's code. An `if` chain's transitions are its
//! `then` parts and final `else` (added when missing); a switch statement's are its case groups.

use std::ops::Range;

use tree_sitter::Node;

use super::edits::Side;
use super::tree::{exact, named_children, switch_is_statement};
use super::{Ctx, InstrumentError, PROBE};

pub(crate) fn instrument(
    ctx: &mut Ctx,
    root: Node,
    range: Range<usize>,
    transitions: &[i32],
) -> Result<(), InstrumentError> {
    let start = range.start;
    let node =
        exact(root, ctx.source, range).ok_or_else(|| ctx.error(start, "the range is not an if or switch statement"))?;
    ctx.claim(node.byte_range());
    match node.kind() {
        "if_statement" => if_chain(ctx, node, transitions),
        "switch_expression" if switch_is_statement(Some(node)) => switch(ctx, node, transitions),
        "switch_expression" => Err(ctx.error(
            node.start_byte(),
            "a switch expression cannot be instrumented as a branch",
        )),
        kind => Err(ctx.error(
            node.start_byte(),
            format!("the range is not an if or switch statement (it is a {kind})"),
        )),
    }
}

/// `then` parts along the `else if` chain, then the final `else` (None when missing). With two
/// transitions, the whole `else` part (an `else if` included) is the second.
fn if_chain(ctx: &mut Ctx, node: Node, transitions: &[i32]) -> Result<(), InstrumentError> {
    let mut parts = Vec::new();
    let mut at = node;
    loop {
        parts.push((at.child_by_field_name("consequence"), at));
        match at.child_by_field_name("alternative") {
            Some(alt) if alt.kind() == "if_statement" && transitions.len() != 2 => {
                at = alt;
            }
            alt => {
                parts.push((alt, at));
                break;
            }
        }
    }
    if parts.len() != transitions.len() {
        return Err(ctx.error(
            node.start_byte(),
            format!(
                "the if statement has {} transitions (then parts and else), the site names {}",
                parts.len(),
                transitions.len()
            ),
        ));
    }
    // Keyed by the `if` each part belongs to: a site wrapping an `else if` wraps its parts too.
    for ((part, owner), &t) in parts.into_iter().zip(transitions) {
        let probe = format!("{PROBE}.branch({t});");
        match part {
            Some(code) => first_in(ctx, code, probe, owner.byte_range()),
            None => ctx.insert_within(
                owner.end_byte(),
                format!(" else {{ {probe} }}"),
                Side::Close,
                owner.byte_range(),
            ),
        }
    }
    Ok(())
}

/// One transition per case group (old `case X:` groups or arrow rules), default included; with one
/// more transition than groups and no default, the last is a `default` added first in the block.
fn switch(ctx: &mut Ctx, node: Node, transitions: &[i32]) -> Result<(), InstrumentError> {
    let block = node
        .child_by_field_name("body")
        .ok_or_else(|| ctx.error(node.start_byte(), "the switch has no body"))?;
    let groups = merged_groups(block);
    let has_default = named_children(block).iter().any(|g| {
        named_children(*g)
            .iter()
            .any(|l| l.kind() == "switch_label" && ctx.text(*l).trim_start().starts_with("default"))
    });
    let arrows = groups.iter().any(|g| g.kind() == "switch_rule");
    let missing_default = !has_default && transitions.len() == groups.len() + 1;
    if transitions.len() != groups.len() && !missing_default {
        return Err(ctx.error(
            node.start_byte(),
            format!(
                "the switch has {} case groups, the site names {} transitions",
                groups.len(),
                transitions.len()
            ),
        ));
    }
    for (group, &t) in groups.iter().zip(transitions) {
        let probe = format!("{PROBE}.branch({t});");
        let children = named_children(*group);
        if group.kind() == "switch_rule" {
            let Some(body) = children.iter().rev().find(|c| c.kind() != "switch_label") else {
                continue;
            };
            first_in(ctx, *body, probe, group.byte_range());
        } else {
            let label = children
                .iter()
                .rev()
                .find(|c| c.kind() == "switch_label")
                .expect("a group has a label");
            // The `:` after the last label of the group.
            let colon = ctx.source[label.end_byte()..]
                .find(':')
                .map_or(label.end_byte(), |i| label.end_byte() + i + 1);
            ctx.insert(colon, format!(" {probe}"), Side::Open);
        }
    }
    if missing_default {
        let probe = format!("{PROBE}.branch({});", transitions[groups.len()]);
        // First in the block: no group falls through into it, and it falls into none.
        let text = if arrows {
            format!(" default -> {{ {probe} }}")
        } else {
            format!(" default: {probe} break;")
        };
        ctx.insert(block.start_byte() + 1, text, Side::Open);
    }
    Ok(())
}

/// The case groups of a switch block. tree-sitter-java gives `case 1: case 2: f();` as two groups,
/// the first without statements; Java counts one, so a label-only group joins the next.
fn merged_groups<'t>(block: Node<'t>) -> Vec<Node<'t>> {
    let all = named_children(block);
    let mut groups = Vec::new();
    for (i, g) in all.iter().enumerate() {
        let label_only = g.kind() == "switch_block_statement_group"
            && named_children(*g).iter().all(|c| c.kind() == "switch_label")
            && i + 1 < all.len();
        if !label_only {
            groups.push(*g);
        }
    }
    groups
}

/// Puts `probe` first in a transition's code: after a block's `{`, else in braces around it.
fn first_in(ctx: &mut Ctx, code: Node, probe: String, owner: std::ops::Range<usize>) {
    if code.kind() == "block" {
        ctx.insert_within(code.start_byte() + 1, format!(" {probe}"), Side::Open, owner);
    } else {
        ctx.insert_within(code.start_byte(), format!("{{ {probe} "), Side::Open, owner.clone());
        ctx.insert_within(code.end_byte(), " }".to_string(), Side::Close, owner);
    }
}
