//! How a GP individual is judged, during the search and at the end.
//!
//! **During the search**: the Krogmann-style [`FitnessOptions`] (`15·e` plus penalties for
//! depth, size and variables over thresholds), where the error `e` is the root-mean-square scaled
//! residual with each residual clipped at `c·s` ([`error`]; `c` the bisquare constant, `s` the
//! noise level of the best seed, or the individual's own MAD scale when that is larger): an
//! outlier costs at most as much as a residual of `c·s`, so 5 % of tripled samples do not steer
//! the search, while on clean data (small `s`) every row counts, and individuals far worse than
//! the seeds still rank by their error instead of all saturating at `c·s`.
//! Measures are those of the program (the linear scaling `a + b·f` excluded).
//!
//! **At the end**: each GP answer becomes a [`Candidate`] for [`criterion::select`], in
//! competition with the analysers' candidates. Its constants are first rounded ([`snap`]) and the
//! expression simplified; its `penalty` is honest about the search space:
//! `params·ln n + Σ_nodes 2·ln S`, where `S` is the number of symbols a node could have been
//! (functions of the set, usable variables, and "a constant"): the description length of the
//! structure in the units of `-2·log-likelihood`. Constants that are small integers (|v| <= 16)
//! or come from the caller's list count as symbols only, every other constant is a fitted
//! parameter. A tree that fits noise needs nodes, and every node costs about 5 (for 12
//! symbols), so under noise the regression's parsimonious models keep winning unless the GP
//! answer is clearly better.

use super::program::{self, Node, Op};
use crate::criterion::{self, Candidate};
use crate::eval::eval;
use crate::expr::{Cond, Expr};
use crate::numeric::round_significant;
use crate::simplify::simplify;
use crate::FitnessOptions;

/// Root-mean-square of scaled residuals clipped at `c·max(noise, 1.4826·median|r|)` (see the
/// module documentation).
pub fn error(residuals: &[f64], noise: f64) -> f64 {
    if residuals.is_empty() {
        return 0.0;
    }
    // An individual that does not fit the majority of rows at the noise level is measured at its
    // own (MAD) scale, so errors far above the noise still rank (no saturation).
    thread_local! {
        /// The median's buffer: an error per individual, so no allocation per individual.
        static BITS: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let least = noise.max(criterion::EXACT);
    let scale = if crate::stats::scaled_median_abs_within(residuals, 1.4826, least) {
        least
    } else {
        let own = 1.4826 * BITS.with_borrow_mut(|bits| crate::stats::median_abs(residuals, bits));
        noise.max(own).max(criterion::EXACT)
    };
    let clip = criterion::BISQUARE_C * scale;
    let c2 = clip * clip;
    (residuals.iter().map(|r| (r * r).min(c2)).sum::<f64>() / residuals.len() as f64).sqrt()
}

/// Krogmann fitness of a program with error `e` (lower is better).
/// [`fitness`] of an expression as the GP would hold it (`None` when it has no program form).
pub fn fitness_of_expr(options: &FitnessOptions, expr: &crate::expr::Expr, e: f64) -> Option<f64> {
    Some(fitness(options, &program::from_expr(expr)?, e))
}

pub(crate) fn fitness(options: &FitnessOptions, p: &[Node], e: f64) -> f64 {
    if !e.is_finite() {
        return f64::INFINITY;
    }
    options.fitness_of(e, p.len(), program::depth(p), program::variable_count(p))
}

/// The expression `a + b·f` of a program with linear scaling, simplified.
pub fn export(p: &[Node], a: f64, b: f64) -> Expr {
    let f = program::to_expr(p);
    let e = if b == 0.0 {
        Expr::Const(a)
    } else if b == 1.0 {
        f + a
    } else {
        Expr::Const(b) * f + a
    };
    simplify(&e)
}

fn is_simple(v: f64, listed: &[f64]) -> bool {
    (v == v.round() && v.abs() <= 16.0) || listed.contains(&v)
}

fn visit_consts(e: &mut Expr, f: &mut dyn FnMut(&mut f64)) {
    match e {
        Expr::Const(v) => f(v),
        Expr::Var(_) => {}
        Expr::Unary(_, a) => visit_consts(a, f),
        Expr::Binary(_, a, b) => {
            visit_consts(a, f);
            visit_consts(b, f);
        }
        Expr::If(c, a, b) => {
            visit_cond_consts(c, f);
            visit_consts(a, f);
            visit_consts(b, f);
        }
    }
}

fn visit_cond_consts(c: &mut Cond, f: &mut dyn FnMut(&mut f64)) {
    match c {
        Cond::Cmp(_, a, b) => {
            visit_consts(a, f);
            visit_consts(b, f);
        }
        Cond::And(a, b) | Cond::Or(a, b) => {
            visit_cond_consts(a, f);
            visit_cond_consts(b, f);
        }
        Cond::Not(a) => visit_cond_consts(a, f),
    }
}

/// The constants of `e` in visiting order.
pub fn constants(e: &Expr) -> Vec<f64> {
    let mut out = Vec::new();
    visit_consts(&mut e.clone(), &mut |v| out.push(*v));
    out
}

/// `e` with its `k`-th constant set to `v`.
pub fn with_constant(e: &Expr, k: usize, v: f64) -> Expr {
    let mut out = e.clone();
    let mut at = 0;
    visit_consts(&mut out, &mut |c| {
        if at == k {
            *c = v;
        }
        at += 1;
    });
    out
}

/// The data a candidate is scored on.
#[derive(Clone, Copy, Debug)]
pub struct Scoring<'a> {
    pub cols: &'a [Vec<f64>],
    pub y: &'a [f64],
    pub scales: &'a [f64],
    /// Symbols a node could be (see the module documentation).
    pub symbols: usize,
    /// Constants from the code (free of parameter cost).
    pub listed: &'a [f64],
}

