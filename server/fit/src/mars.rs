//! MARS: multivariate adaptive regression splines (Friedman 1991), as one more candidate source.
//!
//! A MARS model is `c0 + Σ c_m·B_m(x)`, each basis function `B_m` a product of at most
//! `max_degree` factors on different inputs; a factor is a hinge `max(0, x_v - t)` ([`Factor::Right`]),
//! its reflection `max(0, t - x_v)` ([`Factor::Left`]) or the input itself ([`Factor::Linear`], for
//! inputs with two distinct values and as a hinge whose knot lies below the data). Hinges print as
//! `if(x1 > 40, x1 - 40, 0)` and `if(x1 < 40, 40 - x1, 0)` ([`Expr::If`]; no new node kind).
//!
//! 1. **Knots**: for an input with more than two distinct values, the candidate knots are its data
//!    values with at least `min_span` rows strictly on each side, at most `max_knots` of them
//!    (evenly spread over the sorted distinct values).
//! 2. **Forward pass**: from the intercept, repeatedly add the candidate that most lowers the GCV
//!    of the grown model: for every parent (the intercept or a term of degree below `max_degree`)
//!    and every input the parent does not use, the reflected pair `parent·(x - t)+`,
//!    `parent·(t - x)+` at every candidate knot, or `parent·x`. Least squares in the scaled
//!    residual space of [`crate::criterion`] (row weight `1/s_i`: relative errors for positive
//!    targets), with the columns kept orthogonal so a candidate costs `O(n·M)`. Stops at
//!    `max_terms` terms, when nothing lowers the residual, or when the fit is exact.
//! 3. **Backward pass**: repeatedly drop the term whose removal raises the residual sum of squares
//!    least; of each size the survivor is kept, and its GCV
//!    `RSS/n / (1 - C/n)²` with `C = terms + 1 + d·knots` (Friedman's `d = 3` for interaction
//!    models, 2 for additive ones) ranks the sizes.
//! 4. **Robustness** to the gross outliers of performance data (5 % of tripled samples): the
//!    passes run twice; the second time each row is weighted by the Tukey bisquare weight of its
//!    residual under the robust (IRLS, [`crate::regression::fit_robust`]) refit of the first
//!    pass's GCV-best model.
//! 5. **Finishing** each kept model (the backward sequence from one term up to one beyond the
//!    GCV-best size, at most `models`): robust refit; each knot moved continuously between its
//!    neighbouring candidate knots to the least (robustness-weighted) residual (golden section:
//!    the true kink of `3 + 2·max(0, x - 40)` lies between data values, not at one); each knot
//!    rounded to the plainest number ([`crate::threshold::plain_knots`]: a constant of the code, one significant
//!    digit, the nearest power of two, then more digits) that raises the robust loss
//!    (coefficients refitted) by at most 1; then the coefficients snapped like the regression's
//!    ([`crate::regression::snap`]).
//!
//! **Penalty** of a candidate (so that a piecewise-linear approximation does not beat the true
//! smooth law under noise): `p·ln n` for `p` = intercept + coefficients + knots (each knot is a
//! fitted constant), plus per knot `2·ln(candidate knots of its input)` (as the threshold
//! analyser pays `2·ln(splits tried)`) and [`crate::threshold::THRESHOLD_DIGIT_COST`] per
//! unit of [`crate::threshold::complexity`] (significant digits; 1.5 for a power of two), plus
//! per factor `2·ln(3·k)` for choosing its input and kind among `3·k`.

use crate::criterion::{self, Candidate, ErrorScale};
use crate::expr::{CmpOp, Cond, Expr};
use crate::linalg::lstsq;
use crate::regression::{self, LinearFit, Term};
use crate::threshold::{complexity, knot_params, plain_knots, THRESHOLD_DIGIT_COST};

/// One factor of a basis function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Factor {
    /// `max(0, x_var - knot)`.
    Right { var: usize, knot: f64 },
    /// `max(0, knot - x_var)`.
    Left { var: usize, knot: f64 },
    /// `x_var`.
    Linear { var: usize },
}

impl Factor {
    pub fn var(&self) -> usize {
        match *self {
            Factor::Right { var, .. } | Factor::Left { var, .. } | Factor::Linear { var } => var,
        }
    }

    /// The knot of a hinge.
    pub fn knot(&self) -> Option<f64> {
        match *self {
            Factor::Right { knot, .. } | Factor::Left { knot, .. } => Some(knot),
            Factor::Linear { .. } => None,
        }
    }

