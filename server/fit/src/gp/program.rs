//! The compiled representation of a GP tree: a linear postfix program (children before their
//! parent, as in Operon), evaluated over whole columns in batches of [`BATCH`] rows.
//!
//! Variables are weighted (as in Operon): a `Var` node means `value · x`, so every input gets a
//! coefficient that the constant optimisation tunes; weight 1 is the plain variable, and
//! `c * x` in an [`Expr`] compiles to one weighted node.
//!
//! Every node stores the length of its subtree (itself included), so the children of node `i`
//! are found without a stack: the last child is `i - 1`, the one before it ends just before the
//! last child's subtree starts, and so on. `If(cmp)` has four children `lhs, rhs, then, else`
//! and means `if(lhs cmp rhs, then, else)`.
//!
//! Evaluation applies one operation to a batch of rows at a time (a tight loop per node the
//! compiler vectorises), with the same scalar functions as [`crate::eval`] except `exp`, `log`
//! and `pow`, which are [`super::vmath`]'s (vectorised, within a few ulp of libm's); without
//! them the results are bit-identical to [`crate::eval::eval`] on the equivalent [`Expr`]. [`jacobian`] adds a
//! reverse-mode pass that gives the derivatives of the output with respect to every constant, for
//! the constant optimisation.

use crate::expr::{BinaryOp, CmpOp, Cond, Expr, UnaryOp};

/// Rows evaluated per batch.
pub const BATCH: usize = 64;

/// A node's operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// A constant (value in [`Node::value`]).
    Const,
    /// Input column.
    Var(u16),
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Neg,
    Exp,
    Log,
    Log2,
    Sqrt,
    Floor,
    Ceil,
    Abs,
    /// `if(lhs cmp rhs, then, else)`: four children.
    If(CmpOp),
}

impl Op {
    /// Number of children.
    pub fn arity(self) -> usize {
        match self {
            Op::Const | Op::Var(_) => 0,
            Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Pow => 2,
            Op::Neg | Op::Exp | Op::Log | Op::Log2 | Op::Sqrt | Op::Floor | Op::Ceil | Op::Abs => 1,
            Op::If(_) => 4,
        }
    }

    pub fn is_leaf(self) -> bool {
        self.arity() == 0
    }

    fn binary(self) -> Option<BinaryOp> {
        Some(match self {
            Op::Add => BinaryOp::Add,
            Op::Sub => BinaryOp::Sub,
            Op::Mul => BinaryOp::Mul,
            Op::Div => BinaryOp::Div,
            Op::Pow => BinaryOp::Pow,
            _ => return None,
        })
    }

    fn unary(self) -> Option<UnaryOp> {
        Some(match self {
            Op::Neg => UnaryOp::Neg,
            Op::Exp => UnaryOp::Exp,
            Op::Log => UnaryOp::Log,
            Op::Log2 => UnaryOp::Log2,
            Op::Sqrt => UnaryOp::Sqrt,
            Op::Floor => UnaryOp::Floor,
            Op::Ceil => UnaryOp::Ceil,
            Op::Abs => UnaryOp::Abs,
            _ => return None,
        })
    }

    fn from_binary(op: BinaryOp) -> Op {
        match op {
            BinaryOp::Add => Op::Add,
            BinaryOp::Sub => Op::Sub,
            BinaryOp::Mul => Op::Mul,
            BinaryOp::Div => Op::Div,
            BinaryOp::Pow => Op::Pow,
        }
    }

    fn from_unary(op: UnaryOp) -> Op {
        match op {
            UnaryOp::Neg => Op::Neg,
            UnaryOp::Exp => Op::Exp,
            UnaryOp::Log => Op::Log,
            UnaryOp::Log2 => Op::Log2,
            UnaryOp::Sqrt => Op::Sqrt,
            UnaryOp::Floor => Op::Floor,
            UnaryOp::Ceil => Op::Ceil,
            UnaryOp::Abs => Op::Abs,
        }
    }
}

/// One node of a postfix program.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node {
    pub op: Op,
    /// The constant of a [`Op::Const`], the weight of a [`Op::Var`] (0 otherwise).
    pub value: f64,
    /// Nodes in the subtree rooted here, this one included.
    pub len: u16,
}

impl Node {
    pub fn constant(v: f64) -> Node {
        Node {
            op: Op::Const,
            value: v,
            len: 1,
        }
    }

    pub fn var(i: usize) -> Node {
        Node::weighted(i, 1.0)
    }

