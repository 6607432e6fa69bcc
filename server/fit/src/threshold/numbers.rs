//! Where programmers put thresholds, and which of them a threshold between two data values is.
//!
//! Code compares with constants of its source, round decimals (`200000`) and powers of two
//! (`4096`, `65536`). For `x > t` between the largest value on the left, `lo`, and the smallest on
//! the right, `hi`, every `t` with `lo <= t < hi` classifies the rows alike, so the data cannot
//! pin it down: the printed threshold is the plainest candidate in the gap, never a rounded
//! estimate (`66000` for the code's `65536` is a wrong law that happens to fit). In order:
//! 1. a constant of the code (static analysis) in `[lo, hi)`; among several the fewest digits,
//!    then the nearest to the midpoint;
//! 2. a decimal of one significant digit strictly inside (`200000`, `0.5`);
//! 3. a power of two `2^k`, `k >= 4`, in `[lo, hi)` (`65536` beats `66000` and `65000`);
//! 4. the decimal with the fewest significant digits strictly inside, nearest to the midpoint.
//!
//! [`complexity`] scores a threshold in that order (0.5, 1, 1.5, then its digits); the analysers
//! charge [`THRESHOLD_DIGIT_COST`] per unit, so among splits that fit equally well the plainer
//! threshold wins.

/// Penalty per unit of [`complexity`] of a threshold (one significant digit): between splits
/// that fit equally well (the rows between them are outliers, or there are none), the plainer
/// threshold wins.
pub const THRESHOLD_DIGIT_COST: f64 = 0.25;

/// Smallest exponent of the powers of two taken for thresholds: `16`. Below, a power of two is
/// no plainer than the decimal it is (`8`), or not a number code compares with for its own sake.
pub const MIN_POWER_OF_TWO: i32 = 4;

pub use crate::numeric::significant_digits;

/// Whether `v` is `2^k` with `k >= MIN_POWER_OF_TWO`.
pub fn is_power_of_two(v: f64) -> bool {
    v.is_finite() && v >= 2f64.powi(MIN_POWER_OF_TWO) && v == 2f64.powi(v.log2().round() as i32)
}