impl Scoring<'_> {
    fn residuals(&self, e: &Expr) -> Vec<f64> {
        let f = eval(e, self.cols, self.y.len());
        criterion::residuals(self.y, &f, self.scales)
    }

    /// Fitted parameters of `e` (constants that are not simple).
    pub fn params(&self, e: &Expr) -> usize {
        constants(e).iter().filter(|v| !is_simple(**v, self.listed)).count()
    }

    /// The selection penalty of `e` (see the module documentation).
    pub fn penalty(&self, e: &Expr) -> f64 {
        let n = self.y.len().max(2) as f64;
        self.params(e) as f64 * n.ln() + e.size() as f64 * 2.0 * (self.symbols.max(2) as f64).ln()
    }
}

/// Rounds each constant of `e` to the simplest value (0, the nearest integer, then 1..12
/// significant digits) that raises `2·Σρ(r/σ)` by at most 1 in total over the unrounded
/// expression, `σ` the candidate's own LTS noise level; then simplifies.
pub fn snap(e: &Expr, sc: &Scoring) -> Expr {
    let r0 = sc.residuals(e);
    let sigma = criterion::lts_scale(&r0, sc.params(e));
    let base = criterion::rho_sum(&r0, sigma);
    let mut cur = e.clone();
    let consts = constants(e);
    for (k, v) in consts.iter().enumerate() {
        let mut tries = vec![0.0, v.round()];
        tries.extend((1..=12).map(|d| round_significant(*v, d)));
        for t in tries {
            if t == *v {
                break;
            }
            let trial = with_constant(&cur, k, t);
            let r = sc.residuals(&trial);
            if criterion::rho_sum(&r, sigma) - base <= 1.0 {
                cur = trial;
                break;
            }
        }
    }
    simplify(&cur)
}

/// The candidate for `e` (after [`snap`]), or `None` when it is not finite on the data.
pub fn candidate(e: &Expr, sc: &Scoring) -> Option<Candidate> {
    let e = snap(e, sc);
    let residuals = sc.residuals(&e);
    if residuals.contains(&criterion::INVALID_RESIDUAL) {
        return None;
    }
    Some(Candidate {
        params: sc.params(&e),
        penalty: sc.penalty(&e),
        residuals,
        expr: e,
        source: "gp",
    })
}