    fn with_knot(self, t: f64) -> Factor {
        match self {
            Factor::Right { var, .. } => Factor::Right { var, knot: t },
            Factor::Left { var, .. } => Factor::Left { var, knot: t },
            f => f,
        }
    }

    #[inline]
    pub fn value(&self, x: f64) -> f64 {
        match *self {
            Factor::Right { knot, .. } => (x - knot).max(0.0),
            Factor::Left { knot, .. } => (knot - x).max(0.0),
            Factor::Linear { .. } => x,
        }
    }

    /// `if(x > t, x - t, 0)`, `if(x < t, t - x, 0)` or `x`.
    pub fn expr(&self) -> Expr {
        match *self {
            Factor::Right { var, knot } => {
                Expr::if_else(Cond::var_gt(var, knot), Expr::var(var) - knot, Expr::Const(0.0))
            }
            Factor::Left { var, knot } => Expr::if_else(
                Cond::cmp(CmpOp::Lt, Expr::var(var), Expr::Const(knot)),
                knot - Expr::var(var),
                Expr::Const(0.0),
            ),
            Factor::Linear { var } => Expr::var(var),
        }
    }
}

/// A basis function: the product of its factors (each on a different input).
#[derive(Clone, Debug, PartialEq)]
pub struct BasisFunction {
    pub factors: Vec<Factor>,
}

impl BasisFunction {
    pub fn degree(&self) -> usize {
        self.factors.len()
    }

    pub fn uses(&self, var: usize) -> bool {
        self.factors.iter().any(|f| f.var() == var)
    }

    pub fn values<C: AsRef<[f64]>>(&self, columns: &[C], n: usize) -> Vec<f64> {
        let mut v = vec![1.0; n];
        for f in &self.factors {
            let c = columns[f.var()].as_ref();
            v.iter_mut().zip(c).for_each(|(a, x)| *a *= f.value(*x));
        }
        v
    }

    pub fn expr(&self) -> Expr {
        let mut it = self.factors.iter();
        let first = it.next().map_or(Expr::Const(1.0), Factor::expr);
        it.fold(first, |e, f| e * f.expr())
    }

    pub fn has_hinge(&self) -> bool {
        self.factors.iter().any(|f| f.knot().is_some())
    }
}

/// Options of the MARS analyser.
#[derive(Clone, Debug)]
pub struct MarsOptions {
    /// Most basis functions (besides the intercept) of the forward pass.
    pub max_terms: usize,
    /// Most factors of a basis function (1: additive model; 2: pairwise interactions).
    pub max_degree: usize,
    /// Most candidate knots per input.
    pub max_knots: usize,
    /// Fewest rows strictly on each side of a candidate knot.
    pub min_span: usize,
    /// GCV cost per knot `d`; `None`: 3 for interaction models, 2 for additive ones.
    pub gcv_penalty: Option<f64>,
    pub scale: ErrorScale,
    /// Most models of the backward sequence returned.
    pub models: usize,
    /// Round knots and coefficients to few significant digits where the fit allows.
    pub snap: bool,
    /// Constants of the code (static analysis): tried first when knots are rounded.
    pub constants: Vec<f64>,
}

impl Default for MarsOptions {
    fn default() -> Self {
        MarsOptions {
            max_terms: 9,
            max_degree: 2,
            max_knots: 20,
            min_span: 3,
            gcv_penalty: None,
            scale: ErrorScale::Auto,
            models: 5,
            snap: true,
            constants: Vec::new(),
        }
    }
}

/// A finished MARS model.
#[derive(Clone, Debug)]
pub struct MarsModel {
    pub terms: Vec<BasisFunction>,
    pub coefs: Vec<f64>,
    pub intercept: Option<f64>,
    /// GCV of the model's size in the backward pass (before knot refinement).
    pub gcv: f64,
    /// The model (simplified), e.g. `2*if(x1 > 40, x1 - 40, 0) + 3`; a seed for the GP.
    pub expr: Expr,
    /// For [`crate::criterion::select`], source `"mars"` (penalty: see the module documentation).
    pub candidate: Candidate,
}

impl MarsModel {
    /// Distinct `(input, knot)` pairs.
    pub fn knots(&self) -> Vec<(usize, f64)> {
        distinct_knots(&self.terms)
    }

    pub fn has_hinge(&self) -> bool {
        self.terms.iter().any(BasisFunction::has_hinge)
    }
}

