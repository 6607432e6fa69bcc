//! Variation operators. Each takes parents and returns a new valid program within the context's
//! [`TreeShape`]; when an operator cannot produce one within the limits it returns a copy of the
//! (first) parent.
//!
//! - [`crossover`]: subtree crossover (an inner node of the first parent 90 % of the time).
//! - [`point_mutation`]: a function becomes another of the same arity, a variable another
//!   variable, a leaf the other kind of leaf.
//! - [`constant_mutation`]: a constant is perturbed (relative normal step) or redrawn (from the
//!   caller's list or the range).
//! - [`subtree_mutation`]: a subtree becomes a new random one.
//! - [`drop_variable`]: one variable disappears: either every occurrence becomes the variable's
//!   median, or the smallest sum/difference term that contains it is removed (the other operand
//!   of its `+`/`-` takes its place) where there is one.
//! - [`hoist`]: a subtree becomes the whole tree.
//! - [`shrink`]: an inner node is replaced by one of its children (or a constant).

use super::init::{random_constant, random_leaf, random_program, random_variable, Context};
use super::program::{children, depth, fix_lengths, start, Node, Op};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// Whether `p` fits the context's limits.
pub fn within_limits(p: &[Node], ctx: &Context) -> bool {
    !p.is_empty() && p.len() <= ctx.shape.max_length && depth(p) <= ctx.shape.max_depth
}

/// `p` with the subtree at `i` replaced by `sub` (a complete program).
pub fn splice(p: &[Node], i: usize, sub: &[Node]) -> Vec<Node> {
    let s = start(p, i);
    let mut out = Vec::with_capacity(p.len() - (i + 1 - s) + sub.len());
    out.extend_from_slice(&p[..s]);
    out.extend_from_slice(sub);
    out.extend_from_slice(&p[i + 1..]);
    let ok = fix_lengths(&mut out);
    debug_assert!(ok);
    out
}

fn or_parent(child: Vec<Node>, parent: &[Node], ctx: &Context) -> Vec<Node> {
    if within_limits(&child, ctx) {
        child
    } else {
        parent.to_vec()
    }
}

/// A random node index; inner nodes with probability `inner` when there are any.
fn random_node(rng: &mut ChaCha8Rng, p: &[Node], inner: f64) -> usize {
    let internal = p.iter().filter(|n| !n.op.is_leaf()).count();
    if internal > 0 && rng.random_bool(inner) {
        let k = rng.random_range(0..internal);
        p.iter()
            .enumerate()
            .filter(|(_, n)| !n.op.is_leaf())
            .nth(k)
            .map_or(p.len() - 1, |(i, _)| i)
    } else {
        rng.random_range(0..p.len())
    }
}

/// Subtree crossover.
pub fn crossover(rng: &mut ChaCha8Rng, ctx: &Context, a: &[Node], b: &[Node]) -> Vec<Node> {
    let depths = super::program::subtree_depths(b);
    for _ in 0..4 {
        let i = random_node(rng, a, 0.9);
        let removed = a[i].len as usize;
        let room = ctx.shape.max_length + removed - a.len();
        let depth_room = (ctx.shape.max_depth + 1).saturating_sub(super::program::level(a, i));
        // The donor subtrees that fit the room in length and depth, counted, then one drawn
        // (no list built: this runs for nine offspring in ten).
        let fits = |j: &usize| b[*j].len as usize <= room && depths[*j] <= depth_room;
        let count = (0..b.len()).filter(fits).count();
        if count == 0 {
            continue;
        }
        let pick = rng.random_range(0..count);
        let Some(j) = (0..b.len()).filter(fits).nth(pick) else {
            continue;
        };
        let child = splice(a, i, &b[start(b, j)..=j]);
        // Within the limits by construction (the room above).
        debug_assert!(within_limits(&child, ctx));
        return child;
    }
    a.to_vec()
}

