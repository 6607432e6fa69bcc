//! The statistical tests the evidence rules rest on, each with its assumptions stated.
//!
//! - [`points_differ`]: do the parameter points differ beyond the spread of their repetitions?
//!   The one-way analysis of variance of the logarithms (of the values themselves when some are
//!   not positive), its p-value by a seeded permutation of the point labels: an exact level for
//!   exchangeable noise whatever its distribution (lognormal, gross outliers), and power for a
//!   single point far from the rest (a rank test spreads its power over all orderings and
//!   misses it: p = 0.017 for one point at twice the others' value, four repetitions each).
//!   Past [`PERMUTATION_LIMIT`] observations, Kruskal and Wallis' rank test with its
//!   chi-square approximation.
//! - [`wilcoxon_greater`]: is one set of paired losses smaller than another (one-sided signed-rank
//!   test; exact distribution up to 25 pairs, normal approximation beyond).
//! - [`t_quantile`]: Student's t quantiles for confidence intervals.
//! - [`wilson`]: the Wilson score interval of a binomial proportion.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Observations beyond which [`points_differ`] uses the chi-square approximation (valid there)
/// instead of permutations (whose cost grows with the observations).
pub const PERMUTATION_LIMIT: usize = 4000;
/// Permutations of [`points_differ`]: the smallest p-value it can report is `1/2000`.
pub const PERMUTATIONS: usize = 1999;

/// Mid-ranks (1-based; ties share their mean rank) of `values`.
pub fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|a, b| values[*a].total_cmp(&values[*b]));
    let mut r = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]] == values[order[i]] {
            j += 1;
        }
        let mid = (i + j) as f64 / 2.0 + 1.0;
        for k in i..=j {
            r[order[k]] = mid;
        }
        i = j + 1;
    }
    r
}

/// `Σ_g (Σ values in g)² / n_g`: with ranks, the Kruskal-Wallis statistic up to constants; with
/// values, the between-group sum of squares up to constants fixed under permutation.
fn group_statistic(r: &[f64], group: &[usize], sizes: &[usize], sums: &mut [f64]) -> f64 {
    sums.iter_mut().for_each(|s| *s = 0.0);
    for (v, g) in r.iter().zip(group) {
        sums[*g] += v;
    }
    sums.iter().zip(sizes).map(|(s, n)| s * s / *n as f64).sum()
}

/// The p-value of the Kruskal-Wallis test that the groups of `groups` (one `Vec` of values per
/// parameter point) come from one distribution. `None` when it cannot be computed or says
/// nothing: fewer than two groups, or fewer repetitions than points beyond the first
/// observation of each (the within-point spread is then barely measured; with singleton groups
/// the statistic does not even change under permutation).
///
/// Exactly tied data: when every group is constant, the groups differ with certainty if any two
/// differ (p = 0), and not at all otherwise (p = 1).
pub fn points_differ(groups: &[Vec<f64>], seed: u64) -> Option<f64> {
    let observations: usize = groups.iter().map(Vec::len).sum();
    if observations < 2 * groups.len() {
        return None;
    }
    points_differ_with(groups, seed, 1)
}