    /// `w · x_i`.
    pub fn weighted(i: usize, w: f64) -> Node {
        Node {
            op: Op::Var(i as u16),
            value: w,
            len: 1,
        }
    }

    /// Whether the optimiser tunes this node's value (constants and variable weights).
    pub fn is_parameter(&self) -> bool {
        matches!(self.op, Op::Const | Op::Var(_))
    }

    /// An inner node (its `len` is set by [`fix_lengths`]).
    pub fn op(op: Op) -> Node {
        Node { op, value: 0.0, len: 1 }
    }
}

/// Longest program [`from_expr`] accepts.
pub const MAX_PROGRAM: usize = u16::MAX as usize;

/// Start index of the subtree rooted at `i`.
#[inline]
pub fn start(p: &[Node], i: usize) -> usize {
    i + 1 - p[i].len as usize
}

/// Indices of the children of node `i`, in order (at most four).
#[inline]
pub fn children(p: &[Node], i: usize) -> ([usize; 4], usize) {
    let a = p[i].op.arity();
    let mut out = [0usize; 4];
    let mut j = i;
    for k in (0..a).rev() {
        j -= 1;
        out[k] = j;
        j = start(p, j);
    }
    (out, a)
}

/// Recomputes every node's `len` from the arities; `false` when the arities do not form one
/// tree.
pub fn fix_lengths(p: &mut [Node]) -> bool {
    with_stack(p.len(), |stack| {
        let mut top = 0;
        for node in p.iter_mut() {
            let a = node.op.arity();
            if top < a {
                return false;
            }
            let mut len = 1u32;
            for _ in 0..a {
                top -= 1;
                len += stack[top];
            }
            if len > u32::from(u16::MAX) {
                return false;
            }
            node.len = len as u16;
            stack[top] = len;
            top += 1;
        }
        top == 1
    })
}

/// Folds every subtree without inputs into one constant: `0.28 + 0.28` becomes `0.56`, with the
/// value the evaluator computes for it, so the program's values do not change. Without
/// constant optimisation the search builds the constants it needs out of constants (eight
/// copies of `0.28` added up), and such programs cost their length in every evaluation and in
/// every later offspring. A fold that is not finite (`log(-1)`) is left as it is.
pub fn fold_constants(p: &mut Vec<Node>) {
    // An inner node whose children are all constants; the last child (just before it) first,
    // which rules out most nodes without finding the others.
    let foldable = |i: usize| {
        if p[i].op.is_leaf() || p[i - 1].op != Op::Const {
            return false;
        }
        let (ch, a) = children(p, i);
        ch[..a].iter().all(|c| p[*c].op == Op::Const)
    };
    if !(0..p.len()).any(foldable) {
        return;
    }
    let mut out: Vec<Node> = Vec::with_capacity(p.len());
    // Start (in `out`) of each pending subtree, and whether it is one constant.
    let mut pending: Vec<(usize, bool)> = Vec::with_capacity(p.len());
    for node in p.iter() {
        let a = node.op.arity();
        if a == 0 {
            pending.push((out.len(), node.op == Op::Const));
            out.push(*node);
            continue;
        }
        let first = pending.len() - a;
        let start = pending[first].0;
        let constant = pending[first..].iter().all(|(_, c)| *c);
        pending.truncate(first);
        if constant {
            let v = |k: usize| out[start + k].value;
            let folded = match node.op {
                Op::If(cmp) => {
                    if cmp.apply(v(0), v(1)) {
                        v(2)
                    } else {
                        v(3)
                    }
                }
                Op::Exp => super::vmath::exp(v(0)),
                Op::Log => super::vmath::ln(v(0)),
                Op::Pow => super::vmath::pow(v(0), v(1)),
                op => match (op.unary(), op.binary()) {
                    (Some(u), _) => u.apply(v(0)),
                    (_, Some(b)) => b.apply(v(0), v(1)),
                    _ => f64::NAN,
                },
            };
            if folded.is_finite() {
                out.truncate(start);
                out.push(Node::constant(folded));
                pending.push((start, true));
                continue;
            }
        }
        pending.push((start, false));
        out.push(*node);
    }
    let ok = fix_lengths(&mut out);
    debug_assert!(ok);
    *p = out;
}

/// Runs `f` with a stack of `len` slots: on the call stack for the GP's programs (at most 64
/// nodes), allocated only for longer ones; these helpers run for every offspring.
#[inline]
fn with_stack<R>(len: usize, f: impl FnOnce(&mut [u32]) -> R) -> R {
    const SMALL: usize = 64;
    if len <= SMALL {
        f(&mut [0u32; SMALL])
    } else {
        f(&mut vec![0u32; len])
    }
}

