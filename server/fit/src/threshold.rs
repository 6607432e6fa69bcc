//! Step and threshold detection: `if(x_j > t, f_right, f_left)`, each side a regression model.
//!
//! 1. For every input with at least two distinct values, the candidate split points lie between
//!    consecutive distinct values, with at least `min_side` rows on each side (at most
//!    `max_splits` per input, evenly spread over the sorted distinct values). A binary input has
//!    exactly one split: the indicator split `if(x2 > 0.5, ...)`.
//! 2. **Coarse scan**: each side gets the best model of at most one basis term plus intercept
//!    (least squares; by LTS criterion); the split is ranked by the LTS criterion of the combined
//!    residuals. The best `keep` splits over all inputs go on.
//! 3. **Fine fit**: each side of a kept split is fitted by the full regression analyser
//!    ([`crate::regression::regress`], on the basis restricted to the side's rows).
//! 4. The candidate's penalty counts the constants of both sides and the threshold, the subset
//!    choices of both sides, and `2·ln` of the number of splits tried (choosing the best of many
//!    splits must not make noise look like a step). So a step is accepted only when it clearly
//!    beats a single regression in [`crate::criterion::select`].
//!
//! The threshold printed is the simplest number between the two values that bracket the split
//! ([`simplest_between`]): data with sizes 199123 and 201456 on either side give
//! `x1 > 200000`, a 0/1 flag gives `x2 > 0.5`.

use crate::criterion::{self, Candidate};
use crate::expr::{Cond, Expr};
use crate::regression::{self, LinearFit, RegressionOptions, Term};

/// Options of the threshold analyser.
#[derive(Clone, Debug)]
pub struct ThresholdOptions {
    /// Fewest rows on each side of a split.
    pub min_side: usize,
    /// Most split points tried per input.
    pub max_splits: usize,
    /// How many splits of the coarse scan get a full fit.
    pub keep: usize,
    /// Smallest jump between the two sides at the threshold, in units of the row scale
    /// (relative to the value for positive targets): a step is a discontinuity. Two sides that
    /// meet at the threshold are a piecewise approximation of a smooth law (MARS offers kinks),
    /// and with a handful of rows per side they extrapolate badly.
    pub min_jump: f64,
    /// Fewest rows per fitted constant on each side: a side with 4 constants on 8 rows all but
    /// interpolates them, and its polynomial pieces say nothing about the law.
    pub min_rows_per_param: usize,
    /// Constants found in the code: preferred thresholds ([`threshold_between`]).
    pub constants: Vec<f64>,
}

impl Default for ThresholdOptions {
    fn default() -> Self {
        ThresholdOptions {
            min_side: 5,
            max_splits: 100,
            keep: 3,
            min_jump: 0.02,
            min_rows_per_param: 3,
            constants: Vec::new(),
        }
    }
}

/// The number with the fewest significant digits strictly between `lo` and `hi` (`lo < hi`),
/// nearest to the midpoint among those; the midpoint when there is none.
pub fn simplest_between(lo: f64, hi: f64) -> f64 {
    let mid = lo + (hi - lo) / 2.0;
    if lo.partial_cmp(&hi) != Some(std::cmp::Ordering::Less) || !lo.is_finite() || !hi.is_finite() {
        return mid;
    }
    if lo < 0.0 && hi > 0.0 {
        return 0.0;
    }
    let top = lo.abs().max(hi.abs());
    let e = top.log10().floor() as i32;
    for d in 1..=17 {
        let exp = e - d + 1;
        let step = 10f64.powi(exp);
        let k = (mid / step).round();
        for kk in [k, k - 1.0, k + 1.0] {
            let v: f64 = format!("{kk}e{exp}").parse().unwrap_or(f64::NAN);
            if v > lo && v < hi {
                return v;
            }
        }
    }
    mid
}

/// The threshold for `x > t` between the rows at `lo` and above at `hi`: a constant from the
/// code (static analysis) when one separates them (`lo <= c < hi`: the code's own threshold, which
/// the data cannot pin down more closely), the simplest such constant when several do; else
/// [`simplest_between`].
pub fn threshold_between(lo: f64, hi: f64, constants: &[f64]) -> f64 {
    constants
        .iter()
        .copied()
        .filter(|c| c.is_finite() && lo <= *c && *c < hi)
        .min_by(|a, b| {
            let mid = lo + (hi - lo) / 2.0;
            significant_digits(*a)
                .cmp(&significant_digits(*b))
                .then((a - mid).abs().total_cmp(&(b - mid).abs()))
        })
        .unwrap_or_else(|| simplest_between(lo, hi))
}

