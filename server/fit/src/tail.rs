//! Heavy tails published as a distribution over the law.
//!
//! A law's level is set from the points' means ([`crate::level`]): a simulator adds means, so the
//! mean must be right at every point. Where the means depart from the medians because a share of
//! the calls is much slower (an allocation's slow path, a collection's growth, a cache miss), a
//! number gives the mean and loses the spread, and a simulator's response-time percentiles come
//! out too narrow. So the law is published with the distribution of its residuals, in the form
//! they have:
//!
//! - **times** (`law * DoublePDF[...]`, unit mean): the ratios of the observations to the law
//!   scatter alike at every size (the slow share is a share of the work);
//! - **plus** (`Max(0, law + DoublePDF[...])`, zero mean): the differences scatter alike at every
//!   size (a slow path of fixed cost). `Max(0, ...)` as CIPM writes it: a sampled demand is never
//!   negative.
//!
//! Whichever spreads more evenly over the law's range is taken: the median absolute deviation of
//! the ratios (or differences) in the lower and the upper half of the law's values, compared on a
//! log scale. The distribution's mean is exactly 1 (or 0), so the mean at every point stays the
//! law's and a prediction of means is unchanged (`beagle_stoex::eval` takes a `DoublePDF`'s mean).
//! Published only where the observations' mean departs from their median beyond the noise: for a
//! symmetric scatter the plain law is the better answer.

use crate::expr::Expr;
use crate::level::fences;
use crate::print::format_number;
use crate::spread::{self, Distribution, MIN_OBSERVATIONS};
use crate::stats;

/// How the residuals are laid over the law.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TailForm {
    /// `law * DoublePDF[...]` with unit mean.
    Times,
    /// `Max(0, law + DoublePDF[...])` with zero mean.
    Plus,
}

/// A law's residual distribution, as published.
#[derive(Clone, Debug, PartialEq)]
pub struct Tail {
    pub form: TailForm,
    pub distribution: Distribution,
    /// The observations' mean over their median, as ratios to the law.
    pub mean_over_median: f64,
    /// The mean of the ratios (times) or of the differences (plus): the level the law is set to.
    pub level: f64,
}

/// Least departure of the mean from the median (relative) for a tail to be published.
pub const LEAST_SKEW: f64 = 0.03;
/// How much more even (log of the tail weights' ratio between the halves) the differences must
/// be for the offset form.
const EVEN_BY: f64 = std::f64::consts::LN_2;
/// Most relative gap between the ratios' mean and the ratio of the sums for the factor form.
const SAME_LEVEL: f64 = 0.1;
/// Significant digits of a box edge (as [`crate::spread`]'s).
const EDGE_DIGITS: usize = 4;
/// Standard errors of the mean by which it must exceed the median.
const SKEW_ERRORS: f64 = 2.0;