/// Whether `p` is one well-formed tree with consistent lengths and variables below `vars` (the
/// tests' check of what variation and initialisation make).
#[cfg(test)]
pub fn is_valid(p: &[Node], vars: usize) -> bool {
    let mut q = p.to_vec();
    !p.is_empty()
        && fix_lengths(&mut q)
        && q.iter().zip(p).all(|(a, b)| a.len == b.len)
        && p.iter().all(|n| match n.op {
            Op::Var(v) => (v as usize) < vars && n.value.is_finite(),
            Op::Const => n.value.is_finite(),
            _ => true,
        })
}

/// Depth of every node's subtree (a leaf has depth 1), and the whole program's depth.
pub fn depth(p: &[Node]) -> usize {
    with_stack(p.len(), |stack| {
        let mut top = 0;
        for node in p {
            let mut d = 0;
            for _ in 0..node.op.arity() {
                if top > 0 {
                    top -= 1;
                    d = d.max(stack[top]);
                }
            }
            stack[top] = d + 1;
            top += 1;
        }
        if top > 0 {
            stack[top - 1] as usize
        } else {
            0
        }
    })
}

/// Depth of every node's subtree (a leaf has depth 1), in one pass: children come before
/// their parent, so a stack of the pending subtrees' depths suffices.
pub fn subtree_depths(p: &[Node]) -> Vec<usize> {
    let mut d = vec![1usize; p.len()];
    with_stack(p.len(), |stack| {
        let mut top = 0;
        for (i, node) in p.iter().enumerate() {
            let mut deepest = 0;
            for _ in 0..node.op.arity() {
                if top > 0 {
                    top -= 1;
                    deepest = deepest.max(stack[top]);
                }
            }
            stack[top] = deepest + 1;
            top += 1;
            d[i] = deepest as usize + 1;
        }
    });
    d
}

/// Depth of the node at `i` from the root (the root is at level 1): one more than the number
/// of subtrees that contain it, which are the later nodes whose subtree starts at or before it.
pub fn level(p: &[Node], i: usize) -> usize {
    // Node `j = i + 1 + k` starts at `j + 1 - len`, at or before `i` when `k + 2 <= len`.
    1 + p[i + 1..]
        .iter()
        .enumerate()
        .filter(|(k, n)| k + 2 <= n.len as usize)
        .count()
}

/// Distinct variables used, ascending.
pub fn variables(p: &[Node]) -> Vec<usize> {
    let mut v: Vec<usize> = p
        .iter()
        .filter_map(|n| match n.op {
            Op::Var(i) => Some(i as usize),
            _ => None,
        })
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// How many distinct variables `p` uses (without allocating for fewer than 64 inputs).
pub fn variable_count(p: &[Node]) -> usize {
    let mut seen = 0u64;
    let mut wide = false;
    for n in p {
        if let Op::Var(i) = n.op {
            if i < 64 {
                seen |= 1 << i;
            } else {
                wide = true;
            }
        }
    }
    if wide {
        variables(p).len()
    } else {
        seen.count_ones() as usize
    }
}

/// Compiles an expression (`c * x` becomes one weighted variable); `None` for conditions other than one comparison (`&&`, `||`, `!`)
/// or programs longer than [`MAX_PROGRAM`].
pub fn from_expr(e: &Expr) -> Option<Vec<Node>> {
    fn rec(e: &Expr, out: &mut Vec<Node>) -> Option<()> {
        match e {
            Expr::Const(v) => out.push(Node::constant(*v)),
            Expr::Var(i) => {
                if *i > u16::MAX as usize {
                    return None;
                }
                out.push(Node::var(*i));
            }
            Expr::Unary(op, a) => {
                rec(a, out)?;
                out.push(Node::op(Op::from_unary(*op)));
            }
            Expr::Binary(BinaryOp::Mul, a, b) if matches!((a.as_ref(), b.as_ref()), (Expr::Const(_), Expr::Var(i)) if *i <= u16::MAX as usize) => {
                if let (Expr::Const(c), Expr::Var(i)) = (a.as_ref(), b.as_ref()) {
                    out.push(Node::weighted(*i, *c));
                }
            }
            Expr::Binary(op, a, b) => {
                rec(a, out)?;
                rec(b, out)?;
                out.push(Node::op(Op::from_binary(*op)));
            }
            Expr::If(c, a, b) => {
                let Cond::Cmp(cmp, l, r) = c.as_ref() else {
                    return None;
                };
                rec(l, out)?;
                rec(r, out)?;
                rec(a, out)?;
                rec(b, out)?;
                out.push(Node::op(Op::If(*cmp)));
            }
        }
        (out.len() <= MAX_PROGRAM).then_some(())
    }
    let mut out = Vec::new();
    rec(e, &mut out)?;
    fix_lengths(&mut out).then_some(out)
}

/// The expression of the subtree rooted at `i`.
pub fn subtree_expr(p: &[Node], i: usize) -> Expr {
    let node = p[i];
    let (ch, _) = children(p, i);
    match node.op {
        Op::Const => Expr::Const(node.value),
        Op::Var(v) if node.value == 1.0 => Expr::Var(v as usize),
        Op::Var(v) => Expr::Const(node.value) * Expr::Var(v as usize),
        Op::If(cmp) => Expr::if_else(
            Cond::Cmp(cmp, subtree_expr(p, ch[0]), subtree_expr(p, ch[1])),
            subtree_expr(p, ch[2]),
            subtree_expr(p, ch[3]),
        ),
        op => match (op.unary(), op.binary()) {
            (Some(u), _) => Expr::unary(u, subtree_expr(p, ch[0])),
            (_, Some(b)) => Expr::binary(b, subtree_expr(p, ch[0]), subtree_expr(p, ch[1])),
            _ => unreachable!("every operation is a leaf, unary, binary or if"),
        },
    }
}

/// The program as an expression.
pub fn to_expr(p: &[Node]) -> Expr {
    subtree_expr(p, p.len() - 1)
}

/// Scratch space of the evaluator (one per thread; reused between programs).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    values: Vec<f64>,
    adjoints: Vec<f64>,
}