/// Penalty per significant digit of the threshold: between splits that fit equally well (the
/// rows between them are outliers, or there are none), the simpler threshold wins.
pub const THRESHOLD_DIGIT_COST: f64 = 0.25;

/// Number of significant decimal digits of `v` in its shortest representation (0 for 0).
pub fn significant_digits(v: f64) -> usize {
    if v == 0.0 || !v.is_finite() {
        return 0;
    }
    let s = format!("{:e}", v.abs());
    let mantissa = s.split('e').next().unwrap_or("");
    mantissa.chars().filter(|c| c.is_ascii_digit()).count()
}

/// A step model.
#[derive(Clone, Debug)]
pub struct StepModel {
    pub variable: usize,
    pub threshold: f64,
    /// Model where `x_variable > threshold`.
    pub right: LinearFit,
    /// Model elsewhere.
    pub left: LinearFit,
    pub candidate: Candidate,
}

fn restrict(basis: &[Term], rows: &[usize]) -> Vec<Term> {
    basis
        .iter()
        .map(|t| Term {
            expr: t.expr.clone(),
            values: rows.iter().map(|r| t.values[*r]).collect(),
            rank: t.rank,
            cost: t.cost,
        })
        .collect()
}

/// Best model of at most one term (least squares on scaled residuals), residuals per side row.
fn coarse_side(basis: &[Term], rows: &[usize], y: &[f64], s: &[f64]) -> Vec<f64> {
    let ys: Vec<f64> = rows.iter().map(|r| y[*r]).collect();
    let ss: Vec<f64> = rows.iter().map(|r| s[*r]).collect();
    let n = rows.len();
    let mut best: Option<(f64, Vec<f64>)> = None;
    let mut consider = |pred: Vec<f64>, p: usize, m: usize| {
        let r = criterion::residuals(&ys, &pred, &ss);
        let c = criterion::lts_criterion(&r, p, criterion::ebic_penalty(n, p, basis.len(), m));
        if best.as_ref().is_none_or(|(b, _)| c < *b) {
            best = Some((c, r));
        }
    };
    // Intercept only: weighted mean.
    let w: Vec<f64> = ss.iter().map(|s| 1.0 / (s * s)).collect();
    let mean = ys.iter().zip(&w).map(|(y, w)| y * w).sum::<f64>() / w.iter().sum::<f64>();
    consider(vec![mean; n], 1, 0);
    for t in basis {
        let tv: Vec<f64> = rows.iter().map(|r| t.values[*r]).collect();
        // Weighted simple regression y = a + b t.
        let sw: f64 = w.iter().sum();
        let mt = tv.iter().zip(&w).map(|(t, w)| t * w).sum::<f64>() / sw;
        let my = ys.iter().zip(&w).map(|(y, w)| y * w).sum::<f64>() / sw;
        let stt: f64 = tv.iter().zip(&w).map(|(t, w)| w * (t - mt) * (t - mt)).sum();
        if stt.is_nan() || stt <= 0.0 || !stt.is_finite() {
            continue;
        }
        let sty: f64 = tv
            .iter()
            .zip(&ys)
            .zip(&w)
            .map(|((t, y), w)| w * (t - mt) * (y - my))
            .sum();
        let b = sty / stt;
        let a = my - b * mt;
        consider(tv.iter().map(|t| a + b * t).collect(), 2, 1);
    }
    best.map(|(_, r)| r).unwrap_or_default()
}

