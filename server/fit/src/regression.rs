//! Robust best-subset regression over a basis of candidate terms.
//!
//! 1. **Basis** ([`basis`]): for each input `x` that is not constant: `x`; if it has more than two
//!    distinct values `x^2`, `x^3`; if `x >= 0` `sqrt(x)`; if `x > 0` `log(x)`, `x*log2(x)`, `1/x`;
//!    if `x` is integer-valued with `|x| <= 64` `2^x`; for each pair `x_i*x_j`, the costs over
//!    several sizes `x_i*x_j^2` and `x_j^2/x_i` (each way round: N groups of M items, the pairs
//!    within groups of a total), and if both are non-negative with a positive sum
//!    `x_i/(x_i + x_j)`; for each part of a whole
//!    (`0 <= x_k <= x_j`, `x_j > 0` on every row, none of it on some row and all on another:
//!    three compressed files of seven) the share `x_k/x_j` and each other input scaled by it,
//!    `x_i*x_k/x_j` (the mean of a mix of two kinds of calls is `a*x_i + b*x_i*x_k/x_j`). Terms
//!    that are not finite, or that repeat an earlier term up to a factor, are dropped.
//! 2. **Search**: every subset of at most `max_terms` terms (3 by default) plus an intercept is
//!    fitted by least squares on scaled residuals (see [`crate::criterion`]) and ranked by the LTS
//!    criterion; the best `screen_keep` are refitted robustly (IRLS: least squares, two Huber steps,
//!    then Tukey bisquare until the coefficients settle), so 5 % of tripled samples do not pull
//!    the fit. All refitted subsets are scored with [`crate::criterion::select`] (robust
//!    extended BIC). Subsets are tried with and without intercept; the intercept pays only its
//!    `ln n` (it is not one of the `P` candidates of the extended BIC: fixed overheads are the
//!    rule in performance data), and each term has a prior cost by its
//!    size ([`Term::cost`]).
//! 3. **Clean constants** ([`snap`], for every model returned): on noise-free data the intercept
//!    is dropped when that changes the score by at most 1; then each constant is rounded to the fewest significant digits (1..12) for
//!    which the score, with the other constants refitted, rises by at most 1 in total.

use crate::criterion::{self, Candidate, ErrorScale};
use crate::expr::{BinaryOp, Expr};
use crate::linalg::lstsq;
use crate::simplify::simplify;

/// A basis term with its values on the data.
#[derive(Clone, Debug)]
pub struct Term {
    pub expr: Expr,
    pub values: Vec<f64>,
    /// Printing order within a sum (lower first): products and powers before `x`, before `1/x`.
    pub rank: u8,
    /// Prior cost of the term in the selection penalty: [`TERM_COST_PER_NODE`] per node beyond
    /// the first, so that between two terms that fit noisy data about equally well the simpler
    /// one (`x` over `x*log2(x)`, `x` over `log(x)`) wins.
    pub cost: f64,
}

/// See [`Term::cost`].
pub const TERM_COST_PER_NODE: f64 = 1.0;
/// Prior cost of a cost over several sizes (`x·y²`, `y²/x`) beyond its nodes'.
pub const PAIR_POWER_COST: f64 = 4.0;

/// Options of the regression analyser.
#[derive(Clone, Debug)]
pub struct RegressionOptions {
    /// Largest number of basis terms in a model (besides the intercept).
    pub max_terms: usize,
    pub scale: ErrorScale,
    /// How many subsets (best by the least-squares screening) are refitted robustly.
    pub screen_keep: usize,
    /// Round constants to few significant digits where the fit allows.
    pub snap: bool,
    /// How many of the best models to return (besides the best of every number of constants).
    pub alternatives: usize,
    /// Prior cost of a model without intercept in the selection penalty (default 0: plain BIC).
    /// E.g. `2·ln 3` says "prior odds 3:1 that a code section has a fixed overhead": under noise a
    /// weakly supported intercept then stays. On the benchmark's perf laws this traded one law for
    /// another (see the crate README.md), so the default is the plain criterion. The threshold analyser uses 0
    /// inside branches in any case (an offset there is no overhead of the whole section).
    pub no_intercept_cost: f64,
}

