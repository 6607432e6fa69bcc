//! Model selection on a robust loss: how a candidate's residuals and size become one score.
//!
//! **Residuals** are scaled per row: with [`ErrorScale::Relative`] (the default when every `y` is
//! positive: times and counts have multiplicative noise) `r_i = (y_i - f_i) / |y_i|`, else
//! `r_i = (y_i - f_i) / RMS(y)`. A non-finite prediction counts as a residual of 1e6.
//!
//! **Noise level** `σ̂`: every candidate gets a least-trimmed-squares scale
//! ([`lts_scale`]: the smallest 90 % of the squared residuals, corrected to be consistent for normal
//! noise and for the fitted parameters), floored at [`EXACT`] (a relative error of 1e-9 is an
//! exact fit: noise-free data are fitted to rounding). The candidate with the lowest
//! `n·ln(σ_lts²) + penalty` sets `σ̂` for all.
//!
//! **Score** (lower is better) = `2·Σ ρ(r_i/σ̂) + penalty`, `ρ` Tukey's bisquare (`c = 4.685`),
//! scaled so that `2ρ(u) ≈ u²` near 0: for well-fitted rows this is the Gaussian
//! `-2·log-likelihood` with known `σ̂`, so with the penalty below it is BIC; an outlier costs at
//! most `c²/3 ≈ 7.3`, so 5 % of tripled samples cannot buy a spurious term.
//!
//! A candidate whose own LTS scale `σ_c` exceeds `3·σ̂` ([`FAR`]: it does not fit the majority of
//! the rows at the shared noise level) scores at least `2·Σ ρ(r_i/σ_c) + n·ln(σ_c²/σ̂²) + penalty`
//! (the Gaussian likelihood ratio of the two scales): far above `σ̂` the score keeps growing with
//! the error instead of saturating at `n·c²/3`, where the cheapest model of all (a constant)
//! would win among models that are all much worse than the best one (e.g. approximations of
//! noise-free data). Near `σ̂` the plain score is unchanged.
//!
//! **Penalty** ([`ebic_penalty`]): `p·ln n` for `p` fitted constants (BIC) plus
//! `2·ln C(P, m)` for choosing `m` of `P` candidate basis terms (extended BIC, Chen & Chen 2008,
//! `γ = 1`): searching thousands of subsets must not make noise look like a term.

/// Relative error below which a fit counts as exact.
pub const EXACT: f64 = 1e-9;
/// Fraction of the largest residuals the LTS scale ignores.
pub const TRIM: f64 = 0.1;
/// `E[z² | |z| < Φ⁻¹(0.95)]` for standard normal `z`: the mean of the smallest 90 % of squared
/// normal residuals relative to `σ²`.
const TRIM_CONSISTENCY: f64 = 0.6231;
/// Tukey bisquare tuning constant (95 % efficiency at the normal).
pub const BISQUARE_C: f64 = 4.685;
/// Huber tuning constant (95 % efficiency).
pub const HUBER_C: f64 = 1.345;
/// Residual of a non-finite prediction.
pub const INVALID_RESIDUAL: f64 = 1e6;

/// How residuals are scaled.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum ErrorScale {
    /// Relative when every target value is positive, else absolute.
    #[default]
    Auto,
    /// `(y - f) / |y|`: multiplicative noise.
    Relative,
    /// `(y - f) / max(|y|, r)`: multiplicative noise above the measurement's resolution `r`
    /// (a positive value in the target's unit, [`crate::Dataset::resolution`]), additive below
    /// it. Timings net of a probe's cost: a section that took 13 ns after 150 ns were subtracted
    /// is known to about 150 ns, not to 13.
    RelativeAbove(f64),
    /// `(y - f) / RMS(y)`: additive noise.
    Absolute,
}

/// Whether residuals of `y` are relative under `mode`.
pub fn is_relative(y: &[f64], mode: ErrorScale) -> bool {
    match mode {
        ErrorScale::Relative => y.iter().all(|v| *v != 0.0),
        ErrorScale::RelativeAbove(r) => r > 0.0 || y.iter().all(|v| *v != 0.0),
        ErrorScale::Absolute => false,
        ErrorScale::Auto => y.iter().all(|v| *v > 0.0),
    }
}

/// The divisor of each row's residual (see the module documentation).
pub fn row_scales(y: &[f64], mode: ErrorScale) -> Vec<f64> {
    if is_relative(y, mode) {
        let floor = match mode {
            ErrorScale::RelativeAbove(r) => r.max(0.0),
            _ => 0.0,
        };
        y.iter().map(|v| v.abs().max(floor)).collect()
    } else {
        let rms = (y.iter().map(|v| v * v).sum::<f64>() / y.len().max(1) as f64).sqrt();
        vec![if rms > 0.0 { rms } else { 1.0 }; y.len()]
    }
}

