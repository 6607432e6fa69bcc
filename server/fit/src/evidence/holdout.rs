//! Held-out points: how well a form predicts a parameter point it was not fitted on.
//!
//! The points are split into folds by block (a point is a block of its own unless the rows carry
//! their runs, see [`super::points`]): one block per fold up to [`LEAVE_ONE_OUT_UP_TO`] blocks,
//! else [`K_FOLDS`] folds of blocks assigned by a seeded shuffle. Holding out a whole run is
//! what a fresh measurement is: points measured in one JVM right after one another share its
//! state, and a neighbour from the same run in the training set would make the held-out
//! prediction look better than a fresh run's. For each fold, the form's
//! coefficients are fitted again on the other points ([`refit`]: Levenberg-Marquardt from the
//! full-data values, with bisquare weights that keep gross outliers out) and the fold's points
//! are predicted. The form is refitted as it is: no linear scaling, so a law without an
//! intercept does not get one for free. A form that interpolates the training points (a seven-term law through five points)
//! predicts the held-out one badly; a law predicts it within the noise.

use crate::criterion::bisquare_weight;
use crate::criterion::INVALID_RESIDUAL;
use crate::dataset::Dataset;
use crate::expr::Expr;
use crate::gp::optimise::cholesky_solve;
use crate::gp::program::{children, evaluate, from_expr, jacobian, Node, Op, Scratch};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Blocks (points) up to which every block is its own fold.
pub const LEAVE_ONE_OUT_UP_TO: usize = 20;
/// Folds beyond [`LEAVE_ONE_OUT_UP_TO`] blocks.
pub const K_FOLDS: usize = 10;
/// Levenberg-Marquardt iterations of each refit (it starts at the full-data constants).
const REFIT_ITERATIONS: usize = 20;

/// Which fold each point belongs to.
#[derive(Clone, Debug, PartialEq)]
pub struct Folds {
    pub of_point: Vec<usize>,
    pub count: usize,
}

/// The folds of `points` points, each a block of its own (see the module documentation).
pub fn folds(points: usize, seed: u64) -> Folds {
    folds_of_blocks(&(0..points).collect::<Vec<_>>(), seed)
}

/// The folds of points in `blocks` (the block of each point, numbered from 0; see the module
/// documentation).
pub fn folds_of_blocks(blocks: &[usize], seed: u64) -> Folds {
    let count = blocks.iter().max().map_or(0, |b| b + 1);
    if count <= LEAVE_ONE_OUT_UP_TO {
        return Folds {
            of_point: blocks.to_vec(),
            count,
        };
    }
    let mut order: Vec<usize> = (0..count).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_f01d);
    for i in (1..count).rev() {
        let j = rng.random_range(0..=i);
        order.swap(i, j);
    }
    let mut fold_of_block = vec![0; count];
    for (rank, b) in order.into_iter().enumerate() {
        fold_of_block[b] = rank % K_FOLDS;
    }
    Folds {
        of_point: blocks.iter().map(|b| fold_of_block[*b]).collect(),
        count: K_FOLDS,
    }
}

/// The nodes a refit holds: exponents (the `2` of `x^2` is the form, not a coefficient) and the
/// right-hand sides of `if` comparisons (thresholds: their derivative is zero almost everywhere).
pub fn form_constants(p: &[Node]) -> Vec<bool> {
    let mut fixed = vec![false; p.len()];
    for i in 0..p.len() {
        let (ch, _) = children(p, i);
        let held = match p[i].op {
            Op::Pow => Some(ch[1]),
            Op::If(_) => Some(ch[1]),
            _ => None,
        };
        if let Some(c) = held.filter(|c| p[*c].op == Op::Const) {
            fixed[c] = true;
        }
    }
    fixed
}