/// Simplifies the constants of an individual with refits: each constant and variable weight in
/// turn is set to the simplest of `1` (weights only), its nearest integer (|v| <= 16) and its
/// value to 1 or 2 significant digits, the other values (and the linear scaling) are
/// re-optimised, and the first choice that raises `2·Σρ(r/σ)` by at most 1 over the
/// unsimplified fit is kept (`σ` its own LTS scale). Redundant constants such as the two weights
/// of `c1*(sqrt(c2*x1)*(c3*x2))` collapse into one. Programs with more than `max_params`
/// values are returned unchanged (the cost grows with the square of that count).
pub fn simplify_constants(
    p: &[Node],
    a: f64,
    b: f64,
    prob: &super::optimise::Problem,
    w: &mut super::optimise::Workspace,
    max_params: usize,
) -> (Vec<Node>, f64, f64) {
    use super::optimise::optimise_free;
    let params: Vec<usize> = (0..p.len()).filter(|i| p[*i].is_parameter()).collect();
    if params.is_empty() || params.len() > max_params {
        return (p.to_vec(), a, b);
    }
    let n = prob.n();
    let mut f = vec![0.0; n];
    program::evaluate(p, prob.cols, n, &mut f, &mut w.scratch);
    let r0: Vec<f64> = (0..n).map(|i| (prob.y[i] - a - b * f[i]) / prob.scales[i]).collect();
    if r0.iter().any(|v| !v.is_finite()) {
        return (p.to_vec(), a, b);
    }
    let sigma = criterion::lts_scale(&r0, params.len() + 2);
    let base = criterion::rho_sum(&r0, sigma);
    let mut cur = (p.to_vec(), a, b);
    let mut fixed = vec![false; p.len()];
    for k in params {
        let v = cur.0[k].value;
        let mut tries: Vec<f64> = Vec::new();
        if matches!(cur.0[k].op, Op::Var(_)) {
            tries.push(1.0);
        }
        if v.abs() <= 16.0 {
            tries.push(v.round());
        }
        tries.extend([1, 2].map(|d| round_significant(v, d)));
        for t in tries {
            if t == v || !t.is_finite() {
                continue;
            }
            let mut trial = cur.0.clone();
            trial[k].value = t;
            let mut fx = fixed.clone();
            fx[k] = true;
            if let Some(s) = optimise_free(&mut trial, prob, 10, w, Some(&fx)) {
                if s.residuals.iter().all(|r| r.is_finite()) && criterion::rho_sum(&s.residuals, sigma) - base <= 1.0 {
                    cur = (trial, s.a, s.b);
                    fixed = fx;
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
    fn snapping_and_penalty() {
        let cols = vec![(1..=30).map(f64::from).collect::<Vec<f64>>()];
        let y: Vec<f64> = cols[0].iter().map(|x| x * x * x + x * x + x).collect();
        let scales = criterion::row_scales(&y, criterion::ErrorScale::Auto);
        let sc = Scoring {
            cols: &cols,
            y: &y,
            scales: &scales,
            symbols: 12,
            listed: &[],
        };
        let x = Expr::var(0);
        let e = Expr::Const(1.0000000000001) * (x.clone() * (x.clone() * (x.clone() + 1.0) + 0.99999999999999)) + 1e-13;
        let s = snap(&e, &sc);
        assert_eq!(s.to_string(), "x1*(x1*(x1 + 1) + 1)");
        let c = candidate(&e, &sc).unwrap();
        assert_eq!(c.params, 0);
        assert!((c.penalty - 9.0 * 2.0 * 12f64.ln()).abs() < 1e-9);
        assert!(c.residuals.iter().all(|r| r.abs() < 1e-15));
        // A fitted constant costs ln n.
        let d = Expr::Const(0.35) * x.clone();
        assert_eq!(sc.params(&d), 1);
        assert!((sc.penalty(&d) - (30f64.ln() + 3.0 * 2.0 * 12f64.ln())).abs() < 1e-9);
        // Export with linear scaling.
        let p = program::from_expr(&x).unwrap();
        assert_eq!(export(&p, 120.0, 0.35).to_string(), "0.35*x1 + 120");
        assert_eq!(export(&p, 0.0, 1.0).to_string(), "x1");
        assert_eq!(export(&p, 4.0, 0.0).to_string(), "4");
    }

    #[test]
    fn clipped_error_bounds_the_cost_of_outliers() {
        let mut r = vec![0.01; 100];
        let clean = error(&r, 0.01);
        assert!((clean - 0.01).abs() < 1e-15);
        r[0] = 5.0;
        r[50] = -7.0;
        // Most rows sit at 0.01: the MAD scale 1.4826·0.01 is above the noise level 0.01.
        let clip = criterion::BISQUARE_C * 1.4826 * 0.01;
        let want = ((98.0 * 1e-4 + 2.0 * clip * clip) / 100.0f64).sqrt();
        assert!((error(&r, 0.01) - want).abs() < 1e-12);
        // Against a large noise level the outliers count in full.
        assert!((error(&r, 10.0) - ((98.0 * 1e-4 + 25.0 + 49.0) / 100.0f64).sqrt()).abs() < 1e-12);
        assert!(fitness(
            &FitnessOptions::default(),
            &program::from_expr(&Expr::var(0)).unwrap(),
            f64::NAN
        )
        .is_infinite());
    }
}
#[cfg(test)]
mod simplify_tests {
    use super::super::optimise::{optimise, Problem, Workspace};
    use super::*;

    #[test]
    fn redundant_constants_collapse_with_refits() {
        // x^2.5 written with three redundant constants.
        let x: Vec<f64> = (1..=40).map(|i| f64::from(i * i) * 100.0).collect();
        let y: Vec<f64> = x.iter().map(|v| v.powf(2.5)).collect();
        let cols = vec![x];
        let scales = criterion::row_scales(&y, criterion::ErrorScale::Auto);
        let prob = Problem {
            cols: &cols,
            y: &y,
            scales: &scales,
            noise: 1e-3,
        };
        let e = Expr::Const(47.479855303) * (Expr::Const(0.5774616586) * Expr::var(0)).powi(3)
            / (Expr::Const(3.871982647) * Expr::var(0)).sqrt();
        let mut p = program::from_expr(&e).unwrap();
        let mut w = Workspace::new();
        let s = optimise(&mut p, &prob, 10, &mut w).unwrap();
        let (q, a, b) = simplify_constants(&p, s.a, s.b, &prob, &mut w, 12);
        let sc = Scoring {
            cols: &cols,
            y: &y,
            scales: &scales,
            symbols: 10,
            listed: &[],
        };
        let c = candidate(&export(&q, a, b), &sc).unwrap();
        assert!(c.params <= 2, "{}", c.expr);
        assert!(c.residuals.iter().all(|r| r.abs() < 1e-9), "{}", c.expr);
    }
}
