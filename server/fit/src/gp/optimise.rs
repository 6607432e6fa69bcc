//! Local optimisation of a tree's constants: linear scaling and damped Gauss-Newton
//! (Levenberg-Marquardt) on a robust weighting.
//!
//! The model of a program `f` is `a + b·f(x; c)` (linear scaling, Keijzer 2003: the search looks
//! for the shape, the scale comes from least squares). The loss is the weighted sum of squared
//! scaled residuals `Σ u_i ((y_i - a - b·f_i) / s_i)²` with the row scales `s` of
//! [`crate::criterion::row_scales`] and IRLS weights `u` (two Huber rounds while `a, b` are
//! fitted in closed form, then Tukey bisquare with the MAD scale of the current residuals), so the
//! 5 % gross outliers of performance data do not pull the constants. Each Levenberg-Marquardt
//! iteration solves `(JᵀJ + λ·diag JᵀJ) δ = Jᵀr` for all of `a, b` and the tree's constants
//! and variable weights (derivatives from [`super::program::jacobian`]); a step that lowers the loss is kept (and `λ`
//! shrinks, and the weights are refreshed), else `λ` grows.

use super::program::{evaluate, jacobian, Node, Scratch};
use crate::criterion;

/// The data a program is fitted to.
#[derive(Clone, Debug)]
pub struct Problem<'a> {
    pub cols: &'a [Vec<f64>],
    pub y: &'a [f64],
    /// Row scales ([`criterion::row_scales`]).
    pub scales: &'a [f64],
    /// Floor of the IRLS noise scale: the noise level of the best seed model. A row counts as an
    /// outlier only against this level, so on clean data an approximation is fitted to every row
    /// instead of the easy majority.
    pub noise: f64,
}

impl Problem<'_> {
    pub fn n(&self) -> usize {
        self.y.len()
    }
}

/// Buffers reused between optimisations (one per thread): the hot loop allocates nothing.
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    pub scratch: Scratch,
    f: Vec<f64>,
    trial: Vec<f64>,
    jac: Vec<f64>,
    u: Vec<f64>,
    /// `|r|` as bits, for the median (see [`robust_sigma`]).
    abs: Vec<u64>,
    /// `1 / s²` of the problem's row scales, and which scales they are of.
    inv_s2: Vec<f64>,
    inv_s2_of: (usize, usize),
    r: Vec<f64>,
    trial_r: Vec<f64>,
    params: Vec<usize>,
    /// The weighted columns of the normal equations, `√w · [1, f, b·∂f/∂c…]`, and `√w · r`.
    columns: Vec<f64>,
    weighted_r: Vec<f64>,
    m: Vec<f64>,
    g: Vec<f64>,
    sys: Vec<f64>,
    delta: Vec<f64>,
    old: Vec<f64>,
}

impl Workspace {
    pub fn new() -> Workspace {
        Workspace::default()
    }
}

/// Result of [`optimise`].
#[derive(Clone, Debug, PartialEq)]
pub struct Scaled {
    /// Offset of the linear scaling.
    pub a: f64,
    /// Factor of the linear scaling.
    pub b: f64,
    /// Scaled residuals `(y - a - b·f) / s` (not weighted).
    pub residuals: Vec<f64>,
}

/// `1.4826 · median |r|` ([`crate::stats::median_abs`]), floored at `floor` and
/// [`criterion::EXACT`].
#[inline(always)]
fn robust_sigma(r: &[f64], abs: &mut Vec<u64>, floor: f64) -> f64 {
    if r.is_empty() {
        return criterion::EXACT;
    }
    (1.4826 * crate::stats::median_abs(r, abs))
        .max(floor)
        .max(criterion::EXACT)
}

/// Lanes of the sums below: independent accumulators the compiler keeps in vector registers
/// (one accumulator would chain every addition to the one before).
const LANES: usize = 8;

/// `Σ a_i b_i`.
#[inline(always)]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0; LANES];
    let (ca, cb) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..LANES {
            acc[l] += x[l] * y[l];
        }
    }
    let tail: f64 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    acc.iter().sum::<f64>() + tail
}

/// `1 / s²` of the row scales, computed once per problem.
#[inline(always)]
fn inverse_squares(prob: &Problem, w: &mut Workspace) {
    let of = (prob.scales.as_ptr() as usize, prob.scales.len());
    if w.inv_s2_of != of || w.inv_s2.len() != prob.scales.len() {
        w.inv_s2.clear();
        w.inv_s2.extend(prob.scales.iter().map(|s| 1.0 / (s * s)));
        w.inv_s2_of = of;
    }
}