fn distinct_knots(terms: &[BasisFunction]) -> Vec<(usize, f64)> {
    let mut out: Vec<(usize, f64)> = Vec::new();
    for f in terms.iter().flat_map(|t| &t.factors) {
        if let Some(t) = f.knot() {
            if !out.iter().any(|(v, k)| *v == f.var() && k.to_bits() == t.to_bits()) {
                out.push((f.var(), t));
            }
        }
    }
    out
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Orthonormal columns (modified Gram-Schmidt, twice).
struct Ortho {
    q: Vec<Vec<f64>>,
}

impl Ortho {
    /// `c` minus its projection on the columns.
    fn residual(&self, c: &mut [f64]) {
        for _ in 0..2 {
            for q in &self.q {
                let d = dot(q, c);
                c.iter_mut().zip(q).for_each(|(a, b)| *a -= d * b);
            }
        }
    }

    /// Adds `c` (weighted column) if it is not (numerically) in the span; returns whether it was.
    fn push(&mut self, mut c: Vec<f64>) -> bool {
        let norm0 = dot(&c, &c);
        if norm0 <= 0.0 || !norm0.is_finite() {
            return false;
        }
        self.residual(&mut c);
        let norm = dot(&c, &c);
        if norm <= 1e-10 * norm0 {
            return false;
        }
        let s = norm.sqrt();
        c.iter_mut().for_each(|v| *v /= s);
        self.q.push(c);
        true
    }
}

/// Candidate knots of each input (see the module documentation); empty for inputs with at most
/// two distinct values (they enter linearly).
pub fn candidate_knots<C: AsRef<[f64]>>(columns: &[C], min_span: usize, max_knots: usize) -> Vec<Vec<f64>> {
    columns
        .iter()
        .map(|c| {
            let mut sorted = c.as_ref().to_vec();
            sorted.sort_by(crate::stats::cmp_f64);
            let n = sorted.len();
            let mut uniq = sorted.clone();
            uniq.dedup();
            if uniq.len() <= 2 {
                return Vec::new();
            }
            let ok: Vec<f64> = uniq
                .iter()
                .copied()
                .filter(|t| {
                    let below = sorted.partition_point(|v| v < t);
                    let above = n - sorted.partition_point(|v| v <= t);
                    below >= min_span.max(1) && above >= min_span.max(1)
                })
                .collect();
            if ok.len() <= max_knots {
                return ok;
            }
            let m = ok.len();
            let mut out: Vec<f64> = (0..max_knots)
                .map(|i| ok[i * (m - 1) / (max_knots - 1).max(1)])
                .collect();
            out.dedup();
            out
        })
        .collect()
}

/// The GCV complexity `C = terms + 1 + d·knots`.
fn gcv(rss: f64, n_eff: f64, terms: usize, knots: usize, d: f64) -> f64 {
    let c = (terms + 1) as f64 + d * knots as f64;
    if c >= n_eff {
        return f64::INFINITY;
    }
    rss / n_eff / (1.0 - c / n_eff).powi(2)
}

struct Weighted<'a, C: AsRef<[f64]>> {
    columns: &'a [C],
    n: usize,
    /// Row weights `sqrt(u_i)/s_i`.
    w: Vec<f64>,
    yw: Vec<f64>,
    n_eff: f64,
}