impl Default for RegressionOptions {
    fn default() -> Self {
        RegressionOptions {
            max_terms: 3,
            scale: ErrorScale::Auto,
            screen_keep: 64,
            snap: true,
            alternatives: 5,
            no_intercept_cost: 0.0,
        }
    }
}

fn push_term(terms: &mut Vec<Term>, expr: Expr, values: Vec<f64>, rank: u8) {
    if values.iter().any(|v| !v.is_finite()) {
        return;
    }
    let norm = values.iter().map(|v| v * v).sum::<f64>().sqrt();
    if norm == 0.0 || !norm.is_finite() {
        return;
    }
    // Drop a term that is an earlier one up to a factor (|cos| = 1).
    for t in terms.iter() {
        let tn = t.values.iter().map(|v| v * v).sum::<f64>().sqrt();
        let dot: f64 = t.values.iter().zip(&values).map(|(a, b)| a * b).sum();
        if (dot.abs() / (tn * norm) - 1.0).abs() < 1e-12 {
            return;
        }
    }
    // A constant term duplicates the intercept.
    if values.iter().all(|v| *v == values[0]) {
        return;
    }
    let cost = TERM_COST_PER_NODE * (expr.size() - 1) as f64;
    terms.push(Term {
        expr,
        values,
        rank,
        cost,
    });
}

fn distinct(values: &[f64]) -> usize {
    let mut v = values.to_vec();
    v.sort_by(crate::stats::cmp_f64);
    v.dedup();
    v.len()
}

/// The candidate terms for inputs `columns` (see the module documentation).
pub fn basis<C: AsRef<[f64]>>(columns: &[C]) -> Vec<Term> {
    let mut terms = Vec::new();
    let map = |c: &[f64], f: &dyn Fn(f64) -> f64| -> Vec<f64> { c.iter().map(|v| f(*v)).collect() };
    for (i, c) in columns.iter().enumerate() {
        let c = c.as_ref();
        let nd = distinct(c);
        if nd < 2 {
            continue;
        }
        let x = Expr::var(i);
        let min = c.iter().copied().fold(f64::INFINITY, f64::min);
        let max_abs = c.iter().map(|v| v.abs()).fold(0.0, f64::max);
        push_term(&mut terms, x.clone(), c.to_vec(), 5);
        if nd > 2 {
            push_term(&mut terms, x.clone().powi(2), map(c, &|v| v * v), 2);
            push_term(&mut terms, x.clone().powi(3), map(c, &|v| v * v * v), 1);
        }
        if min >= 0.0 {
            push_term(&mut terms, x.clone().sqrt(), map(c, &f64::sqrt), 6);
        }
        if min > 0.0 {
            push_term(&mut terms, x.clone().ln(), map(c, &f64::ln), 7);
            push_term(&mut terms, x.clone() * x.clone().log2(), map(c, &|v| v * v.log2()), 4);
            push_term(&mut terms, 1.0 / x.clone(), map(c, &|v| 1.0 / v), 9);
        }
        if max_abs <= 64.0 && c.iter().all(|v| *v == v.trunc()) && nd > 2 {
            push_term(&mut terms, Expr::Const(2.0).pow(x.clone()), map(c, &|v| v.exp2()), 3);
        }
    }
    for i in 0..columns.len() {
        for j in i + 1..columns.len() {
            let (a, b) = (columns[i].as_ref(), columns[j].as_ref());
            if distinct(a) < 2 || distinct(b) < 2 {
                continue;
            }
            // The higher powers first: printed first in a sum with the product.
            pair_powers(&mut terms, (i, a), (j, b));
            pair_powers(&mut terms, (j, b), (i, a));
            let prod = a.iter().zip(b).map(|(u, v)| u * v).collect();
            push_term(&mut terms, Expr::var(i) * Expr::var(j), prod, 0);
            if a.iter().chain(b).all(|v| *v >= 0.0) && a.iter().zip(b).all(|(u, v)| u + v > 0.0) {
                let ratio = a.iter().zip(b).map(|(u, v)| u / (u + v)).collect();
                push_term(&mut terms, Expr::var(i) / (Expr::var(i) + Expr::var(j)), ratio, 8);
            }
        }
    }
    // Shares: a part of a whole, and each other input scaled by it. What one call passes on
    // average when some calls pass one size and the others another is such a mix
    // (`0.29·size + 0.71·size·compressed/files`); the search found it by chance, from a handful
    // of design points more or less.
    for (k, part) in columns.iter().enumerate() {
        for (j, whole) in columns.iter().enumerate() {
            let (part, whole) = (part.as_ref(), whole.as_ref());
            let is_share = k != j && part.iter().zip(whole).all(|(p, w)| *p >= 0.0 && p <= w && *w > 0.0);
            if !is_share {
                continue;
            }
            // From none to all of the whole (a design's corners): a column that merely happens to
            // stay below another (1..10 beside 100..1000) is no part of it.
            let share: Vec<f64> = part.iter().zip(whole).map(|(p, w)| p / w).collect();
            if !share.contains(&0.0) || !share.contains(&1.0) {
                continue;
            }
            let share_expr = Expr::var(k) / Expr::var(j);
            push_term(&mut terms, share_expr.clone(), share.clone(), 8);
            for (i, c) in columns.iter().enumerate() {
                if i == k || i == j || distinct(c.as_ref()) < 2 {
                    continue;
                }
                let scaled = c.as_ref().iter().zip(&share).map(|(x, s)| x * s).collect();
                push_term(&mut terms, Expr::var(i) * share_expr.clone(), scaled, 8);
            }
        }
    }
    terms
}