/// How plain a threshold reads (see the module documentation): 0.5 for a constant of the code,
/// 1.5 for a power of two of more than one digit, else its significant digits.
pub fn complexity(t: f64, constants: &[f64]) -> f64 {
    if constants.contains(&t) {
        return 0.5;
    }
    let digits = significant_digits(t);
    if digits > 1 && is_power_of_two(t) {
        1.5
    } else {
        digits as f64
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

/// The power of two `2^k` (`k >= MIN_POWER_OF_TWO`) in `[lo, hi)` nearest to the midpoint.
pub fn power_of_two_in(lo: f64, hi: f64) -> Option<f64> {
    let mid = lo + (hi - lo) / 2.0;
    (MIN_POWER_OF_TWO..=1000)
        .map(|k| 2f64.powi(k))
        .take_while(|p| p.is_finite() && *p < hi)
        .filter(|p| *p >= lo)
        .min_by(|a, b| (a - mid).abs().total_cmp(&(b - mid).abs()))
}

/// The plainest number for `x > t` between `lo` and `hi` without constants of the code: rules
/// 2 to 4 of the module documentation.
pub fn plainest_between(lo: f64, hi: f64) -> f64 {
    let decimal = simplest_between(lo, hi);
    let inside = decimal > lo && decimal < hi;
    if inside && significant_digits(decimal) <= 1 {
        return decimal;
    }
    power_of_two_in(lo, hi).unwrap_or(decimal)
}

/// The threshold for `x > t` between the rows at `lo` and above at `hi` (see the module
/// documentation): a constant of the code when one separates them (`lo <= c < hi`: the code's
/// own threshold, which the data cannot pin down more closely), else [`plainest_between`].
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
        .unwrap_or_else(|| plainest_between(lo, hi))
}

/// Knots to round `t` to, plainest first, where programmers put thresholds
/// (this module), each with the rise in robust loss (`2Σρ`) it may cost on `n` rows: the
/// code's three constants nearest to `t` (`ln n`: a knot the code names is no fitted constant,
/// which BIC prices at `ln n`), then at most 1 for one significant digit, the nearest power of
/// two, more digits. The first within its allowance is taken.
pub fn plain_knots(t: f64, constants: &[f64], n: usize) -> Vec<(f64, f64)> {
    let mut near: Vec<f64> = constants.iter().copied().filter(|c| c.is_finite()).collect();
    near.sort_by(|a, b| (a - t).abs().total_cmp(&(b - t).abs()));
    near.truncate(3);
    let named = (n.max(2) as f64).ln().max(1.0);
    let mut out: Vec<(f64, f64)> = near.into_iter().map(|c| (c, named)).collect();
    out.push((crate::numeric::round_significant(t, 1), 1.0));
    if t >= 2f64.powi(MIN_POWER_OF_TWO) {
        out.push((2f64.powi(t.log2().round() as i32), 1.0));
    }
    out.extend((2..=12).map(|digits| (crate::numeric::round_significant(t, digits), 1.0)));
    out
}

/// Fitted constants of a knot: none when the code names it.
pub fn knot_params(t: f64, constants: &[f64]) -> usize {
    usize::from(!constants.contains(&t))
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
    fn powers_of_two_between_one_and_two_digit_decimals() {
        // A power of two beats decimals of two or more digits...
        assert_eq!(threshold_between(65052.0, 67887.0, &[]), 65536.0);
        assert_eq!(threshold_between(64100.0, 66000.0, &[]), 65536.0);
        assert_eq!(threshold_between(4000.0, 4100.0, &[]), 4096.0);
        // ... and may be the left value itself (`x > 65536` keeps 65536 on the left).
        assert_eq!(threshold_between(65536.0, 66000.0, &[]), 65536.0);
        // A decimal of one digit beats it (the perf benchmark's 200000-byte step), and the
        // code's constants beat both.
        assert_eq!(threshold_between(190000.0, 270000.0, &[]), 200000.0);
        assert_eq!(threshold_between(63483.0, 70255.0, &[]), 70000.0);
        assert_eq!(threshold_between(65052.0, 67887.0, &[66000.0]), 66000.0);
        // Below 16 powers of two are not preferred; flags stay at 0.5.
        assert_eq!(threshold_between(7.5, 8.9, &[]), 8.0);
        assert_eq!(threshold_between(7.1, 7.9, &[]), 7.5);
        assert_eq!(threshold_between(0.0, 1.0, &[]), 0.5);
        assert_eq!(threshold_between(60.0, 66.0, &[]), 64.0);
        assert_eq!(threshold_between(3.0, 4.0, &[]), 3.5);
        assert_eq!(complexity(200000.0, &[]), 1.0);
        assert_eq!(complexity(65536.0, &[]), 1.5);
        assert_eq!(complexity(66000.0, &[]), 2.0);
        assert_eq!(complexity(65536.0, &[65536.0]), 0.5);
        assert_eq!(complexity(16.0, &[]), 1.5);
        assert_eq!(complexity(8.0, &[]), 1.0);
        assert!(is_power_of_two(1024.0) && !is_power_of_two(1000.0) && !is_power_of_two(4.0));
    }

    #[test]
    fn knots_round_to_the_codes_constants_first() {
        let tries = plain_knots(41730.0, &[0.0, 1.0, 40000.0, 65536.0], 100);
        let values: Vec<f64> = tries.iter().map(|t| t.0).collect();
        assert_eq!(&values[..6], &[40000.0, 65536.0, 1.0, 40000.0, 32768.0, 42000.0]);
        // A named knot may cost `ln n` (it is no fitted constant), a rounded one 1.
        assert!((tries[0].1 - 100f64.ln()).abs() < 1e-12 && tries[3].1 == 1.0);
        assert_eq!(
            (knot_params(40000.0, &[40000.0]), knot_params(41730.0, &[40000.0])),
            (0, 1)
        );
    }
}
