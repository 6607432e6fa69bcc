//! Decision trees over the input columns for branch outcomes ([`crate::branch`]).
//!
//! Rows carry `successes` out of `trials` (a 0/1 outcome is 0 or 1 out of 1; a frequency `f`
//! measured over `m` calls is `f·m` out of `m`). A node splits on `x_v > t` where the gain in
//! binomial log-likelihood (leaf probabilities at their maximum-likelihood values, the leaf
//! frequencies) is largest, among the gaps between consecutive distinct values of each input that
//! leave at least `min_leaf` trials on each side (at most `max_splits` per input, evenly spread);
//! pure nodes and nodes at `max_depth` are leaves. [`Tree::prunings`] lists every subtree with the
//! same root, for a likelihood criterion to choose among ([`crate::branch`]). The threshold is a
//! constant from the code that lies in the gap, else the plainest number in it (a one-digit
//! decimal, a power of two, the simplest decimal: [`crate::threshold::threshold_between`],
//! `x1 > 200000`, `x1 > 65536`).
//!
//! A tree becomes an expression of nested `if`s of leaf values ([`Tree::expr`]), or, when each
//! leaf is classed taken / not taken, a guard ([`Tree::guard`]): the disjunction of the paths to
//! the taken leaves, or the conjunction of the negated paths to the other leaves, whichever has
//! fewer comparisons (`x1 > 200000`, `x1 > 100 && x2 > 0.5`).

use crate::expr::{CmpOp, Cond, Expr};
use crate::threshold::threshold_between;

/// `x·ln(y)` with `0·ln(0) = 0`.
fn xlny(x: f64, y: f64) -> f64 {
    if x == 0.0 {
        0.0
    } else {
        x * y.ln()
    }
}

/// Binomial log-likelihood (without the constant binomial coefficient) of `successes` out of
/// `trials` at probability `p`.
pub fn binomial_ll(successes: f64, trials: f64, p: f64) -> f64 {
    xlny(successes, p) + xlny(trials - successes, 1.0 - p)
}

/// Options of [`grow`].
#[derive(Clone, Debug)]
pub struct TreeOptions {
    pub max_depth: usize,
    /// Fewest trials on each side of a split.
    pub min_leaf: f64,
    /// Most split points tried per input and node.
    pub max_splits: usize,
    /// Constants found in the code: preferred thresholds ([`threshold_between`]).
    pub constants: Vec<f64>,
}

impl Default for TreeOptions {
    fn default() -> Self {
        TreeOptions {
            max_depth: 2,
            min_leaf: 3.0,
            max_splits: 1000,
            constants: Vec::new(),
        }
    }
}

/// A split `x_var > threshold` (right) against `x_var <= threshold` (left).
#[derive(Clone, Debug, PartialEq)]
pub struct Split {
    pub var: usize,
    pub threshold: f64,
    /// The data values on either side of the gap (of the run of equally good gaps).
    pub lo: f64,
    pub hi: f64,
    /// Split points tried at this node (for the selection penalty).
    pub tried: usize,
}

impl Split {
    pub fn right(&self) -> Cond {
        Cond::var_gt(self.var, self.threshold)
    }

    pub fn left(&self) -> Cond {
        Cond::cmp(CmpOp::Le, Expr::var(self.var), Expr::Const(self.threshold))
    }
}

/// A leaf: successes out of trials.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Leaf {
    pub successes: f64,
    pub trials: f64,
}

impl Leaf {
    /// The leaf frequency.
    pub fn p(&self) -> f64 {
        if self.trials > 0.0 {
            self.successes / self.trials
        } else {
            0.0
        }
    }