/// [`points_differ`] for points only some of which are repeated: the test runs with at least
/// `within_df` repetitions beyond the first observation of each point (the degrees of freedom of
/// the within-point spread). The permutation p-value stays exact for exchangeable noise; only
/// its power is lower.
pub fn points_differ_with(groups: &[Vec<f64>], seed: u64, within_df: usize) -> Option<f64> {
    let observations: usize = groups.iter().map(Vec::len).sum();
    if groups.len() < 2 || groups.iter().any(|g| g.is_empty()) || observations < groups.len() + within_df.max(1) {
        return None;
    }
    let constant_groups = groups.iter().all(|g| g.iter().all(|v| *v == g[0]));
    if constant_groups {
        let first = groups[0][0];
        return Some(if groups.iter().all(|g| g[0] == first) { 1.0 } else { 0.0 });
    }
    let values: Vec<f64> = groups.iter().flatten().copied().collect();
    let group: Vec<usize> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, v)| std::iter::repeat_n(g, v.len()))
        .collect();
    let sizes: Vec<usize> = groups.iter().map(Vec::len).collect();
    let n = values.len() as f64;
    let mut sums = vec![0.0; groups.len()];
    // Positive measurements (times) vary by factors: compare their logarithms.
    let t: Vec<f64> = if values.iter().all(|v| *v > 0.0) {
        values.iter().map(|v| v.ln()).collect()
    } else {
        values.clone()
    };
    if values.len() > PERMUTATION_LIMIT {
        // The rank statistic H with the tie correction, chi-square with (groups - 1) degrees of
        // freedom: valid for this many observations.
        let r = ranks(&values);
        let observed = group_statistic(&r, &group, &sizes, &mut sums);
        let h = 12.0 / (n * (n + 1.0)) * observed - 3.0 * (n + 1.0);
        let mut tied = values.clone();
        tied.sort_by(f64::total_cmp);
        let mut ties = 0.0;
        let mut i = 0;
        while i < tied.len() {
            let j = tied[i..].iter().take_while(|v| **v == tied[i]).count();
            ties += (j * j * j - j) as f64;
            i += j;
        }
        let correction = 1.0 - ties / (n * n * n - n);
        if correction <= 0.0 {
            return Some(1.0);
        }
        return Some(chi_square_sf(h / correction, (groups.len() - 1) as f64));
    }
    // `Σ_g (Σ t in g)² / n_g` grows with the between-point sum of squares (the total is fixed
    // under permutation): the one-way analysis of variance's F, with an exact permutation level.
    let observed = group_statistic(&t, &group, &sizes, &mut sums);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut labels = group.clone();
    let tolerance = 1e-9 * observed.abs();
    let mut extreme = 0usize;
    for _ in 0..PERMUTATIONS {
        for i in (1..labels.len()).rev() {
            let j = rng.random_range(0..=i);
            labels.swap(i, j);
        }
        if group_statistic(&t, &labels, &sizes, &mut sums) >= observed - tolerance {
            extreme += 1;
        }
    }
    Some((extreme + 1) as f64 / (PERMUTATIONS + 1) as f64)
}

/// Two-sided p-value of Spearman's rank correlation between `x` and `y` (mid-ranks for ties;
/// normal approximation `z = rho·sqrt(n - 1)`). `None` below 10 pairs or when either side is
/// constant. A monotone trend in one input is the dependency performance data show; a test of
/// differences between points ignores their order and, with mostly single observations, has
/// little power.
pub fn trend_p(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len().min(y.len());
    if n < 10 {
        return None;
    }
    let (rx, ry) = (ranks(&x[..n]), ranks(&y[..n]));
    let mean = (n as f64 + 1.0) / 2.0;
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in rx.iter().zip(&ry) {
        sxy += (a - mean) * (b - mean);
        sxx += (a - mean) * (a - mean);
        syy += (b - mean) * (b - mean);
    }
    if sxx == 0.0 || syy == 0.0 {
        return None;
    }
    let rho = sxy / (sxx * syy).sqrt();
    Some((2.0 * normal_sf(rho.abs() * (n as f64 - 1.0).sqrt())).min(1.0))
}

/// One-sided Wilcoxon signed-rank test that the paired differences `d` tend to be positive
/// (zeros dropped, ties mid-ranked). `None` for no non-zero difference.
pub fn wilcoxon_greater(d: &[f64]) -> Option<f64> {
    let nz: Vec<f64> = d.iter().copied().filter(|v| *v != 0.0 && v.is_finite()).collect();
    let n = nz.len();
    if n == 0 {
        return None;
    }
    let abs: Vec<f64> = nz.iter().map(|v| v.abs()).collect();
    let r = ranks(&abs);
    let w_plus: f64 = r.iter().zip(&nz).filter(|(_, v)| **v > 0.0).map(|(r, _)| r).sum();
    if n <= 25 {
        // Exact: the distribution of the sum of a random subset of the (mid-)ranks, counted over
        // the 2^n sign patterns by dynamic programming on doubled ranks (mid-ranks are halves).
        let doubled: Vec<usize> = r.iter().map(|v| (v * 2.0).round() as usize).collect();
        let total: usize = doubled.iter().sum();
        let mut counts = vec![0f64; total + 1];
        counts[0] = 1.0;
        for d in &doubled {
            for s in (*d..=total).rev() {
                counts[s] += counts[s - d];
            }
        }
        let target = (w_plus * 2.0).round() as usize;
        let at_least: f64 = counts[target.min(total + 1)..].iter().sum();
        return Some(at_least / 2f64.powi(n as i32));
    }
    let nf = n as f64;
    let mean = nf * (nf + 1.0) / 4.0;
    let var = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0;
    let z = (w_plus - 0.5 - mean) / var.sqrt();
    Some(normal_sf(z))
}