/// The costs over several sizes that one input squared makes with another (`x_s`, `x_o`): work
/// per pair within each of `x_o` groups, `x_o·x_s²` (N groups of M items: `N·M²`), and, where
/// `x_s` counts the items of all `x_o` groups, the pairs within groups `x_s²/x_o` (a pairwise
/// matrix per order: `items²/orders`). The squared input needs more than two distinct values (a
/// square over two values is a line through them), the divisor to be positive.
fn pair_powers(terms: &mut Vec<Term>, (s, squared): (usize, &[f64]), (o, other): (usize, &[f64])) {
    if distinct(squared) <= 2 {
        return;
    }
    // Three inputs' worth of claim in one term: beside a correlated input's cube it would fit
    // noise as cancelling terms (a zip over `items.VALUE` files of `items.BYTESIZE` bytes came
    // out `-8.6E-13·n·b² + 1.3E-17·b³ + 1.1E-6·b`), so each costs more than its nodes say.
    let mut push = |expr: Expr, values: Vec<f64>| {
        let before = terms.len();
        push_term(terms, expr, values, 0);
        if terms.len() > before {
            terms[before].cost += PAIR_POWER_COST;
        }
    };
    let times = squared.iter().zip(other).map(|(x, g)| g * x * x).collect();
    push(Expr::var(o) * Expr::var(s).powi(2), times);
    if other.iter().all(|g| *g > 0.0) {
        let within = squared.iter().zip(other).map(|(x, g)| x * x / g).collect();
        push(Expr::var(s).powi(2) / Expr::var(o), within);
    }
}

/// A fitted linear model over basis terms.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearFit {
    /// Indices into the basis, ascending.
    pub terms: Vec<usize>,
    pub coefs: Vec<f64>,
    /// `None` when the model has no intercept.
    pub intercept: Option<f64>,
}

impl LinearFit {
    /// Number of fitted constants.
    pub fn params(&self) -> usize {
        self.terms.len() + usize::from(self.intercept.is_some())
    }

    /// Selection penalty on `n` rows: [`criterion::ebic_penalty`] plus the terms' prior costs.
    pub fn penalty(&self, basis: &[Term], n: usize) -> f64 {
        self.params() as f64 * (n.max(2) as f64).ln() + self.selection_cost(basis)
    }

    /// [`LinearFit::penalty`] plus `no_intercept_cost` when the model has no intercept.
    pub fn penalty_with(&self, basis: &[Term], n: usize, no_intercept_cost: f64) -> f64 {
        self.penalty(basis, n)
            + if self.intercept.is_none() {
                no_intercept_cost
            } else {
                0.0
            }
    }

