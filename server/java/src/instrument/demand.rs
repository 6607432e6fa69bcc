//! Demand sites: statements of one block timed in `try { } finally { stop }`. Declarations the
//! rest of the block still uses are hoisted before the `try` (the `try` block is a new scope).

use std::ops::Range;

use tree_sitter::Node;

use super::edits::Side;
use super::tree::{exact, is_block_like, named_children, outer_label, slot, trim, Slot};
use super::{Ctx, InstrumentError, PROBE};

/// Instruments the site; `Ok(Some(reason))` when it covers no code that runs, so that it gets no
/// section at all (see [`runs_code`]).
pub(crate) fn instrument(
    ctx: &mut Ctx,
    root: Node,
    range: Range<usize>,
    section: i32,
    cpu: bool,
) -> Result<Option<String>, InstrumentError> {
    let all = statements(ctx, root, range)?;
    // Declarations without initialiser at either end are left out of the section: timing them
    // would time only the probe. Those in between stay inside (hoisted where needed below).
    let (Some(from), Some(to)) = (
        all.iter().position(|s| runs_code(*s)),
        all.iter().rposition(|s| runs_code(*s)),
    ) else {
        let declared: Vec<&str> = all.iter().map(|s| ctx.text(*s)).collect();
        return Ok(Some(format!(
            "its code is only declarations without initialiser (`{}`): nothing runs there to time",
            declared.join(" ")
        )));
    };
    let stmts = &all[from..=to];
    let (first, last) = (stmts[0], stmts[stmts.len() - 1]);
    if let Some(s) = stmts.iter().find(|s| s.kind() == "explicit_constructor_invocation") {
        return Err(ctx.error(
            s.start_byte(),
            "this(...) or super(...) must stay first and cannot be timed",
        ));
    }
    ctx.claim(first.start_byte()..last.end_byte());
    let braces = stmts.len() == 1 && slot(first) != Slot::InBlock;
    let mut open = String::new();
    if slot(first) == Slot::InBlock {
        let scope_end = scope_end(first);
        for s in stmts {
            hoist(ctx, *s, last.end_byte()..scope_end, &mut open)?;
        }
    }
    let t = ctx.fresh('T');
    // A CPU section names itself at its start too: the probe times it by the wall clock when its
    // last run was short (`Probe.SHORT_NS`), which only the section's own history tells.
    let start = if cpu {
        format!("startCpu({section})")
    } else {
        "startWall()".to_string()
    };
    let stop = if cpu { "stopCpu" } else { "stopWall" };
    open.push_str(&format!("long {t} = {PROBE}.{start}; try {{ "));
    let mut close = format!(" }} finally {{ {PROBE}.{stop}({section}, {t}); }}");
    if braces {
        open.insert_str(0, "{ ");
        close.push_str(" }");
    }
    ctx.insert(first.start_byte(), open, Side::Open);
    ctx.insert(last.end_byte(), close, Side::Close);
    Ok(None)
}

/// Whether a statement runs code when control passes it. A local variable declaration without
/// initialiser (`boolean isCopyrighted;`, `int x, y;`) only introduces names: javac emits no
/// instruction for it. (An empty statement `;` is no named node, so never a statement here.)
fn runs_code(stmt: Node) -> bool {
    if stmt.kind() != "local_variable_declaration" {
        return true;
    }
    let mut cursor = stmt.walk();
    let initialised = stmt
        .children_by_field_name("declarator", &mut cursor)
        .any(|d| d.child_by_field_name("value").is_some());
    initialised
}

/// The statements the range covers: one statement (also the sole body of an `if` or loop), or
/// consecutive statements of one block, none cut by the range.
fn statements<'t>(ctx: &Ctx, root: Node<'t>, range: Range<usize>) -> Result<Vec<Node<'t>>, InstrumentError> {
    let r = trim(ctx.source, range.clone());
    if let Some(n) = exact(root, ctx.source, range) {
        let n = outer_label(n);
        match slot(n) {
            Slot::InBlock | Slot::Body => return Ok(vec![n]),
            Slot::ExpressionRule => return Err(ctx.error(n.start_byte(), "a switch expression's rule cannot be timed")),
            _ => {}
        }
    }
    let mut container = root.descendant_for_byte_range(r.start, r.end);
    while let Some(c) = container.filter(|c| !is_block_like(c.kind())) {
        container = c.parent();
    }
    let not_statements = || ctx.error(r.start, "the range is not whole statements of one block");
    let container = container.ok_or_else(not_statements)?;
    let stmts: Vec<Node> = named_children(container)
        .into_iter()
        .filter(|s| slot(*s) == Slot::InBlock && s.start_byte() < r.end && r.start < s.end_byte())
        .collect();
    match (stmts.first(), stmts.last()) {
        (Some(f), Some(l)) if f.start_byte() >= r.start && l.end_byte() <= r.end => Ok(stmts),
        _ => Err(not_statements()),
    }
}