/// Upper tail of the standard normal distribution.
pub fn normal_sf(z: f64) -> f64 {
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

/// Complementary error function (Numerical Recipes' Chebyshev fit, relative error < 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.26551223
            + t * (1.00002368
                + t * (0.37409196
                    + t * (0.09678418
                        + t * (-0.18628806
                            + t * (0.27886807
                                + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// `ln Γ(x)` for `x > 0` (Lanczos, g = 7).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + 7.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// Regularised upper incomplete gamma `Q(a, x)`.
fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let gln = ln_gamma(a);
    if x < a + 1.0 {
        // Series for P.
        let (mut sum, mut del, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..500 {
            ap += 1.0;
            del *= x / ap;
            sum += del;
            if del.abs() < sum.abs() * 1e-15 {
                break;
            }
        }
        1.0 - sum * (-x + a * x.ln() - gln).exp()
    } else {
        // Continued fraction for Q (modified Lentz).
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..500 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < 1e-15 {
                break;
            }
        }
        (-x + a * x.ln() - gln).exp() * h
    }
}

/// Upper tail of the chi-square distribution with `k` degrees of freedom.
pub fn chi_square_sf(x: f64, k: f64) -> f64 {
    gamma_q(k / 2.0, x / 2.0).clamp(0.0, 1.0)
}

/// The `x` with `P(X > x) = upper` for a chi-square `X` with `k` degrees of freedom (bisection).
pub fn chi_square_quantile_upper(upper: f64, k: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 10.0 * k + 100.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if chi_square_sf(mid, k) > upper {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Factor of a two-sided normal tolerance interval from `n` independent errors: the band of
/// `factor * rms` holds 95 % of fresh errors with 95 % confidence (Howe's approximation,
/// `z_0.975 * sqrt((n - 1) * (1 + 1/n) / chi2_0.05(n - 1))`). Twice the RMS holds 95 % only when
/// the RMS is known; from 13 points it is itself uncertain by a fifth, and a band built on a
/// low draw was missed by fresh points (issue 15). Infinite below 2.
pub fn tolerance_factor(n: usize) -> f64 {
    if n < 2 {
        return f64::INFINITY;
    }
    let nu = (n - 1) as f64;
    let chi = chi_square_quantile_upper(0.95, nu);
    1.959_964 * (nu * (1.0 + 1.0 / n as f64) / chi).sqrt()
}

/// Upper tail `P(F > f)` of Fisher's F distribution with `d1`, `d2` degrees of freedom.
pub fn f_sf(f: f64, d1: f64, d2: f64) -> f64 {
    if f <= 0.0 {
        return 1.0;
    }
    beta_inc(d2 / 2.0, d1 / 2.0, d2 / (d2 + d1 * f)).clamp(0.0, 1.0)
}

/// Regularised incomplete beta `I_x(a, b)` (continued fraction).
fn beta_inc(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front = (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    let cf = |a: f64, b: f64, x: f64| {
        let tiny = 1e-300;
        let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
        let mut c = 1.0;
        let mut d = 1.0 - qab * x / qap;
        if d.abs() < tiny {
            d = tiny;
        }
        d = 1.0 / d;
        let mut h = d;
        for m in 1..300 {
            let m = m as f64;
            let m2 = 2.0 * m;
            let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
            d = 1.0 + aa * d;
            d = if d.abs() < tiny { 1.0 / tiny } else { 1.0 / d };
            c = 1.0 + aa / c;
            if c.abs() < tiny {
                c = tiny;
            }
            h *= d * c;
            let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
            d = 1.0 + aa * d;
            d = if d.abs() < tiny { 1.0 / tiny } else { 1.0 / d };
            c = 1.0 + aa / c;
            if c.abs() < tiny {
                c = tiny;
            }
            let del = d * c;
            h *= del;
            if (del - 1.0).abs() < 1e-14 {
                break;
            }
        }
        h
    };
    if x < (a + 1.0) / (a + b + 2.0) {
        front * cf(a, b, x) / a
    } else {
        1.0 - front * cf(b, a, 1.0 - x) / b
    }
}

/// Two-sided tail `P(|T| > t)` of Student's t with `dof` degrees of freedom.
pub(crate) fn t_two_sided(t: f64, dof: f64) -> f64 {
    beta_inc(dof / 2.0, 0.5, dof / (dof + t * t))
}

/// The quantile `t` with `P(|T| > t) = alpha` (so `alpha = 0.05` gives the 95 % half-width
/// factor): bisection on the tail.
pub fn t_quantile(alpha: f64, dof: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 1e4);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if t_two_sided(mid, dof) > alpha {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The 95 % Wilson score interval of `successes` out of `trials` (`(0, 1)` for no trials).
pub fn wilson(successes: f64, trials: f64) -> (f64, f64) {
    if trials <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054;
    let p = successes / trials;
    let denom = 1.0 + z * z / trials;
    let centre = (p + z * z / (2.0 * trials)) / denom;
    let half = z * (p * (1.0 - p) / trials + z * z / (4.0 * trials * trials)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    #[test]
    fn tolerance_factors_match_the_tables() {
        // Two-sided 95 % coverage, 95 % confidence (NIST handbook, 7.2.6.3).
        for (n, table) in [(10, 3.379), (20, 2.752), (30, 2.549), (100, 2.233)] {
            let k = super::tolerance_factor(n);
            assert!((k - table).abs() < 0.02 * table, "n = {n}: {k} vs {table}");
        }
        assert!(super::tolerance_factor(1).is_infinite());
        assert!((super::chi_square_quantile_upper(0.95, 12.0) - 5.226).abs() < 0.01);
    }

    use super::*;

    #[test]
    fn ranks_share_ties() {
        assert_eq!(ranks(&[3.0, 1.0, 3.0, 2.0]), vec![3.5, 1.0, 3.5, 2.0]);
    }

    #[test]
    fn distributions_match_tables() {
        // chi-square(4) at 9.488 -> 0.05; (1) at 3.841 -> 0.05.
        assert!((chi_square_sf(9.4877, 4.0) - 0.05).abs() < 1e-4);
        assert!((chi_square_sf(3.8415, 1.0) - 0.05).abs() < 1e-4);
        assert!((chi_square_sf(30.0, 3.0) - 1.3800e-6).abs() < 1e-8);
        // t(0.05) for 1, 4, 30 degrees of freedom.
        assert!((t_quantile(0.05, 1.0) - 12.706).abs() < 1e-2);
        assert!((t_quantile(0.05, 4.0) - 2.7764).abs() < 1e-3);
        assert!((t_quantile(0.05, 30.0) - 2.0423).abs() < 1e-3);
        assert!((normal_sf(1.959964) - 0.025).abs() < 1e-6);
        // Wilson: 8 of 10 -> [0.490, 0.943].
        let (lo, hi) = wilson(8.0, 10.0);
        assert!((lo - 0.4902).abs() < 1e-3 && (hi - 0.9433).abs() < 1e-3, "{lo} {hi}");
    }

    #[test]
    fn wilcoxon_exact_small_samples() {
        // Five positive differences: p = 1/32.
        assert!((wilcoxon_greater(&[1.0, 2.0, 3.0, 4.0, 5.0]).unwrap() - 1.0 / 32.0).abs() < 1e-12);
        // All negative: p = 1.
        assert!((wilcoxon_greater(&[-1.0, -2.0, -3.0]).unwrap() - 1.0).abs() < 1e-12);
        assert_eq!(wilcoxon_greater(&[0.0, 0.0]), None);
        // Symmetric: about one half.
        let p = wilcoxon_greater(&[1.0, -1.5, 2.0, -2.5]).unwrap();
        assert!(p > 0.3 && p < 0.8, "{p}");
    }

    #[test]
    fn points_differ_separates_and_calibrates() {
        // Four points, three repetitions each, fully separated: the chi-square approximation
        // says p = 0.016; the permutation distribution knows better (1 of 15400 splits).
        let g: Vec<Vec<f64>> = (0..4).map(|p| (0..3).map(|r| (10 * p + r) as f64).collect()).collect();
        assert!(points_differ(&g, 1).unwrap() <= 0.002);
        // Exactly constant groups.
        assert_eq!(points_differ(&[vec![2.0, 2.0], vec![3.0, 3.0]], 1), Some(0.0));
        assert_eq!(points_differ(&[vec![2.0, 2.0], vec![2.0, 2.0]], 1), Some(1.0));
        // Too few repetitions to measure the spread.
        assert_eq!(points_differ(&[vec![2.0, 2.0], vec![2.0], vec![3.0]], 1), None);
        // No repetitions: no test.
        assert_eq!(points_differ(&[vec![1.0], vec![2.0]], 1), None);
        // Under the null hypothesis, p < 0.05 about 5 % of the time.
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut rejected = 0;
        for s in 0..200 {
            let g: Vec<Vec<f64>> = (0..5)
                .map(|_| (0..4).map(|_| crate::stats::standard_normal(&mut rng).exp()).collect())
                .collect();
            if points_differ(&g, s).unwrap() < 0.05 {
                rejected += 1;
            }
        }
        assert!((3..=20).contains(&rejected), "{rejected} of 200 rejected");
    }
}