impl Scratch {
    pub fn new() -> Scratch {
        Scratch::default()
    }
}

/// Forward pass over rows `start..start + m` into `buf` (node `i` in `buf[i*BATCH..]`).
/// Inlined into its callers (and theirs), so a caller compiled for wider vectors
/// ([`super::optimise`]'s AVX2 path) gets these loops in them too.
#[inline(always)]
fn forward(p: &[Node], cols: &[Vec<f64>], start: usize, m: usize, buf: &mut [f64]) {
    for i in 0..p.len() {
        let node = p[i];
        let (lo, hi) = buf.split_at_mut(i * BATCH);
        let dst = &mut hi[..m];
        let row = |j: usize| &lo[j * BATCH..j * BATCH + m];
        match node.op {
            Op::Const => dst.fill(node.value),
            Op::Var(v) => match cols.get(v as usize) {
                Some(c) if node.value == 1.0 => dst.copy_from_slice(&c[start..start + m]),
                Some(c) => {
                    let w = node.value;
                    dst.iter_mut().zip(&c[start..start + m]).for_each(|(d, x)| *d = w * x);
                }
                None => dst.fill(f64::NAN),
            },
            Op::If(cmp) => {
                let (ch, _) = children(p, i);
                let (l, r, t, e) = (row(ch[0]), row(ch[1]), row(ch[2]), row(ch[3]));
                // One loop per comparison (no match per row), so each vectorises.
                #[inline(always)]
                fn pick(take: impl Fn(f64, f64) -> bool, dst: &mut [f64], [l, r, t, e]: [&[f64]; 4]) {
                    for k in 0..dst.len() {
                        dst[k] = if take(l[k], r[k]) { t[k] } else { e[k] };
                    }
                }
                let rows = [&l[..m], &r[..m], &t[..m], &e[..m]];
                match cmp {
                    CmpOp::Gt => pick(|a, b| a > b, dst, rows),
                    CmpOp::Ge => pick(|a, b| a >= b, dst, rows),
                    CmpOp::Lt => pick(|a, b| a < b, dst, rows),
                    CmpOp::Le => pick(|a, b| a <= b, dst, rows),
                    CmpOp::Eq => pick(|a, b| a == b, dst, rows),
                    CmpOp::Ne => pick(|a, b| a != b, dst, rows),
                }
            }
            op => {
                if let Some(u) = op.unary() {
                    let a = row(i - 1);
                    match u {
                        UnaryOp::Neg => dst.iter_mut().zip(a).for_each(|(d, x)| *d = -x),
                        UnaryOp::Sqrt => dst.iter_mut().zip(a).for_each(|(d, x)| *d = x.sqrt()),
                        UnaryOp::Exp => super::vmath::exp_into(dst, a),
                        UnaryOp::Log => super::vmath::ln_into(dst, a),
                        _ => dst.iter_mut().zip(a).for_each(|(d, x)| *d = u.apply(*x)),
                    }
                } else if let Some(bop) = op.binary() {
                    let b = i - 1;
                    let a = start_of(p, b) - 1;
                    let (xa, xb) = (row(a), row(b));
                    let it = dst.iter_mut().zip(xa.iter().zip(xb));
                    match bop {
                        BinaryOp::Add => it.for_each(|(d, (x, y))| *d = x + y),
                        BinaryOp::Sub => it.for_each(|(d, (x, y))| *d = x - y),
                        BinaryOp::Mul => it.for_each(|(d, (x, y))| *d = x * y),
                        BinaryOp::Div => it.for_each(|(d, (x, y))| *d = x / y),
                        BinaryOp::Pow => super::vmath::pow_into(dst, xa, xb),
                    }
                }
            }
        }
    }
}