/// Point mutation.
pub fn point_mutation(rng: &mut ChaCha8Rng, ctx: &Context, p: &[Node]) -> Vec<Node> {
    let mut out = p.to_vec();
    let i = rng.random_range(0..p.len());
    let node = &mut out[i];
    match node.op {
        Op::Const => {
            if ctx.vars() > 0 {
                *node = Node::var(random_variable(rng, ctx));
            } else {
                node.value = random_constant(rng, ctx);
            }
        }
        Op::Var(_) => {
            if ctx.usable.len() > 1 && rng.random_bool(0.5) {
                *node = Node::var(random_variable(rng, ctx));
            } else {
                *node = Node::constant(random_constant(rng, ctx));
            }
        }
        op => {
            let same: Vec<Op> = ctx
                .functions
                .ops()
                .iter()
                .copied()
                .filter(|o| o.arity() == op.arity() && *o != op)
                .collect();
            if !same.is_empty() {
                node.op = same[rng.random_range(0..same.len())];
            }
        }
    }
    let ok = fix_lengths(&mut out);
    debug_assert!(ok);
    out
}

/// Constant mutation; a copy when there is no constant.
pub fn constant_mutation(rng: &mut ChaCha8Rng, ctx: &Context, p: &[Node]) -> Vec<Node> {
    let consts: Vec<usize> = (0..p.len()).filter(|i| p[*i].op == Op::Const).collect();
    let mut out = p.to_vec();
    if consts.is_empty() {
        return out;
    }
    let i = consts[rng.random_range(0..consts.len())];
    let v = out[i].value;
    out[i].value = match rng.random_range(0..4u8) {
        0 | 1 => {
            // Relative normal step.
            let z = crate::stats::standard_normal(rng);
            let scale = if v == 0.0 { 1.0 } else { v.abs() };
            v + 0.2 * scale * z
        }
        2 => v.round(),
        _ => random_constant(rng, ctx),
    };
    if !out[i].value.is_finite() {
        out[i].value = v;
    }
    out
}

/// Subtree mutation: a random subtree becomes a new random tree of at most the room left.
pub fn subtree_mutation(rng: &mut ChaCha8Rng, ctx: &Context, p: &[Node]) -> Vec<Node> {
    let i = random_node(rng, p, 0.5);
    let room = ctx.shape.max_length + p[i].len as usize - p.len();
    let len = rng.random_range(1..=room.clamp(1, 15));
    let sub = random_program(rng, ctx, len);
    or_parent(splice(p, i, &sub), p, ctx)
}

/// Drops one variable of `p` (see the module documentation); a copy when `p` has none.
pub fn drop_variable(rng: &mut ChaCha8Rng, ctx: &Context, p: &[Node]) -> Vec<Node> {
    let vars = super::program::variables(p);
    if vars.is_empty() {
        return p.to_vec();
    }
    let v = vars[rng.random_range(0..vars.len())];
    if rng.random_bool(0.5) {
        if let Some(q) = remove_term(p, v) {
            return q;
        }
    }
    let c = ctx.medians.get(v).copied().unwrap_or(1.0);
    p.iter()
        .map(|n| {
            if n.op == Op::Var(v as u16) {
                Node::constant(n.value * c)
            } else {
                *n
            }
        })
        .collect()
}