/// Where the scope of a declaration among `stmt`'s siblings ends: the block, or the whole switch
/// block for a case group (Java's scope spans the later groups).
fn scope_end(stmt: Node) -> usize {
    let parent = stmt.parent().expect("a statement in a block has a parent");
    match parent.kind() {
        "switch_block_statement_group" => parent.parent().unwrap_or(parent).end_byte(),
        _ => parent.end_byte(),
    }
}

/// Hoists `stmt` when it declares a local that `after` uses: `T x;` goes into `open`, and the
/// declaration becomes assignments (`x = v;`; without initialiser, an empty statement).
fn hoist(ctx: &mut Ctx, stmt: Node, after: Range<usize>, open: &mut String) -> Result<(), InstrumentError> {
    let scope = stmt.parent().and_then(|p| {
        if p.kind() == "switch_block_statement_group" {
            p.parent()
        } else {
            Some(p)
        }
    });
    let Some(scope) = scope else { return Ok(()) };
    let used = |name: &str| uses(ctx.source, scope, name, &after);
    match stmt.kind() {
        "local_variable_declaration" if !ctx.hoisted.contains(&stmt.start_byte()) => {}
        "class_declaration" | "record_declaration" | "enum_declaration" | "interface_declaration" => {
            if stmt.child_by_field_name("name").is_some_and(|n| used(ctx.text(n))) {
                return Err(ctx.error(
                    stmt.start_byte(),
                    "a local class declared in a timed section is used after it",
                ));
            }
            return Ok(());
        }
        _ => return Ok(()),
    }
    let ty = stmt.child_by_field_name("type").expect("a declaration has a type");
    let mut cursor = stmt.walk();
    let declarators: Vec<Node> = stmt.children_by_field_name("declarator", &mut cursor).collect();
    let names: Vec<&str> = declarators
        .iter()
        .filter_map(|d| d.child_by_field_name("name"))
        .map(|n| ctx.text(n))
        .collect();
    if !names.iter().any(|n| used(n)) {
        return Ok(());
    }
    if ctx.text(ty) == "var" {
        return Err(ctx.error(
            stmt.start_byte(),
            format!(
                "`var {}` is used after the timed section and must be hoisted, but its type cannot be named",
                names.join(", ")
            ),
        ));
    }
    ctx.hoisted.push(stmt.start_byte());
    let ty_text = ctx.text(ty).to_string();
    ctx.replace(stmt.start_byte()..declarators[0].start_byte(), String::new());
    for d in &declarators {
        let name = ctx
            .text(d.child_by_field_name("name").expect("a declarator has a name"))
            .to_string();
        let dims = d.child_by_field_name("dimensions").map_or("", |n| ctx.text(n));
        open.push_str(&format!("{ty_text}{} {name}; ", dims));
        match d.child_by_field_name("value") {
            Some(v) if v.kind() == "array_initializer" => {
                ctx.replace(d.start_byte()..v.start_byte(), format!("{name} = new {ty_text}{dims} "))
            }
            Some(v) => ctx.replace(d.start_byte()..v.start_byte(), format!("{name} = ")),
            None => ctx.replace(d.byte_range(), String::new()),
        }
    }
    let mut c = stmt.walk();
    for comma in stmt.children(&mut c).filter(|c| c.kind() == ",") {
        ctx.replace(comma.byte_range(), ";".to_string());
    }
    Ok(())
}

/// Whether an identifier `name` occurs inside `scope` within `range`.
fn uses(source: &str, scope: Node, name: &str, range: &Range<usize>) -> bool {
    let mut stack = vec![scope];
    while let Some(n) = stack.pop() {
        if n.end_byte() <= range.start || n.start_byte() >= range.end {
            continue;
        }
        if n.kind() == "identifier" && &source[n.byte_range()] == name {
            return true;
        }
        let mut c = n.walk();
        stack.extend(n.children(&mut c));
    }
    false
}