/// Median over the three rows nearest to the threshold on each side of
/// `|f_right - f_left| / scale`, both sides evaluated with `x_j` set to the threshold.
fn jump<C: AsRef<[f64]>>(
    columns: &[C],
    scales: &[f64],
    j: usize,
    threshold: f64,
    left: (&[usize], &Expr),
    right: (&[usize], &Expr),
) -> f64 {
    let col = columns[j].as_ref();
    let nearest = |rows: &[usize]| {
        let mut rows = rows.to_vec();
        rows.sort_by(|a, b| crate::stats::cmp_f64(&(col[*a] - threshold).abs(), &(col[*b] - threshold).abs()));
        rows.truncate(3);
        rows
    };
    let jumps: Vec<f64> = nearest(left.0)
        .into_iter()
        .chain(nearest(right.0))
        .map(|row| {
            let mut x: Vec<f64> = columns.iter().map(|c| c.as_ref()[row]).collect();
            x[j] = threshold;
            let d = (crate::eval::eval_point(right.1, &x) - crate::eval::eval_point(left.1, &x)).abs() / scales[row];
            if d.is_nan() {
                f64::INFINITY
            } else {
                d
            }
        })
        .collect();
    if jumps.is_empty() {
        return f64::INFINITY;
    }
    crate::stats::median(&jumps)
}