/// Weighted least squares of `y ≈ a + b·f` with row weights `u / s²` (`inv_s2` = `1 / s²`).
#[inline(always)]
fn linear_scaling(f: &[f64], prob: &Problem, inv_s2: &[f64], u: &[f64]) -> (f64, f64) {
    let mut sums = Sums::default();
    let n = f.len();
    let whole = n - n % LANES;
    for at in (0..whole).step_by(LANES) {
        for l in 0..LANES {
            let i = at + l;
            sums.add(l, u[i] * inv_s2[i], f[i], prob.y[i]);
        }
    }
    let mut sums = sums.reduce();
    for i in whole..n {
        sums.add_row(u[i] * inv_s2[i], f[i], prob.y[i]);
    }
    sums.fit()
}

/// The weighted sums of the linear scaling, in [`LANES`] accumulators each.
#[derive(Default)]
struct Sums {
    acc: [[f64; LANES]; 5],
}

/// The reduced sums `Σw, Σwf, Σwy, Σwf², Σwfy`.
struct Reduced([f64; 5]);

impl Sums {
    #[inline(always)]
    fn add(&mut self, l: usize, w: f64, f: f64, y: f64) {
        let wf = w * f;
        self.acc[0][l] += w;
        self.acc[1][l] += wf;
        self.acc[2][l] += w * y;
        self.acc[3][l] += wf * f;
        self.acc[4][l] += wf * y;
    }

    #[inline(always)]
    fn reduce(&self) -> Reduced {
        let mut sums = [0.0; 5];
        for (s, a) in sums.iter_mut().zip(&self.acc) {
            *s = a.iter().sum();
        }
        Reduced(sums)
    }
}

impl Reduced {
    #[inline(always)]
    fn add_row(&mut self, w: f64, f: f64, y: f64) {
        let s = &mut self.0;
        s[0] += w;
        s[1] += w * f;
        s[2] += w * y;
        s[3] += w * f * f;
        s[4] += w * f * y;
    }

    /// `(a, b)` of the weighted least squares.
    #[inline(always)]
    fn fit(&self) -> (f64, f64) {
        let [sw, sf, sy, sff, sfy] = self.0;
        if sw <= 0.0 {
            return (0.0, 1.0);
        }
        let (mf, my) = (sf / sw, sy / sw);
        let var = sff / sw - mf * mf;
        if var.is_finite() && var > 1e-14 * (mf * mf).max(1e-300) && var > 0.0 {
            let b = (sfy / sw - mf * my) / var;
            (my - b * mf, b)
        } else {
            (my, 0.0)
        }
    }
}

/// Huber weights of `r / sigma` into `u`; how many are positive. Branch-free (both sides
/// computed, one kept), so the loop vectorises; the values are [`criterion::huber_weight`]'s.
#[inline(always)]
fn huber_weights(r: &[f64], sigma: f64, u: &mut [f64]) -> usize {
    let mut positive = 0;
    for (u, v) in u[..r.len()].iter_mut().zip(r) {
        let t = (v / sigma).abs();
        let w = if t <= criterion::HUBER_C {
            1.0
        } else {
            criterion::HUBER_C / t
        };
        *u = w;
        positive += usize::from(w > 0.0);
    }
    positive
}

/// Bisquare weights of `r / sigma` into `u` ([`criterion::bisquare_weight`]'s values),
/// branch-free; how many are positive.
#[inline(always)]
fn bisquare_weights(r: &[f64], sigma: f64, u: &mut [f64]) -> usize {
    let mut positive = 0;
    for (u, v) in u[..r.len()].iter_mut().zip(r) {
        let t = v / sigma;
        let x = t / criterion::BISQUARE_C;
        let s = 1.0 - x * x;
        let w = if t.abs() >= criterion::BISQUARE_C { 0.0 } else { s * s };
        *u = w;
        positive += usize::from(w > 0.0);
    }
    positive
}

#[inline(always)]
fn residuals_into(prob: &Problem, f: &[f64], a: f64, b: f64, out: &mut Vec<f64>) {
    out.clear();
    out.extend((0..f.len()).map(|i| (prob.y[i] - a - b * f[i]) / prob.scales[i]));
}

#[inline(always)]
fn loss(r: &[f64], u: &[f64]) -> f64 {
    r.iter().zip(u).map(|(r, u)| u * r * r).sum()
}