#[inline]
fn start_of(p: &[Node], i: usize) -> usize {
    start(p, i)
}

/// Rows per vector register on the widest CPUs (AVX-512: 8 `f64`).
const VECTOR: usize = 8;

/// The batches of rows `(start, rows)` that cover `0..n`: full batches of [`BATCH`], and the
/// rest in whole vectors: a last batch rounded up by starting it a few rows early, or, when
/// there are fewer rows than that, the whole vectors and one vector ending at the last row.
/// Rows covered twice are computed twice, with the same values. No row goes through a loop's
/// scalar remainder, where `exp` and `pow` cost as much per row as the vector loop per eight.
fn batches(n: usize) -> impl Iterator<Item = (usize, usize)> {
    let rest = n % BATCH;
    let up = rest.next_multiple_of(VECTOR);
    let tail = if rest == 0 {
        [None, None]
    } else if rest == up || n < VECTOR {
        [Some((n - rest, rest)), None]
    } else if up <= n {
        [Some((n - up, up)), None]
    } else {
        // Fewer rows than one batch, not whole vectors: n >= VECTOR here.
        [Some((0, n - n % VECTOR)), Some((n - VECTOR, VECTOR))]
    };
    (0..n / BATCH)
        .map(|b| (b * BATCH, BATCH))
        .chain(tail.into_iter().flatten())
}

/// Evaluates `p` on the first `n` rows of `cols` into `out` (length `n`).
#[inline(always)]
pub fn evaluate(p: &[Node], cols: &[Vec<f64>], n: usize, out: &mut [f64], s: &mut Scratch) {
    let need = p.len() * BATCH;
    if s.values.len() < need {
        s.values.resize(need, 0.0);
    }
    let root = (p.len() - 1) * BATCH;
    for (at, m) in batches(n) {
        forward(p, cols, at, m, &mut s.values);
        out[at..at + m].copy_from_slice(&s.values[root..root + m]);
    }
}