/// Refits the free coefficients of `p` (those not `fixed`) to `y` by weighted least squares of
/// the scaled residuals `(y - f) / scales`, starting from their values; weights are Tukey's
/// bisquare of the starting residuals at `max(noise, their MAD scale)`. `false` when the program
/// is not finite on the rows.
pub fn refit(p: &mut [Node], fixed: &[bool], cols: &[Vec<f64>], y: &[f64], scales: &[f64], noise: f64) -> bool {
    let n = y.len();
    let params: Vec<usize> = (0..p.len()).filter(|i| p[*i].is_parameter() && !fixed[*i]).collect();
    let mut scratch = Scratch::new();
    let mut f = vec![0.0; n];
    evaluate(p, cols, n, &mut f, &mut scratch);
    if f.iter().any(|v| !v.is_finite()) {
        return false;
    }
    let k = params.len();
    if k == 0 || n == 0 {
        return true;
    }
    let residual = |f: &[f64]| -> Vec<f64> { (0..n).map(|i| (y[i] - f[i]) / scales[i]).collect() };
    let mut r = residual(&f);
    let mut abs: Vec<f64> = r.iter().map(|v| v.abs()).collect();
    abs.sort_by(f64::total_cmp);
    let sigma = (1.4826 * abs[n / 2]).max(noise).max(crate::criterion::EXACT);
    let w: Vec<f64> = r.iter().map(|v| bisquare_weight(v / (1.5 * sigma))).collect();
    let loss = |r: &[f64]| -> f64 { r.iter().zip(&w).map(|(r, w)| w * r * r).sum() };
    let mut current = loss(&r);
    let mut jac = vec![0.0; n * k];
    let mut lambda = 1e-3;
    let mut trial = vec![0.0; n];
    for _ in 0..REFIT_ITERATIONS {
        jacobian(p, cols, n, &params, &mut f, &mut jac, &mut scratch);
        let mut m = vec![0.0; k * k];
        let mut g = vec![0.0; k];
        for i in 0..n {
            if w[i] == 0.0 {
                continue;
            }
            let s = scales[i];
            for a in 0..k {
                let ja = jac[a * n + i] / s;
                if !ja.is_finite() {
                    continue;
                }
                g[a] += w[i] * ja * r[i];
                for b in 0..=a {
                    let jb = jac[b * n + i] / s;
                    if jb.is_finite() {
                        m[a * k + b] += w[i] * ja * jb;
                    }
                }
            }
        }
        let max_diag = (0..k).map(|a| m[a * k + a]).fold(0.0, f64::max);
        if !(max_diag.is_finite() && max_diag > 0.0) {
            break;
        }
        let mut improved = false;
        for _ in 0..8 {
            let mut sys = m.clone();
            for a in 0..k {
                sys[a * k + a] += lambda * m[a * k + a].max(1e-12 * max_diag) + 1e-300;
            }
            let mut delta = g.clone();
            if cholesky_solve(&mut sys, &mut delta, k).is_none() || delta.iter().any(|v| !v.is_finite()) {
                lambda *= 10.0;
                continue;
            }
            let old: Vec<f64> = params.iter().map(|i| p[*i].value).collect();
            for (q, i) in params.iter().enumerate() {
                p[*i].value += delta[q];
            }
            evaluate(p, cols, n, &mut trial, &mut scratch);
            let tr = residual(&trial);
            let l = loss(&tr);
            if trial.iter().all(|v| v.is_finite()) && l < current {
                improved = current - l > 1e-12 * current;
                current = l;
                r = tr;
                lambda = (lambda * 0.3).max(1e-12);
                break;
            }
            for (q, i) in params.iter().enumerate() {
                p[*i].value = old[q];
            }
            lambda *= 10.0;
        }
        if !improved {
            break;
        }
    }
    true
}

/// The held-out prediction of the form of `expr` at every row of `data` (one row per point),
/// refitted without the row's fold. `scales`: the rows' residual scales; `noise`: the floor of
/// the refit's robust scale (the selection's `σ̂`). `None` when the form cannot be compiled or is
/// not finite on some training set.
pub fn held_out(expr: &Expr, data: &Dataset, scales: &[f64], noise: f64, folds: &Folds) -> Option<Vec<f64>> {
    let program = from_expr(expr)?;
    let fixed = form_constants(&program);
    let n = data.len();
    let mut out = vec![f64::NAN; n];
    let mut scratch = Scratch::new();
    for fold in 0..folds.count {
        let train: Vec<usize> = (0..n).filter(|r| folds.of_point[*r] != fold).collect();
        let test: Vec<usize> = (0..n).filter(|r| folds.of_point[*r] == fold).collect();
        if test.is_empty() {
            continue;
        }
        if train.is_empty() {
            return None;
        }
        let pick = |v: &[f64], rows: &[usize]| -> Vec<f64> { rows.iter().map(|r| v[*r]).collect() };
        let cols: Vec<Vec<f64>> = data.columns.iter().map(|c| pick(c, &train)).collect();
        let mut p = program.clone();
        if !refit(
            &mut p,
            &fixed,
            &cols,
            &pick(&data.y, &train),
            &pick(scales, &train),
            noise,
        ) {
            return None;
        }
        let test_cols: Vec<Vec<f64>> = data.columns.iter().map(|c| pick(c, &test)).collect();
        let mut f = vec![0.0; test.len()];
        evaluate(&p, &test_cols, test.len(), &mut f, &mut scratch);
        for (r, v) in test.iter().zip(f) {
            out[*r] = v;
        }
    }
    Some(out)
}