/// Solves the symmetric positive definite system `m x = g` (`m` is `k×k`, row-major) by Cholesky;
/// `None` when not positive definite.
pub(crate) fn cholesky_solve(m: &mut [f64], g: &mut [f64], k: usize) -> Option<()> {
    for j in 0..k {
        let mut d = m[j * k + j];
        for l in 0..j {
            d -= m[j * k + l] * m[j * k + l];
        }
        if d.is_nan() || d <= 0.0 {
            return None;
        }
        let d = d.sqrt();
        m[j * k + j] = d;
        for i in j + 1..k {
            let mut v = m[i * k + j];
            for l in 0..j {
                v -= m[i * k + l] * m[j * k + l];
            }
            m[i * k + j] = v / d;
        }
    }
    for i in 0..k {
        let mut v = g[i];
        for l in 0..i {
            v -= m[i * k + l] * g[l];
        }
        g[i] = v / m[i * k + i];
    }
    for i in (0..k).rev() {
        let mut v = g[i];
        for l in i + 1..k {
            v -= m[l * k + i] * g[l];
        }
        g[i] = v / m[i * k + i];
    }
    Some(())
}

/// Fits the linear scaling and up to `iterations` Levenberg-Marquardt steps over the constants of
/// `p` (written back into `p`). `None` when the program is not finite on every row.
pub fn optimise(p: &mut [Node], prob: &Problem, iterations: usize, w: &mut Workspace) -> Option<Scaled> {
    optimise_free(p, prob, iterations, w, None)
}

/// [`optimise`] with the values of the nodes where `fixed` is true held (the linear scaling is
/// always fitted).
///
/// On a CPU with AVX2 the same code runs compiled for it (4 lanes of `f64` instead of SSE2's 2):
/// the results are bit-identical, since Rust neither fuses nor reorders floating-point operations
/// and the sums keep their fixed [`LANES`] accumulators whatever the vector width.
pub fn optimise_free(
    p: &mut [Node],
    prob: &Problem,
    iterations: usize,
    w: &mut Workspace,
    fixed: Option<&[bool]>,
) -> Option<Scaled> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, the only feature the function is compiled for.
        return unsafe { optimise_free_avx2(p, prob, iterations, w, fixed) };
    }
    optimise_free_portable(p, prob, iterations, w, fixed)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn optimise_free_avx2(
    p: &mut [Node],
    prob: &Problem,
    iterations: usize,
    w: &mut Workspace,
    fixed: Option<&[bool]>,
) -> Option<Scaled> {
    optimise_free_portable(p, prob, iterations, w, fixed)
}