    /// Log-likelihood at the leaf frequency.
    pub fn ll(&self) -> f64 {
        binomial_ll(self.successes, self.trials, self.p())
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Tree {
    Leaf(Leaf),
    Node {
        split: Split,
        left: Box<Tree>,
        right: Box<Tree>,
        /// The node's counts, for pruning it to a leaf.
        leaf: Leaf,
    },
}

/// Grows a tree (see the module documentation).
pub fn grow<C: AsRef<[f64]>>(columns: &[C], successes: &[f64], trials: &[f64], options: &TreeOptions) -> Tree {
    let rows: Vec<usize> = (0..successes.len()).collect();
    grow_rows(columns, successes, trials, options, &rows, 0)
}

fn grow_rows<C: AsRef<[f64]>>(
    columns: &[C],
    s: &[f64],
    t: &[f64],
    options: &TreeOptions,
    rows: &[usize],
    depth: usize,
) -> Tree {
    let leaf = Leaf {
        successes: rows.iter().map(|r| s[*r]).sum(),
        trials: rows.iter().map(|r| t[*r]).sum(),
    };
    if depth >= options.max_depth || leaf.successes <= 0.0 || leaf.successes >= leaf.trials {
        return Tree::Leaf(leaf);
    }
    let base = leaf.ll();
    // Per input: (gain, lo, hi) of each cut.
    let mut gains: Vec<Vec<(f64, f64, f64)>> = Vec::new();
    let mut tried = 0usize;
    for col in columns {
        let col = col.as_ref();
        let mut order = rows.to_vec();
        order.sort_by(|a, b| crate::stats::cmp_f64(&col[*a], &col[*b]));
        // Prefix sums at the end of each run of equal values: (value, next value, s_left, t_left).
        let mut cuts: Vec<(f64, f64, f64, f64)> = Vec::new();
        let (mut sl, mut tl) = (0.0, 0.0);
        for (i, r) in order.iter().enumerate() {
            sl += s[*r];
            tl += t[*r];
            if let Some(next) = order.get(i + 1) {
                if col[*next] > col[*r] {
                    cuts.push((col[*r], col[*next], sl, tl));
                }
            }
        }
        cuts.retain(|c| c.3 >= options.min_leaf && leaf.trials - c.3 >= options.min_leaf);
        if cuts.len() > options.max_splits {
            let m = cuts.len();
            cuts = (0..options.max_splits)
                .map(|i| cuts[i * (m - 1) / (options.max_splits - 1).max(1)])
                .collect();
        }
        tried += cuts.len();
        gains.push(
            cuts.into_iter()
                .map(|(lo, hi, sl, tl)| {
                    let l = Leaf {
                        successes: sl,
                        trials: tl,
                    };
                    let r = Leaf {
                        successes: leaf.successes - sl,
                        trials: leaf.trials - tl,
                    };
                    (l.ll() + r.ll() - base, lo, hi)
                })
                .collect(),
        );
    }
    // (gain, var, index of the cut)
    let mut best: Option<(f64, usize, usize)> = None;
    for (v, g) in gains.iter().enumerate() {
        for (i, c) in g.iter().enumerate() {
            if best.as_ref().is_none_or(|b| c.0 > b.0 + 1e-12) {
                best = Some((c.0, v, i));
            }
        }
    }
    let Some((gain, var, i)) = best else {
        return Tree::Leaf(leaf);
    };
    if gain <= 1e-9 {
        return Tree::Leaf(leaf);
    }
    // The data cannot tell apart neighbouring cuts of equal likelihood: the threshold is the
    // simplest number over the whole run of them (`x1 > 50000` when the rows between the
    // candidate cuts are all on the other branch of a second split).
    let g = &gains[var];
    let tie = |j: usize| (g[j].0 - gain).abs() <= 1e-9 * gain.abs().max(1.0);
    let (mut first, mut last) = (i, i);
    while first > 0 && tie(first - 1) {
        first -= 1;
    }
    while last + 1 < g.len() && tie(last + 1) {
        last += 1;
    }
    let (lo, hi) = (g[first].1, g[last].2);
    let threshold = threshold_between(lo, hi, &options.constants);
    let col = columns[var].as_ref();
    let (right, left): (Vec<usize>, Vec<usize>) = rows.iter().partition(|r| col[**r] > threshold);
    Tree::Node {
        split: Split {
            var,
            threshold,
            lo,
            hi,
            tried,
        },
        left: Box::new(grow_rows(columns, s, t, options, &left, depth + 1)),
        right: Box::new(grow_rows(columns, s, t, options, &right, depth + 1)),
        leaf,
    }
}

impl Tree {
    /// Every subtree with the same root (the root alone as a leaf first).
    pub fn prunings(&self) -> Vec<Tree> {
        match self {
            Tree::Leaf(_) => vec![self.clone()],
            Tree::Node {
                split,
                left,
                right,
                leaf,
            } => {
                let mut out = vec![Tree::Leaf(*leaf)];
                for l in left.prunings() {
                    for r in right.prunings() {
                        out.push(Tree::Node {
                            split: split.clone(),
                            left: Box::new(l.clone()),
                            right: Box::new(r),
                            leaf: *leaf,
                        });
                    }
                }
                out
            }
        }
    }

    pub fn leaves(&self) -> Vec<Leaf> {
        match self {
            Tree::Leaf(l) => vec![*l],
            Tree::Node { left, right, .. } => {
                let mut v = left.leaves();
                v.extend(right.leaves());
                v
            }
        }
    }

    pub fn splits(&self) -> Vec<&Split> {
        match self {
            Tree::Leaf(_) => Vec::new(),
            Tree::Node { split, left, right, .. } => {
                let mut v = vec![split];
                v.extend(left.splits());
                v.extend(right.splits());
                v
            }
        }
    }

    /// Log-likelihood at the leaf frequencies.
    pub fn log_likelihood(&self) -> f64 {
        self.leaves().iter().map(Leaf::ll).sum()
    }

    /// Nested `if`s with `value(leaf)` at the leaves, leaves in the order of [`Tree::leaves`].
    pub fn expr(&self, value: &mut dyn FnMut(&Leaf) -> f64) -> Expr {
        match self {
            Tree::Leaf(l) => Expr::Const(value(l)),
            Tree::Node { split, left, right, .. } => {
                let l = left.expr(value);
                let r = right.expr(value);
                crate::simplify::simplify(&Expr::if_else(split.right(), r, l))
            }
        }
    }

    /// Paths (conjunctions of conditions) to the leaves that `class` marks, in leaf order.
    fn paths(&self, class: &dyn Fn(&Leaf) -> bool, want: bool, prefix: &mut Vec<Cond>, out: &mut Vec<Vec<Cond>>) {
        match self {
            Tree::Leaf(l) => {
                if class(l) == want {
                    out.push(prefix.clone());
                }
            }
            Tree::Node { split, left, right, .. } => {
                prefix.push(split.left());
                left.paths(class, want, prefix, out);
                prefix.pop();
                prefix.push(split.right());
                right.paths(class, want, prefix, out);
                prefix.pop();
            }
        }
    }

    /// The guard "taken" when `class(leaf)` says which leaves are taken (see the module
    /// documentation); `None` when all leaves or none are taken.
    pub fn guard(&self, class: &dyn Fn(&Leaf) -> bool) -> Option<Cond> {
        let (mut yes, mut no) = (Vec::new(), Vec::new());
        self.paths(class, true, &mut Vec::new(), &mut yes);
        self.paths(class, false, &mut Vec::new(), &mut no);
        if yes.is_empty() || no.is_empty() {
            return None;
        }
        let count = |p: &[Vec<Cond>]| p.iter().map(Vec::len).sum::<usize>();
        let fold = |conds: Vec<Cond>, and: bool| conds.into_iter().reduce(|a, b| if and { a.and(b) } else { a.or(b) });
        if count(&yes) <= count(&no) {
            // DNF of the taken paths.
            fold(yes.into_iter().filter_map(|p| fold(p, true)).collect(), false)
        } else {
            // CNF of the negated other paths.
            let clauses = no
                .into_iter()
                .filter_map(|p| fold(p.into_iter().map(flip).collect(), false))
                .collect();
            fold(clauses, true)
        }
    }
}

/// The negation of a comparison, as a comparison (`x > t` -> `x <= t`).
fn flip(c: Cond) -> Cond {
    match c {
        Cond::Cmp(op, a, b) => {
            let op = match op {
                CmpOp::Gt => CmpOp::Le,
                CmpOp::Le => CmpOp::Gt,
                CmpOp::Ge => CmpOp::Lt,
                CmpOp::Lt => CmpOp::Ge,
                CmpOp::Eq => CmpOp::Ne,
                CmpOp::Ne => CmpOp::Eq,
            };
            Cond::Cmp(op, a, b)
        }
        other => other.negate(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn likelihood() {
        assert_eq!(binomial_ll(0.0, 5.0, 0.0), 0.0);
        assert_eq!(binomial_ll(5.0, 5.0, 1.0), 0.0);
        assert!((binomial_ll(1.0, 2.0, 0.5) - 2.0 * 0.5f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn splits_a_conjunction() {
        // Taken iff x1 > 100 and x2 > 0.5.
        let x1: Vec<f64> = (0..80).map(|i| f64::from(i) * 3.0).collect();
        let x2: Vec<f64> = (0..80).map(|i| f64::from(i % 2)).collect();
        let y: Vec<f64> = (0..80)
            .map(|i| f64::from(u8::from(x1[i] > 100.0 && x2[i] > 0.5)))
            .collect();
        let tree = grow(&[x1, x2], &y, &[1.0; 80], &TreeOptions::default());
        assert_eq!(tree.splits().len(), 2);
        assert_eq!(tree.log_likelihood(), 0.0);
        let g = tree.guard(&|l| l.p() > 0.5).unwrap();
        // The root splits on x2 (the larger likelihood gain: x2 = 0 is a pure half).
        assert_eq!(g.to_string(), "x2 > 0.5 && x1 > 100");
        assert_eq!(
            tree.expr(&mut |l| l.p()).to_string(),
            "if(x2 > 0.5, if(x1 > 100, 1, 0), 0)"
        );
        // Prunings: the leaf, the stump and the full tree (the left child is pure).
        assert_eq!(tree.prunings().len(), 3);
        // The negated form when taken leaves need more comparisons.
        let g = tree.guard(&|l| l.p() < 0.5).unwrap();
        assert_eq!(g.to_string(), "x2 <= 0.5 || x1 <= 100");
    }

    #[test]
    fn pure_or_tiny_nodes_are_leaves() {
        let tree = grow(
            &[vec![1.0, 2.0, 3.0]],
            &[1.0, 1.0, 1.0],
            &[1.0; 3],
            &TreeOptions::default(),
        );
        assert!(matches!(tree, Tree::Leaf(_)));
        assert!(tree.guard(&|l| l.p() > 0.5).is_none());
        let tree = grow(
            &[vec![1.0, 2.0, 3.0]],
            &[0.0, 1.0, 1.0],
            &[1.0; 3],
            &TreeOptions::default(),
        );
        assert!(matches!(tree, Tree::Leaf(_)), "fewer than min_leaf trials on a side");
    }
}