/// Scaled held-out residuals `(y - prediction) / scale` (a non-finite prediction counts as
/// [`INVALID_RESIDUAL`]).
pub fn residuals(data: &Dataset, predictions: &[f64], scales: &[f64]) -> Vec<f64> {
    crate::criterion::residuals(&data.y, predictions, scales)
        .into_iter()
        .map(|r| if r.is_finite() { r } else { INVALID_RESIDUAL })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::criterion::{row_scales, ErrorScale};

    #[test]
    fn folds_cover_every_point_once() {
        assert_eq!(folds(5, 1).of_point, vec![0, 1, 2, 3, 4]);
        let f = folds(45, 7);
        assert_eq!(f.count, K_FOLDS);
        for k in 0..K_FOLDS {
            let size = f.of_point.iter().filter(|v| **v == k).count();
            assert!((4..=5).contains(&size), "fold {k}: {size}");
        }
        assert_eq!(folds(45, 7), f);
    }

    #[test]
    fn a_block_is_held_out_whole() {
        // 30 blocks of 1 to 3 points: 10 folds, and the points of a block always share theirs.
        let blocks: Vec<usize> = (0..30).flat_map(|b| std::iter::repeat_n(b, 1 + b % 3)).collect();
        let f = folds_of_blocks(&blocks, 3);
        assert_eq!(f.count, K_FOLDS);
        for (p, q) in (0..blocks.len()).flat_map(|p| (0..blocks.len()).map(move |q| (p, q))) {
            if blocks[p] == blocks[q] {
                assert_eq!(f.of_point[p], f.of_point[q]);
            }
        }
        // Up to LEAVE_ONE_OUT_UP_TO blocks, each block is a fold.
        let few = folds_of_blocks(&[0, 0, 1, 2, 2, 2], 3);
        assert_eq!((few.count, few.of_point.clone()), (3, vec![0, 0, 1, 2, 2, 2]));
    }

    #[test]
    fn a_law_predicts_held_out_points_and_an_interpolation_does_not() {
        // y = 2x + 10 with a little noise at 6 points.
        let x = vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let noise = [0.01, -0.02, 0.015, -0.01, 0.02, -0.015];
        let y: Vec<f64> = x.iter().zip(noise).map(|(x, e)| (2.0 * x + 10.0) * (1.0 + e)).collect();
        let data = Dataset::unnamed(vec![x], y).unwrap();
        let s = row_scales(&data.y, ErrorScale::Auto);
        let f = folds(6, 1);
        let law = Expr::Binary(
            crate::expr::BinaryOp::Add,
            Box::new(Expr::Binary(
                crate::expr::BinaryOp::Mul,
                Box::new(Expr::Const(2.0)),
                Box::new(Expr::Var(0)),
            )),
            Box::new(Expr::Const(10.0)),
        );
        let p = held_out(&law, &data, &s, 0.01, &f).unwrap();
        let r = residuals(&data, &p, &s);
        assert!(r.iter().all(|v| v.abs() < 0.06), "{r:?}");
        // A fifth-degree polynomial through the points extrapolates wildly at the ends.
        let x = || Box::new(Expr::Var(0));
        let mut poly = Expr::Const(10.0);
        for k in 1..=5 {
            poly = Expr::Binary(
                crate::expr::BinaryOp::Add,
                Box::new(poly),
                Box::new(Expr::Binary(
                    crate::expr::BinaryOp::Mul,
                    Box::new(Expr::Const(0.1)),
                    Box::new(Expr::Binary(
                        crate::expr::BinaryOp::Pow,
                        x(),
                        Box::new(Expr::Const(k as f64)),
                    )),
                )),
            );
        }
        let p = held_out(&poly, &data, &s, 0.01, &f).unwrap();
        let rp = residuals(&data, &p, &s);
        let worst = rp.iter().map(|v| v.abs()).fold(0.0, f64::max);
        assert!(worst > 0.1, "{rp:?}");
    }
}
