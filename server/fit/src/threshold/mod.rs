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
//! 4. The candidate's penalty counts the constants of both sides and the threshold (unless the
//!    code names it), the subset
//!    choices of both sides, and `2·ln` of the number of splits tried (choosing the best of many
//!    splits must not make noise look like a step). So a step is accepted only when it clearly
//!    beats a single regression in [`crate::criterion::select`].
//!
//! 5. **The data choose the gap** ([`choose_gap`]): the coarse scan trims the worst rows, so
//!    under noise its split may sit a row or two off; with both sides' models held, the
//!    neighbouring splits are scored by the loss of every row, and of those within 1 of the best
//!    the one with the plainest threshold is kept (and both sides refitted).
//!
//! The threshold printed is where programmers put thresholds ([`numbers`]): a constant of the
//! code in the gap, else a one-digit decimal, a power of two, the simplest decimal
//! ([`threshold_between`]): sizes 199123 and 201456 on either side give `x1 > 200000`, 65052
//! and 67887 give `x1 > 65536`, a 0/1 flag gives `x2 > 0.5`.

use crate::criterion::{self, Candidate};
use crate::expr::{Cond, Expr};
use crate::regression::{self, LinearFit, RegressionOptions, Term};

mod numbers;
pub use numbers::{
    complexity, is_power_of_two, knot_params, plain_knots, plainest_between, power_of_two_in, significant_digits,
    simplest_between, threshold_between, MIN_POWER_OF_TWO, THRESHOLD_DIGIT_COST,
};

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

/// Both sides' models evaluated on every row, for [`choose_gap`].
struct SidePredictions<'a> {
    left: &'a [f64],
    right: &'a [f64],
    y: &'a [f64],
    scales: &'a [f64],
    /// Fitted constants of the step (for the noise level).
    params: usize,
}

/// Distinct values of an input on either side of the split found that [`choose_gap`] considers.
pub const GAP_WINDOW: usize = 6;

/// The gap the data put the step in, as `(lo, threshold)`: with both sides' models held, each
/// split within [`GAP_WINDOW`] distinct values of the one after `lo` is scored by the bisquare
/// loss `2Σρ` of all rows at the step's own noise level, and among the splits within 1 of the
/// best (`ln n` for a constant of the code: it is no fitted constant) the one with the plainest
/// threshold ([`complexity`]) wins, then the lower loss. The
/// coarse scan trims the worst tenth of the rows, so under noise it may put a row of the far
/// side on the wrong one (the split after 67887 for a step at 65536); the loss of every row
/// moves it back, and where rows cannot tell (noise, no rows) the plainer threshold is taken.
/// `None` when no split keeps `min_side` rows on each side.
fn choose_gap(col: &[f64], sides: &SidePredictions, lo: f64, options: &ThresholdOptions) -> Option<(f64, f64)> {
    let n = col.len();
    let mut sorted = col.to_vec();
    sorted.sort_by(crate::stats::cmp_f64);
    let mut uniq = sorted.clone();
    uniq.dedup();
    let at = uniq.iter().position(|v| *v == lo)?;
    let residuals = |a: usize| -> Vec<f64> {
        let pred: Vec<f64> = (0..n)
            .map(|r| {
                if col[r] > uniq[a] {
                    sides.right[r]
                } else {
                    sides.left[r]
                }
            })
            .collect();
        criterion::residuals(sides.y, &pred, sides.scales)
    };
    let sigma = criterion::lts_scale(&residuals(at), sides.params);
    let gaps: Vec<(usize, f64)> = (at.saturating_sub(GAP_WINDOW)..(at + GAP_WINDOW + 1).min(uniq.len() - 1))
        .filter(|a| {
            let left = sorted.partition_point(|v| *v <= uniq[*a]);
            left >= options.min_side && n - left >= options.min_side
        })
        .map(|a| (a, criterion::rho_sum(&residuals(a), sigma)))
        .collect();
    let best = gaps.iter().map(|g| g.1).fold(f64::INFINITY, f64::min);
    // A threshold the code names is no fitted constant: BIC prices that at `ln n`.
    let named = (n.max(2) as f64).ln().max(1.0);
    gaps.into_iter()
        .map(|(a, loss)| {
            let t = threshold_between(uniq[a], uniq[a + 1], &options.constants);
            (uniq[a], t, complexity(t, &options.constants), loss)
        })
        .filter(|(_, t, _, loss)| *loss <= best + if options.constants.contains(t) { named } else { 1.0 })
        .min_by(|a, b| a.2.total_cmp(&b.2).then(a.3.total_cmp(&b.3)))
        .map(|(lo, t, _, _)| (lo, t))
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
    let mut out: Vec<StepModel> = Vec::new();
    for (_, j, lo, _) in splits {
        let col = columns[j].as_ref();
        let fit_side = |rows: &[usize]| -> Option<(LinearFit, Vec<Term>)> {
            let b = restrict(basis, rows);
            let ys: Vec<f64> = rows.iter().map(|r| y[*r]).collect();
            let res = regression::regress(&b, &ys, &side_options)?;
            Some((res.models.into_iter().next()?.fit, b))
        };
        // Both sides fitted with the split after `lo`.
        let fit_at = |lo: f64| {
            let (right, left): (Vec<usize>, Vec<usize>) = (0..n).partition(|r| col[*r] > lo);
            let (Some((lf, lb)), Some((rf, rb))) = (fit_side(&left), fit_side(&right)) else {
                return None;
            };
            let ok = lf.params() * options.min_rows_per_param <= left.len()
                && rf.params() * options.min_rows_per_param <= right.len();
            ok.then_some((left, right, lf, lb, rf, rb))
        };
        let Some(first) = fit_at(lo) else {
            continue;
        };
        let (left_expr, right_expr) = (first.2.expr(&first.3), first.4.expr(&first.5));
        let gap = choose_gap(
            col,
            &SidePredictions {
                left: &crate::eval::eval(&left_expr, columns, n),
                right: &crate::eval::eval(&right_expr, columns, n),
                y,
                scales: &s,
                params: first.2.params() + first.4.params() + 1,
            },
            lo,
            options,
        );
        let Some((threshold, (left, right, lf, lb, rf, rb))) = (match gap {
            Some((l, t)) if l != lo => fit_at(l).map(|f| (t, f)),
            Some((_, t)) => Some((t, first)),
            None => None,
        }) else {
            continue;
        };
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
        let params = lf.params() + rf.params() + knot_params(threshold, &options.constants);
        let penalty = params as f64 * (n.max(2) as f64).ln()
            + lf.selection_cost(&lb)
            + rf.selection_cost(&rb)
            + 2.0 * (tried.max(1) as f64).ln()
            + THRESHOLD_DIGIT_COST * complexity(threshold, &options.constants);
        // Neighbouring splits of the coarse scan often settle in the same gap.
        if out.iter().any(|m| m.candidate.expr == expr) {
            continue;
        }
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