/// The tail of `observed` (one value per row: the rows' means where they summarise
/// observations) over `law` (the published law at the same rows); `None` where it is not skewed
/// beyond the noise, or the rows are too few.
pub fn tail(law: &[f64], observed: &[f64]) -> Option<Tail> {
    let rows: Vec<(f64, f64)> = law
        .iter()
        .zip(observed)
        .filter(|(l, o)| **l > 0.0 && l.is_finite() && o.is_finite())
        .map(|(l, o)| (*l, *o))
        .collect();
    if rows.len() < MIN_OBSERVATIONS {
        return None;
    }
    // A rare far-out value is a stray event (a pause, a disturbed JVM), no tail of the program:
    // the far-out fences drop it as the level's do, and keep a slow share that is a mode.
    let mut sorted: Vec<f64> = rows.iter().map(|(l, o)| o / l).collect();
    sorted.sort_by(f64::total_cmp);
    let strays = fences::far_out(&[&sorted])[0];
    let rows: Vec<(f64, f64)> = (rows.into_iter())
        .filter(|(l, o)| (strays.0..=strays.1).contains(&(o / l)))
        .collect();
    if rows.len() < MIN_OBSERVATIONS {
        return None;
    }
    let ratios: Vec<f64> = rows.iter().map(|(l, o)| o / l).collect();
    let (mean, median) = (stats::mean(&ratios), stats::median(&ratios));
    let error = stats::stddev(&ratios) / (ratios.len() as f64).sqrt();
    if median <= 0.0 || mean / median - 1.0 < LEAST_SKEW || mean - median < SKEW_ERRORS * error {
        return None;
    }
    let differences: Vec<f64> = rows.iter().map(|(l, o)| o - l).collect();
    // Times unless the differences are clearly the more even (by a factor of two in the tail's
    // weight): with a handful of slow rows either can look even by chance, and an offset set by
    // the large sizes' differences would lift every small one.
    // And only where the offsets stay above zero at the smallest law measured: a simulator samples
    // `Max(0, law + offset)`, whose mean at a small call is then the law's no more (a partition of
    // 4 µs with offsets down to -7 µs sampled a mean of 5 µs at one file, issue 51).
    let smallest = rows.iter().map(|(l, _)| *l).fold(f64::INFINITY, f64::min);
    let centre = stats::mean(&differences);
    let lowest = differences.iter().fold(f64::INFINITY, |m, d| m.min(*d)) - centre;
    let form = if unevenness(&rows, &differences) + EVEN_BY < unevenness(&rows, &ratios)
        && smallest + centre + lowest >= 0.0
    {
        TailForm::Plus
    } else {
        TailForm::Times
    };
    // A simulator adds means: the level is the ratio of the sums. Where the ratios' mean is far
    // from it they are not alike at every size (a law near zero at the small rows, whose ratios
    // run to hundreds), and no one factor with one distribution describes them.
    let total = rows.iter().map(|(l, _)| l).sum::<f64>();
    let of_sums = rows.iter().map(|(_, o)| o).sum::<f64>() / total;
    if form == TailForm::Times && (mean / of_sums - 1.0).abs() > SAME_LEVEL {
        return None;
    }
    let (distribution, level) = match form {
        TailForm::Times => {
            let unit: Vec<f64> = ratios.iter().map(|r| r / mean).collect();
            let d = spread::distribution(&unit, false).ok()??;
            let k = 1.0 / d.mean();
            (map_edges(d, |x| x * k), of_sums)
        }
        TailForm::Plus => {
            let zero: Vec<f64> = differences.iter().map(|d| d - centre).collect();
            let d = spread::distribution(&zero, false).ok()??;
            let shift = d.mean();
            (map_edges(d, |x| x - shift), centre)
        }
    };
    Some(Tail {
        form,
        distribution,
        mean_over_median: mean / median,
        level,
    })
}

impl Tail {
    /// The law at the observations' mean: `law` (the robust fit the residuals were taken about)
    /// scaled by the ratios' mean, or plus the differences' mean.
    pub fn law(&self, law: &Expr) -> Expr {
        match self.form {
            TailForm::Times => crate::level::scaled(law, self.level),
            TailForm::Plus => law.clone() + self.level,
        }
    }

    /// The published StoEx of `law` (its StoEx text) with this tail.
    pub fn stoex(&self, law: &str) -> String {
        match self.form {
            TailForm::Times => format!("({law}) * {}", self.distribution.stoex()),
            TailForm::Plus => format!("Max(0, {law} + {})", self.distribution.stoex()),
        }
    }

    /// The note that says what was published and why.
    pub fn note(&self) -> String {
        let how = match self.form {
            TailForm::Times => "times the distribution of the observations' ratios to it (unit mean: they scatter alike at every size)",
            TailForm::Plus => "plus the distribution of the observations' differences from it (zero mean: they scatter by the same amount at every size)",
        };
        format!(
            "a heavy tail: the observations' mean is {} times their median about the law; published as the law {how}, from {} observations, so that a simulator gets the mean and the spread",
            format_number(crate::numeric::round_significant(self.mean_over_median, 3)),
            self.distribution.observations
        )
    }
}

/// How differently the tail of `residuals` weighs in the lower and the upper half of the law's
/// values: the absolute log ratio of the halves' excess of the mean over the median (0: alike).
/// The bulk's scatter says nothing here (measurement noise is relative either way); the tail's
/// weight is what the form must carry.
fn unevenness(rows: &[(f64, f64)], residuals: &[f64]) -> f64 {
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|a, b| rows[*a].0.total_cmp(&rows[*b].0));
    let half = order.len() / 2;
    let excess = |idx: &[usize]| {
        let values: Vec<f64> = idx.iter().map(|i| residuals[*i]).collect();
        stats::mean(&values) - stats::median(&values)
    };
    let (low, high) = (excess(&order[..half]), excess(&order[half..]));
    if low <= 0.0 || high <= 0.0 {
        return f64::INFINITY;
    }
    (high / low).ln().abs()
}

