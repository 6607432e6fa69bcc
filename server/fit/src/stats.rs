//! Robust statistics of measurement results.
//!
//! Definitions (all ignore nothing: callers pass finite values; NaN sorts last):
//! - **Quantile** `q` in [0, 1]: linear interpolation between order statistics,
//!   `h = (n-1)·q`, `x[floor h] + (h - floor h)·(x[floor h + 1] - x[floor h])` on the sorted
//!   values (Hyndman & Fan type 7; R's and numpy's default). Median = quantile 0.5; quartiles
//!   Q1, Q3 = quantiles 0.25, 0.75.
//! - **MAD**: median of `|x - median|`, *unscaled*; [`mad_sigma`] is `1.4826·MAD`, a consistent
//!   estimate of the standard deviation for normal data.
//! - **Tukey outliers** ([`OutlierRule::Tukey`]): outside `[Q1 - k·IQR, Q3 + k·IQR]`, `k = 1.5`
//!   usually (3 for "far out").
//! - **MAD outliers** ([`OutlierRule::Mad`]): modified z-score `0.6745·|x - median| / MAD > z`,
//!   `z = 3.5` usually (Iglewicz & Hoaglin). With MAD = 0 (more than half the values equal),
//!   every value different from the median is an outlier.
//! - **Trimmed mean** with fraction `f`: drop `floor(f·n)` values from each end, mean of the rest.
//! - **Standard deviation**: the sample one (divisor `n - 1`); 0 for fewer than two values.

use rand::RngExt;
use std::cmp::Ordering;

fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(cmp_f64);
    v
}

/// Total order with NaN last.
pub fn cmp_f64(a: &f64, b: &f64) -> Ordering {
    a.partial_cmp(b).unwrap_or_else(|| a.is_nan().cmp(&b.is_nan()))
}

/// Quantile of already sorted values (type 7); NaN for no values.
pub fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    let n = sorted.len();
    if n == 0 {
        return f64::NAN;
    }
    let h = (n - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// Quantile (type 7); NaN for no values.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    quantile_sorted(&sorted(values), q)
}

pub fn median(values: &[f64]) -> f64 {
    quantile(values, 0.5)
}

/// The upper median of `|r|` (the element at index `len / 2` in order; NaN above infinity),
/// selected on the values' bits: for non-negative floats the integers' order is theirs, and an
/// integer selection is several times faster than one with a float comparator. `bits` is a
/// buffer the caller keeps. 0 for no values.
pub fn median_abs(r: &[f64], bits: &mut Vec<u64>) -> f64 {
    bits.clear();
    bits.extend(r.iter().map(|v| v.abs().to_bits()));
    if bits.is_empty() {
        return 0.0;
    }
    let mid = bits.len() / 2;
    f64::from_bits(*bits.select_nth_unstable(mid).1)
}

/// Whether `factor · median |r|` ([`median_abs`]'s median) is at most `limit`, by counting
/// (one pass, no selection): `factor · |r_i|` is monotone in `|r_i|`, so the median row is within
/// the limit exactly when more than half of the rows (the `len / 2 + 1` smallest) are. The robust
/// scales floor the median at a noise level; where it is below the floor the median itself is
/// not needed.
#[inline(always)]
pub fn scaled_median_abs_within(r: &[f64], factor: f64, limit: f64) -> bool {
    let within: usize = r.iter().map(|v| usize::from(factor * v.abs() <= limit)).sum();
    !r.is_empty() && within > r.len() / 2
}

/// `(Q1, median, Q3)`.
pub fn quartiles(values: &[f64]) -> (f64, f64, f64) {
    let s = sorted(values);
    (
        quantile_sorted(&s, 0.25),
        quantile_sorted(&s, 0.5),
        quantile_sorted(&s, 0.75),
    )
}

/// Interquartile range `Q3 - Q1`.
pub fn iqr(values: &[f64]) -> f64 {
    let (q1, _, q3) = quartiles(values);
    q3 - q1
}

/// Median absolute deviation from the median (unscaled).
pub fn mad(values: &[f64]) -> f64 {
    let m = median(values);
    let dev: Vec<f64> = values.iter().map(|x| (x - m).abs()).collect();
    median(&dev)
}

/// `1.4826 · MAD`: the standard deviation for normal data, robust to outliers.
pub fn mad_sigma(values: &[f64]) -> f64 {
    1.4826 * mad(values)
}

pub fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.iter().sum::<f64>() / values.len() as f64
}

/// Sample standard deviation (divisor `n - 1`); 0 for fewer than two values.
pub fn stddev(values: &[f64]) -> f64 {
    let n = values.len();
    if n < 2 {
        return 0.0;
    }
    let m = mean(values);
    (values.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64).sqrt()
}

