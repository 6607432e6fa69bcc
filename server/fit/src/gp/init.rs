//! Random trees and random constants.
//!
//! [`random_program`] builds a tree of a given length (as Operon's balanced tree creator aims
//! for a target length): a function whose smallest subtree fits the remaining length is drawn,
//! and the remaining length is split at random between its children; the depth limit turns a
//! node into a leaf early. An exponent is a constant most of the time (`x^2`, `x^0.5`), and the
//! condition of an `if` compares a variable against a threshold between two data values.
//!
//! Constants come from the caller's list (constants found in the code) half of the time when
//! there is one, else small integers or a uniform draw from the range.

use super::program::{fix_lengths, Node, Op};
use super::FunctionSet;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// Size limits of a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeShape {
    /// Most nodes.
    pub max_length: usize,
    /// Most levels (a leaf alone has depth 1).
    pub max_depth: usize,
}

/// What random generation and variation need to know about the problem.
#[derive(Clone, Debug)]
pub struct Context<'a> {
    pub functions: &'a FunctionSet,
    pub cols: &'a [Vec<f64>],
    /// Constants found in the code (may be empty).
    pub constants: &'a [f64],
    /// Range of uniformly drawn constants.
    pub range: (f64, f64),
    pub shape: TreeShape,
    /// Median of each input column (the constant that replaces a dropped variable).
    pub medians: Vec<f64>,
    /// Inputs with at least two distinct values (the ones worth using).
    pub usable: Vec<usize>,
}

impl<'a> Context<'a> {
    pub fn new(
        functions: &'a FunctionSet,
        cols: &'a [Vec<f64>],
        constants: &'a [f64],
        range: (f64, f64),
        shape: TreeShape,
    ) -> Context<'a> {
        let medians = cols.iter().map(|c| crate::stats::median(c)).collect();
        let usable: Vec<usize> = (0..cols.len())
            .filter(|i| cols[*i].iter().any(|v| *v != cols[*i][0]))
            .collect();
        Context {
            functions,
            cols,
            constants,
            range,
            shape,
            medians,
            usable,
        }
    }

    pub fn vars(&self) -> usize {
        self.cols.len()
    }
}

/// A random constant (see the module documentation).
pub fn random_constant(rng: &mut ChaCha8Rng, ctx: &Context) -> f64 {
    if !ctx.constants.is_empty() && rng.random_bool(0.5) {
        return ctx.constants[rng.random_range(0..ctx.constants.len())];
    }
    if rng.random_bool(0.3) {
        return f64::from(rng.random_range(1..=5i32));
    }
    let (lo, hi) = ctx.range;
    if hi > lo {
        rng.random_range(lo..hi)
    } else {
        lo
    }
}

/// A random exponent: mostly 2, 3, 0.5 or -1.
fn random_exponent(rng: &mut ChaCha8Rng, ctx: &Context) -> f64 {
    match rng.random_range(0..6u8) {
        0 | 1 => 2.0,
        2 => 3.0,
        3 => 0.5,
        4 => -1.0,
        _ => random_constant(rng, ctx),
    }
}

/// A random variable among the usable ones (any when none is).
pub fn random_variable(rng: &mut ChaCha8Rng, ctx: &Context) -> usize {
    if ctx.usable.is_empty() {
        rng.random_range(0..ctx.vars().max(1))
    } else {
        ctx.usable[rng.random_range(0..ctx.usable.len())]
    }
}

/// A random leaf: a variable (60 %) or a constant.
pub fn random_leaf(rng: &mut ChaCha8Rng, ctx: &Context) -> Node {
    if ctx.vars() > 0 && rng.random_bool(0.6) {
        Node::var(random_variable(rng, ctx))
    } else {
        Node::constant(random_constant(rng, ctx))
    }
}

/// A threshold for variable `v`: between two data values.
pub fn random_threshold(rng: &mut ChaCha8Rng, ctx: &Context, v: usize) -> f64 {
    match ctx.cols.get(v) {
        Some(c) if !c.is_empty() => {
            let a = c[rng.random_range(0..c.len())];
            let b = c[rng.random_range(0..c.len())];
            a + (b - a) / 2.0
        }
        _ => random_constant(rng, ctx),
    }
}

