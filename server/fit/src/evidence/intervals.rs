//! Confidence intervals of a law's fitted constants.
//!
//! The asymptotic intervals of nonlinear least squares on the points the law was fitted to:
//! `Cov = s²·(JᵀJ)⁻¹` with `J` the derivatives of the (scaled) predictions by each coefficient
//! (central differences on the expression), `s²` the residual variance with `points - constants`
//! degrees of freedom, and the 95 % half-width `t(0.975, dof)·sqrt(Cov_kk)`. Exponents and the
//! thresholds of conditions are the law's form, not coefficients: they get no interval.

use super::hypothesis::t_quantile;
use crate::dataset::Dataset;
use crate::eval::eval;
use crate::expr::{BinaryOp, Cond, Expr};

/// A fitted constant with its 95 % confidence interval.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstantInterval {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// The coefficients of `e` in evaluation order: (value, is a coefficient).
pub(crate) fn constants(e: &Expr, form: bool, out: &mut Vec<(f64, bool)>) {
    match e {
        Expr::Const(v) => out.push((*v, !form)),
        Expr::Var(_) => {}
        Expr::Unary(_, a) => constants(a, form, out),
        Expr::Binary(BinaryOp::Pow, a, b) => {
            constants(a, form, out);
            constants(b, form || matches!(b.as_ref(), Expr::Const(_)), out);
        }
        Expr::Binary(_, a, b) => {
            constants(a, form, out);
            constants(b, form, out);
        }
        Expr::If(c, a, b) => {
            cond_constants(c, out);
            constants(a, form, out);
            constants(b, form, out);
        }
    }
}

fn cond_constants(c: &Cond, out: &mut Vec<(f64, bool)>) {
    match c {
        Cond::Cmp(_, l, r) => {
            constants(l, true, out);
            constants(r, true, out);
        }
        Cond::And(a, b) | Cond::Or(a, b) => {
            cond_constants(a, out);
            cond_constants(b, out);
        }
        Cond::Not(a) => cond_constants(a, out),
    }
}

/// `e` with its `k`-th constant (in [`constants`] order) set to `v`.
pub(crate) fn with_constant(e: &Expr, k: usize, v: f64) -> Expr {
    fn rec(e: &Expr, k: usize, v: f64, at: &mut usize) -> Expr {
        match e {
            Expr::Const(c) => {
                let out = if *at == k { v } else { *c };
                *at += 1;
                Expr::Const(out)
            }
            Expr::Var(i) => Expr::Var(*i),
            Expr::Unary(op, a) => Expr::Unary(*op, Box::new(rec(a, k, v, at))),
            Expr::Binary(op, a, b) => {
                let a = rec(a, k, v, at);
                Expr::Binary(*op, Box::new(a), Box::new(rec(b, k, v, at)))
            }
            Expr::If(c, a, b) => {
                let c = cond(c, k, v, at);
                let a = rec(a, k, v, at);
                Expr::If(Box::new(c), Box::new(a), Box::new(rec(b, k, v, at)))
            }
        }
    }
    fn cond(c: &Cond, k: usize, v: f64, at: &mut usize) -> Cond {
        match c {
            Cond::Cmp(op, l, r) => {
                let l = rec(l, k, v, at);
                Cond::Cmp(*op, l, rec(r, k, v, at))
            }
            Cond::And(a, b) => {
                let a = cond(a, k, v, at);
                Cond::And(Box::new(a), Box::new(cond(b, k, v, at)))
            }
            Cond::Or(a, b) => {
                let a = cond(a, k, v, at);
                Cond::Or(Box::new(a), Box::new(cond(b, k, v, at)))
            }
            Cond::Not(a) => Cond::Not(Box::new(cond(a, k, v, at))),
        }
    }
    rec(e, k, v, &mut 0)
}

/// `e` with each coefficient rounded to the fewest significant digits that stay within a
/// quarter of its 95 % half-width (`0.020295 ± 0.0018` prints `0.02`): digits the evidence
/// cannot tell apart are noise, however the fit arrived at them. Coefficients without a finite,
/// non-zero interval keep their value.
pub fn round_to_evidence(e: &Expr, data: &Dataset, scales: &[f64]) -> Expr {
    let (indices, intervals) = coefficient_intervals(e, data, scales);
    let mut out = e.clone();
    for (k, i) in indices.into_iter().zip(intervals) {
        let half = (i.high - i.low) / 2.0;
        if !(half.is_finite() && half > 0.0) {
            continue;
        }
        let rounded = (1..=12)
            .map(|digits| crate::numeric::round_significant(i.value, digits))
            .find(|r| (r - i.value).abs() <= half / 4.0)
            .unwrap_or(i.value);
        out = with_constant(&out, k, rounded);
    }
    out
}

/// The intervals of the coefficients of `e` fitted to `data` (one row per point) with residual
/// scales `scales`; empty when there are no more points than coefficients.
pub fn intervals(e: &Expr, data: &Dataset, scales: &[f64]) -> Vec<ConstantInterval> {
    coefficient_intervals(e, data, scales).1
}

