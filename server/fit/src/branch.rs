//! Branch decisions: which branch transition a call takes, as a guard or a probability.
//!
//! Input: a [`Dataset`] whose target is a per-call outcome (1 = this branch transition taken,
//! 0 = not) or a per-parameter-point frequency in [0, 1] (then [`BranchOptions::trials`] gives
//! the number of calls behind each frequency; 1 each by default, which understates the evidence
//! of frequencies but never overstates it).
//!
//! Candidate models of the probability `p(x)` of taking the branch:
//! - **constant**: the overall frequency (1 constant);
//! - **decision trees** ([`crate::decision`], depth `tree.max_depth`, every pruning): leaf
//!   frequencies; constants = leaves + thresholds;
//! - **logistic**: `1/(1 + exp(a + b·t))` for each input `t = x` and, for positive inputs,
//!   `t = log(x)` (Newton-Raphson; rejected when the classes are separated, where the slope
//!   diverges: that is a step, the trees' business); 2 constants.
//!
//! **Selection**: `score = -2·log-likelihood + penalty` (binomial), the penalty BIC-style with the
//! search costs of the other analysers: `params·ln N` (`N` = total trials) plus
//! `2·ln(splits tried)` and [`crate::threshold::THRESHOLD_DIGIT_COST`] per unit of
//! [`crate::threshold::complexity`] (significant digits) for each tree split, `2·ln(inputs tried)` for a logistic model. So 200 Bernoulli samples of a constant
//! 0.3 do not buy a spurious split: the best of ~200 splits gains about 10 in `2·ll`, a split
//! costs `2·ln 200 + 2·ln 199 ≈ 21`.
//!
//! **Guard**: when the best model is a tree whose every leaf is decided — its minority count `k`
//! of `m` trials is consistent with an error rate of at most [`BranchOptions::guard_error`]
//! (`P(Binomial(m, guard_error) >= k) >= 0.05`; `k = 0` always is) — the branch is a
//! deterministic guard ([`crate::decision::Tree::guard`]), e.g. `x1 > 200000`; its probability
//! expression is `if(guard, 1, 0)` when no leaf has a minority, else the leaf frequencies.
//!
//! Printed probabilities (constants, leaf frequencies, logistic coefficients) are rounded to the
//! fewest significant digits that raise `-2·ll` by at most 1 (constant 0.3 from 200 samples
//! prints `0.3`, not `0.285`).

use crate::decision::{self, binomial_ll, Leaf, Tree, TreeOptions};
use crate::expr::{Cond, Expr};
use crate::numeric::round_significant;
use crate::print::format_number;
use crate::threshold::{complexity, THRESHOLD_DIGIT_COST};
use crate::{eval, evidence, infix, print, stats, stoex_text, Dataset, FitError, FitOptions, FitResult, Scored};

/// Options of [`fit_branch`].
#[derive(Clone, Debug)]
pub struct BranchOptions {
    /// Calls behind each row's outcome or frequency (`None`: 1 per row). Must have one entry per
    /// row.
    pub trials: Option<Vec<f64>>,
    pub tree: TreeOptions,
    /// Largest error rate a guard may have (measurement glitches), see the module documentation.
    pub guard_error: f64,
    /// Try logistic models.
    pub logistic: bool,
}

impl Default for BranchOptions {
    fn default() -> Self {
        BranchOptions {
            trials: None,
            tree: TreeOptions::default(),
            guard_error: 0.01,
            logistic: true,
        }
    }
}

/// The kind of a branch model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BranchKind {
    Constant,
    /// A deterministic guard (a tree whose leaves are all decided).
    Guard,
    /// A tree of leaf frequencies.
    Tree,
    Logistic,
}

impl BranchKind {
    pub fn name(self) -> &'static str {
        match self {
            BranchKind::Constant => "constant",
            BranchKind::Guard => "guard",
            BranchKind::Tree => "tree",
            BranchKind::Logistic => "logistic",
        }
    }
}

/// One model considered.
#[derive(Clone, Debug)]
pub struct BranchCandidate {
    pub kind: BranchKind,
    /// The probability of taking the branch (constants at full precision).
    pub expr: Expr,
    pub log_likelihood: f64,
    pub params: usize,
    pub penalty: f64,
    /// `-2·log_likelihood + penalty` (lower is better).
    pub score: f64,
    tree: Option<Tree>,
}