/// Relative chance of drawing an `if` at a node (re-drawn otherwise).
pub const IF_WEIGHT: f64 = 0.25;

fn min_length(op: Op) -> usize {
    match op {
        Op::If(_) => 5,
        op => 1 + op.arity(),
    }
}

fn build(rng: &mut ChaCha8Rng, ctx: &Context, target: usize, depth_left: usize, out: &mut Vec<Node>) {
    if target <= 1 || depth_left <= 1 || ctx.functions.is_empty() {
        out.push(random_leaf(rng, ctx));
        return;
    }
    let fits: Vec<Op> = ctx
        .functions
        .ops()
        .iter()
        .copied()
        .filter(|op| min_length(*op) <= target && (op.arity() < 4 || depth_left >= 3))
        .collect();
    if fits.is_empty() {
        out.push(random_leaf(rng, ctx));
        return;
    }
    let mut op = fits[rng.random_range(0..fits.len())];
    if matches!(op, Op::If(_)) && rng.random_bool(1.0 - IF_WEIGHT) {
        // Conditionals are drawn less often: steps come seeded from the threshold analyser, and
        // random piecewise trees approximate anything badly.
        op = fits[rng.random_range(0..fits.len())];
    }
    match op.arity() {
        1 => build(rng, ctx, target - 1, depth_left - 1, out),
        2 => {
            if op == Op::Pow && rng.random_bool(0.7) {
                build(rng, ctx, target - 2, depth_left - 1, out);
                out.push(Node::constant(random_exponent(rng, ctx)));
            } else {
                let left = rng.random_range(1..=target - 2);
                build(rng, ctx, left, depth_left - 1, out);
                build(rng, ctx, target - 1 - left, depth_left - 1, out);
            }
        }
        _ => {
            let v = random_variable(rng, ctx);
            out.push(Node::var(v));
            out.push(Node::constant(random_threshold(rng, ctx, v)));
            let rest = target - 3;
            let then = rng.random_range(1..rest);
            build(rng, ctx, then, depth_left - 1, out);
            build(rng, ctx, rest - then, depth_left - 1, out);
        }
    }
    out.push(Node::op(op));
}

/// A random tree of about `length` nodes (fewer when the depth limit cuts it; at most
/// `shape.max_length`).
pub fn random_program(rng: &mut ChaCha8Rng, ctx: &Context, length: usize) -> Vec<Node> {
    let mut out = Vec::with_capacity(length);
    build(
        rng,
        ctx,
        length.clamp(1, ctx.shape.max_length.max(1)),
        ctx.shape.max_depth.max(1),
        &mut out,
    );
    let ok = fix_lengths(&mut out);
    debug_assert!(ok);
    out
}

#[cfg(test)]
mod tests {
    use super::super::program::{depth, is_valid};
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn random_trees_respect_the_limits_and_use_the_caller_constants() {
        let cols = vec![vec![1.0, 2.0, 3.0, 4.0], vec![5.0; 4]];
        let fs = FunctionSet::default();
        let shape = TreeShape {
            max_length: 30,
            max_depth: 7,
        };
        let ctx = Context::new(&fs, &cols, &[1024.0], (-2.0, 2.0), shape);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut seen_list_constant = false;
        let mut lengths = Vec::new();
        for _ in 0..2000 {
            let len = rng.random_range(1..=40);
            let p = random_program(&mut rng, &ctx, len);
            assert!(is_valid(&p, 2));
            assert!(p.len() <= 30 && p.len() <= len.max(1));
            assert!(depth(&p) <= 7);
            // Column 2 is constant: never used.
            assert!(!p.iter().any(|n| n.op == Op::Var(1)));
            seen_list_constant |= p.iter().any(|n| n.op == Op::Const && n.value == 1024.0);
            lengths.push(p.len());
        }
        assert!(seen_list_constant);
        // Most trees reach their target length.
        assert!(lengths.iter().filter(|l| **l >= 10).count() > 1000);
    }
}