    /// The part of [`LinearFit::penalty`] that does not depend on the number of rows:
    /// `2·ln C(P, m)` for choosing `m` of the `P` basis terms, plus the terms' prior costs. The
    /// intercept is not one of the `P` (a fixed overhead is expected in performance data): it
    /// only pays its `ln n`.
    pub fn selection_cost(&self, basis: &[Term]) -> f64 {
        2.0 * criterion::ln_binomial(basis.len(), self.terms.len())
            + self.terms.iter().map(|t| basis[*t].cost).sum::<f64>()
    }

    /// Predictions on the rows the basis was computed for.
    pub fn predict(&self, basis: &[Term], n: usize) -> Vec<f64> {
        let mut f = vec![self.intercept.unwrap_or(0.0); n];
        for (t, c) in self.terms.iter().zip(&self.coefs) {
            for (fi, v) in f.iter_mut().zip(&basis[*t].values) {
                *fi += c * v;
            }
        }
        f
    }

    /// The model as an expression: terms by rank, then the intercept; simplified.
    pub fn expr(&self, basis: &[Term]) -> Expr {
        let mut order: Vec<usize> = (0..self.terms.len()).collect();
        order.sort_by_key(|k| (basis[self.terms[*k]].rank, self.terms[*k]));
        let mut sum: Option<Expr> = None;
        for k in order {
            let t = &basis[self.terms[k]].expr;
            let c = Expr::Const(self.coefs[k]);
            let scaled = match t {
                Expr::Binary(op @ (BinaryOp::Mul | BinaryOp::Div), a, b) => {
                    Expr::binary(*op, Expr::binary(BinaryOp::Mul, c, (**a).clone()), (**b).clone())
                }
                other => Expr::binary(BinaryOp::Mul, c, other.clone()),
            };
            sum = Some(match sum {
                None => scaled,
                Some(s) => s + scaled,
            });
        }
        let e = match (sum, self.intercept) {
            (None, i) => Expr::Const(i.unwrap_or(0.0)),
            (Some(s), Some(i)) => s + i,
            (Some(s), None) => s,
        };
        simplify(&e)
    }
}

/// Weighted least squares: `min Σ u_i ((y_i - f_i)/s_i)^2`. Returns `(intercept, coefs)`.
fn solve(
    basis: &[Term],
    terms: &[usize],
    intercept: bool,
    offset: Option<&[f64]>,
    y: &[f64],
    s: &[f64],
    u: Option<&[f64]>,
) -> Option<(Option<f64>, Vec<f64>)> {
    let n = y.len();
    let row_w: Vec<f64> = (0..n).map(|i| u.map_or(1.0, |u| u[i].sqrt()) / s[i]).collect();
    let mut cols = Vec::with_capacity(terms.len() + 1);
    if intercept {
        cols.push(row_w.clone());
    }
    for t in terms {
        cols.push(basis[*t].values.iter().zip(&row_w).map(|(v, w)| v * w).collect());
    }
    let b: Vec<f64> = (0..n)
        .map(|i| (y[i] - offset.map_or(0.0, |o| o[i])) * row_w[i])
        .collect();
    if cols.is_empty() {
        return Some((None, Vec::new()));
    }
    let mut c = lstsq(cols, b)?;
    let icpt = intercept.then(|| c.remove(0));
    Some((icpt, c))
}