/// Mean after dropping `floor(fraction·n)` values from each end (`fraction` in [0, 0.5)).
pub fn trimmed_mean(values: &[f64], fraction: f64) -> f64 {
    let s = sorted(values);
    let n = s.len();
    let k = ((fraction.clamp(0.0, 0.5) * n as f64).floor() as usize).min(n.saturating_sub(1) / 2);
    mean(&s[k..n - k])
}

/// An outlier rule (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OutlierRule {
    /// Outside `[Q1 - k·IQR, Q3 + k·IQR]`.
    Tukey { k: f64 },
    /// Modified z-score `0.6745·|x - median| / MAD` above `z`.
    Mad { z: f64 },
}

impl Default for OutlierRule {
    fn default() -> Self {
        OutlierRule::Mad { z: 3.5 }
    }
}

/// Which values the rule calls outliers (same order as `values`).
pub fn outliers(values: &[f64], rule: OutlierRule) -> Vec<bool> {
    match rule {
        OutlierRule::Tukey { k } => {
            let (q1, _, q3) = quartiles(values);
            let (lo, hi) = (q1 - k * (q3 - q1), q3 + k * (q3 - q1));
            values.iter().map(|x| *x < lo || *x > hi).collect()
        }
        OutlierRule::Mad { z } => {
            let m = median(values);
            let d = mad(values);
            values
                .iter()
                .map(|x| {
                    if d > 0.0 {
                        0.6745 * (x - m).abs() / d > z
                    } else {
                        *x != m
                    }
                })
                .collect()
        }
    }
}

/// Summary of a sample.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub count: usize,
    pub mean: f64,
    pub stddev: f64,
    pub min: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub max: f64,
    /// Unscaled MAD.
    pub mad: f64,
    /// Number of outliers by the default rule ([`OutlierRule::default`]).
    pub outliers: usize,
}

pub fn summary(values: &[f64]) -> Summary {
    let s = sorted(values);
    Summary {
        count: s.len(),
        mean: mean(&s),
        stddev: stddev(&s),
        min: s.first().copied().unwrap_or(f64::NAN),
        q1: quantile_sorted(&s, 0.25),
        median: quantile_sorted(&s, 0.5),
        q3: quantile_sorted(&s, 0.75),
        max: s.last().copied().unwrap_or(f64::NAN),
        mad: mad(&s),
        outliers: outliers(&s, OutlierRule::default()).iter().filter(|o| **o).count(),
    }
}

/// The measurements taken at one parameter point (rows with identical inputs).
#[derive(Clone, Debug, PartialEq)]
pub struct PointSummary {
    /// The input values of the point.
    pub inputs: Vec<f64>,
    /// Indices of its rows in the dataset, ascending.
    pub rows: Vec<usize>,
    pub summary: Summary,
}

/// Groups rows by identical inputs (bitwise equal values, `-0.0 == 0.0`) and summarises `y` per
/// group. `columns[i][row]` is input `i`; groups come in order of their first row.
pub fn per_point<C: AsRef<[f64]>>(columns: &[C], y: &[f64]) -> Vec<PointSummary> {
    use std::collections::HashMap;
    let key = |row: usize| -> Vec<u64> {
        columns
            .iter()
            .map(|c| {
                let v = c.as_ref()[row];
                (if v == 0.0 { 0.0 } else { v }).to_bits()
            })
            .collect()
    };
    let mut index: HashMap<Vec<u64>, usize> = HashMap::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for row in 0..y.len() {
        let g = *index.entry(key(row)).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(row);
    }
    groups
        .into_iter()
        .map(|rows| {
            let ys: Vec<f64> = rows.iter().map(|r| y[*r]).collect();
            PointSummary {
                inputs: columns.iter().map(|c| c.as_ref()[rows[0]]).collect(),
                summary: summary(&ys),
                rows,
            }
        })
        .collect()
}