#[inline(always)]
fn optimise_free_portable(
    p: &mut [Node],
    prob: &Problem,
    iterations: usize,
    w: &mut Workspace,
    fixed: Option<&[bool]>,
) -> Option<Scaled> {
    let n = prob.n();
    w.f.resize(n, 0.0);
    evaluate(p, prob.cols, n, &mut w.f, &mut w.scratch);
    if w.f.iter().any(|v| !v.is_finite()) {
        return None;
    }
    inverse_squares(prob, w);
    w.u.clear();
    w.u.resize(n, 1.0);
    let mut r = std::mem::take(&mut w.r);
    // Linear scaling: least squares, then IRLS (two Huber rounds, then bisquare until `a, b`
    // settle, at most 6 rounds in all).
    let (mut a, mut b) = linear_scaling(&w.f, prob, &w.inv_s2, &w.u);
    // The robust scale is taken from the least-squares residuals for the Huber rounds and from
    // the Huber fit's for the bisquare rounds: two medians, not one per round (the median was a
    // fifth of the search's time; the rounds' results did not depend on the refreshes).
    let mut sigma = 0.0;
    for round in 0..6 {
        residuals_into(prob, &w.f, a, b, &mut r);
        if round == 0 || round == 2 {
            sigma = robust_sigma(&r, &mut w.abs, prob.noise);
        }
        let positive = if round < 2 {
            huber_weights(&r, sigma, &mut w.u)
        } else {
            bisquare_weights(&r, sigma, &mut w.u)
        };
        if positive < 3 {
            break;
        }
        let (na, nb) = linear_scaling(&w.f, prob, &w.inv_s2, &w.u);
        let settled = (na - a).abs() <= 1e-12 * na.abs().max(1e-300) && (nb - b).abs() <= 1e-12 * nb.abs().max(1e-300);
        (a, b) = (na, nb);
        if settled && round >= 2 {
            break;
        }
    }
    residuals_into(prob, &w.f, a, b, &mut r);
    let mut params = std::mem::take(&mut w.params);
    params.clear();
    params.extend((0..p.len()).filter(|i| p[*i].is_parameter() && !fixed.is_some_and(|f| f[*i])));
    if iterations > 0 && b != 0.0 {
        let sigma = robust_sigma(&r, &mut w.abs, prob.noise);
        bisquare_weights(&r, sigma, &mut w.u);
        let np = params.len();
        let k = np + 2;
        w.jac.resize(n * np, 0.0);
        w.trial.resize(n, 0.0);
        w.columns.resize(n * k, 0.0);
        w.weighted_r.resize(n, 0.0);
        for v in [&mut w.m, &mut w.sys] {
            v.clear();
            v.resize(k * k, 0.0);
        }
        for v in [&mut w.g, &mut w.delta] {
            v.clear();
            v.resize(k, 0.0);
        }
        w.old.clear();
        w.old.resize(np, 0.0);
        let mut cur = loss(&r, &w.u);
        let mut lambda = 1e-3;
        let mut fresh = false;
        for _ in 0..iterations {
            if !fresh {
                jacobian(p, prob.cols, n, &params, &mut w.f, &mut w.jac, &mut w.scratch);
                for v in w.jac.iter_mut() {
                    if !v.is_finite() {
                        *v = 0.0;
                    }
                }
                normal_equations(prob, a, b, np, w);
                fresh = true;
            }
            let (m, sys, delta) = (&w.m, &mut w.sys, &mut w.delta);
            let max_diag = (0..k).map(|x| m[x * k + x]).fold(0.0, f64::max);
            if max_diag.is_nan() || max_diag <= 0.0 || !max_diag.is_finite() {
                break;
            }
            for x in 0..k {
                for z in 0..=x {
                    sys[x * k + z] = m[x * k + z];
                }
                sys[x * k + x] += lambda * m[x * k + x].max(1e-12 * max_diag) + 1e-300;
            }
            delta.copy_from_slice(&w.g);
            if cholesky_solve(sys, delta, k).is_none() || delta.iter().any(|v| !v.is_finite()) {
                lambda *= 10.0;
                continue;
            }
            for (o, i) in w.old.iter_mut().zip(&params) {
                *o = p[*i].value;
            }
            for (q, i) in params.iter().enumerate() {
                p[*i].value += w.delta[q + 2];
            }
            let (na, nb) = (a + w.delta[0], b + w.delta[1]);
            evaluate(p, prob.cols, n, &mut w.trial, &mut w.scratch);
            let finite = w.trial.iter().all(|v| v.is_finite());
            if finite {
                residuals_into(prob, &w.trial, na, nb, &mut w.trial_r);
            }
            if finite && loss(&w.trial_r, &w.u) < cur {
                std::mem::swap(&mut w.f, &mut w.trial);
                a = na;
                b = nb;
                std::mem::swap(&mut r, &mut w.trial_r);
                // The scale follows the fit: a start far from the law has a wide scale that
                // would leave the outliers their pull (one scale per solve fitted them).
                let sigma = robust_sigma(&r, &mut w.abs, prob.noise);
                bisquare_weights(&r, sigma, &mut w.u);
                cur = loss(&r, &w.u);
                lambda = (lambda * 0.3).max(1e-12);
                fresh = false;
            } else {
                for (q, i) in params.iter().enumerate() {
                    p[*i].value = w.old[q];
                }
                lambda *= 4.0;
                if lambda > 1e12 {
                    break;
                }
            }
        }
    }
    w.params = params;
    let residuals = r.clone();
    w.r = r;
    Some(Scaled { a, b, residuals })
}