/// Evaluates `p` and the derivatives of its output with respect to the values (constants and
/// variable weights) at the node indices `params`: `jac[k * n + row]` for parameter `k`. Non-differentiable points (`floor`,
/// the comparison of an `if`) have derivative 0.
#[inline(always)]
pub fn jacobian(
    p: &[Node],
    cols: &[Vec<f64>],
    n: usize,
    params: &[usize],
    out: &mut [f64],
    jac: &mut [f64],
    s: &mut Scratch,
) {
    let need = p.len() * BATCH;
    if s.values.len() < need {
        s.values.resize(need, 0.0);
    }
    if s.adjoints.len() < need {
        s.adjoints.resize(need, 0.0);
    }
    let mut param_of = vec![usize::MAX; p.len()];
    for (k, i) in params.iter().enumerate() {
        param_of[*i] = k;
    }
    let root = p.len() - 1;
    for (at, m) in batches(n) {
        forward(p, cols, at, m, &mut s.values);
        out[at..at + m].copy_from_slice(&s.values[root * BATCH..root * BATCH + m]);
        let vals = &s.values;
        let adj = &mut s.adjoints;
        adj[root * BATCH..root * BATCH + m].fill(1.0);
        for i in (0..p.len()).rev() {
            let node = p[i];
            let (lo, hi) = adj.split_at_mut(i * BATCH);
            let g = &hi[..m];
            let val = |j: usize| &vals[j * BATCH..j * BATCH + m];
            match node.op {
                Op::Const => {
                    let k = param_of[i];
                    if k != usize::MAX {
                        jac[k * n + at..k * n + at + m].copy_from_slice(g);
                    }
                }
                Op::Var(v) => {
                    let k = param_of[i];
                    if k != usize::MAX {
                        let x = cols.get(v as usize).map_or(&[][..], |c| &c[at..at + m]);
                        for (j, d) in jac[k * n + at..k * n + at + m].iter_mut().enumerate() {
                            *d = g[j] * x.get(j).copied().unwrap_or(f64::NAN);
                        }
                    }
                }
                Op::If(cmp) => {
                    let (ch, _) = children(p, i);
                    let (l, r) = (val(ch[0]), val(ch[1]));
                    for c in [ch[0], ch[1]] {
                        lo[c * BATCH..c * BATCH + m].fill(0.0);
                    }
                    for k in 0..m {
                        let take = cmp.apply(l[k], r[k]);
                        lo[ch[2] * BATCH + k] = if take { g[k] } else { 0.0 };
                        lo[ch[3] * BATCH + k] = if take { 0.0 } else { g[k] };
                    }
                }
                op => {
                    let v = val(i);
                    if let Some(u) = op.unary() {
                        let a = i - 1;
                        let x = val(a);
                        let d = &mut lo[a * BATCH..a * BATCH + m];
                        // One loop per operation (no match per row), so each vectorises.
                        let (g, v, x) = (&g[..m], &v[..m], &x[..m]);
                        match u {
                            UnaryOp::Neg => d.iter_mut().zip(g).for_each(|(d, g)| *d = -g),
                            UnaryOp::Exp => (0..m).for_each(|k| d[k] = g[k] * v[k]),
                            UnaryOp::Log => (0..m).for_each(|k| d[k] = g[k] * (1.0 / x[k])),
                            UnaryOp::Log2 => (0..m).for_each(|k| d[k] = g[k] * (1.0 / (x[k] * std::f64::consts::LN_2))),
                            UnaryOp::Sqrt => (0..m).for_each(|k| d[k] = g[k] * (0.5 / v[k])),
                            UnaryOp::Floor | UnaryOp::Ceil => d.iter_mut().zip(g).for_each(|(d, g)| *d = g * 0.0),
                            UnaryOp::Abs => (0..m).for_each(|k| d[k] = g[k] * x[k].signum()),
                        }
                    } else if let Some(bop) = op.binary() {
                        let b = i - 1;
                        let a = start(p, b) - 1;
                        let (xa, xb) = (&val(a)[..m], &val(b)[..m]);
                        let (g, v) = (&g[..m], &v[..m]);
                        // `a` < `b`: the left child's slot comes first.
                        let (left, right) = lo.split_at_mut(b * BATCH);
                        let (da, db) = (&mut left[a * BATCH..a * BATCH + m], &mut right[..m]);
                        match bop {
                            BinaryOp::Add => {
                                (0..m).for_each(|k| {
                                    da[k] = g[k] * 1.0;
                                    db[k] = g[k] * 1.0;
                                });
                            }
                            BinaryOp::Sub => {
                                (0..m).for_each(|k| {
                                    da[k] = g[k] * 1.0;
                                    db[k] = -g[k];
                                });
                            }
                            BinaryOp::Mul => {
                                (0..m).for_each(|k| {
                                    da[k] = g[k] * xb[k];
                                    db[k] = g[k] * xa[k];
                                });
                            }
                            BinaryOp::Div => {
                                (0..m).for_each(|k| {
                                    da[k] = g[k] * (1.0 / xb[k]);
                                    db[k] = g[k] * (-v[k] / xb[k]);
                                });
                            }
                            BinaryOp::Pow => super::vmath::pow_adjoints(g, xa, xb, v, &mut da[..m], &mut db[..m]),
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gp::init::{random_program, Context, TreeShape};
    use crate::gp::FunctionSet;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn data(n: usize) -> Vec<Vec<f64>> {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        (0..3)
            .map(|_| (0..n).map(|_| rng.random_range(-3.0..3.0)).collect())
            .collect()
    }

    fn all_functions() -> FunctionSet {
        FunctionSet::new(&[
            Op::Add,
            Op::Sub,
            Op::Mul,
            Op::Div,
            Op::Pow,
            Op::Neg,
            Op::Exp,
            Op::Log,
            Op::Log2,
            Op::Sqrt,
            Op::Floor,
            Op::Ceil,
            Op::Abs,
            Op::If(CmpOp::Gt),
            Op::If(CmpOp::Le),
        ])
    }

    #[test]
    fn evaluator_equals_tree_evaluation_on_random_trees() {
        // 150 rows: more than two batches, the last one partial.
        let n = 150;
        let cols = data(n);
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let fs = all_functions();
        let shape = TreeShape {
            max_length: 50,
            max_depth: 12,
        };
        let ctx = Context::new(&fs, &cols, &[], (-2.0, 2.0), shape);
        let mut s = Scratch::new();
        let mut out = vec![0.0; n];
        for t in 0..500 {
            let len = rng.random_range(1..=50);
            let p = random_program(&mut rng, &ctx, len);
            assert!(is_valid(&p, 3), "tree {t}");
            let e = to_expr(&p);
            let back = from_expr(&e).unwrap();
            // Compiling is idempotent (`1 * x` compiles to the plain variable, so the first
            // round trip may change the tree; the values below may not change).
            assert_eq!(from_expr(&to_expr(&back)).unwrap(), back, "round trip of {e}");
            let want = crate::eval::eval(&e, &cols, n);
            // The evaluator's exp, log and pow are its own (vmath.rs, a few ulp from libm's):
            // without them the values are the same bits, with them the same to 1e-9 (random
            // trees compound the ulps, through differences of large values in the worst case).
            let transcendental = p.iter().any(|n| matches!(n.op, Op::Exp | Op::Log | Op::Pow));
            for q in [&p, &back] {
                evaluate(q, &cols, n, &mut out, &mut s);
                for (r, (a, b)) in out.iter().zip(&want).enumerate() {
                    let same = a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
                    let close = (a - b).abs() <= 1e-9 * b.abs().max(1.0);
                    assert!(same || (transcendental && close), "{e} row {r}: {a} vs {b}");
                }
            }
        }
    }

    #[test]
    fn jacobian_matches_finite_differences() {
        let n = 70;
        let cols = data(n);
        let e = Expr::Const(1.5) * Expr::var(0).powi(2)
            + Expr::Const(0.7).pow(Expr::var(1).abs())
            + (Expr::var(2) * 0.3 + 4.0).sqrt() / (Expr::Const(2.0) + Expr::var(0).exp())
            + Expr::if_else(
                Cond::var_gt(1, 0.2),
                Expr::Const(2.5) * Expr::var(0),
                (Expr::var(2) + 5.0).ln() - 1.0,
            );
        let p = from_expr(&e).unwrap();
        // `2.5 * x1` is one weighted variable.
        assert!(p.iter().any(|nd| nd.op == Op::Var(0) && nd.value == 2.5));
        let params: Vec<usize> = (0..p.len()).filter(|i| p[*i].is_parameter()).collect();
        let mut s = Scratch::new();
        let mut f = vec![0.0; n];
        let mut jac = vec![0.0; n * params.len()];
        jacobian(&p, &cols, n, &params, &mut f, &mut jac, &mut s);
        // The same values as the tree's, to the ulps of the evaluator's own exp, log and pow.
        for (a, b) in f.iter().zip(crate::eval::eval(&e, &cols, n)) {
            assert!((a - b).abs() <= 1e-14 * b.abs(), "{a} vs {b}");
        }
        for (k, i) in params.iter().enumerate() {
            let h = 1e-6;
            let mut q = p.clone();
            q[*i].value += h;
            let mut fp = vec![0.0; n];
            evaluate(&q, &cols, n, &mut fp, &mut s);
            q[*i].value -= 2.0 * h;
            let mut fm = vec![0.0; n];
            evaluate(&q, &cols, n, &mut fm, &mut s);
            for r in 0..n {
                let fd = (fp[r] - fm[r]) / (2.0 * h);
                let got = jac[k * n + r];
                if fd.is_nan() {
                    // `x^c` for negative `x`: no derivative in the exponent either way.
                    assert!(got.is_nan(), "param {k} row {r}: {got}");
                    continue;
                }
                assert!(
                    (fd - got).abs() <= 1e-5 * (1.0 + fd.abs()),
                    "param {k} row {r}: {got} vs {fd}"
                );
            }
        }
        // The threshold of the `if` (constant 0.2) has derivative 0.
        let t = p.iter().position(|nd| nd.op == Op::Const && nd.value == 0.2).unwrap();
        let k = params.iter().position(|i| *i == t).unwrap();
        assert!(jac[k * n..(k + 1) * n].iter().all(|v| *v == 0.0));
    }

    #[test]
    fn structure_helpers() {
        let e = Expr::if_else(Cond::var_gt(0, 2.0), Expr::var(1) + 1.0, Expr::var(0).sqrt());
        let p = from_expr(&e).unwrap();
        assert_eq!(p.len(), e.size() - 1);
        assert_eq!(depth(&p), 3);
        let each = subtree_depths(&p);
        assert_eq!(each[p.len() - 1], 3);
        for i in 0..p.len() {
            assert_eq!(each[i], depth(&p[start(&p, i)..=i]), "node {i}");
        }
        assert_eq!(variables(&p), vec![0, 1]);
        let (ch, a) = children(&p, p.len() - 1);
        assert_eq!(a, 4);
        assert_eq!(subtree_expr(&p, ch[2]).to_string(), "x2 + 1");
        // Levels: the root is at 1, each child one below its parent.
        let mut want = vec![0; p.len()];
        want[p.len() - 1] = 1;
        for i in (0..p.len()).rev() {
            let (ch, a) = children(&p, i);
            for c in &ch[..a] {
                want[*c] = want[i] + 1;
            }
        }
        assert_eq!((0..p.len()).map(|i| level(&p, i)).collect::<Vec<_>>(), want);
        assert_eq!(level(&p, 0), 2);
        assert!(from_expr(&Expr::if_else(
            Cond::var_gt(0, 1.0).and(Cond::var_gt(1, 1.0)),
            Expr::var(0),
            Expr::var(1)
        ))
        .is_none());
        let mut broken = p.clone();
        broken.pop();
        assert!(!is_valid(&broken, 2));
        assert!(!is_valid(&p, 1));
    }

    #[test]
    fn constant_subtrees_fold_into_one_constant_with_the_same_values() {
        let n = 150;
        let cols = data(n);
        let (mut s, mut before, mut after) = (Scratch::new(), vec![0.0; n], vec![0.0; n]);
        let c = Expr::Const;
        // x1 + (0.5 + 0.25)·exp(1) - if(2 > 1, 3, 4)^2, and a fold that is not finite.
        let e = Expr::var(0) + (c(0.5) + c(0.25)) * c(1.0).exp()
            - Expr::if_else(Cond::Cmp(CmpOp::Gt, c(2.0), c(1.0)), c(3.0), c(4.0)).powi(2)
            + c(-1.0).ln() * Expr::var(1);
        let mut p = from_expr(&e).unwrap();
        evaluate(&p, &cols, n, &mut before, &mut s);
        let long = p.len();
        fold_constants(&mut p);
        assert!(is_valid(&p, 3));
        // Folded: (0.5 + 0.25)·exp(1) and if(...)^2 are one constant each; log(-1) stays.
        assert_eq!(long - p.len(), 5 + 6, "{}", to_expr(&p));
        assert!(p.iter().any(|nd| nd.op == Op::Log));
        evaluate(&p, &cols, n, &mut after, &mut s);
        for (a, b) in after.iter().zip(&before) {
            assert!(a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()));
        }
        // Random trees: the values stay the same bits, the trees never grow.
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        let fs = all_functions();
        let ctx = Context::new(
            &fs,
            &cols,
            &[],
            (-2.0, 2.0),
            TreeShape {
                max_length: 40,
                max_depth: 10,
            },
        );
        for _ in 0..300 {
            let len = rng.random_range(1..=40);
            let mut p = random_program(&mut rng, &ctx, len);
            evaluate(&p, &cols, n, &mut before, &mut s);
            let was = p.len();
            fold_constants(&mut p);
            assert!(is_valid(&p, 3) && p.len() <= was);
            evaluate(&p, &cols, n, &mut after, &mut s);
            for (a, b) in after.iter().zip(&before) {
                assert!(
                    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                    "{}",
                    to_expr(&p)
                );
            }
        }
    }

    #[test]
    fn batches_cover_every_row_in_whole_vectors() {
        for n in 0..300 {
            let mut covered = vec![false; n];
            for (at, m) in batches(n) {
                assert!(m <= BATCH && at + m <= n);
                if n >= VECTOR {
                    assert_eq!(m % VECTOR, 0, "n = {n}");
                }
                covered[at..at + m].iter_mut().for_each(|c| *c = true);
            }
            assert!(covered.iter().all(|c| *c), "n = {n}");
        }
    }
}
