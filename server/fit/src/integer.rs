//! Integer-valued forms for integer targets (loop counts, passed integer values).
//!
//! When every observation of the target is an integer (the caller decides, on the observations:
//! the per-point medians of 5 and 6 are 5.5):
//! - **`floor(t/k)`, `ceil(t/k)`** ([`integer_candidates`]): each regression model of one basis
//!   term `t` with coefficient `a` close to `1/k` (`k` an integer from 2 to [`MAX_DIVISOR`],
//!   `|1/a - k| <= 0.1·k`: the nearest integer, power of two and one- or two-digit decimal,
//!   so `ceil(x1/4096)` is found from a slope of 1/4090) proposes both (one constant, `k`).
//! - **`floor((p·t + r)/q)`** ([`integer_candidates`]): from a one-term model `a·t + b`, for each
//!   denominator `q` from 1 to 12 with `p = round(a·q)` within 2 % of `a·q`, the offset `r` (an
//!   integer within `q` of `b·q`) that matches the most rows. This covers `round(t/k)` as
//!   `floor((t + k/2)/k)`, offsets (`floor((t + 2)/4)`) and `floor(2·t/3)`; with `r = q - 1` on
//!   an integer term it is `ceil(p·t/q)` (`ceil(2*x1/3)`). Three constants. `q = 1` only for a
//!   non-integer term (`floor(sqrt(x1))`); forms with a common factor of `p`, `q`, `r` are those
//!   of a smaller `q`.
//! - **Exact integer combinations** ([`exact_combinations`], for the count and value targets):
//!   each regression model `Σ c_i·t_i + b` with its constants replaced by `P_i/q`, `R/q` (the
//!   smallest `q` from 1 to 12 for which the model reproduces every target value exactly) becomes
//!   `(Σ P_i·t_i + R)/q` with integer `P_i`, `R`: `x1 - x2`, `2*x1 + 1`, `x1*x2`,
//!   `(x1^2 - x1)/2`.
//!
//! All compete in the same selection as every other candidate, so they win only where they fit
//! better (exactly, on noise-free counts; on most rows with the rest off by one, where the robust
//! criterion counts those rows as outliers and any smooth law misses every row a little) or, for
//! [`exact_combinations`], tie and get the integer prior. For count and value targets,
//! [`explains_counts`] keeps such a form against the held-out rule that prefers a plain law
//! predicting within the noise ([`crate::evidence`]): a count is what the code says.

use crate::criterion::{self, Candidate, ErrorScale};
use crate::dataset::Dataset;
use crate::eval::eval;
use crate::expr::Expr;
use crate::regression::{LinearFit, Term};
use crate::simplify::simplify;

/// Candidates `floor(t/k)`, `ceil(t/k)` and `floor((p·t + r)/q)` from the single-term models
/// among `fits` (see the module documentation). The caller decides that the target is
/// integer-valued: its observations, not their per-point medians (two observations 5 and 6 of
/// one point have the median 5.5).
pub fn integer_candidates(data: &Dataset, basis: &[Term], fits: &[LinearFit], scale: ErrorScale) -> Vec<Candidate> {
    let n = data.len();
    let s = criterion::row_scales(&data.y, scale);
    // Adds `e` (one basis term with `params` fitted values) unless it is already proposed.
    let propose = |out: &mut Vec<Candidate>, e: Expr, params: usize, term_cost: f64| {
        if out.iter().any(|c| c.expr == e) {
            return;
        }
        let pred = eval(&e, &data.columns, n);
        out.push(Candidate {
            penalty: criterion::ebic_penalty(n, params, basis.len(), 1) + term_cost + 1.0,
            residuals: criterion::residuals(&data.y, &pred, &s),
            expr: e,
            params,
            source: "integer",
        });
    };
    let mut out: Vec<Candidate> = Vec::new();
    for f in fits {
        if f.terms.len() != 1 {
            continue;
        }
        let a = f.coefs[0];
        if a.is_nan() || a <= 0.0 {
            continue;
        }
        let t = &basis[f.terms[0]];
        for k in divisors(1.0 / a) {
            let ratio = t.expr.clone() / k;
            for e in [ratio.clone().floor(), ratio.ceil()] {
                propose(&mut out, e, 1, t.cost);
            }
        }
    }
    for f in fits {
        if f.terms.len() != 1 {
            continue;
        }
        let t = &basis[f.terms[0]];
        for e in floor_forms(t, f.coefs[0], f.intercept.unwrap_or(0.0), &data.y) {
            propose(&mut out, e, 3, t.cost);
        }
    }
    out
}

/// Whether `c` explains integer observations `y` (scaled residuals over `scales`) as a count:
/// every row within 1 of its prediction, most rows (at least [`COUNT_EXACT_SHARE`]) exactly.
pub fn explains_counts(c: &Candidate, y: &[f64], scales: &[f64]) -> bool {
    let off: Vec<f64> = c.residuals.iter().zip(scales).map(|(r, s)| (r * s).abs()).collect();
    let tolerance = |y: f64| 1e-9 * y.abs().max(1.0);
    let exact = off.iter().zip(y).filter(|(d, y)| **d <= tolerance(**y)).count();
    !y.is_empty()
        && off.iter().zip(y).all(|(d, y)| *d <= 1.0 + tolerance(*y))
        && exact as f64 >= COUNT_EXACT_SHARE * y.len() as f64
}