/// The answer of [`fit_branch`].
#[derive(Clone, Debug)]
pub struct BranchFit {
    pub kind: BranchKind,
    /// The condition under which the branch is taken, when it is deterministic.
    pub guard: Option<Cond>,
    /// The guard in the contract's infix grammar (`x1 > 200000`).
    pub guard_infix: Option<String>,
    /// The guard as StoEx with the dataset's column names (`n.VALUE > 200000`).
    pub guard_stoex: Option<String>,
    /// The probability of taking the branch as a function of the inputs (in [0, 1]).
    pub probability: Expr,
    pub infix: String,
    pub stoex: String,
    /// Of the chosen model, at full precision.
    pub log_likelihood: f64,
    pub score: f64,
    /// Total trials `N`.
    pub trials: f64,
    /// Trials whose outcome the guard gets wrong (0 for an exact guard).
    pub guard_errors: f64,
    /// Every model considered, best first.
    pub candidates: Vec<BranchCandidate>,
}

fn ln_n(total: f64) -> f64 {
    total.max(2.0).ln()
}

/// `P(Binomial(m, e) >= k)`.
fn binomial_upper_tail(m: f64, e: f64, k: f64) -> f64 {
    if k <= 0.0 {
        return 1.0;
    }
    let m = m.round() as u64;
    let k = k.round() as u64;
    if k > m {
        return 0.0;
    }
    // 1 - P(X < k), terms by recurrence.
    let mut term = (1.0 - e).powf(m as f64);
    let mut below = 0.0;
    for i in 0..k {
        below += term;
        term *= (m - i) as f64 / (i + 1) as f64 * e / (1.0 - e);
    }
    (1.0 - below).max(0.0)
}

fn leaf_decided(l: &Leaf, e: f64) -> bool {
    let minority = l.successes.min(l.trials - l.successes);
    binomial_upper_tail(l.trials, e, minority) >= 0.05
}

/// Log-likelihood of probabilities `p` per row.
fn ll_rows(p: &[f64], s: &[f64], t: &[f64]) -> f64 {
    p.iter()
        .zip(s.iter().zip(t))
        .map(|(p, (s, t))| {
            let v = binomial_ll(*s, *t, *p);
            if v.is_nan() {
                f64::NEG_INFINITY
            } else {
                v
            }
        })
        .sum()
}

/// Fewest significant digits for `v` in [0, 1] with `loss(rounded) <= loss(v) + 1`.
fn round_probability(v: f64, loss: &dyn Fn(f64) -> f64) -> f64 {
    if v <= 0.0 || v >= 1.0 {
        return v;
    }
    let base = loss(v);
    for digits in 1..=12 {
        let r = round_significant(v, digits);
        if r == v {
            return v;
        }
        if r > 0.0 && r < 1.0 && loss(r) <= base + 1.0 {
            return r;
        }
    }
    v
}

/// Logistic fit `p = 1/(1 + exp(-(a + b·t)))` by Newton-Raphson on standardised `t`; `None` when
/// it does not converge or the classes are separated (`|a + b·t| > 30` somewhere).
fn logistic(t: &[f64], s: &[f64], n: &[f64]) -> Option<(f64, f64)> {
    let total: f64 = n.iter().sum();
    let mean = t.iter().zip(n).map(|(t, n)| t * n).sum::<f64>() / total;
    let sd = (t.iter().zip(n).map(|(t, n)| n * (t - mean).powi(2)).sum::<f64>() / total).sqrt();
    if !sd.is_finite() || sd <= 0.0 {
        return None;
    }
    let z: Vec<f64> = t.iter().map(|v| (v - mean) / sd).collect();
    let p0 = s.iter().sum::<f64>() / total;
    if p0 <= 0.0 || p0 >= 1.0 {
        return None;
    }
    let (mut a, mut b) = ((p0 / (1.0 - p0)).ln(), 0.0);
    let mut converged = false;
    for _ in 0..100 {
        let (mut ga, mut gb, mut haa, mut hab, mut hbb) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for i in 0..z.len() {
            let eta = a + b * z[i];
            let p = 1.0 / (1.0 + (-eta).exp());
            let w = n[i] * p * (1.0 - p);
            let r = s[i] - n[i] * p;
            ga += r;
            gb += r * z[i];
            haa += w;
            hab += w * z[i];
            hbb += w * z[i] * z[i];
        }
        let det = haa * hbb - hab * hab;
        if det.is_nan() || det <= 1e-300 {
            return None;
        }
        let da = (hbb * ga - hab * gb) / det;
        let db = (haa * gb - hab * ga) / det;
        a += da;
        b += db;
        if !a.is_finite() || !b.is_finite() || b.abs() > 30.0 {
            return None;
        }
        if da.abs() + db.abs() < 1e-10 {
            converged = true;
            break;
        }
    }
    if !converged || z.iter().any(|v| (a + b * v).abs() > 30.0) {
        return None;
    }
    // Back to the original units: a + b (t - mean)/sd.
    let slope = b / sd;
    Some((a - slope * mean, slope))
}

