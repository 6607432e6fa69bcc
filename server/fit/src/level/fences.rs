//! Tukey's far-out fences, and when what lies beyond them is no outlier.
//!
//! Within a point of at least [`MIN_FOR_FENCES`] values, a value below `Q1 − 3·IQR` or above
//! `Q3 + 3·IQR` is far out. Fences of 3 IQR, not the usual 1.5, because timing data are
//! right-skewed and the usual fences would cut a tenth of ordinary runs.
//!
//! Far-out values are **outliers only when they are rare**: a GC pause, a JIT recompilation, a
//! descheduled thread, one or two runs in a hundred. Beyond a fence an exponential distribution
//! leaves 0.9 % of its values, a normal one none, so the values beyond one fence are removed
//! when their count is one that stray events at [`STRAY_RATE`] explain (binomial upper tail at
//! least [`STRAY_ALPHA`]: 3 of 64; always a lone one). More of them are a part of the distribution that the
//! mean must count: a small-file store whose `write` takes 5-8 µs nine times in ten and 35-50 µs
//! the tenth has its fence near 12 µs, and cutting the tenth call would publish 6.3 µs for a
//! mean of 9.4 µs.

/// Fewest values at a point for the fences to apply.
pub const MIN_FOR_FENCES: usize = 4;
/// Fence distance in interquartile ranges.
pub const FENCE_IQR: f64 = 3.0;
/// The rate of stray events (pauses, recompilations) that far-out values may come from.
pub const STRAY_RATE: f64 = 0.01;
/// Level of the test that the values beyond a fence are more than stray events explain.
pub const STRAY_ALPHA: f64 = 0.01;

/// The raw far-out fences `(low, high)` of sorted values (infinite for fewer than
/// [`MIN_FOR_FENCES`]) and how many values lie below and above them.
fn raw(sorted: &[f64]) -> ((f64, f64), (usize, usize)) {
    let n = sorted.len();
    if n < MIN_FOR_FENCES {
        return ((f64::NEG_INFINITY, f64::INFINITY), (0, 0));
    }
    let (q1, q3) = (
        crate::stats::quantile_sorted(sorted, 0.25),
        crate::stats::quantile_sorted(sorted, 0.75),
    );
    let iqr = q3 - q1;
    let (low, high) = (q1 - FENCE_IQR * iqr, q3 + FENCE_IQR * iqr);
    let below = sorted.partition_point(|v| *v < low);
    let above = n - sorted.partition_point(|v| *v <= high);
    ((low, high), (below, above))
}

/// The fences `(low, high)` of each group of sorted values (the points of one element): each
/// group's own far-out fences, dropped on a side whose far-out values are too many to be stray
/// (see the module documentation) at the point and over all the points: the rate of pauses is
/// the process's, not a point's, and a point that drew 3 slow calls in 60 from a one-in-ten slow
/// path would pass them for stray on its own. A lone far-out value at a point is always cut: one
/// observation shows no mode there, and it would dominate a small point's mean.
pub fn far_out(groups: &[&[f64]]) -> Vec<(f64, f64)> {
    let raws: Vec<_> = groups.iter().map(|g| raw(g)).collect();
    let n: usize = groups
        .iter()
        .map(|g| if g.len() < MIN_FOR_FENCES { 0 } else { g.len() })
        .sum();
    let below: usize = raws.iter().map(|r| r.1 .0).sum();
    let above: usize = raws.iter().map(|r| r.1 .1).sum();
    let (pool_low, pool_high) = (stray(below, n), stray(above, n));
    raws.iter()
        .zip(groups)
        .map(|(((low, high), (k_low, k_high)), g)| {
            let cut = |k: usize, pooled: bool| k <= 1 || (pooled && stray(k, g.len()));
            (
                if cut(*k_low, pool_low) { *low } else { f64::NEG_INFINITY },
                if cut(*k_high, pool_high) { *high } else { f64::INFINITY },
            )
        })
        .collect()
}

/// The values of each group within [`far_out`]'s fences, sorted.
pub fn kept_groups(groups: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let sorted: Vec<Vec<f64>> = groups
        .iter()
        .map(|g| {
            let mut s = g.clone();
            s.sort_by(crate::stats::cmp_f64);
            s
        })
        .collect();
    let views: Vec<&[f64]> = sorted.iter().map(Vec::as_slice).collect();
    let fences = far_out(&views);
    sorted
        .into_iter()
        .zip(fences)
        .map(|(mut s, (low, high))| {
            s.retain(|v| *v >= low && *v <= high);
            s
        })
        .collect()
}