/// Searches for step models (see the module documentation); best first, at most `keep`.
pub fn thresholds<C: AsRef<[f64]>>(
    columns: &[C],
    basis: &[Term],
    y: &[f64],
    regression: &RegressionOptions,
    options: &ThresholdOptions,
) -> Vec<StepModel> {
    let n = y.len();
    let s = criterion::row_scales(y, regression.scale);
    // (criterion, variable, lo, hi)
    let mut splits: Vec<(f64, usize, f64, f64)> = Vec::new();
    let mut tried = 0usize;
    for (j, col) in columns.iter().enumerate() {
        let col = col.as_ref();
        let mut sorted: Vec<f64> = col.to_vec();
        sorted.sort_by(crate::stats::cmp_f64);
        let mut uniq = sorted.clone();
        uniq.dedup();
        if uniq.len() < 2 {
            continue;
        }
        let mut positions: Vec<usize> = (0..uniq.len() - 1)
            .filter(|a| {
                let left = sorted.partition_point(|v| *v <= uniq[*a]);
                left >= options.min_side && n - left >= options.min_side
            })
            .collect();
        if positions.len() > options.max_splits {
            let m = positions.len();
            positions = (0..options.max_splits)
                .map(|i| positions[i * (m - 1) / (options.max_splits - 1).max(1)])
                .collect();
            positions.dedup();
        }
        for a in positions {
            tried += 1;
            let (lo, hi) = (uniq[a], uniq[a + 1]);
            let (right, left): (Vec<usize>, Vec<usize>) = (0..n).partition(|r| col[*r] > lo);
            let mut r = vec![0.0; n];
            for (side, rows) in [
                (&left, coarse_side(basis, &left, y, &s)),
                (&right, coarse_side(basis, &right, y, &s)),
            ] {
                for (k, row) in side.iter().enumerate() {
                    r[*row] = rows.get(k).copied().unwrap_or(criterion::INVALID_RESIDUAL);
                }
            }
            splits.push((criterion::lts_criterion(&r, 5, 0.0), j, lo, hi));
        }
    }
    splits.sort_by(|a, b| crate::stats::cmp_f64(&a.0, &b.0));
    splits.truncate(options.keep);
    let side_options = RegressionOptions {
        alternatives: 1,
        no_intercept_cost: 0.0,
        ..regression.clone()
    };
    let mut out = Vec::new();
    for (_, j, lo, hi) in splits {
        let col = columns[j].as_ref();
        let (right, left): (Vec<usize>, Vec<usize>) = (0..n).partition(|r| col[*r] > lo);
        let fit_side = |rows: &[usize]| -> Option<(LinearFit, Vec<Term>)> {
            let b = restrict(basis, rows);
            let ys: Vec<f64> = rows.iter().map(|r| y[*r]).collect();
            let res = regression::regress(&b, &ys, &side_options)?;
            Some((res.models.into_iter().next()?.fit, b))
        };
        let (Some((lf, lb)), Some((rf, rb))) = (fit_side(&left), fit_side(&right)) else {
            continue;
        };
        if lf.params() * options.min_rows_per_param > left.len()
            || rf.params() * options.min_rows_per_param > right.len()
        {
            continue;
        }
        let threshold = threshold_between(lo, hi, &options.constants);
        let (right_expr, left_expr) = (rf.expr(&rb), lf.expr(&lb));
        if jump(columns, &s, j, threshold, (&left, &left_expr), (&right, &right_expr)) < options.min_jump {
            continue;
        }
        let expr = crate::simplify::simplify(&Expr::if_else(Cond::var_gt(j, threshold), right_expr, left_expr));
        let mut pred = vec![0.0; n];
        for (rows, fit, b) in [(&left, &lf, &lb), (&right, &rf, &rb)] {
            for (k, v) in fit.predict(b, rows.len()).into_iter().enumerate() {
                pred[rows[k]] = v;
            }
        }
        let residuals = criterion::residuals(y, &pred, &s);
        let params = lf.params() + rf.params() + 1;
        let penalty = params as f64 * (n.max(2) as f64).ln()
            + lf.selection_cost(&lb)
            + rf.selection_cost(&rb)
            + 2.0 * (tried.max(1) as f64).ln()
            + THRESHOLD_DIGIT_COST * significant_digits(threshold) as f64;
        out.push(StepModel {
            variable: j,
            threshold,
            right: rf,
            left: lf,
            candidate: Candidate {
                expr,
                residuals,
                params,
                penalty,
                source: "threshold",
            },
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simplest_numbers() {
        assert_eq!(simplest_between(199123.0, 201456.0), 200000.0);
        // The code's constant wins when it separates the rows; otherwise the simplest number.
        assert_eq!(
            threshold_between(150000.0, 300000.0, &[1.0, 210000.0, 400000.0]),
            210000.0
        );
        assert_eq!(
            threshold_between(150000.0, 300000.0, &[210000.0, 250000.0, 200000.0]),
            200000.0
        );
        assert_eq!(
            threshold_between(200000.0, 300000.0, &[200000.0]),
            200000.0,
            "x > 200000 keeps 200000 below"
        );
        assert_eq!(threshold_between(150000.0, 300000.0, &[300000.0, 7.0]), 200000.0);
        assert_eq!(simplest_between(0.0, 1.0), 0.5);
        assert_eq!(simplest_between(-5.0, -3.0), -4.0);
        assert_eq!(simplest_between(-1.0, 1.0), 0.0);
        assert_eq!(simplest_between(150.0, 1500.0), 1000.0);
        assert_eq!(simplest_between(3.0, 4.0), 3.5);
        assert_eq!(simplest_between(0.31, 0.32), 0.315);
        assert_eq!(simplest_between(199999.0, 200001.0), 200000.0);
        assert_eq!(simplest_between(1.0, 1.0), 1.0);
        assert_eq!(significant_digits(200000.0), 1);
        assert_eq!(significant_digits(202000.0), 3);
        assert_eq!(significant_digits(0.315), 3);
        assert_eq!(significant_digits(0.0), 0);
    }

    #[test]
    fn finds_the_step() {
        let x: Vec<f64> = (0..80).map(|i| 1000.0 + f64::from(i) * 6217.0).collect();
        let y: Vec<f64> = x
            .iter()
            .map(|v| if *v > 200000.0 { 0.04 * v } else { 1500.0 })
            .collect();
        let b = regression::basis(std::slice::from_ref(&x));
        let steps = thresholds(
            &[x],
            &b,
            &y,
            &RegressionOptions::default(),
            &ThresholdOptions::default(),
        );
        assert_eq!(steps[0].candidate.expr.to_string(), "if(x1 > 200000, 0.04*x1, 1500)");
    }

    #[test]
    fn a_smooth_law_is_no_step() {
        // Nguyen-7 on 20 points: piecewise regressions fit it closely, but the sides meet at
        // every threshold; without the rules one of them was chosen and extrapolated badly.
        let x: Vec<f64> = (0..20).map(|i| 0.15 + 0.0975 * f64::from(i)).collect();
        let y: Vec<f64> = x.iter().map(|v| (v + 1.0).ln() + (v * v + 1.0).ln()).collect();
        let b = regression::basis(std::slice::from_ref(&x));
        let rule = |min_jump: f64, min_rows_per_param: usize| ThresholdOptions {
            min_jump,
            min_rows_per_param,
            ..ThresholdOptions::default()
        };
        let steps =
            |o: &ThresholdOptions| thresholds(std::slice::from_ref(&x), &b, &y, &RegressionOptions::default(), o);
        assert!(
            !steps(&rule(0.0, 0)).is_empty(),
            "without the rules, piecewise fits are proposed"
        );
        assert!(steps(&rule(0.02, 0)).is_empty(), "the sides meet: no jump");
        assert!(steps(&ThresholdOptions::default()).is_empty());
    }
}