/// `1/(1 + exp(c0 + c1·t))`.
fn logistic_expr(term: &Expr, c0: f64, c1: f64) -> Expr {
    crate::simplify::simplify(&(1.0 / (1.0 + (c1 * term.clone() + c0).exp())))
}

/// Fits the branch model of `data` (see the module documentation).
pub fn fit_branch(data: &Dataset, options: &BranchOptions) -> Result<BranchFit, FitError> {
    let rows = data.len();
    if rows == 0 {
        return Err(FitError::NoRows);
    }
    if let Some(row) = data.y.iter().position(|v| !(0.0..=1.0).contains(v)) {
        return Err(FitError::NotProbability(row));
    }
    let trials: Vec<f64> = match &options.trials {
        Some(t) if t.len() == rows && t.iter().all(|v| v.is_finite() && *v > 0.0) => t.clone(),
        Some(_) => return Err(FitError::Trials),
        None => vec![1.0; rows],
    };
    let succ: Vec<f64> = data.y.iter().zip(&trials).map(|(y, t)| y * t).collect();
    let total: f64 = trials.iter().sum();
    let mut cands: Vec<BranchCandidate> = Vec::new();
    let mut push = |kind, expr: Expr, ll: f64, params: usize, extra: f64, tree: Option<Tree>| {
        let penalty = params as f64 * ln_n(total) + extra;
        cands.push(BranchCandidate {
            kind,
            expr,
            log_likelihood: ll,
            params,
            penalty,
            score: -2.0 * ll + penalty,
            tree,
        });
    };
    // Constant.
    let all = Leaf {
        successes: succ.iter().sum(),
        trials: total,
    };
    push(BranchKind::Constant, Expr::Const(all.p()), all.ll(), 1, 0.0, None);
    // Trees.
    let tree = decision::grow(&data.columns, &succ, &trials, &options.tree);
    for t in tree.prunings() {
        let splits = t.splits();
        if splits.is_empty() {
            continue;
        }
        let extra: f64 = splits
            .iter()
            .map(|s| {
                2.0 * (s.tried.max(1) as f64).ln()
                    + THRESHOLD_DIGIT_COST * complexity(s.threshold, &options.tree.constants)
            })
            .sum();
        let params = t.leaves().len() + splits.len();
        let e = t.expr(&mut |l| l.p());
        let decided = t.leaves().iter().all(|l| leaf_decided(l, options.guard_error));
        let kind = if decided { BranchKind::Guard } else { BranchKind::Tree };
        push(kind, e, t.log_likelihood(), params, extra, Some(t));
    }
    // Logistic models.
    if options.logistic {
        let mut features: Vec<(Expr, Vec<f64>)> = Vec::new();
        for (j, c) in data.columns.iter().enumerate() {
            features.push((Expr::var(j), c.clone()));
            if c.iter().all(|v| *v > 0.0) {
                features.push((Expr::var(j).ln(), c.iter().map(|v| v.ln()).collect()));
            }
        }
        let tried = features.len();
        for (term, values) in features {
            if let Some((a, b)) = logistic(&values, &succ, &trials) {
                let p: Vec<f64> = values.iter().map(|v| 1.0 / (1.0 + (-(a + b * v)).exp())).collect();
                let ll = ll_rows(&p, &succ, &trials);
                let expr = logistic_expr(&term, -a, -b);
                push(BranchKind::Logistic, expr, ll, 2, 2.0 * (tried as f64).ln(), None);
            }
        }
    }
    cands.sort_by(|a, b| stats::cmp_f64(&a.score, &b.score));
    let best = cands[0].clone();
    // The printed model: rounded constants, guard.
    let n = rows;
    let ll_of = |e: &Expr| ll_rows(&eval(e, &data.columns, n), &succ, &trials);
    let mut guard = None;
    let mut guard_errors = 0.0;
    let probability = match (&best.kind, &best.tree) {
        (BranchKind::Guard, Some(t)) => {
            let class = |l: &Leaf| l.p() > 0.5;
            guard = t
                .guard(&class)
                .map(|g| simplest_thresholds(g, &data.columns, n, &options.tree.constants));
            guard_errors = t.leaves().iter().map(|l| l.successes.min(l.trials - l.successes)).sum();
            match &guard {
                Some(g) if guard_errors == 0.0 => Expr::if_else(g.clone(), Expr::Const(1.0), Expr::Const(0.0)),
                _ => rounded_tree(t),
            }
        }
        (BranchKind::Tree, Some(t)) => rounded_tree(t),
        (BranchKind::Constant, _) => Expr::Const(round_probability(all.p(), &|p| {
            -2.0 * binomial_ll(all.successes, total, p)
        })),
        _ => round_logistic(&best.expr, &|e| -2.0 * ll_of(e)),
    };
    Ok(BranchFit {
        kind: best.kind,
        guard_infix: guard.as_ref().map(|g| g.to_string()),
        guard_stoex: guard.as_ref().map(|g| print::stoex_cond_text(g, &data.names)),
        guard,
        infix: infix(&probability),
        stoex: stoex_text(&probability, &data.names),
        probability,
        log_likelihood: best.log_likelihood,
        score: best.score,
        trials: total,
        guard_errors,
        candidates: cands,
    })
}