impl<C: AsRef<[f64]>> Weighted<'_, C> {
    fn weigh(&self, v: &[f64]) -> Vec<f64> {
        v.iter().zip(&self.w).map(|(a, b)| a * b).collect()
    }

    /// Residual sum of squares of the weighted least-squares fit on `values` plus intercept.
    fn rss(&self, values: &[&Vec<f64>]) -> f64 {
        let mut cols = vec![self.w.clone()];
        cols.extend(values.iter().map(|v| self.weigh(v)));
        let Some(c) = lstsq(cols, self.yw.clone()) else {
            return f64::INFINITY;
        };
        (0..self.n)
            .map(|i| {
                let f = c[0] + values.iter().zip(&c[1..]).map(|(v, ci)| v[i] * ci).sum::<f64>();
                let r = self.yw[i] - f * self.w[i];
                r * r
            })
            .sum()
    }

    fn forward(&self, knots: &[Vec<f64>], options: &MarsOptions, d: f64) -> Vec<BasisFunction> {
        let n = self.n;
        let k = self.columns.len();
        let mut ortho = Ortho { q: Vec::new() };
        let mut terms: Vec<BasisFunction> = Vec::new();
        let mut values: Vec<Vec<f64>> = Vec::new();
        if !ortho.push(self.w.clone()) {
            return terms;
        }
        let mut r = self.yw.clone();
        ortho.residual(&mut r);
        let tss = dot(&r, &r);
        let mut rss = tss;
        let mut nknots = 0usize;
        // Gain of adding weighted columns `cols` (in order) to the orthonormal set.
        let gain = |ortho: &Ortho, r: &[f64], cols: &mut [Vec<f64>]| -> (f64, Vec<bool>) {
            let mut g = 0.0;
            let mut used = vec![false; cols.len()];
            let mut added: Vec<Vec<f64>> = Vec::new();
            for (ci, c) in cols.iter_mut().enumerate() {
                let n0 = dot(c, c);
                if n0 <= 0.0 || !n0.is_finite() {
                    continue;
                }
                ortho.residual(c);
                for a in &added {
                    let dd = dot(a, c);
                    c.iter_mut().zip(a).for_each(|(x, y)| *x -= dd * y);
                }
                let nn = dot(c, c);
                if nn <= 1e-10 * n0 {
                    continue;
                }
                let s = nn.sqrt();
                c.iter_mut().for_each(|v| *v /= s);
                let p = dot(r, c);
                g += p * p;
                used[ci] = true;
                added.push(c.clone());
            }
            (g, used)
        };
        while terms.len() < options.max_terms && rss > 1e-24 * tss.max(1e-300) {
            // (criterion, new terms, new knot count)
            let mut best: Option<(f64, Vec<BasisFunction>, usize)> = None;
            let mut parents: Vec<Option<usize>> = vec![None];
            parents.extend(
                (0..terms.len())
                    .filter(|i| terms[*i].degree() < options.max_degree)
                    .map(Some),
            );
            for parent in parents {
                let pv: Vec<f64> = match parent {
                    None => vec![1.0; n],
                    Some(i) => values[i].clone(),
                };
                let pf: Vec<Factor> = parent.map_or_else(Vec::new, |i| terms[i].factors.clone());
                for (v, var_knots) in knots.iter().enumerate().take(k) {
                    if pf.iter().any(|f| f.var() == v) {
                        continue;
                    }
                    let x = self.columns[v].as_ref();
                    let mut consider = |factors: Vec<Factor>, fresh_knot: bool| {
                        let mut cols: Vec<Vec<f64>> = factors
                            .iter()
                            .map(|f| (0..n).map(|i| pv[i] * f.value(x[i]) * self.w[i]).collect::<Vec<f64>>())
                            .collect();
                        let (g, used) = gain(&ortho, &r, &mut cols);
                        if g <= 1e-12 * tss {
                            return;
                        }
                        let new: Vec<BasisFunction> = factors
                            .iter()
                            .zip(&used)
                            .filter(|(_, u)| **u)
                            .map(|(f, _)| {
                                let mut fs = pf.clone();
                                fs.push(*f);
                                BasisFunction { factors: fs }
                            })
                            .collect();
                        let kn = nknots + usize::from(fresh_knot);
                        let crit = gcv((rss - g).max(0.0), self.n_eff, terms.len() + new.len(), kn, d);
                        if best.as_ref().is_none_or(|b| crit < b.0) {
                            best = Some((crit, new, kn));
                        }
                    };
                    consider(vec![Factor::Linear { var: v }], false);
                    for &t in var_knots {
                        let fresh = !terms
                            .iter()
                            .flat_map(|b| &b.factors)
                            .any(|f| f.var() == v && f.knot().is_some_and(|kk| kk == t));
                        consider(
                            vec![Factor::Right { var: v, knot: t }, Factor::Left { var: v, knot: t }],
                            fresh,
                        );
                    }
                }
            }
            let Some((_, new, kn)) = best else {
                break;
            };
            let mut added = false;
            for b in new {
                if terms.len() > options.max_terms {
                    break;
                }
                let v = b.values(self.columns, n);
                if ortho.push(self.weigh(&v)) {
                    terms.push(b);
                    values.push(v);
                    added = true;
                }
            }
            if !added {
                break;
            }
            nknots = kn;
            r = self.yw.clone();
            ortho.residual(&mut r);
            let new_rss = dot(&r, &r);
            if new_rss >= rss {
                break;
            }
            rss = new_rss;
        }
        terms
    }

    /// Backward sequence: for each size (number of terms, descending), the subset kept and its GCV.
    fn backward(&self, terms: &[BasisFunction], d: f64) -> Vec<(Vec<usize>, f64)> {
        let values: Vec<Vec<f64>> = terms.iter().map(|t| t.values(self.columns, self.n)).collect();
        let knots_of = |subset: &[usize]| {
            let ts: Vec<BasisFunction> = subset.iter().map(|i| terms[*i].clone()).collect();
            distinct_knots(&ts).len()
        };
        let rss_of = |subset: &[usize]| {
            let v: Vec<&Vec<f64>> = subset.iter().map(|i| &values[*i]).collect();
            self.rss(&v)
        };
        let mut cur: Vec<usize> = (0..terms.len()).collect();
        let mut out = vec![(cur.clone(), gcv(rss_of(&cur), self.n_eff, cur.len(), knots_of(&cur), d))];
        while !cur.is_empty() {
            let mut best: Option<(f64, Vec<usize>)> = None;
            for j in 0..cur.len() {
                let mut s = cur.clone();
                s.remove(j);
                let r = rss_of(&s);
                if best.as_ref().is_none_or(|b| r < b.0) {
                    best = Some((r, s));
                }
            }
            let Some((r, s)) = best else { break };
            out.push((s.clone(), gcv(r, self.n_eff, s.len(), knots_of(&s), d)));
            cur = s;
        }
        out
    }
}