/// A standard normal draw (Box-Muller): the noise of the tests and the GP's constant mutation.
pub fn standard_normal<R: RngExt + ?Sized>(rng: &mut R) -> f64 {
    let (u1, u2): (f64, f64) = (rng.random(), rng.random());
    (-2.0 * (1.0 - u1).ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// Coefficient of determination of predictions `f` for `y` (1 for an exact fit of a constant
/// `y`, `-inf` for a wrong one).
pub fn r_squared(y: &[f64], f: &[f64]) -> f64 {
    let m = mean(y);
    let sst: f64 = y.iter().map(|v| (v - m) * (v - m)).sum();
    let sse: f64 = y.iter().zip(f).map(|(v, f)| (v - f) * (v - f)).sum();
    if sst > 0.0 {
        1.0 - sse / sst
    } else if sse == 0.0 {
        1.0
    } else {
        f64::NEG_INFINITY
    }
}

/// Median of `|y - f| / |y|` over the rows with `y != 0` (0 when there are none).
pub fn median_relative_error(y: &[f64], f: &[f64]) -> f64 {
    let rel: Vec<f64> = y
        .iter()
        .zip(f)
        .filter(|(v, _)| **v != 0.0)
        .map(|(v, f)| ((v - f) / v).abs())
        .collect();
    if rel.is_empty() {
        0.0
    } else {
        median(&rel)
    }
}

#[cfg(test)]
mod median_abs_tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn the_median_of_bits_is_the_median_of_values() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut bits = Vec::new();
        for n in [1usize, 2, 3, 10, 151] {
            let mut r: Vec<f64> = (0..n)
                .map(|_| rng.random_range(-1e6..1e6) * rng.random_range(0.0..1e-3))
                .collect();
            r.push(-0.0);
            r.push(f64::INFINITY);
            let mut abs: Vec<f64> = r.iter().map(|v| v.abs()).collect();
            let mid = abs.len() / 2;
            let want = *abs.select_nth_unstable_by(mid, cmp_f64).1;
            assert_eq!(median_abs(&r, &mut bits), want, "n = {n}");
        }
        assert!(
            median_abs(&[f64::NAN, f64::NAN, 1.0], &mut bits).is_nan(),
            "NaN orders above"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_match_numpy_default() {
        let v = [7.0, 1.0, 3.0, 5.0];
        // numpy.quantile([1,3,5,7], [.25,.5,.75]) == [2.5, 4., 5.5]
        assert_eq!(quartiles(&v), (2.5, 4.0, 5.5));
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(quantile(&v, 1.0), 7.0);
        assert!(median(&[]).is_nan());
        assert_eq!(iqr(&v), 3.0);
    }

    #[test]
    fn counting_agrees_with_the_median_it_replaces() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        let mut bits = Vec::new();
        for trial in 0..3000 {
            let n = rng.random_range(1..40);
            // Few distinct values, so the median often equals the limit exactly.
            let r: Vec<f64> = (0..n)
                .map(|_| {
                    f64::from(rng.random_range(-6i32..6)) * 0.25 * if rng.random_bool(0.1) { f64::NAN } else { 1.0 }
                })
                .collect();
            let limit = f64::from(rng.random_range(0i32..8)) * 0.25 * 1.4826;
            let median = 1.4826 * median_abs(&r, &mut bits);
            assert_eq!(
                scaled_median_abs_within(&r, 1.4826, limit),
                median <= limit,
                "trial {trial}: {r:?} {limit}"
            );
        }
        assert!(!scaled_median_abs_within(&[], 1.0, 1.0));
    }

    #[test]
    fn dispersion() {
        let v = [1.0, 2.0, 3.0, 4.0, 100.0];
        assert_eq!(mad(&v), 1.0);
        assert!((mad_sigma(&v) - 1.4826).abs() < 1e-12);
        assert_eq!(mean(&[1.0, 2.0, 3.0]), 2.0);
        assert!((stddev(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]) - 2.138089935299395).abs() < 1e-12);
        assert_eq!(stddev(&[5.0]), 0.0);
        assert_eq!(trimmed_mean(&v, 0.2), 3.0);
        assert_eq!(trimmed_mean(&v, 0.0), 22.0);
        assert_eq!(trimmed_mean(&[1.0, 2.0], 0.49), 1.5);
    }

    #[test]
    fn outlier_rules() {
        let v = [10.0, 10.5, 9.8, 10.1, 30.0, 9.9, 10.2];
        let tukey = outliers(&v, OutlierRule::Tukey { k: 1.5 });
        let madr = outliers(&v, OutlierRule::default());
        let expected = [false, false, false, false, true, false, false];
        assert_eq!(tukey, expected);
        assert_eq!(madr, expected);
        // MAD = 0: anything off the median is an outlier.
        assert_eq!(
            outliers(&[1.0, 1.0, 1.0, 2.0], OutlierRule::default()),
            [false, false, false, true]
        );
        assert_eq!(summary(&v).outliers, 1);
    }

    #[test]
    fn per_point_groups_identical_inputs() {
        let x1 = [1.0, 2.0, 1.0, 2.0, 3.0];
        let x2 = [0.0, 0.0, -0.0, 1.0, 0.0];
        let y = [10.0, 20.0, 12.0, 30.0, 40.0];
        let groups = per_point(&[&x1[..], &x2[..]], &y);
        assert_eq!(groups.len(), 4);
        assert_eq!(groups[0].rows, vec![0, 2]);
        assert_eq!(groups[0].inputs, vec![1.0, 0.0]);
        assert_eq!(groups[0].summary.median, 11.0);
        assert_eq!(groups[0].summary.count, 2);
        assert_eq!(groups[3].rows, vec![4]);
    }
}