/// Removes, while any remain, the smallest `+`/`-` operand containing `Var(v)`, keeping the other
/// operand; `None` when some occurrence is in no sum.
fn remove_term(p: &[Node], v: usize) -> Option<Vec<Node>> {
    let mut cur = p.to_vec();
    loop {
        let Some(at) = cur.iter().position(|n| n.op == Op::Var(v as u16)) else {
            return Some(cur);
        };
        // The nearest ancestor that is `+` or `-`: its operand holding `at` goes.
        let mut best: Option<(usize, usize)> = None;
        for i in at + 1..cur.len() {
            if start(&cur, i) <= at && matches!(cur[i].op, Op::Add | Op::Sub) {
                let (ch, _) = children(&cur, i);
                let keep = if ch[0] >= at && start(&cur, ch[0]) <= at {
                    ch[1]
                } else {
                    ch[0]
                };
                best = Some((i, keep));
                break;
            }
        }
        let (i, keep) = best?;
        let keep_sub = cur[start(&cur, keep)..=keep].to_vec();
        let negate = cur[i].op == Op::Sub && keep != children(&cur, i).0[0];
        let mut sub = keep_sub;
        if negate {
            // `a - b` without `a` is `-b`: written `0 - b` so no function outside the set is needed.
            sub.insert(0, Node::constant(0.0));
            sub.push(Node::op(Op::Sub));
            let ok = fix_lengths(&mut sub);
            debug_assert!(ok);
        }
        cur = splice(&cur, i, &sub);
    }
}

/// Hoist mutation: a random subtree becomes the tree.
pub fn hoist(rng: &mut ChaCha8Rng, _ctx: &Context, p: &[Node]) -> Vec<Node> {
    let i = random_node(rng, p, 0.7);
    p[start(p, i)..=i].to_vec()
}

/// Shrink mutation: an inner node becomes one of its children, or a leaf.
pub fn shrink(rng: &mut ChaCha8Rng, ctx: &Context, p: &[Node]) -> Vec<Node> {
    let inner: Vec<usize> = (0..p.len()).filter(|i| !p[*i].op.is_leaf()).collect();
    if inner.is_empty() {
        return p.to_vec();
    }
    let i = inner[rng.random_range(0..inner.len())];
    let (ch, a) = children(p, i);
    let sub: Vec<Node> = if rng.random_bool(0.8) {
        // The value-carrying children: of an `if`, a branch.
        let choices = if a == 4 { &ch[2..4] } else { &ch[..a] };
        let c = choices[rng.random_range(0..choices.len())];
        p[start(p, c)..=c].to_vec()
    } else {
        vec![random_leaf(rng, ctx)]
    };
    or_parent(splice(p, i, &sub), p, ctx)
}

/// A mutation operator.
pub type Mutation = fn(&mut ChaCha8Rng, &Context, &[Node]) -> Vec<Node>;

/// The mutation operators and their relative weights.
pub const MUTATIONS: [(Mutation, f64); 6] = [
    (point_mutation, 1.0),
    (constant_mutation, 1.0),
    (subtree_mutation, 1.0),
    (drop_variable, 0.5),
    (hoist, 0.25),
    (shrink, 1.0),
];

/// One mutation drawn by [`MUTATIONS`] weights.
pub fn mutate(rng: &mut ChaCha8Rng, ctx: &Context, p: &[Node]) -> Vec<Node> {
    let total: f64 = MUTATIONS.iter().map(|m| m.1).sum();
    let mut x = rng.random_range(0.0..total);
    for (f, w) in MUTATIONS {
        if x < w {
            return f(rng, ctx, p);
        }
        x -= w;
    }
    point_mutation(rng, ctx, p)
}

#[cfg(test)]
mod tests {
    use super::super::init::TreeShape;
    use super::super::program::{from_expr, is_valid, to_expr, variables};
    use super::super::FunctionSet;
    use super::*;
    use crate::expr::Expr;
    use rand::SeedableRng;

    fn setup() -> (FunctionSet, Vec<Vec<f64>>) {
        let cols = vec![
            (1..=20).map(f64::from).collect(),
            (1..=20).map(|i| f64::from(i * i)).collect(),
            (1..=20).map(|i| f64::from(i % 3)).collect(),
        ];
        (FunctionSet::default(), cols)
    }