fn terms_basis<C: AsRef<[f64]>>(terms: &[BasisFunction], columns: &[C], n: usize) -> Vec<Term> {
    terms
        .iter()
        .map(|t| {
            let expr = t.expr();
            Term {
                cost: 0.0,
                rank: 5,
                values: t.values(columns, n),
                expr,
            }
        })
        .collect()
}

/// Weighted least squares `min Σ u_i ((y_i - f_i)/s_i)²` of `y` on `basis` plus intercept.
fn wls(basis: &[Term], y: &[f64], s: &[f64], u: &[f64]) -> Option<LinearFit> {
    let n = y.len();
    let w: Vec<f64> = (0..n).map(|i| u[i].sqrt() / s[i]).collect();
    let mut cols = vec![w.clone()];
    cols.extend(
        basis
            .iter()
            .map(|t| t.values.iter().zip(&w).map(|(a, b)| a * b).collect()),
    );
    let b: Vec<f64> = y.iter().zip(&w).map(|(a, b)| a * b).collect();
    let mut c = lstsq(cols, b)?;
    let intercept = c.remove(0);
    Some(LinearFit {
        terms: (0..basis.len()).collect(),
        coefs: c,
        intercept: Some(intercept),
    })
}

fn replace_knot(terms: &[BasisFunction], var: usize, old: f64, new: f64) -> Vec<BasisFunction> {
    terms
        .iter()
        .map(|t| BasisFunction {
            factors: t
                .factors
                .iter()
                .map(|f| {
                    if f.var() == var && f.knot().is_some_and(|k| k.to_bits() == old.to_bits()) {
                        f.with_knot(new)
                    } else {
                        *f
                    }
                })
                .collect(),
        })
        .collect()
}

/// Penalty of a MARS model (see the module documentation).
fn penalty(
    terms: &[BasisFunction],
    params: usize,
    n: usize,
    k: usize,
    knots_tried: &[Vec<f64>],
    constants: &[f64],
) -> f64 {
    let knots = distinct_knots(terms);
    let mut p = params as f64 * (n.max(2) as f64).ln();
    for (v, t) in &knots {
        p += 2.0 * (knots_tried[*v].len().max(1) as f64).ln() + THRESHOLD_DIGIT_COST * complexity(*t, constants);
    }
    let per_factor = 2.0 * ((3 * k.max(1)) as f64).ln();
    p += per_factor * terms.iter().map(BasisFunction::degree).sum::<usize>() as f64;
    p
}

struct Finisher<'a, C: AsRef<[f64]>> {
    columns: &'a [C],
    y: &'a [f64],
    s: &'a [f64],
    knots: &'a [Vec<f64>],
    options: &'a MarsOptions,
}