/// Scaled residuals `(y - f) / s`.
pub fn residuals(y: &[f64], f: &[f64], scales: &[f64]) -> Vec<f64> {
    y.iter()
        .zip(f)
        .zip(scales)
        .map(|((y, f), s)| {
            let r = (y - f) / s;
            if r.is_finite() {
                r
            } else {
                INVALID_RESIDUAL
            }
        })
        .collect()
}

/// LTS estimate of the noise level of residuals from a model with `p` fitted constants,
/// floored at [`EXACT`].
pub fn lts_scale(r: &[f64], p: usize) -> f64 {
    let n = r.len();
    if n == 0 {
        return EXACT;
    }
    let mut sq: Vec<f64> = r.iter().map(|v| v * v).collect();
    sq.sort_by(crate::stats::cmp_f64);
    let h = (n - (TRIM * n as f64).ceil() as usize).max(n.div_ceil(2)).max(1);
    let mean = sq[..h].iter().sum::<f64>() / h as f64;
    let dof = if n > p { n as f64 / (n - p) as f64 } else { 1e6 };
    let sigma = (mean / TRIM_CONSISTENCY * dof).sqrt();
    if sigma.is_finite() {
        sigma.max(EXACT)
    } else {
        INVALID_RESIDUAL
    }
}

/// `n·ln(σ_lts²) + penalty`: the criterion that picks the model whose noise level sets `σ̂`.
pub fn lts_criterion(r: &[f64], p: usize, penalty: f64) -> f64 {
    let s = lts_scale(r, p);
    r.len() as f64 * (s * s).ln() + penalty
}

/// Huber's loss scaled so that `2ρ(u) = u²` up to `c`; linear beyond. Unlike the bisquare it
/// never saturates: a held-out prediction that is off by a factor of ten costs ten times what
/// one off by a factor of one does, so a form that extrapolates wildly cannot hide behind a
/// bounded loss, while one wrong measurement still weighs only linearly.
#[inline]
pub fn huber_rho(u: f64) -> f64 {
    let a = u.abs();
    if a <= HUBER_C {
        a * a / 2.0
    } else {
        HUBER_C * a - HUBER_C * HUBER_C / 2.0
    }
}

/// Tukey's bisquare loss scaled so that `2ρ(u) ≈ u²` near 0; `c²/6` beyond `c`.
#[inline]
pub fn bisquare_rho(u: f64) -> f64 {
    let c2 = BISQUARE_C * BISQUARE_C;
    if u.abs() >= BISQUARE_C {
        c2 / 6.0
    } else {
        let t = 1.0 - u * u / c2;
        c2 / 6.0 * (1.0 - t * t * t)
    }
}

/// Bisquare IRLS weight.
#[inline]
pub fn bisquare_weight(u: f64) -> f64 {
    if u.abs() >= BISQUARE_C {
        0.0
    } else {
        let t = 1.0 - (u / BISQUARE_C) * (u / BISQUARE_C);
        t * t
    }
}

/// Huber IRLS weight.
#[inline]
pub fn huber_weight(u: f64) -> f64 {
    if u.abs() <= HUBER_C {
        1.0
    } else {
        HUBER_C / u.abs()
    }
}

/// `2·Σ ρ(r_i/σ)`.
pub fn rho_sum(r: &[f64], sigma: f64) -> f64 {
    2.0 * r.iter().map(|v| bisquare_rho(v / sigma)).sum::<f64>()
}

/// `ln C(total, chosen)`.
pub fn ln_binomial(total: usize, chosen: usize) -> f64 {
    if chosen > total {
        return 0.0;
    }
    let k = chosen.min(total - chosen);
    (0..k).map(|i| ((total - i) as f64 / (i + 1) as f64).ln()).sum()
}

/// `p·ln n + 2·ln C(P, m)` (see the module documentation).
pub fn ebic_penalty(n: usize, p: usize, basis_size: usize, m: usize) -> f64 {
    p as f64 * (n.max(2) as f64).ln() + 2.0 * ln_binomial(basis_size, m)
}

/// A model proposed by an analyser, with what selection needs.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub expr: crate::expr::Expr,
    /// Scaled residuals on the dataset (see [`residuals`]).
    pub residuals: Vec<f64>,
    /// Fitted constants.
    pub params: usize,
    /// [`ebic_penalty`] plus any cost of the analyser's own search (e.g. choosing a threshold).
    pub penalty: f64,
    /// Which analyser proposed it (`"constant"`, `"regression"`, `"threshold"`, ...).
    pub source: &'static str,
}

/// Scores of a set of candidates.
#[derive(Clone, Debug)]
pub struct Selection {
    /// Index of the best candidate.
    pub best: usize,
    /// `σ̂` shared by all scores.
    pub sigma: f64,
    /// Score of every candidate, same order (lower is better).
    pub scores: Vec<f64>,
}

/// The noise level `σ̂` set by the candidate with the lowest LTS criterion.
pub fn shared_sigma(candidates: &[Candidate]) -> f64 {
    candidates
        .iter()
        .map(|c| {
            (
                lts_criterion(&c.residuals, c.params, c.penalty),
                lts_scale(&c.residuals, c.params),
            )
        })
        .min_by(|a, b| crate::stats::cmp_f64(&a.0, &b.0))
        .map_or(EXACT, |(_, s)| s)
}

