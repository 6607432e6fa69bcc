//! The level of a chosen law refitted to targets (the points' means), its form held.
//!
//! [`linear`] refits every coefficient the law is linear in (jointly: `a·x + b`, the constants of
//! a step's sides, a term's factor), by weighted least squares; exponents, thresholds, divisors
//! and constants inside functions are the form and stay. That covers both ways a mean departs
//! from a median: a skew that grows with the value (lognormal noise: every coefficient scales) and
//! one that does not (a slow path of fixed cost taken by one call in ten: the offset moves).
//! Where the law is not linear in its coefficients jointly (a hinge `c·(x − k)`), or the points
//! do not outnumber them, [`scaled`] multiplies the law by one factor instead: it keeps the
//! shape (zeros, signs) and needs one point.

use crate::eval::eval;
use crate::evidence::intervals::{constants, with_constant};
use crate::expr::{BinaryOp, Expr, UnaryOp};

/// Whether two evaluations agree to rounding at every point.
fn same(a: &[f64], b: &[f64]) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| x.is_finite() && y.is_finite() && (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1e-12))
}

/// `e` with the constants `at` set to `values`.
fn with_all(e: &Expr, at: &[usize], values: &[f64]) -> Expr {
    at.iter()
        .zip(values)
        .fold(e.clone(), |out, (k, v)| with_constant(&out, *k, *v))
}

/// The coefficients `e` is linear in jointly (indices in [`constants`] order) and each one's
/// column (`∂e/∂c` at the points); `None` when there are none or the joint check fails.
fn linear_part(e: &Expr, columns: &[Vec<f64>], n: usize) -> Option<(Vec<usize>, Vec<Vec<f64>>)> {
    let mut all = Vec::new();
    constants(e, false, &mut all);
    let at = |k: usize, v: f64| eval(&with_constant(e, k, v), columns, n);
    // Each alone: its value on a line through 0 and 1 at every point.
    let single: Vec<usize> = (0..all.len())
        .filter(|k| all[*k].1)
        .filter(|k| {
            let (zero, one) = (at(*k, 0.0), at(*k, 1.0));
            let line = |c: f64| -> Vec<f64> { zero.iter().zip(&one).map(|(z, o)| z + c * (o - z)).collect() };
            let v = all[*k].0;
            same(&at(*k, v), &line(v)) && same(&at(*k, -2.5), &line(-2.5))
        })
        .collect();
    if single.is_empty() {
        return None;
    }
    let zeros = vec![0.0; single.len()];
    let base = eval(&with_all(e, &single, &zeros), columns, n);
    let mut cols: Vec<Vec<f64>> = Vec::new();
    for i in 0..single.len() {
        let mut unit = zeros.clone();
        unit[i] = 1.0;
        let f = eval(&with_all(e, &single, &unit), columns, n);
        cols.push(f.iter().zip(&base).map(|(f, b)| f - b).collect());
    }
    // Jointly (a product of two coefficients is linear in each alone): the current values and
    // another set must both be the base plus their columns.
    let combine = |c: &[f64]| -> Vec<f64> {
        (0..n)
            .map(|r| base[r] + c.iter().zip(&cols).map(|(c, col)| c * col[r]).sum::<f64>())
            .collect()
    };
    let current: Vec<f64> = single.iter().map(|k| all[*k].0).collect();
    let other: Vec<f64> = (0..single.len()).map(|i| 1.0 + 0.618 * (i + 1) as f64).collect();
    let joint = same(&eval(e, columns, n), &combine(&current))
        && same(&eval(&with_all(e, &single, &other), columns, n), &combine(&other));
    joint.then_some((single, cols))
}

/// `e` with its linear coefficients refitted to `targets` at the points `columns`, by least
/// squares weighted by `weights` (see the module documentation); `None` when `e` has no joint
/// linear part, the points do not outnumber its coefficients, or the solution is degenerate.
/// Coefficients whose column is zero at every point (a side no point reaches) are held. Returns
/// the law and how many coefficients were refitted.
pub(crate) fn linear(e: &Expr, columns: &[Vec<f64>], targets: &[f64], weights: &[f64]) -> Option<(Expr, usize)> {
    let n = targets.len();
    let (mut at, mut cols) = linear_part(e, columns, n)?;
    let reached: Vec<bool> = cols.iter().map(|c| c.iter().any(|v| *v != 0.0)).collect();
    let mut i = 0;
    at.retain(|_| {
        i += 1;
        reached[i - 1]
    });
    cols.retain(|c| c.iter().any(|v| *v != 0.0));
    if cols.is_empty() || n <= cols.len() {
        return None;
    }
    // The held coefficients (unreached ones) stay at their values: the base must include them.
    let held = eval(&with_all(e, &at, &vec![0.0; at.len()]), columns, n);
    let root: Vec<f64> = weights.iter().map(|w| w.max(0.0).sqrt()).collect();
    let weighted: Vec<Vec<f64>> = cols
        .iter()
        .map(|c| c.iter().zip(&root).map(|(v, w)| v * w).collect())
        .collect();
    let b: Vec<f64> = (0..n).map(|r| (targets[r] - held[r]) * root[r]).collect();
    let solved = crate::linalg::lstsq(weighted, b)?;
    if solved.iter().any(|v| !v.is_finite()) {
        return None;
    }
    Some((with_all(e, &at, &solved), solved.len()))
}

