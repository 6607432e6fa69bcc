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

/// Buffers reused between optimisations (one per thread).
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    pub scratch: Scratch,
    f: Vec<f64>,
    trial: Vec<f64>,
    jac: Vec<f64>,
    u: Vec<f64>,
    abs: Vec<f64>,
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

/// `1.4826 · median |r|`, floored at `floor` and [`criterion::EXACT`].
fn robust_sigma(r: &[f64], abs: &mut Vec<f64>, floor: f64) -> f64 {
    abs.clear();
    abs.extend(r.iter().map(|v| v.abs()));
    if abs.is_empty() {
        return criterion::EXACT;
    }
    let mid = abs.len() / 2;
    let (_, m, _) = abs.select_nth_unstable_by(mid, crate::stats::cmp_f64);
    (1.4826 * *m).max(floor).max(criterion::EXACT)
}

/// Weighted least squares of `y ≈ a + b·f` with row weights `u / s²`.
fn linear_scaling(f: &[f64], prob: &Problem, u: &[f64]) -> (f64, f64) {
    let (mut sw, mut sf, mut sy, mut sff, mut sfy) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for i in 0..f.len() {
        let w = u[i] / (prob.scales[i] * prob.scales[i]);
        sw += w;
        sf += w * f[i];
        sy += w * prob.y[i];
        sff += w * f[i] * f[i];
        sfy += w * f[i] * prob.y[i];
    }
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

fn residuals_into(prob: &Problem, f: &[f64], a: f64, b: f64, out: &mut Vec<f64>) {
    out.clear();
    out.extend((0..f.len()).map(|i| (prob.y[i] - a - b * f[i]) / prob.scales[i]));
}

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
pub fn optimise_free(
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
    w.u.clear();
    w.u.resize(n, 1.0);
    let mut r = Vec::with_capacity(n);
    // Linear scaling: least squares, then IRLS (two Huber rounds, then bisquare until `a, b`
    // settle, at most 6 rounds in all).
    let (mut a, mut b) = linear_scaling(&w.f, prob, &w.u);
    for round in 0..6 {
        residuals_into(prob, &w.f, a, b, &mut r);
        let sigma = robust_sigma(&r, &mut w.abs, prob.noise);
        for (u, v) in w.u.iter_mut().zip(&r) {
            *u = if round < 2 {
                criterion::huber_weight(v / sigma)
            } else {
                criterion::bisquare_weight(v / sigma)
            };
        }
        if w.u.iter().filter(|u| **u > 0.0).count() < 3 {
            break;
        }
        let (na, nb) = linear_scaling(&w.f, prob, &w.u);
        let settled = (na - a).abs() <= 1e-12 * na.abs().max(1e-300) && (nb - b).abs() <= 1e-12 * nb.abs().max(1e-300);
        (a, b) = (na, nb);
        if settled && round >= 2 {
            break;
        }
    }
    residuals_into(prob, &w.f, a, b, &mut r);
    let params: Vec<usize> = (0..p.len())
        .filter(|i| p[*i].is_parameter() && !fixed.is_some_and(|f| f[*i]))
        .collect();
    if iterations > 0 && b != 0.0 {
        let sigma = robust_sigma(&r, &mut w.abs, prob.noise);
        for (u, v) in w.u.iter_mut().zip(&r) {
            *u = criterion::bisquare_weight(v / sigma);
        }
        let k = params.len() + 2;
        w.jac.resize(n * params.len(), 0.0);
        w.trial.resize(n, 0.0);
        let mut m = vec![0.0; k * k];
        let mut g = vec![0.0; k];
        let mut cur = loss(&r, &w.u);
        let mut lambda = 1e-3;
        let mut fresh = false;
        let mut trial_r = Vec::with_capacity(n);
        // Buffers of the iterations.
        let mut row = vec![0.0; k];
        let mut sys = vec![0.0; k * k];
        let mut delta = vec![0.0; k];
        let mut old = vec![0.0; params.len()];
        for _ in 0..iterations {
            if !fresh {
                jacobian(p, prob.cols, n, &params, &mut w.f, &mut w.jac, &mut w.scratch);
                for v in w.jac.iter_mut() {
                    if !v.is_finite() {
                        *v = 0.0;
                    }
                }
                // Normal equations of the weighted problem: columns 1, f, b·∂f/∂c_k (unchanged
                // after a rejected step, so built only with a new Jacobian).
                m.iter_mut().for_each(|v| *v = 0.0);
                g.iter_mut().for_each(|v| *v = 0.0);
                let np = params.len();
                for i in 0..n {
                    let wi = w.u[i] / (prob.scales[i] * prob.scales[i]);
                    if wi == 0.0 {
                        continue;
                    }
                    row[0] = 1.0;
                    row[1] = w.f[i];
                    for q in 0..np {
                        row[q + 2] = b * w.jac[q * n + i];
                    }
                    let ri = prob.y[i] - a - b * w.f[i];
                    for x in 0..k {
                        let wx = wi * row[x];
                        g[x] += wx * ri;
                        for z in 0..=x {
                            m[x * k + z] += wx * row[z];
                        }
                    }
                }
                fresh = true;
            }
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
            delta.copy_from_slice(&g);
            if cholesky_solve(&mut sys, &mut delta, k).is_none() || delta.iter().any(|v| !v.is_finite()) {
                lambda *= 10.0;
                continue;
            }
            for (o, i) in old.iter_mut().zip(&params) {
                *o = p[*i].value;
            }
            for (q, i) in params.iter().enumerate() {
                p[*i].value += delta[q + 2];
            }
            let (na, nb) = (a + delta[0], b + delta[1]);
            evaluate(p, prob.cols, n, &mut w.trial, &mut w.scratch);
            let finite = w.trial.iter().all(|v| v.is_finite());
            if finite {
                residuals_into(prob, &w.trial, na, nb, &mut trial_r);
            }
            if finite && loss(&trial_r, &w.u) < cur {
                std::mem::swap(&mut w.f, &mut w.trial);
                a = na;
                b = nb;
                r.clone_from(&trial_r);
                let sigma = robust_sigma(&r, &mut w.abs, prob.noise);
                for (u, v) in w.u.iter_mut().zip(&r) {
                    *u = criterion::bisquare_weight(v / sigma);
                }
                cur = loss(&r, &w.u);
                lambda = (lambda * 0.3).max(1e-12);
                fresh = false;
            } else {
                for (q, i) in params.iter().enumerate() {
                    p[*i].value = old[q];
                }
                lambda *= 4.0;
                if lambda > 1e12 {
                    break;
                }
            }
        }
    }
    Some(Scaled { a, b, residuals: r })
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