/// `d` with every box edge mapped by `f` (monotone), the probabilities kept.
fn map_edges(mut d: Distribution, f: impl Fn(f64) -> f64) -> Distribution {
    for s in &mut d.samples {
        s.0 = crate::numeric::round_significant(f(s.0), EDGE_DIGITS);
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Writes of `size` bytes: nine in ten at the law, the tenth five times slower.
    fn slow_share(rng: &mut ChaCha8Rng, n: usize, fixed: bool) -> (Vec<f64>, Vec<f64>) {
        let mut law = Vec::new();
        let mut observed = Vec::new();
        for _ in 0..n {
            let size = rng.random_range(1000.0..400_000.0);
            let l = 1e-6 * size + 0.01;
            let noise = 1.0 + 0.02 * (rng.random::<f64>() - 0.5);
            let slow = rng.random::<f64>() < 0.1;
            let v = if fixed {
                l * noise + if slow { 0.2 } else { 0.0 }
            } else {
                l * noise * if slow { 5.0 } else { 1.0 }
            };
            law.push(l);
            observed.push(v);
        }
        (law, observed)
    }

    #[test]
    fn a_slow_share_of_the_work_is_a_unit_mean_factor_and_a_fixed_slow_path_an_offset() {
        let mut rng = ChaCha8Rng::seed_from_u64(51);
        let (law, observed) = slow_share(&mut rng, 200, false);
        let t = tail(&law, &observed).expect("a tail");
        assert_eq!(t.form, TailForm::Times);
        assert!((t.distribution.mean() - 1.0).abs() < 1e-3, "{}", t.distribution.mean());
        assert!(t.mean_over_median > 1.2, "{}", t.mean_over_median);
        let s = t.stoex("1.0E-6 * size.BYTESIZE + 0.01");
        assert!(s.starts_with("(1.0E-6 * size.BYTESIZE + 0.01) * DoublePDF[("), "{s}");
        // Its expectation is the law's.
        let parsed = beagle_stoex::parse(&s).unwrap();
        let mean = beagle_stoex::eval_number(&parsed, &|_| Some(1000.0)).unwrap();
        assert!((mean - 0.011).abs() < 0.011 * 1e-3, "{mean}");

        let (law, observed) = slow_share(&mut rng, 200, true);
        let t = tail(&law, &observed).expect("a tail");
        assert_eq!(t.form, TailForm::Plus);
        assert!(t.distribution.mean().abs() < 1e-3, "{}", t.distribution.mean());
        let s = t.stoex("x.VALUE");
        assert!(s.starts_with("Max(0, x.VALUE + DoublePDF[("), "{s}");
        let mean = beagle_stoex::eval_number(&beagle_stoex::parse(&s).unwrap(), &|_| Some(0.5)).unwrap();
        assert!((mean - 0.5).abs() < 1e-3, "{mean}");
    }

    #[test]
    fn offsets_that_would_take_a_small_call_below_zero_are_no_offset_tail() {
        // A fixed slow path of 0.2 over laws from 0.011: the offset form fits, and its lowest
        // offset (about -0.02) stays above the smallest law. Laws from 0.001 with a fast path of
        // 0.02 below the law at a share of the calls: an offset would be clamped at zero there.
        let mut rng = ChaCha8Rng::seed_from_u64(52);
        let (law, observed) = slow_share(&mut rng, 200, true);
        assert_eq!(tail(&law, &observed).map(|t| t.form), Some(TailForm::Plus));
        let mut law = Vec::new();
        let mut observed = Vec::new();
        for i in 0..200 {
            let l = 0.001 + 0.0005 * f64::from(i % 40);
            let noise = 1.0 + 0.02 * (rng.random::<f64>() - 0.5);
            let v = match i % 10 {
                0 => l * noise + 0.2,
                1 => (l * noise - 0.02).max(0.0),
                _ => l * noise,
            };
            law.push(l);
            observed.push(v);
        }
        assert_ne!(tail(&law, &observed).map(|t| t.form), Some(TailForm::Plus));
    }

    #[test]
    fn symmetric_noise_and_few_rows_have_no_tail() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let law: Vec<f64> = (0..200).map(|i| 1.0 + f64::from(i)).collect();
        let observed: Vec<f64> = law
            .iter()
            .map(|l| l * (1.0 + 0.1 * (rng.random::<f64>() - 0.5)))
            .collect();
        assert_eq!(tail(&law, &observed), None);
        let (law, observed) = slow_share(&mut rng, MIN_OBSERVATIONS - 1, false);
        assert_eq!(tail(&law, &observed), None);
    }
}