    #[test]
    fn every_operator_keeps_trees_valid_and_within_limits() {
        let (fs, cols) = setup();
        let shape = TreeShape {
            max_length: 25,
            max_depth: 8,
        };
        let ctx = Context::new(&fs, &cols, &[3.5], (-1.0, 1.0), shape);
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut pool: Vec<Vec<Node>> = (0..50)
            .map(|_| {
                let len = rng.random_range(1..=25);
                random_program(&mut rng, &ctx, len)
            })
            .collect();
        let ops: Vec<(&str, Mutation)> = vec![
            ("point", point_mutation),
            ("constant", constant_mutation),
            ("subtree", subtree_mutation),
            ("drop", drop_variable),
            ("hoist", hoist),
            ("shrink", shrink),
            ("mutate", mutate),
        ];
        let mut changed = vec![0usize; ops.len() + 1];
        for round in 0..3000 {
            let a = pool[rng.random_range(0..pool.len())].clone();
            let b = pool[rng.random_range(0..pool.len())].clone();
            let k = round % (ops.len() + 1);
            let child = if k == ops.len() {
                crossover(&mut rng, &ctx, &a, &b)
            } else {
                (ops[k].1)(&mut rng, &ctx, &a)
            };
            let name = ops.get(k).map_or("crossover", |o| o.0);
            assert!(is_valid(&child, 3), "{name}");
            assert!(within_limits(&child, &ctx), "{name}: {} nodes", child.len());
            if child != a {
                changed[k] += 1;
            }
            let slot = rng.random_range(0..pool.len());
            pool[slot] = child;
        }
        // Every operator does something most of the time.
        for (k, c) in changed.iter().enumerate() {
            assert!(*c > 100, "operator {k} changed only {c} of ~430 trees");
        }
    }

    #[test]
    fn drop_variable_removes_the_variable() {
        let (fs, cols) = setup();
        let shape = TreeShape {
            max_length: 50,
            max_depth: 12,
        };
        let ctx = Context::new(&fs, &cols, &[], (-1.0, 1.0), shape);
        let e = Expr::Const(2.0) * Expr::var(0) + Expr::var(1).sqrt() - Expr::var(0) * Expr::var(2) + 7.0;
        let p = from_expr(&e).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut forms = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let q = drop_variable(&mut rng, &ctx, &p);
            assert!(is_valid(&q, 3));
            let before = variables(&p);
            let after = variables(&q);
            // One variable goes; removing its term may take others with it.
            assert!(after.len() < before.len(), "{} -> {}", to_expr(&p), to_expr(&q));
            assert!(after.iter().all(|v| before.contains(v)));
            forms.insert(to_expr(&q).to_string());
        }
        // Both ways: a term removed and a variable frozen at its median (x1: 10.5).
        assert!(forms.contains("sqrt(x2) + 7"), "{forms:?}");
        assert!(forms.contains("2*x1 + sqrt(x2) + 7"), "{forms:?}");
        assert!(forms.contains("21 + sqrt(x2) - 10.5*x3 + 7"), "{forms:?}");
        // `a - b` loses `a`: `0 - b`.
        let q = remove_term(&from_expr(&(Expr::var(0) - Expr::var(1))).unwrap(), 0).unwrap();
        assert_eq!(to_expr(&q).to_string(), "0 - x2");
    }

    #[test]
    fn crossover_exchanges_material() {
        let (fs, cols) = setup();
        let shape = TreeShape {
            max_length: 50,
            max_depth: 12,
        };
        let ctx = Context::new(&fs, &cols, &[], (-1.0, 1.0), shape);
        let a = from_expr(&(Expr::var(0) + Expr::var(0))).unwrap();
        let b = from_expr(&(Expr::var(1).sqrt() * Expr::Const(3.0))).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let mut saw_b = false;
        for _ in 0..50 {
            let c = crossover(&mut rng, &ctx, &a, &b);
            saw_b |= c.iter().any(|n| n.op == Op::Var(1) || n.op == Op::Sqrt);
        }
        assert!(saw_b);
    }
}