/// [`intervals`], with each coefficient's index among all constants ([`constants`] order).
fn coefficient_intervals(e: &Expr, data: &Dataset, scales: &[f64]) -> (Vec<usize>, Vec<ConstantInterval>) {
    let mut all = Vec::new();
    constants(e, false, &mut all);
    let coefficients: Vec<(usize, f64)> = all
        .iter()
        .enumerate()
        .filter(|(_, (_, c))| *c)
        .map(|(k, (v, _))| (k, *v))
        .collect();
    let n = data.len();
    let p = coefficients.len();
    if p == 0 || n <= p {
        return (Vec::new(), Vec::new());
    }
    let f = eval(e, &data.columns, n);
    let r: Vec<f64> = (0..n).map(|i| (data.y[i] - f[i]) / scales[i]).collect();
    if r.iter().any(|v| !v.is_finite()) {
        return (Vec::new(), Vec::new());
    }
    // Scaled Jacobian, column-major.
    let mut jac = vec![0.0; n * p];
    for (q, (k, v)) in coefficients.iter().enumerate() {
        let h = 1e-6 * v.abs().max(1e-9);
        let up = eval(&with_constant(e, *k, v + h), &data.columns, n);
        let down = eval(&with_constant(e, *k, v - h), &data.columns, n);
        for i in 0..n {
            let d = (up[i] - down[i]) / (2.0 * h) / scales[i];
            jac[q * n + i] = if d.is_finite() { d } else { 0.0 };
        }
    }
    let dof = (n - p) as f64;
    let s2 = r.iter().map(|v| v * v).sum::<f64>() / dof;
    let mut m = vec![0.0; p * p];
    for a in 0..p {
        for b in 0..p {
            m[a * p + b] = (0..n).map(|i| jac[a * n + i] * jac[b * n + i]).sum();
        }
    }
    let Some(inverse_diagonal) = inverse_diagonal(&m, p) else {
        return (Vec::new(), Vec::new());
    };
    let t = t_quantile(0.05, dof);
    let indices = coefficients.iter().map(|(k, _)| *k).collect();
    let intervals = coefficients
        .iter()
        .zip(inverse_diagonal)
        .map(|((_, v), d)| {
            let half = t * (s2 * d).max(0.0).sqrt();
            ConstantInterval {
                value: *v,
                low: v - half,
                high: v + half,
            }
        })
        .collect();
    (indices, intervals)
}

/// The diagonal of the inverse of the symmetric `p×p` matrix `m` (Gauss-Jordan with partial
/// pivoting); `None` when it is singular.
fn inverse_diagonal(m: &[f64], p: usize) -> Option<Vec<f64>> {
    let mut a = m.to_vec();
    let mut inv = vec![0.0; p * p];
    for i in 0..p {
        inv[i * p + i] = 1.0;
    }
    let scale = (0..p).map(|i| m[i * p + i].abs()).fold(0.0, f64::max);
    for col in 0..p {
        let pivot = (col..p).max_by(|x, y| a[x * p + col].abs().total_cmp(&a[y * p + col].abs()))?;
        if a[pivot * p + col].abs() <= 1e-13 * scale || scale == 0.0 {
            return None;
        }
        for k in 0..p {
            a.swap(col * p + k, pivot * p + k);
            inv.swap(col * p + k, pivot * p + k);
        }
        let d = a[col * p + col];
        for k in 0..p {
            a[col * p + k] /= d;
            inv[col * p + k] /= d;
        }
        for row in 0..p {
            if row != col {
                let f = a[row * p + col];
                for k in 0..p {
                    a[row * p + k] -= f * a[col * p + k];
                    inv[row * p + k] -= f * inv[col * p + k];
                }
            }
        }
    }
    Some((0..p).map(|i| inv[i * p + i]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::criterion::{row_scales, ErrorScale};

    #[test]
    fn interval_of_a_slope_covers_the_truth_and_shrinks_with_points() {
        let law = |n: usize, noise: f64| {
            let x: Vec<f64> = (1..=n).map(|i| i as f64 * 10.0).collect();
            let y: Vec<f64> = x
                .iter()
                .enumerate()
                .map(|(i, v)| (3.0 * v + 50.0) * (1.0 + noise * if i % 2 == 0 { 1.0 } else { -1.0 }))
                .collect();
            let d = Dataset::unnamed(vec![x], y).unwrap();
            let e = Expr::Binary(
                BinaryOp::Add,
                Box::new(Expr::Binary(
                    BinaryOp::Mul,
                    Box::new(Expr::Const(3.0)),
                    Box::new(Expr::Var(0)),
                )),
                Box::new(Expr::Const(50.0)),
            );
            let s = row_scales(&d.y, ErrorScale::Auto);
            intervals(&e, &d, &s)
        };
        let few = law(5, 0.03);
        let many = law(40, 0.03);
        assert_eq!(few.len(), 2);
        assert!(few[0].low < 3.0 && few[0].high > 3.0, "{few:?}");
        assert!(many[0].high - many[0].low < few[0].high - few[0].low);
        // Exponents and thresholds are not coefficients; too few points: no interval.
        let pow = Expr::Binary(BinaryOp::Pow, Box::new(Expr::Var(0)), Box::new(Expr::Const(2.0)));
        let mut c = Vec::new();
        constants(&pow, false, &mut c);
        assert_eq!(c, vec![(2.0, false)]);
        let d = Dataset::unnamed(vec![vec![1.0]], vec![2.0]).unwrap();
        assert!(intervals(&Expr::Const(2.0), &d, &[2.0]).is_empty());
    }
}