/// Robust fit of one subset (IRLS, see the module documentation); returns the fit and its final
/// robustness weights.
pub fn fit_robust(
    basis: &[Term],
    terms: &[usize],
    intercept: bool,
    y: &[f64],
    s: &[f64],
) -> Option<(LinearFit, Vec<f64>)> {
    let n = y.len();
    let (i0, c0) = solve(basis, terms, intercept, None, y, s, None)?;
    let mut fit = LinearFit {
        terms: terms.to_vec(),
        coefs: c0,
        intercept: i0,
    };
    let p = fit.params();
    let mut u = vec![1.0; n];
    for iteration in 0..30 {
        let r = criterion::residuals(y, &fit.predict(basis, n), s);
        let mut abs: Vec<f64> = r.iter().map(|v| v.abs()).collect();
        abs.sort_by(crate::stats::cmp_f64);
        let sigma = (1.4826 * crate::stats::quantile_sorted(&abs, 0.5)).max(criterion::EXACT);
        let new_u: Vec<f64> = r
            .iter()
            .map(|v| {
                if iteration < 2 {
                    criterion::huber_weight(v / sigma)
                } else {
                    criterion::bisquare_weight(v / sigma)
                }
            })
            .collect();
        if new_u.iter().filter(|w| **w > 0.0).count() <= p + 1 {
            break;
        }
        let Some((i1, c1)) = solve(basis, terms, intercept, None, y, s, Some(&new_u)) else {
            break;
        };
        let change = c1
            .iter()
            .zip(&fit.coefs)
            .chain(i1.iter().zip(fit.intercept.iter()))
            .map(|(a, b)| (a - b).abs() / (a.abs().max(b.abs()).max(1e-300)))
            .fold(0.0, f64::max);
        fit.coefs = c1;
        fit.intercept = i1;
        u = new_u;
        if change < 1e-10 && iteration >= 2 {
            break;
        }
    }
    Some((fit, u))
}

/// Calls `f` with every subset of `0..p` of size `k`, ascending.
fn for_each_subset(p: usize, k: usize, f: &mut dyn FnMut(&[usize])) {
    fn rec(start: usize, p: usize, k: usize, cur: &mut Vec<usize>, f: &mut dyn FnMut(&[usize])) {
        if cur.len() == k {
            f(cur);
            return;
        }
        for i in start..p {
            if p - i < k - cur.len() {
                break;
            }
            cur.push(i);
            rec(i + 1, p, k, cur, f);
            cur.pop();
        }
    }
    rec(0, p, k, &mut Vec::with_capacity(k), f);
}

/// A scored regression model.
#[derive(Clone, Debug)]
pub struct RegressionModel {
    pub fit: LinearFit,
    pub candidate: Candidate,
}

/// What [`regress`] found.
#[derive(Clone, Debug)]
pub struct RegressionResult {
    /// Best first (snapped when the options say so); at most `alternatives`.
    pub models: Vec<RegressionModel>,
    /// `σ̂` of the selection.
    pub sigma: f64,
    pub basis_size: usize,
}

fn candidate_for(basis: &[Term], fit: &LinearFit, y: &[f64], s: &[f64], no_intercept_cost: f64) -> Candidate {
    let n = y.len();
    let r = criterion::residuals(y, &fit.predict(basis, n), s);
    Candidate {
        expr: fit.expr(basis),
        residuals: r,
        params: fit.params(),
        penalty: fit.penalty_with(basis, n, no_intercept_cost),
        source: "regression",
    }
}