impl<C: AsRef<[f64]>> Finisher<'_, C> {
    fn n(&self) -> usize {
        self.y.len()
    }

    /// Weighted RSS of the least-squares fit of `terms` with weights `u`.
    fn loss(&self, terms: &[BasisFunction], u: &[f64]) -> f64 {
        let b = terms_basis(terms, self.columns, self.n());
        match wls(&b, self.y, self.s, u) {
            Some(f) => {
                let r = criterion::residuals(self.y, &f.predict(&b, self.n()), self.s);
                r.iter().zip(u).map(|(r, u)| u * r * r).sum()
            }
            None => f64::INFINITY,
        }
    }

    /// The interval a knot may move in: between its neighbouring candidate knots (or the data's
    /// extremes).
    fn bracket(&self, var: usize, t: f64) -> (f64, f64) {
        let col = self.columns[var].as_ref();
        let min = col.iter().copied().fold(f64::INFINITY, f64::min);
        let max = col.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let ks = &self.knots[var];
        let lo = ks.iter().copied().filter(|k| *k < t).fold(min, f64::max);
        let hi = ks.iter().copied().filter(|k| *k > t).fold(max, f64::min);
        (lo, hi)
    }

    fn refine(&self, mut terms: Vec<BasisFunction>, u: &[f64]) -> Vec<BasisFunction> {
        for (var, t0) in distinct_knots(&terms) {
            let (lo, hi) = self.bracket(var, t0);
            if lo >= hi {
                continue;
            }
            let f = |t: f64| self.loss(&replace_knot(&terms, var, t0, t), u);
            // Golden section, keeping the best point seen (including the start).
            let g = (5f64.sqrt() - 1.0) / 2.0;
            let (mut a, mut b) = (lo, hi);
            let mut c = b - g * (b - a);
            let mut d = a + g * (b - a);
            let (mut fc, mut fd) = (f(c), f(d));
            let mut best = (f(t0), t0);
            for _ in 0..60 {
                if fc < fd {
                    b = d;
                    d = c;
                    fd = fc;
                    c = b - g * (b - a);
                    fc = f(c);
                } else {
                    a = c;
                    c = d;
                    fc = fd;
                    d = a + g * (b - a);
                    fd = f(d);
                }
                if b - a <= 1e-13 * (a.abs() + b.abs()).max(1e-300) {
                    break;
                }
            }
            for (v, t) in [(fc, c), (fd, d)] {
                if v < best.0 {
                    best = (v, t);
                }
            }
            if best.1 != t0 {
                terms = replace_knot(&terms, var, t0, best.1);
            }
        }
        terms
    }

    /// Robust refit; returns the fit, its basis and robustness weights.
    fn robust(&self, terms: &[BasisFunction]) -> Option<(LinearFit, Vec<Term>, Vec<f64>)> {
        let b = terms_basis(terms, self.columns, self.n());
        let idx: Vec<usize> = (0..b.len()).collect();
        let (fit, u) = regression::fit_robust(&b, &idx, true, self.y, self.s)?;
        Some((fit, b, u))
    }

    fn snap_knots(&self, mut terms: Vec<BasisFunction>, u: &[f64], sigma: f64) -> Vec<BasisFunction> {
        let score = |ts: &[BasisFunction]| -> f64 {
            let b = terms_basis(ts, self.columns, self.n());
            match wls(&b, self.y, self.s, u) {
                Some(f) => criterion::rho_sum(&criterion::residuals(self.y, &f.predict(&b, self.n()), self.s), sigma),
                None => f64::INFINITY,
            }
        };
        for (var, t) in distinct_knots(&terms) {
            let base = score(&terms);
            for (r, allowance) in plain_knots(t, &self.options.constants, self.n()) {
                if r == t {
                    break;
                }
                let trial = replace_knot(&terms, var, t, r);
                if score(&trial) - base <= allowance {
                    terms = trial;
                    break;
                }
            }
        }
        terms
    }

    fn finish(&self, terms: Vec<BasisFunction>, gcv: f64) -> Option<MarsModel> {
        let n = self.n();
        let (_, _, u) = self.robust(&terms)?;
        let terms = self.refine(terms, &u);
        let (fit, _, u) = self.robust(&terms)?;
        let b = terms_basis(&terms, self.columns, n);
        let r = criterion::residuals(self.y, &fit.predict(&b, n), self.s);
        let sigma = criterion::lts_scale(&r, fit.params() + distinct_knots(&terms).len());
        let (terms, fit, b) = if self.options.snap {
            let terms = self.snap_knots(terms, &u, sigma);
            let (fit, b, _) = self.robust(&terms)?;
            let fit = regression::snap(&b, &fit, self.y, self.s, sigma);
            (terms, fit, b)
        } else {
            (terms, fit, b)
        };
        // Drop terms whose coefficient snapped to zero.
        let keep: Vec<usize> = (0..fit.terms.len()).filter(|i| fit.coefs[*i] != 0.0).collect();
        let terms: Vec<BasisFunction> = keep.iter().map(|i| terms[fit.terms[*i]].clone()).collect();
        let coefs: Vec<f64> = keep.iter().map(|i| fit.coefs[*i]).collect();
        let b: Vec<Term> = keep.iter().map(|i| b[fit.terms[*i]].clone()).collect();
        let fit = LinearFit {
            terms: (0..terms.len()).collect(),
            coefs: coefs.clone(),
            intercept: fit.intercept,
        };
        let expr = fit.expr(&b);
        let residuals = criterion::residuals(self.y, &fit.predict(&b, n), self.s);
        let knots: usize = distinct_knots(&terms)
            .iter()
            .map(|(_, t)| knot_params(*t, &self.options.constants))
            .sum();
        let params = fit.params() + knots;
        let penalty = penalty(
            &terms,
            params,
            n,
            self.columns.len(),
            self.knots,
            &self.options.constants,
        );
        Some(MarsModel {
            candidate: Candidate {
                expr: expr.clone(),
                residuals,
                params,
                penalty,
                source: "mars",
            },
            terms,
            coefs,
            intercept: fit.intercept,
            gcv,
            expr,
        })
    }
}