/// The comparisons `x_v > t` (or `<=`, ...) of `guard`, each at the simplest threshold over the
/// range that leaves the guard's verdict on every row unchanged. A tree's split is chosen by the
/// likelihood of its own two sides, so the root of `x1 > 50000 && x2 > 0.5` falls just below the
/// first taken row; with the second comparison in place, any threshold down to the last row with
/// `x2 > 0.5` below 50000 classifies the same, and `50000` is the simplest among them.
fn simplest_thresholds<C: AsRef<[f64]>>(mut guard: Cond, columns: &[C], n: usize, constants: &[f64]) -> Cond {
    fn comparisons(c: &Cond, out: &mut Vec<(usize, f64)>) {
        match c {
            Cond::Cmp(_, Expr::Var(v), Expr::Const(t)) => out.push((*v, *t)),
            Cond::Cmp(..) => out.push((usize::MAX, f64::NAN)),
            Cond::And(a, b) | Cond::Or(a, b) => {
                comparisons(a, out);
                comparisons(b, out);
            }
            Cond::Not(a) => comparisons(a, out),
        }
    }
    fn replace(c: &Cond, k: usize, t: f64, i: &mut usize) -> Cond {
        match c {
            Cond::Cmp(op, a, _) => {
                let here = *i;
                *i += 1;
                if here == k {
                    Cond::Cmp(*op, a.clone(), Expr::Const(t))
                } else {
                    c.clone()
                }
            }
            Cond::And(a, b) => replace(a, k, t, i).and(replace(b, k, t, i)),
            Cond::Or(a, b) => replace(a, k, t, i).or(replace(b, k, t, i)),
            Cond::Not(a) => replace(a, k, t, i).negate(),
        }
    }
    let verdict = crate::eval_cond(&guard, columns, n);
    let mut cmps = Vec::new();
    comparisons(&guard, &mut cmps);
    for (k, (v, t)) in cmps.into_iter().enumerate() {
        let Some(col) = columns.get(v) else { continue };
        let mut uniq = col.as_ref().to_vec();
        uniq.sort_by(stats::cmp_f64);
        uniq.dedup();
        // Gap `g` lies between uniq[g] and uniq[g + 1].
        let Some(g0) = (0..uniq.len().saturating_sub(1)).find(|g| uniq[*g] < t && t < uniq[*g + 1]) else {
            continue;
        };
        let same = |g: usize| {
            let mid = uniq[g] + (uniq[g + 1] - uniq[g]) / 2.0;
            crate::eval_cond(&replace(&guard, k, mid, &mut 0), columns, n) == verdict
        };
        let (mut lo, mut hi) = (g0, g0);
        while lo > 0 && same(lo - 1) {
            lo -= 1;
        }
        while hi + 2 < uniq.len() && same(hi + 1) {
            hi += 1;
        }
        let simple = crate::threshold::threshold_between(uniq[lo], uniq[hi + 1], constants);
        guard = replace(&guard, k, simple, &mut 0);
    }
    guard
}