/// Own LTS scale, relative to `σ̂`, beyond which a candidate is also scored at its own scale.
pub const FAR: f64 = 3.0;

/// The score of one candidate against the shared noise level `sigma` (see the module
/// documentation).
pub fn score(c: &Candidate, sigma: f64) -> f64 {
    score_with_share(c, sigma, 1.0)
}

/// [`score`] with the data's terms weighed by `share` (the effective share of independent rows,
/// see [`select_with_share`]).
fn score_with_share(c: &Candidate, sigma: f64, share: f64) -> f64 {
    let shared = share * rho_sum(&c.residuals, sigma) + c.penalty;
    let own = lts_scale(&c.residuals, c.params);
    if own <= FAR * sigma {
        return shared;
    }
    let at_own = share * (rho_sum(&c.residuals, own) + c.residuals.len() as f64 * ((own / sigma) * (own / sigma)).ln())
        + c.penalty;
    shared.max(at_own)
}

/// Scores candidates (see the module documentation); ties go to the earlier candidate. `None`
/// for no candidates.
pub fn select(candidates: &[Candidate]) -> Option<Selection> {
    select_with_share(candidates, 1.0)
}

/// [`select`] where the rows are not all independent: `share` is the effective number of rows
/// over their number (runs over points when the points of one run share its context, see
/// `evidence::points`). The data's terms of the scores shrink by it, so that 400 points from 16
/// runs buy no more complexity than about 16 points would: counted as 400, the per-run
/// offsets that no input explains make every extra term look worth its penalty.
pub fn select_with_share(candidates: &[Candidate], share: f64) -> Option<Selection> {
    if candidates.is_empty() {
        return None;
    }
    let sigma = shared_sigma(candidates);
    let scores: Vec<f64> = candidates.iter().map(|c| score_with_share(c, sigma, share)).collect();
    let mut best = 0;
    for (i, s) in scores.iter().enumerate() {
        if *s < scores[best] {
            best = i;
        }
    }
    Some(Selection { best, sigma, scores })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_and_losses() {
        assert_eq!(row_scales(&[2.0, 4.0], ErrorScale::Auto), vec![2.0, 4.0]);
        assert_eq!(row_scales(&[0.0, 2.0], ErrorScale::Auto), vec![2.0f64.sqrt(); 2]);
        assert_eq!(
            residuals(&[2.0, 4.0], &[1.0, f64::NAN], &[2.0, 4.0]),
            vec![0.5, INVALID_RESIDUAL]
        );
        assert!((2.0 * bisquare_rho(0.01) - 1e-4).abs() < 1e-8);
        assert_eq!(bisquare_rho(100.0), BISQUARE_C * BISQUARE_C / 6.0);
        assert_eq!(bisquare_weight(0.0), 1.0);
        assert_eq!(bisquare_weight(5.0), 0.0);
        assert!((ln_binomial(5, 2) - 10f64.ln()).abs() < 1e-12);
        assert_eq!(ln_binomial(5, 0), 0.0);
        assert_eq!(lts_scale(&[0.0; 10], 1), EXACT);
    }

    #[test]
    fn models_far_worse_than_the_best_do_not_all_saturate() {
        let c = |r: f64, params: usize, penalty: f64| Candidate {
            expr: crate::expr::Expr::Const(0.0),
            residuals: (0..20).map(|i| if i % 2 == 0 { r } else { -r }).collect(),
            params,
            penalty,
            source: "test",
        };
        // An exact but expensive model sets σ̂ = EXACT; an approximation (1e-3) and a constant
        // (0.5) are both far worse, but not equally bad.
        let cands = [c(0.0, 8, 120.0), c(1e-3, 4, 20.0), c(0.5, 1, 3.0)];
        let sel = select(&cands).unwrap();
        assert_eq!(sel.sigma, EXACT);
        assert_eq!(sel.best, 0);
        assert!(sel.scores[1] < sel.scores[2], "{:?}", sel.scores);
        // Near σ̂ the plain score is kept.
        let near = [c(0.01, 1, 3.0), c(0.02, 1, 3.0)];
        let sel = select(&near).unwrap();
        assert_eq!(sel.scores[1], rho_sum(&near[1].residuals, sel.sigma) + 3.0);
    }

    #[test]
    fn lts_scale_ignores_a_few_outliers_and_is_consistent() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut r: Vec<f64> = (0..2000)
            .map(|_| 0.1 * crate::stats::standard_normal(&mut rng))
            .collect();
        let clean = lts_scale(&r, 1);
        assert!((clean - 0.1).abs() < 0.01, "{clean}");
        for v in r.iter_mut().take(100) {
            *v = 2.0;
        }
        let dirty = lts_scale(&r, 1);
        assert!((dirty - 0.1).abs() < 0.02, "{dirty}");
    }
}