/// Share of rows a count form must reproduce exactly ([`explains_counts`]).
pub const COUNT_EXACT_SHARE: f64 = 0.8;

/// Largest divisor `k` of `floor(t/k)`, `ceil(t/k)`: pages of 64 KiB in bytes, batches of
/// thousands.
pub const MAX_DIVISOR: f64 = 1e7;

/// Divisors `k` for a fitted slope `1/inv` (`|inv - k| <= 0.1·k`): the nearest integer, and where
/// programmers put divisors ([`crate::threshold::threshold_between`]): the nearest power of two
/// and the one- and two-digit decimals near it. With a slope fitted to `ceil(x/4096)` the nearest
/// integer may be 4090; the data choose among them, plainest first on a tie.
fn divisors(inv: f64) -> Vec<f64> {
    if !inv.is_finite() {
        return Vec::new();
    }
    let mut ks = vec![
        crate::numeric::round_significant(inv, 1),
        2f64.powi(inv.max(1.0).log2().round() as i32),
        crate::numeric::round_significant(inv, 2),
        inv.round(),
    ];
    ks.retain(|k| (2.0..=MAX_DIVISOR).contains(k) && *k == k.trunc() && (inv - k).abs() <= 0.1 * k);
    let mut out: Vec<f64> = Vec::new();
    for k in ks {
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

/// Largest denominator tried by [`floor_forms`] and [`exact_combinations`].
pub const MAX_DENOMINATOR: i64 = 12;

/// `floor((p·t + r)/q)` forms near `a·t + b` (see the module documentation), excluding
/// `floor(t/k)` and `ceil(t/k)`.
fn floor_forms(t: &Term, a: f64, b: f64, y: &[f64]) -> Vec<Expr> {
    let mut out = Vec::new();
    if !a.is_finite() || a == 0.0 || !b.is_finite() {
        return out;
    }
    let integer_term = t.values.iter().all(|v| *v == v.trunc());
    for q in 1..=MAX_DENOMINATOR {
        if q == 1 && integer_term {
            continue;
        }
        let qf = q as f64;
        let p = (a * qf).round();
        if p == 0.0 || (p - a * qf).abs() > 0.02 * (a * qf).abs() || p.abs() > 1e6 {
            continue;
        }
        let r0 = (b * qf).round();
        if r0.abs() > 1e12 {
            continue;
        }
        let matches = |r: f64| {
            t.values
                .iter()
                .zip(y)
                .filter(|(v, y)| ((p * **v + r) / qf).floor() == **y)
                .count()
        };
        let Some((best_r, m)) = (-q..=q)
            .map(|d| r0 + d as f64)
            .map(|r| (r, matches(r)))
            .max_by(|x, y| x.1.cmp(&y.1).then(y.0.abs().total_cmp(&x.0.abs())))
        else {
            continue;
        };
        if m == 0 {
            continue;
        }
        // A common factor: the same form as with a smaller `q`, tried before.
        if gcd(gcd(p.abs() as u64, q as u64), best_r.abs() as u64) > 1 {
            continue;
        }
        // `floor(t/k)` and `ceil(t/k)` are proposed with one constant.
        if p == 1.0 && (best_r == 0.0 || (integer_term && best_r == qf - 1.0)) {
            continue;
        }
        // `floor((p·t + q - 1)/q)` is `ceil(p·t/q)` for integer `p·t`.
        let e = if integer_term && best_r == qf - 1.0 {
            simplify(&(p * t.expr.clone() / qf).ceil())
        } else {
            simplify(&((p * t.expr.clone() + best_r) / qf).floor())
        };
        if !out.contains(&e) {
            out.push(e);
        }
    }
    out
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Penalty reduction of an exact integer combination for the count and value targets: prior odds
/// `e^0.5` that a count or a passed value is an integer function of the inputs, so that it wins
/// a tie with the equivalent decimal form (`(x1^2 - x1)/2` over `0.5*x1^2 - 0.5*x1`).
pub const INTEGER_PRIOR: f64 = 1.0;

/// Exact integer combinations from the regression models `fits` (see the module documentation);
/// none when the target is not integer-valued.
pub fn exact_combinations(data: &Dataset, basis: &[Term], fits: &[LinearFit], scale: ErrorScale) -> Vec<Candidate> {
    if !data.integer_target() {
        return Vec::new();
    }
    let n = data.len();
    let s = criterion::row_scales(&data.y, scale);
    let mut out: Vec<Candidate> = Vec::new();
    for f in fits {
        if f.terms.is_empty() {
            continue;
        }
        for q in 1..=MAX_DENOMINATOR {
            let qf = q as f64;
            let round = |c: f64| {
                let v = (c * qf).round();
                (v.abs() <= 1e12 && (v - c * qf).abs() <= 1e-4 * (c * qf).abs().max(1.0)).then_some(v)
            };
            let Some(coefs) = f.coefs.iter().map(|c| round(*c)).collect::<Option<Vec<f64>>>() else {
                continue;
            };
            let Some(intercept) = f.intercept.map_or(Some(None), |b| round(b).map(Some)) else {
                continue;
            };
            if coefs.contains(&0.0) {
                continue;
            }
            let scaled = LinearFit {
                terms: f.terms.clone(),
                coefs,
                intercept: intercept.filter(|b| *b != 0.0),
            };
            let pred: Vec<f64> = scaled.predict(basis, n).iter().map(|v| v / qf).collect();
            if pred.iter().zip(&data.y).any(|(p, y)| p != y) {
                continue;
            }
            let e = simplify(&(scaled.expr(basis) / qf));
            if !out.iter().any(|c| c.expr == e) {
                out.push(Candidate {
                    residuals: criterion::residuals(&data.y, &pred, &s),
                    params: f.params(),
                    penalty: f.penalty(basis, n) - INTEGER_PRIOR,
                    expr: e,
                    source: "integer",
                });
            }
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regression::basis;

    fn fit1(term: usize, a: f64, b: Option<f64>) -> LinearFit {
        LinearFit {
            terms: vec![term],
            coefs: vec![a],
            intercept: b,
        }
    }

    #[test]
    fn floor_forms_with_offsets_and_ratios() {
        let x: Vec<f64> = (1..=60).map(f64::from).collect();
        let b = basis(std::slice::from_ref(&x));
        // round(x/4) = floor((x + 2)/4), from the least-squares line 0.25 x + 0.
        let y: Vec<f64> = x.iter().map(|v| ((v + 2.0) / 4.0).floor()).collect();
        let forms = floor_forms(&b[0], 0.2501, 0.01, &y);
        assert!(forms.iter().any(|e| e.to_string() == "floor((x1 + 2)/4)"), "{forms:?}");
        // floor(2x/3).
        let y: Vec<f64> = x.iter().map(|v| (2.0 * v / 3.0).floor()).collect();
        let forms = floor_forms(&b[0], 0.667, -0.3, &y);
        assert!(forms.iter().any(|e| e.to_string() == "floor(2*x1/3)"), "{forms:?}");
        // floor(x/3) itself is left to the one-constant form.
        let y: Vec<f64> = x.iter().map(|v| (v / 3.0).floor()).collect();
        assert!(!floor_forms(&b[0], 0.3333, -0.3, &y)
            .iter()
            .any(|e| e.to_string() == "floor(x1/3)"));
    }

    #[test]
    fn exact_combinations_use_integer_constants() {
        let x1: Vec<f64> = (2..=41).map(f64::from).collect();
        let x2: Vec<f64> = x1.iter().map(|v| (v / 3.0).floor()).collect();
        let b = basis(&[x1.clone(), x2.clone()]);
        let ix = |name: &str| b.iter().position(|t| t.expr.to_string() == name).unwrap();
        let y: Vec<f64> = x1.iter().zip(&x2).map(|(a, c)| a - c).collect();
        let data = Dataset::unnamed(vec![x1.clone(), x2.clone()], y).unwrap();
        let f = LinearFit {
            terms: vec![ix("x1"), ix("x2")],
            coefs: vec![1.0000000001, -0.9999999999],
            intercept: Some(1e-12),
        };
        let c = exact_combinations(&data, &b, &[f], ErrorScale::Auto);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].expr.to_string(), "x1 - x2");
        assert!(c[0].residuals.iter().all(|r| *r == 0.0));
        // Pairs: (x1^2 - x1)/2.
        let y: Vec<f64> = x1.iter().map(|v| v * (v - 1.0) / 2.0).collect();
        let data = Dataset::unnamed(vec![x1.clone(), x2.clone()], y).unwrap();
        let f = LinearFit {
            terms: vec![ix("x1^2"), ix("x1")],
            coefs: vec![0.5, -0.5],
            intercept: None,
        };
        let c = exact_combinations(&data, &b, std::slice::from_ref(&f), ErrorScale::Auto);
        assert_eq!(c[0].expr.to_string(), "(x1^2 - x1)/2");
        // Not exact: nothing.
        let mut wrong = f;
        wrong.coefs[0] = 0.6;
        assert!(exact_combinations(&data, &b, &[wrong], ErrorScale::Auto).is_empty());
        // A single term with offset.
        let y: Vec<f64> = x1.iter().map(|v| 2.0 * v + 1.0).collect();
        let data = Dataset::unnamed(vec![x1.clone(), x2], y).unwrap();
        let c = exact_combinations(
            &data,
            &b,
            &[fit1(ix("x1"), 2.0000000003, Some(0.9999999))],
            ErrorScale::Auto,
        );
        assert_eq!(c[0].expr.to_string(), "2*x1 + 1");
    }
}