/// `s·e`, the factor carried into the law's own constants where its form allows (the terms of a
/// sum, the sides of a condition, a term's leading constant), so that `1.1·(2·x + 3)` prints as
/// `2.2·x + 3.3`.
pub(crate) fn scaled(e: &Expr, s: f64) -> Expr {
    match e {
        Expr::Const(c) => Expr::Const(s * c),
        Expr::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b) => {
            Expr::Binary(*op, Box::new(scaled(a, s)), Box::new(scaled(b, s)))
        }
        Expr::Binary(op @ (BinaryOp::Mul | BinaryOp::Div), a, b) if matches!(a.as_ref(), Expr::Const(_)) => {
            Expr::Binary(*op, Box::new(scaled(a, s)), b.clone())
        }
        Expr::Binary(BinaryOp::Mul, a, b) if matches!(b.as_ref(), Expr::Const(_)) => {
            Expr::Binary(BinaryOp::Mul, a.clone(), Box::new(scaled(b, s)))
        }
        Expr::Unary(UnaryOp::Neg, a) => Expr::Unary(UnaryOp::Neg, Box::new(scaled(a, s))),
        Expr::If(c, a, b) => Expr::If(c.clone(), Box::new(scaled(a, s)), Box::new(scaled(b, s))),
        other => Expr::Binary(BinaryOp::Mul, Box::new(Expr::Const(s)), Box::new(other.clone())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_infix;

    fn points() -> Vec<Vec<f64>> {
        vec![vec![1.0, 2.0, 4.0, 8.0, 16.0]]
    }

    #[test]
    fn a_line_is_refitted_exactly() {
        let e = parse_infix("2*x1 + 3").unwrap();
        let targets: Vec<f64> = points()[0].iter().map(|x| 2.5 * x + 4.0).collect();
        let (got, k) = linear(&e, &points(), &targets, &[1.0; 5]).unwrap();
        assert_eq!(k, 2);
        let f = eval(&got, &points(), 5);
        assert!(same(&f, &targets), "{got:?}");
    }

    #[test]
    fn form_constants_stay_and_products_fall_back() {
        // The exponent and the threshold are the form; the sides' constants are refitted.
        let e = parse_infix("if(x1 > 3, 0.5*x1^2, 4)").unwrap();
        let targets: Vec<f64> = points()[0]
            .iter()
            .map(|x| if *x > 3.0 { 0.6 * x * x } else { 5.0 })
            .collect();
        let (got, _) = linear(&e, &points(), &targets, &[1.0; 5]).unwrap();
        assert!(same(&eval(&got, &points(), 5), &targets), "{got:?}");
        // A hinge c·(x − k) is linear in c and in k, not in both: no linear refit.
        let hinge = parse_infix("2*(x1 - 3)").unwrap();
        assert!(linear(&hinge, &points(), &targets, &[1.0; 5]).is_none());
        // A divisor is held: ceil(x1/4)·c + d refits c and d.
        let counts = parse_infix("0.5*ceil(x1/4) + 1").unwrap();
        let t: Vec<f64> = points()[0].iter().map(|x| 0.7 * (x / 4.0).ceil() + 1.2).collect();
        let (got, _) = linear(&counts, &points(), &t, &[1.0; 5]).unwrap();
        assert!(same(&eval(&got, &points(), 5), &t), "{got:?}");
    }

    #[test]
    fn a_factor_goes_into_the_constants() {
        let e = parse_infix("if(x1 > 3, 2*x1 + 3, 4)").unwrap();
        let s = scaled(&e, 1.5);
        assert_eq!(crate::print::infix(&s), "if(x1 > 3, 3*x1 + 4.5, 6)");
        let f = eval(&scaled(&parse_infix("log(x1)").unwrap(), 2.0), &points(), 5);
        assert!((f[1] - 2.0 * 2f64.ln()).abs() < 1e-12);
    }
}