/// The values within the fences of one group, sorted.
pub fn kept(values: &[f64]) -> Vec<f64> {
    kept_groups(&[values.to_vec()]).pop().unwrap_or_default()
}

/// Whether `k` of `n` values beyond a fence are as many as stray events explain.
fn stray(k: usize, n: usize) -> bool {
    k == 0 || binomial_upper_tail(n, k, STRAY_RATE) >= STRAY_ALPHA
}

/// `P(X >= k)` for `X ~ Binomial(n, p)`, summed in logarithms (no underflow for large `n`).
fn binomial_upper_tail(n: usize, k: usize, p: f64) -> f64 {
    if k == 0 {
        return 1.0;
    }
    if k > n {
        return 0.0;
    }
    // At or below the expected count the tail is at least about a half.
    if (k as f64) <= n as f64 * p {
        return 1.0;
    }
    let (lp, lq) = (p.ln(), (1.0 - p).ln());
    // ln C(n, k)
    let mut ln_c: f64 = (0..k).map(|i| ((n - i) as f64 / (i + 1) as f64).ln()).sum();
    let mut total = 0.0;
    for j in k..=n {
        let term = (ln_c + j as f64 * lp + (n - j) as f64 * lq).exp();
        total += term;
        // Past the mode the terms fall at least geometrically: stop once they no longer count.
        if term < 1e-17 * total {
            break;
        }
        ln_c += ((n - j) as f64 / (j + 1) as f64).ln();
    }
    total.min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_tail_matches_the_table() {
        // 1 - 0.99^6
        assert!((binomial_upper_tail(6, 1, 0.01) - 0.058_519_850_599).abs() < 1e-9);
        // P(X >= 8), n = 10, p = 0.5: (45 + 10 + 1)/1024
        assert!((binomial_upper_tail(10, 8, 0.5) - 56.0 / 1024.0).abs() < 1e-12);
        assert_eq!(binomial_upper_tail(5, 6, 0.5), 0.0);
        assert!(binomial_upper_tail(1_000_000, 20_000, 0.01) < 1e-100);
    }

    #[test]
    fn a_pause_is_cut_a_slow_tenth_is_kept() {
        let pause = [10.0, 10.5, 9.8, 10.2, 11.0, 250.0];
        assert_eq!(kept(&pause).len(), 5);
        // 64 calls, one in ten slow: the fence is near 12, six values beyond it.
        let mix: Vec<f64> = (0..64)
            .map(|i| {
                if i % 10 == 9 {
                    40.0 + i as f64 / 10.0
                } else {
                    5.0 + (i % 7) as f64 / 2.0
                }
            })
            .collect();
        let mut sorted = mix.clone();
        sorted.sort_by(f64::total_cmp);
        let (_, high) = far_out(&[&sorted])[0];
        assert_eq!(high, f64::INFINITY);
        assert_eq!(kept(&mix).len(), 64);
        // Three pauses in 64: stray.
        let mut few: Vec<f64> = (0..61).map(|i| 5.0 + (i % 7) as f64 / 2.0).collect();
        few.extend([400.0, 500.0, 450.0]);
        assert_eq!(kept(&few).len(), 61);
        assert_eq!(kept(&[1.0, 1.0, 1000.0]).len(), 3, "too few values for fences");
        // A point with 3 slow calls in 64 keeps them when the element's other points show the
        // slow path is one call in ten.
        let groups = vec![few.clone(), mix.clone(), mix];
        assert_eq!(kept_groups(&groups)[0].len(), 64);
        // Three pauses among four points of 64: stray; three at each of two points: a part of it.
        let clean: Vec<f64> = (0..64).map(|i| 5.0 + (i % 7) as f64 / 2.0).collect();
        let quiet = vec![few.clone(), clean.clone(), clean.clone(), clean];
        assert_eq!(kept_groups(&quiet)[0].len(), 61);
        assert_eq!(kept_groups(&[few.clone(), few.clone()])[1].len(), 64);
    }
}