/// The tree with each leaf frequency rounded (see the module documentation).
fn rounded_tree(t: &Tree) -> Expr {
    t.expr(&mut |l: &Leaf| {
        let l = *l;
        round_probability(l.p(), &|p| -2.0 * binomial_ll(l.successes, l.trials, p))
    })
}

/// The logistic model with its two constants rounded together to the fewest significant digits
/// that raise `loss` by at most 1.
fn round_logistic(e: &Expr, loss: &dyn Fn(&Expr) -> f64) -> Expr {
    fn map(e: &Expr, f: &dyn Fn(f64) -> f64) -> Expr {
        match e {
            Expr::Const(v) if *v != 1.0 => Expr::Const(f(*v)),
            Expr::Unary(op, a) => Expr::unary(*op, map(a, f)),
            Expr::Binary(op, a, b) => Expr::binary(*op, map(a, f), map(b, f)),
            other => other.clone(),
        }
    }
    let base = loss(e);
    for digits in 1..=12 {
        let r = map(e, &|v| round_significant(v, digits));
        if loss(&r) <= base + 1.0 {
            return crate::simplify::simplify(&r);
        }
    }
    e.clone()
}

/// [`fit_branch`] as a [`FitResult`] (for [`crate::Target::Probability`]).
pub(crate) fn fit_result(data: &Dataset, options: &FitOptions) -> Result<FitResult, FitError> {
    let b = fit_branch(data, &options.branch)?;
    let n = data.len();
    let pred = eval(&b.probability, &data.columns, n);
    let sse: f64 = data.y.iter().zip(&pred).map(|(v, f)| (v - f) * (v - f)).sum();
    let rms = (sse / n as f64).sqrt();
    let e = b.probability.clone();
    Ok(FitResult {
        infix: b.infix.clone(),
        stoex: b.stoex.clone(),
        source: b.kind.name(),
        r2: stats::r_squared(&data.y, &pred),
        relative_error: stats::median_relative_error(&data.y, &pred),
        size: e.size(),
        depth: e.depth(),
        variables: e.variables().iter().map(|i| data.names[*i].clone()).collect(),
        sigma: rms,
        score: b.score,
        fitness: options.fitness.fitness(&e, rms),
        // Branch decisions are fitted by likelihood over trees and logistic forms; no GP.
        gp: None,
        candidates: b
            .candidates
            .iter()
            .map(|c| Scored {
                infix: infix(&c.expr),
                source: c.kind.name(),
                score: c.score,
                fitness: options.fitness.fitness(&c.expr, rms),
            })
            .collect(),
        evidence: branch_evidence(data, &b, options.branch.trials.as_deref()),
        distribution: None,
        tail: None,
        expr: e,
    })
}