/// Fits MARS models of `y` on the input `columns` (see the module documentation): the backward
/// sequence from one term up to one beyond the GCV-best size (at most `options.models`, GCV-best
/// first), each with its candidate. Empty when there are too few rows or no input varies.
pub fn mars<C: AsRef<[f64]>>(columns: &[C], y: &[f64], options: &MarsOptions) -> Vec<MarsModel> {
    let n = y.len();
    if n < 8 || columns.is_empty() {
        return Vec::new();
    }
    let s = criterion::row_scales(y, options.scale);
    let d = options
        .gcv_penalty
        .unwrap_or(if options.max_degree > 1 { 3.0 } else { 2.0 });
    let knots = candidate_knots(columns, options.min_span, options.max_knots);
    let options = MarsOptions {
        max_terms: options.max_terms.min(n / 3),
        ..options.clone()
    };
    let weighted = |u: &[f64]| {
        let w: Vec<f64> = (0..n).map(|i| u[i].sqrt() / s[i]).collect();
        Weighted {
            columns,
            n,
            yw: y.iter().zip(&w).map(|(a, b)| a * b).collect(),
            w,
            n_eff: u.iter().sum::<f64>().max(1.0),
        }
    };
    let fin = Finisher {
        columns,
        y,
        s: &s,
        knots: &knots,
        options: &options,
    };
    let pass = |u: &[f64]| -> (Vec<BasisFunction>, Vec<(Vec<usize>, f64)>) {
        let wd = weighted(u);
        let terms = wd.forward(&knots, &options, d);
        let seq = wd.backward(&terms, d);
        (terms, seq)
    };
    let best_of = |seq: &[(Vec<usize>, f64)]| -> usize {
        (0..seq.len())
            .min_by(|a, b| crate::stats::cmp_f64(&seq[*a].1, &seq[*b].1))
            .unwrap_or(0)
    };
    let (mut terms, mut seq) = pass(&vec![1.0; n]);
    // Second pass with robustness weights from the first pass's GCV-best model.
    if let Some((subset, _)) = seq.get(best_of(&seq)) {
        let sub: Vec<BasisFunction> = subset.iter().map(|i| terms[*i].clone()).collect();
        if let Some((fit, b, _)) = fin.robust(&sub) {
            let r = criterion::residuals(y, &fit.predict(&b, n), &s);
            let mut abs: Vec<f64> = r.iter().map(|v| v.abs()).collect();
            abs.sort_by(crate::stats::cmp_f64);
            let sigma = 1.4826 * crate::stats::quantile_sorted(&abs, 0.5);
            if sigma > criterion::EXACT {
                let u: Vec<f64> = r.iter().map(|v| criterion::bisquare_weight(v / sigma)).collect();
                if u.iter().filter(|w| **w > 0.0).count() > n / 2 {
                    (terms, seq) = pass(&u);
                }
            }
        }
    }
    let best = best_of(&seq);
    let best_size = seq.get(best).map_or(0, |b| b.0.len());
    let mut chosen: Vec<&(Vec<usize>, f64)> = seq
        .iter()
        .filter(|(sub, _)| !sub.is_empty() && sub.len() <= best_size + 1)
        .collect();
    chosen.sort_by(|a, b| crate::stats::cmp_f64(&a.1, &b.1));
    chosen.truncate(options.models.max(1));
    // And the pruning path below the GCV-best size, one model per size: held-out points then
    // decide how many hinges the evidence needs (GCV's own penalty is a guess at that).
    let mut smaller: Vec<&(Vec<usize>, f64)> = seq
        .iter()
        .filter(|(sub, _)| !sub.is_empty() && sub.len() < best_size)
        .filter(|s| !chosen.iter().any(|c| c.0 == s.0))
        .collect();
    smaller.sort_by_key(|s| s.0.len());
    smaller.dedup_by_key(|s| s.0.len());
    chosen.extend(smaller);
    chosen
        .into_iter()
        .filter_map(|(sub, g)| fin.finish(sub.iter().map(|i| terms[*i].clone()).collect(), *g))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_and_expressions() {
        let r = Factor::Right { var: 0, knot: 40.0 };
        let l = Factor::Left { var: 0, knot: 40.0 };
        assert_eq!((r.value(45.0), r.value(30.0)), (5.0, 0.0));
        assert_eq!((l.value(45.0), l.value(30.0)), (0.0, 10.0));
        assert_eq!(r.expr().to_string(), "if(x1 > 40, x1 - 40, 0)");
        assert_eq!(l.expr().to_string(), "if(x1 < 40, 40 - x1, 0)");
        let b = BasisFunction {
            factors: vec![r, Factor::Linear { var: 1 }],
        };
        assert_eq!(b.expr().to_string(), "if(x1 > 40, x1 - 40, 0)*x2");
        assert_eq!(b.values(&[vec![50.0, 10.0], vec![2.0, 3.0]], 2), vec![20.0, 0.0]);
        let p = crate::eval::eval(&b.expr(), &[vec![50.0, 10.0], vec![2.0, 3.0]], 2);
        assert_eq!(p, vec![20.0, 0.0]);
    }

    #[test]
    fn knots_respect_span_and_count() {
        let x: Vec<f64> = (0..100).map(f64::from).collect();
        let k = candidate_knots(&[x.clone(), [0.0, 1.0].repeat(50)], 3, 20);
        assert_eq!(k[0].len(), 20);
        assert_eq!(k[0][0], 3.0);
        assert_eq!(*k[0].last().unwrap(), 96.0);
        assert!(k[1].is_empty());
    }

    #[test]
    fn recovers_a_hinge_exactly() {
        // Knot 40 between the data values 39.3 and 41.7.
        let x: Vec<f64> = (0..60)
            .map(|i| 0.5 + f64::from(i) * 1.7 + if i > 22 { 0.3 } else { 0.0 })
            .collect();
        let y: Vec<f64> = x.iter().map(|v| 3.0 + 2.0 * (v - 40.0).max(0.0)).collect();
        let models = mars(std::slice::from_ref(&x), &y, &MarsOptions::default());
        assert!(!models.is_empty());
        let exact: Vec<&MarsModel> = models
            .iter()
            .filter(|m| m.candidate.residuals.iter().all(|r| r.abs() < 1e-9))
            .collect();
        assert!(
            exact
                .iter()
                .any(|m| m.expr.to_string() == "2*if(x1 > 40, x1 - 40, 0) + 3"),
            "{:?}",
            models.iter().map(|m| m.expr.to_string()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn interaction_of_a_hinge_and_an_input() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let x1: Vec<f64> = (0..120).map(|_| rng.random_range(0.0..100.0)).collect();
        let x2: Vec<f64> = (0..120).map(|_| rng.random_range(1.0..10.0)).collect();
        let y: Vec<f64> = (0..120).map(|i| 10.0 + (x1[i] - 30.0).max(0.0) * x2[i]).collect();
        let models = mars(&[x1.clone(), x2.clone()], &y, &MarsOptions::default());
        let best = models
            .iter()
            .min_by(|a, b| {
                let e = |m: &MarsModel| m.candidate.residuals.iter().map(|r| r * r).sum::<f64>();
                crate::stats::cmp_f64(&e(a), &e(b))
            })
            .unwrap();
        let rms = (best.candidate.residuals.iter().map(|r| r * r).sum::<f64>() / 120.0).sqrt();
        assert!(rms < 0.01, "{} rms {rms}", best.expr);
        assert!(best.terms.iter().any(|t| t.degree() == 2), "{}", best.expr);
    }
}