/// The normal equations `m = Jᵀ W J`, `g = Jᵀ W r` of the weighted problem (lower triangle of
/// `m`), with `J`'s columns `1, f, b·∂f/∂c_q`: each entry one dot product of two weighted columns
/// (`√w` times the column), contiguous, so the sums run in vector registers.
#[inline(always)]
fn normal_equations(prob: &Problem, a: f64, b: f64, np: usize, w: &mut Workspace) {
    let n = prob.n();
    let k = np + 2;
    let cols = &mut w.columns;
    for i in 0..n {
        let sw = (w.u[i] * w.inv_s2[i]).sqrt();
        cols[i] = sw;
        cols[n + i] = sw * w.f[i];
        w.weighted_r[i] = sw * (prob.y[i] - a - b * w.f[i]);
    }
    for q in 0..np {
        let (head, tail) = cols.split_at_mut((q + 2) * n);
        let jac = &w.jac[q * n..(q + 1) * n];
        for ((c, sw), d) in tail[..n].iter_mut().zip(&head[..n]).zip(jac) {
            *c = b * sw * d;
        }
    }
    let cols = &w.columns;
    for x in 0..k {
        let cx = &cols[x * n..(x + 1) * n];
        w.g[x] = dot(cx, &w.weighted_r);
        for z in 0..=x {
            w.m[x * k + z] = dot(cx, &cols[z * n..(z + 1) * n]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::program::{from_expr, to_expr, Op};
    use super::*;
    use crate::expr::Expr;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn recovers_the_constants_of_a_known_form_despite_outliers() {
        // y = 3 + 2·exp(-0.7·x1) · x2^1.5, with 5 % of the rows tripled.
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let n = 100;
        let cols: Vec<Vec<f64>> = vec![
            (0..n).map(|_| rng.random_range(0.0..3.0)).collect(),
            (0..n).map(|_| rng.random_range(1.0..5.0)).collect(),
        ];
        let truth = |x1: f64, x2: f64| 3.0 + 2.0 * (-0.7 * x1).exp() * x2.powf(1.5);
        let mut y: Vec<f64> = (0..n).map(|i| truth(cols[0][i], cols[1][i])).collect();
        for v in y.iter_mut().step_by(20) {
            *v *= 3.0;
        }
        let scales = criterion::row_scales(&y, criterion::ErrorScale::Auto);
        let prob = Problem {
            cols: &cols,
            y: &y,
            scales: &scales,
            noise: criterion::EXACT,
        };
        // Start far from the truth: exp(-0.2·x1) · x2^1.
        let e = (Expr::Const(-0.2) * Expr::var(0)).exp() * Expr::var(1).pow(Expr::Const(1.0));
        let mut p = from_expr(&e).unwrap();
        let mut w = Workspace::new();
        let s = optimise(&mut p, &prob, 50, &mut w).unwrap();
        let got = to_expr(&p);
        // `-0.2 * x1` is a weighted variable; the weight of `x2` trades off against `b`.
        let consts: Vec<f64> = p.iter().filter(|n| n.op == Op::Const).map(|n| n.value).collect();
        let w1 = p.iter().find(|n| n.op == Op::Var(0)).unwrap().value;
        let w2 = p.iter().find(|n| n.op == Op::Var(1)).unwrap().value;
        assert!((consts[0] - 1.5).abs() < 1e-6, "{got}");
        assert!((w1 + 0.7).abs() < 1e-6, "{got}");
        assert!(
            (s.a - 3.0).abs() < 1e-6 && (s.b * w2.powf(1.5) - 2.0).abs() < 1e-6,
            "{} {} {got}",
            s.a,
            s.b
        );
        // Outlier rows keep their residual of about 2 (relative), the others are exact.
        let big = s.residuals.iter().filter(|r| r.abs() > 0.5).count();
        assert_eq!(big, 5);
        // Linear scaling alone (no iterations) also works for a right shape.
        let mut q =
            from_expr(&((Expr::Const(-0.7) * Expr::var(0)).exp() * Expr::var(1).pow(Expr::Const(1.5)))).unwrap();
        let s0 = optimise(&mut q, &prob, 0, &mut w).unwrap();
        assert!((s0.a - 3.0).abs() < 1e-6 && (s0.b - 2.0).abs() < 1e-6);
    }

    #[test]
    fn non_finite_programs_are_rejected_and_constants_scale_to_the_mean() {
        let cols = vec![vec![-1.0, 2.0, 3.0]];
        let y = vec![1.0, 2.0, 3.0];
        let scales = vec![1.0; 3];
        let prob = Problem {
            cols: &cols,
            y: &y,
            scales: &scales,
            noise: criterion::EXACT,
        };
        let mut w = Workspace::new();
        assert!(optimise(&mut from_expr(&Expr::var(0).ln()).unwrap(), &prob, 5, &mut w).is_none());
        let s = optimise(&mut from_expr(&Expr::Const(7.0)).unwrap(), &prob, 5, &mut w).unwrap();
        assert_eq!((s.a, s.b), (2.0, 0.0));
        let mut m = vec![4.0, 0.0, 2.0, 3.0];
        let mut g = vec![8.0, 7.0];
        cholesky_solve(&mut m, &mut g, 2).unwrap();
        // [4 2; 2 3] x = [8 7] -> x = (1.25, 1.5).
        assert!((g[0] - 1.25).abs() < 1e-12 && (g[1] - 1.5).abs() < 1e-12);
    }
}