/// The evidence of a branch transition's probability: constant probabilities carry the Wilson
/// interval of their trials and are final when it is at most [`evidence::BRANCH_HALF_WIDTH`] wide on
/// each side; a guard is final when it explains every trial at [`evidence::MIN_POINTS`] or more points;
/// a probability that varies with the inputs (tree, logistic) stays preliminary.
pub fn branch_evidence(data: &Dataset, fit: &BranchFit, trials: Option<&[f64]>) -> evidence::Evidence {
    let points = evidence::Points::group(data);
    let mut ev = evidence::Evidence {
        rows: data.len(),
        points: points.len(),
        runs: points.block_count(),
        repetitions: points.repetitions(),
        max_params: evidence::max_params(points.len()),
        ..evidence::Evidence::default()
    };
    let weight = |i: usize| trials.and_then(|t| t.get(i).copied()).unwrap_or(1.0);
    let n: f64 = (0..data.len()).map(weight).sum();
    let taken: f64 = (0..data.len()).map(|i| data.y[i] * weight(i)).sum();
    let k = data.k();
    let mut reasons = Vec::new();
    match fit.kind {
        BranchKind::Constant => {
            let (lo, hi) = evidence::hypothesis::wilson(taken, n);
            let p = match fit.probability {
                crate::expr::Expr::Const(v) => v,
                _ => taken / n.max(1.0),
            };
            ev.intervals = vec![evidence::ConstantInterval {
                value: p,
                low: lo,
                high: hi,
            }];
            let half = (hi - p).max(p - lo);
            ev.band = Some(half);
            if half > evidence::BRANCH_HALF_WIDTH {
                reasons.push(format!(
                    "{} of {} trials: the probability is known to ±{} only (final at ±{})",
                    format_number(taken.round()),
                    format_number(n.round()),
                    format_number(crate::numeric::round_significant(half, 2)),
                    format_number(evidence::BRANCH_HALF_WIDTH)
                ));
                ev.wants.push(evidence::Want::Trials);
            }
        }
        BranchKind::Guard => {
            if k > 0 && points.len() < evidence::MIN_POINTS {
                reasons.push(format!(
                    "{} distinct parameter points: at least {} are needed to tell a guard",
                    points.len(),
                    evidence::MIN_POINTS
                ));
                ev.wants.push(evidence::Want::Points);
            }
            if fit.guard_errors > 0.0 {
                reasons.push(format!(
                    "the guard gets {} of {} trials wrong",
                    format_number(fit.guard_errors),
                    format_number(n.round())
                ));
                ev.wants.push(evidence::Want::Points);
            }
        }
        BranchKind::Tree | BranchKind::Logistic => {
            reasons.push("the probability varies with the inputs: more points would tell its form".to_string());
            ev.wants.push(evidence::Want::Points);
        }
    }
    ev.wants.dedup();
    ev.is_final = reasons.is_empty();
    ev.reasons = reasons;
    ev
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_tail() {
        assert_eq!(binomial_upper_tail(10.0, 0.01, 0.0), 1.0);
        assert!((binomial_upper_tail(100.0, 0.01, 1.0) - (1.0 - 0.99f64.powi(100))).abs() < 1e-12);
        assert!(binomial_upper_tail(100.0, 0.01, 5.0) < 0.05);
        assert!(binomial_upper_tail(100.0, 0.01, 2.0) > 0.05);
    }

    #[test]
    fn logistic_recovers_coefficients_on_frequencies() {
        // Exact frequencies with many trials each.
        let x: Vec<f64> = (0..21).map(|i| f64::from(i) * 50.0).collect();
        let p: Vec<f64> = x.iter().map(|v| 1.0 / (1.0 + (-(v - 500.0) / 100.0).exp())).collect();
        let n = vec![1000.0; 21];
        let s: Vec<f64> = p.iter().zip(&n).map(|(p, n)| p * n).collect();
        let (a, b) = logistic(&x, &s, &n).unwrap();
        assert!((b - 0.01).abs() < 1e-9 && (a + 5.0).abs() < 1e-7, "{a} {b}");
        // Separated classes: no logistic model.
        let s: Vec<f64> = x.iter().map(|v| if *v > 500.0 { 1.0 } else { 0.0 }).collect();
        assert!(logistic(&x, &s, &[1.0; 21]).is_none());
    }

    #[test]
    fn rejects_values_outside_the_unit_interval() {
        let d = Dataset::unnamed(vec![vec![1.0, 2.0]], vec![0.0, 2.0]).unwrap();
        assert_eq!(
            fit_branch(&d, &BranchOptions::default()).unwrap_err(),
            FitError::NotProbability(1)
        );
    }
}