/// Searches subsets of `basis` for the model of `y` (see the module documentation). `None` when
/// there are no rows.
pub fn regress(basis: &[Term], y: &[f64], options: &RegressionOptions) -> Option<RegressionResult> {
    let n = y.len();
    if n == 0 {
        return None;
    }
    let s = criterion::row_scales(y, options.scale);
    let pb = basis.len();
    // Screening by least squares.
    let mut screened: Vec<(f64, Vec<usize>, bool)> = Vec::new();
    for k in 0..=options.max_terms.min(pb) {
        if k > 0 && k >= n {
            break;
        }
        for_each_subset(pb, k, &mut |subset| {
            for intercept in [true, false] {
                // At least one row more than constants (a law through every point of two is
                // `c·x`, not `a·x + b`).
                if (k == 0 && !intercept) || (k > 0 && k + usize::from(intercept) >= n) {
                    continue;
                }
                if let Some((i, c)) = solve(basis, subset, intercept, None, y, &s, None) {
                    let fit = LinearFit {
                        terms: subset.to_vec(),
                        coefs: c,
                        intercept: i,
                    };
                    let r = criterion::residuals(y, &fit.predict(basis, n), &s);
                    let pen = fit.penalty_with(basis, n, options.no_intercept_cost);
                    let crit = criterion::lts_criterion(&r, fit.params(), pen);
                    screened.push((crit, subset.to_vec(), intercept));
                }
            }
        });
    }
    screened.sort_by(|a, b| crate::stats::cmp_f64(&a.0, &b.0));
    // The best subsets, and the best of every size (with and without intercept): the held-out
    // choice ([`crate::evidence`]) weighs simpler models against the best, so each complexity
    // must be represented.
    let mut kept: Vec<(f64, Vec<usize>, bool)> = Vec::new();
    for (i, m) in screened.iter().enumerate() {
        let new_shape = !kept.iter().any(|k| k.1.len() == m.1.len() && k.2 == m.2);
        if i < options.screen_keep.max(1) || new_shape || m.1.len() <= 1 {
            kept.push(m.clone());
        }
    }
    let screened = kept;
    // Robust refits.
    let mut models: Vec<RegressionModel> = Vec::new();
    for (_, subset, intercept) in &screened {
        if let Some((fit, _)) = fit_robust(basis, subset, *intercept, y, &s) {
            let candidate = candidate_for(basis, &fit, y, &s, options.no_intercept_cost);
            models.push(RegressionModel { fit, candidate });
        }
    }
    let cands: Vec<Candidate> = models.iter().map(|m| m.candidate.clone()).collect();
    let sel = criterion::select(&cands)?;
    let mut order: Vec<usize> = (0..models.len()).collect();
    order.sort_by(|a, b| crate::stats::cmp_f64(&sel.scores[*a], &sel.scores[*b]));
    let mut chosen: Vec<usize> = order.iter().copied().take(options.alternatives.max(1)).collect();
    // Also the best of every number of constants, and every one-term law (`a·x + b`, `a·√x`,
    // ...): few points support little more, and the held-out choice needs them all.
    for i in order {
        let simple = models[i].fit.terms.len() <= 1;
        let new_size = !chosen.iter().any(|c| models[*c].fit.params() == models[i].fit.params());
        if (simple || new_size) && !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    let mut out: Vec<RegressionModel> = chosen.into_iter().map(|i| models[i].clone()).collect();
    if options.snap {
        for m in &mut out {
            let fit = snap(basis, &m.fit, y, &s, sel.sigma);
            let candidate = candidate_for(basis, &fit, y, &s, options.no_intercept_cost);
            *m = RegressionModel { fit, candidate };
        }
    }
    Some(RegressionResult {
        models: out,
        sigma: sel.sigma,
        basis_size: pb,
    })
}

/// Kept here too for callers outside the crate that found it here first.
pub use crate::numeric::round_significant;

/// Drops an insignificant intercept and rounds constants (see the module documentation), with
/// robustness weights from a robust refit and the noise level `sigma` fixed.
pub fn snap(basis: &[Term], fit: &LinearFit, y: &[f64], s: &[f64], sigma: f64) -> LinearFit {
    let n = y.len();
    let score = |f: &LinearFit| {
        let r = criterion::residuals(y, &f.predict(basis, n), s);
        criterion::rho_sum(&r, sigma)
    };
    let base = score(fit);
    let mut tolerance = 1.0;
    let mut cur = fit.clone();
    // Robustness weights of the current fit, for refits with some constants fixed.
    let weights = |f: &LinearFit| -> Vec<f64> {
        let r = criterion::residuals(y, &f.predict(basis, n), s);
        r.iter().map(|v| criterion::bisquare_weight(v / sigma)).collect()
    };
    let u = weights(fit);
    // Refit the free constants with `fixed[k] = Some(value)` held.
    let refit = |fixed_coefs: &[Option<f64>], intercept: Option<Option<f64>>| -> Option<LinearFit> {
        // intercept: None = free, Some(None) = absent, Some(Some(v)) = fixed at v.
        let mut offset = vec![0.0; n];
        let mut free = Vec::new();
        for (k, t) in fit.terms.iter().enumerate() {
            match fixed_coefs[k] {
                Some(c) => offset.iter_mut().zip(&basis[*t].values).for_each(|(o, v)| *o += c * v),
                None => free.push(*t),
            }
        }
        if let Some(Some(v)) = intercept {
            offset.iter_mut().for_each(|o| *o += v);
        }
        let (i, c) = solve(basis, &free, intercept.is_none(), Some(&offset), y, s, Some(&u))?;
        let mut coefs = Vec::with_capacity(fit.terms.len());
        let mut it = c.into_iter();
        for f in fixed_coefs {
            coefs.push(match f {
                Some(v) => *v,
                None => it.next()?,
            });
        }
        Some(LinearFit {
            terms: fit.terms.clone(),
            coefs,
            intercept: match intercept {
                None => i,
                Some(v) => v,
            },
        })
    };
    let mut fixed: Vec<Option<f64>> = vec![None; fit.terms.len()];
    // None: free; Some(None): absent; Some(Some(v)): fixed at v.
    let mut icpt: Option<Option<f64>> = if fit.intercept.is_none() { Some(None) } else { None };
    // 1. On noise-free data, drop an intercept that does not matter (under noise the search
    //    decided).
    if fit.intercept.is_some() && !fit.terms.is_empty() && sigma <= criterion::EXACT {
        if let Some(f) = refit(&fixed, Some(None)) {
            if score(&f) - base <= 1.0 {
                tolerance += 1.0;
                icpt = Some(None);
                cur = f;
            }
        }
    }
    // 2. Round each coefficient, then the intercept.
    for k in 0..=fit.terms.len() {
        let value = if k < fit.terms.len() {
            cur.coefs[k]
        } else {
            match cur.intercept {
                Some(v) if icpt.is_none() => v,
                _ => break,
            }
        };
        for digits in 1..=12 {
            let r = round_significant(value, digits);
            if r == value {
                // Already short: hold it, so later refits do not move it off.
                if k < fit.terms.len() {
                    fixed[k] = Some(value);
                } else {
                    icpt = Some(Some(value));
                }
                break;
            }
            let trial = if k < fit.terms.len() {
                let mut fx = fixed.clone();
                fx[k] = Some(r);
                refit(&fx, icpt).map(|f| (f, fx, icpt))
            } else {
                refit(&fixed, Some(Some(r))).map(|f| (f, fixed.clone(), Some(Some(r))))
            };
            if let Some((f, fx, ic)) = trial {
                if score(&f) - base <= tolerance {
                    cur = f;
                    fixed = fx;
                    icpt = ic;
                    break;
                }
            }
        }
    }
    cur
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basis_terms() {
        let x1: Vec<f64> = (1..=10).map(f64::from).collect();
        let flag: Vec<f64> = (0..10).map(|i| f64::from(i % 2)).collect();
        let b = basis(&[x1, flag]);
        let names: Vec<String> = b.iter().map(|t| t.expr.to_string()).collect();
        assert_eq!(
            names,
            [
                "x1",
                "x1^2",
                "x1^3",
                "sqrt(x1)",
                "log(x1)",
                "x1*log2(x1)",
                "1/x1",
                "2^x1",
                "x2",
                "x2*x1^2",
                "x1*x2",
                "x1/(x1 + x2)"
            ]
        );
    }

    #[test]
    fn rounding() {
        assert_eq!(round_significant(0.35000000001, 2), 0.35);
        assert_eq!(round_significant(123.456, 1), 100.0);
        assert_eq!(round_significant(-0.0123456, 3), -0.0123);
        assert_eq!(round_significant(0.0, 3), 0.0);
    }

    #[test]
    fn subsets() {
        let mut all = Vec::new();
        for_each_subset(4, 2, &mut |s| all.push(s.to_vec()));
        assert_eq!(all.len(), 6);
        assert_eq!(all[0], vec![0, 1]);
        assert_eq!(all[5], vec![2, 3]);
        let mut none = 0;
        for_each_subset(3, 0, &mut |_| none += 1);
        assert_eq!(none, 1);
    }

    #[test]
    fn affine_law_with_snapped_constants() {
        let x: Vec<f64> = (0..50).map(|i| 10.0 + f64::from(i * i) * 400.0).collect();
        let y: Vec<f64> = x.iter().map(|v| 0.35 * v + 120.0).collect();
        let b = basis(&[x]);
        let r = regress(&b, &y, &RegressionOptions::default()).unwrap();
        assert_eq!(r.models[0].candidate.expr.to_string(), "0.35*x1 + 120");
    }
}
