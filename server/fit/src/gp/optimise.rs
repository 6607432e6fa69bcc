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
    /// `1 / s²` and `1 / s` of the problem's row scales, and which scales they are of.
    inv_s2: Vec<f64>,
    inv_s: Vec<f64>,
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
    /// Levenberg-Marquardt iterations the last optimisation ran (it stops when converged).
    iterations_run: usize,
}

impl Workspace {
    pub fn new() -> Workspace {
        Workspace::default()
    }

    /// The scaled residuals of the last [`optimise_in_place`].
    pub fn residuals(&self) -> &[f64] {
        &self.r
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
    let least = floor.max(criterion::EXACT);
    if crate::stats::scaled_median_abs_within(r, 1.4826, least) {
        return least;
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
    if w.inv_s2_of != of || w.inv_s2.len() != prob.scales.len() || w.inv_s.len() != prob.scales.len() {
        w.inv_s2.clear();
        w.inv_s2.extend(prob.scales.iter().map(|s| 1.0 / (s * s)));
        w.inv_s.clear();
        w.inv_s.extend(prob.scales.iter().map(|s| 1.0 / s));
        w.inv_s2_of = of;
    }
}

/// Huber weight of a residual `t` in units of the scale ([`criterion::huber_weight`]'s
/// values), branch-free (both sides computed, one kept) so the loops vectorise.
#[inline(always)]
fn huber(t: f64) -> f64 {
    let t = t.abs();
    if t <= criterion::HUBER_C {
        1.0
    } else {
        criterion::HUBER_C / t
    }
}

/// Tukey bisquare weight of a residual `t` in units of the scale
/// ([`criterion::bisquare_weight`]'s values), branch-free.
#[inline(always)]
fn bisquare(t: f64) -> f64 {
    let x = t * (1.0 / criterion::BISQUARE_C);
    let s = 1.0 - x * x;
    if t.abs() >= criterion::BISQUARE_C {
        0.0
    } else {
        s * s
    }
}

/// One round of weighted least squares of `y ≈ a + b·f`: the residuals of the current `(a, b)`,
/// their weights `u`, and the sums with row weights `u / s²`, in one pass. Returns the sums and
/// how many weights are positive.
#[inline(always)]
fn scaling_round(
    f: &[f64],
    prob: &Problem,
    inv_s: &[f64],
    inv_s2: &[f64],
    a: f64,
    b: f64,
    weight: impl Fn(f64) -> f64,
) -> (Reduced, usize) {
    let n = f.len();
    let (y, inv_s, inv_s2) = (&prob.y[..n], &inv_s[..n], &inv_s2[..n]);
    let mut sums = Sums::default();
    // Counted in floating point: the same lanes as the sums, so the loop stays vectorised.
    let mut positive = [0.0f64; LANES];
    let (fc, yc, sc, s2c) = (
        f.chunks_exact(LANES),
        y.chunks_exact(LANES),
        inv_s.chunks_exact(LANES),
        inv_s2.chunks_exact(LANES),
    );
    let whole = n - fc.remainder().len();
    for (((f, y), s), s2) in fc.zip(yc).zip(sc).zip(s2c) {
        for l in 0..LANES {
            let u = weight((y[l] - a - b * f[l]) * s[l]);
            positive[l] += if u > 0.0 { 1.0 } else { 0.0 };
            sums.add(l, u * s2[l], f[l], y[l]);
        }
    }
    let mut sums = sums.reduce();
    let mut positive = positive.iter().sum::<f64>() as usize;
    for i in whole..n {
        let u = weight((y[i] - a - b * f[i]) * inv_s[i]);
        positive += usize::from(u > 0.0);
        sums.add_row(u * inv_s2[i], f[i], y[i]);
    }
    (sums, positive)
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

/// Bisquare weights of `r / sigma` into `u`.
#[inline(always)]
fn bisquare_weights(r: &[f64], sigma: f64, u: &mut Vec<f64>) {
    let inv_sigma = 1.0 / sigma;
    u.clear();
    u.extend(r.iter().map(|v| bisquare(v * inv_sigma)));
}

/// Scaled residuals `(y - a - b·f) / s` into `out` (`inv_s` = `1 / s`).
#[inline(always)]
fn residuals_into(prob: &Problem, f: &[f64], inv_s: &[f64], a: f64, b: f64, out: &mut Vec<f64>) {
    let n = f.len();
    out.resize(n, 0.0);
    let (y, inv_s) = (&prob.y[..n], &inv_s[..n]);
    for i in 0..n {
        out[i] = (y[i] - a - b * f[i]) * inv_s[i];
    }
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
/// `p` (written back into `p`). `None` when the program is not finite on every row. (The
/// search itself uses [`optimise_in_place`].)
#[cfg(test)]
pub fn optimise(p: &mut [Node], prob: &Problem, iterations: usize, w: &mut Workspace) -> Option<Scaled> {
    optimise_free(p, prob, iterations, w, None)
}

/// [`optimise`] without copying the residuals out: `(a, b)`, and the residuals stay in
/// [`Workspace::residuals`] until the next call (the search scores every offspring; a copy of
/// its residuals each was a tenth of the time of a short program).
pub fn optimise_in_place(p: &mut [Node], prob: &Problem, iterations: usize, w: &mut Workspace) -> Option<(f64, f64)> {
    optimise_dispatch(p, prob, iterations, w, None)
}

/// [`optimise_free_portable`] compiled for the widest vectors the CPU has.
#[inline(always)]
fn optimise_dispatch(
    p: &mut [Node],
    prob: &Problem,
    iterations: usize,
    w: &mut Workspace,
    fixed: Option<&[bool]>,
) -> Option<(f64, f64)> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F, the only feature the function is compiled for.
            return unsafe { optimise_free_avx512(p, prob, iterations, w, fixed) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, the only feature the function is compiled for.
            return unsafe { optimise_free_avx2(p, prob, iterations, w, fixed) };
        }
    }
    optimise_free_portable(p, prob, iterations, w, fixed)
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
    let (a, b) = optimise_dispatch(p, prob, iterations, w, fixed)?;
    Some(Scaled {
        a,
        b,
        residuals: w.r.clone(),
    })
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn optimise_free_avx512(
    p: &mut [Node],
    prob: &Problem,
    iterations: usize,
    w: &mut Workspace,
    fixed: Option<&[bool]>,
) -> Option<(f64, f64)> {
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
) -> Option<(f64, f64)> {
    optimise_free_portable(p, prob, iterations, w, fixed)
}

#[inline(always)]
fn optimise_free_portable(
    p: &mut [Node],
    prob: &Problem,
    iterations: usize,
    w: &mut Workspace,
    fixed: Option<&[bool]>,
) -> Option<(f64, f64)> {
    let n = prob.n();
    w.f.resize(n, 0.0);
    evaluate(p, prob.cols, n, &mut w.f, &mut w.scratch);
    if w.f.iter().any(|v| !v.is_finite()) {
        return None;
    }
    inverse_squares(prob, w);
    w.iterations_run = 0;
    let mut r = std::mem::take(&mut w.r);
    // Linear scaling: least squares, then IRLS (two Huber rounds, then bisquare until `a, b`
    // settle, at most 6 rounds in all). The robust scale is taken from the least-squares
    // residuals for the Huber rounds and from the Huber fit's for the bisquare rounds: two
    // medians, not one per round (the median was a fifth of the search's time; the rounds'
    // results did not depend on the refreshes). Each round is one pass over the rows
    // (residual, weight and the weighted sums together), so the rows are read once per round.
    let (mut a, mut b) = scaling_round(&w.f, prob, &w.inv_s, &w.inv_s2, 0.0, 1.0, |_| 1.0)
        .0
        .fit();
    let mut sigma = 0.0;
    for round in 0..6 {
        if round == 0 || round == 2 {
            residuals_into(prob, &w.f, &w.inv_s, a, b, &mut r);
            sigma = robust_sigma(&r, &mut w.abs, prob.noise);
        }
        let inv_sigma = 1.0 / sigma;
        let (sums, positive) = if round < 2 {
            scaling_round(&w.f, prob, &w.inv_s, &w.inv_s2, a, b, |r| huber(r * inv_sigma))
        } else {
            scaling_round(&w.f, prob, &w.inv_s, &w.inv_s2, a, b, |r| bisquare(r * inv_sigma))
        };
        if positive < 3 {
            break;
        }
        let (na, nb) = sums.fit();
        let settled =
            (na - a).abs() <= SETTLED * na.abs().max(1e-300) && (nb - b).abs() <= SETTLED * nb.abs().max(1e-300);
        (a, b) = (na, nb);
        if settled && round >= 2 {
            break;
        }
    }
    residuals_into(prob, &w.f, &w.inv_s, a, b, &mut r);
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
            w.iterations_run += 1;
            // Converged (the stops of a trust-region solver such as Ceres' TinySolver): an exact
            // fit, a stationary point, or a step too small to change the parameters. Further
            // iterations would cost a Jacobian or an evaluation each and change nothing.
            if cur <= n as f64 * EXACT_LOSS_PER_ROW {
                break;
            }
            if !fresh {
                jacobian(p, prob.cols, n, &params, &mut w.f, &mut w.jac, &mut w.scratch);
                for v in w.jac.iter_mut() {
                    if !v.is_finite() {
                        *v = 0.0;
                    }
                }
                normal_equations(prob, a, b, np, w);
                fresh = true;
                if stationary(&w.m, &w.g, k, cur) {
                    break;
                }
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
            if negligible_step(delta, a, b, p, &params) {
                break;
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
                residuals_into(prob, &w.trial, &w.inv_s, na, nb, &mut w.trial_r);
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
    w.r = r;
    Some((a, b))
}

/// Relative change of the linear scaling's `a` and `b` at which the IRLS rounds stop. Two thirds
/// of the search's programs run all six rounds at this level; looser levels (1e-9, 1e-6) were
/// measured no faster, the rounds being one pass over the rows each.
const SETTLED: f64 = 1e-12;

/// Weighted squared scaled residual per row below which a fit is exact beyond any use
/// (root-mean-square `1e-12`, a thousandth of [`criterion::EXACT`]).
const EXACT_LOSS_PER_ROW: f64 = 1e-24;

/// Whether the gradient `g = Jᵀ W r` vanishes: every column of `J` is orthogonal to the residual
/// to 1e-9 (`|g_x| ≤ 1e-9 · ‖J_x‖ · ‖r‖` in the weighted norm, so the test does not depend on the
/// scale of the data or of the constants).
#[inline(always)]
fn stationary(m: &[f64], g: &[f64], k: usize, loss: f64) -> bool {
    (0..k).all(|x| g[x] * g[x] <= 1e-18 * m[x * k + x] * loss)
}

/// Whether the step `delta` (over `a`, `b` and the constants) is below 1e-10 of the parameters'
/// size (Ceres' `parameter_tolerance` test).
#[inline(always)]
fn negligible_step(delta: &[f64], a: f64, b: f64, p: &[Node], params: &[usize]) -> bool {
    let step: f64 = delta.iter().map(|d| d * d).sum();
    let size: f64 = a * a + b * b + params.iter().map(|i| p[*i].value * p[*i].value).sum::<f64>();
    step.sqrt() <= 1e-10 * (size.sqrt() + 1e-10)
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
    fn the_iterations_stop_once_converged_with_the_same_answer() {
        // y = 4·x1^1.5 + 1 exactly, started near the truth: converged in a few iterations.
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let cols = vec![(0..80).map(|_| rng.random_range(1.0..9.0)).collect::<Vec<f64>>()];
        let y: Vec<f64> = cols[0].iter().map(|x| 4.0 * x.powf(1.5) + 1.0).collect();
        let scales = criterion::row_scales(&y, criterion::ErrorScale::Auto);
        let prob = Problem {
            cols: &cols,
            y: &y,
            scales: &scales,
            noise: criterion::EXACT,
        };
        let start = from_expr(&Expr::var(0).pow(Expr::Const(1.4))).unwrap();
        let mut w = Workspace::new();
        let mut p = start.clone();
        let s = optimise(&mut p, &prob, 100, &mut w).unwrap();
        assert!(s.residuals.iter().all(|r| r.abs() < 1e-12), "{}", to_expr(&p));
        assert!(w.iterations_run < 20, "{} iterations", w.iterations_run);
        // A noisy target converges too, to the answer that more iterations would give.
        let noisy: Vec<f64> = y
            .iter()
            .map(|v| v * (1.0 + 0.02 * rng.random_range(-1.0..1.0)))
            .collect();
        let prob = Problem { y: &noisy, ..prob };
        let (mut p50, mut p100) = (start.clone(), start);
        let a = optimise(&mut p50, &prob, 50, &mut w).unwrap();
        let b = optimise(&mut p100, &prob, 100, &mut w).unwrap();
        assert!(w.iterations_run < 50, "{} iterations", w.iterations_run);
        assert_eq!((a.a, a.b, &p50), (b.a, b.b, &p100));
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
