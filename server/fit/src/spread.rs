//! Publishing the measured spread of a constant as a Palladio distribution.
//!
//! When the points do not differ beyond their repetitions, the answer is a constant: the
//! measurements show no law, only scatter. A simulator can take that scatter as it is, so on
//! request ([`Spread::Distribution`]) the constant is published as the distribution of the
//! observations: a boxed `DoublePDF` for times and values, an `IntPMF` for counts. Both are plain
//! StoEx literals that Palladio's simulators sample (`../shared/docs/stoex.md`, section 3).
//!
//! The boxes of a `DoublePDF` hold equal shares of the observations (edges at the empirical
//! quantiles), so one far observation widens the last box instead of leaving the rest in one.

use crate::print::format_number;
use crate::stats;

/// How a constant answer is published.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Spread {
    /// The constant (the median of the point medians, rounded to its precision).
    #[default]
    Constant,
    /// The distribution of the observations, when there are enough of them
    /// ([`MIN_OBSERVATIONS`]) and they vary.
    Distribution,
}

/// Fewest observations a published distribution is drawn from.
pub const MIN_OBSERVATIONS: usize = 10;
/// Most boxes of a `DoublePDF` (and distinct values of an `IntPMF`).
pub const MAX_BOXES: usize = 10;
/// Most distinct counts an `IntPMF` lists; more and the constant stays.
pub const MAX_COUNTS: usize = 50;
/// Probabilities are printed in units of this (they still sum to exactly 1).
const PROBABILITY_UNIT: f64 = 1e-4;
/// A box this many times wider than the typical box may span a gap between modes, which then
/// becomes an empty box of its own (in a box of ordinary width, two observations leave half of
/// it empty by chance).
const GAP_WIDTHS: f64 = 4.0;
/// Significant digits of a box edge: far finer than the spread of a measured time.
const EDGE_DIGITS: i32 = 4;

/// A distribution literal: `IntPMF` over counts or boxed `DoublePDF`.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    pub integer: bool,
    /// `(value, probability)` samples. For a `DoublePDF`, `(x_i, p_i)` is the probability of the
    /// box `(x_{i-1}, x_i]`, and the first sample (probability 0) sets the lower bound.
    pub samples: Vec<(f64, f64)>,
    /// Observations it was drawn from.
    pub observations: usize,
}

impl Distribution {
    /// The StoEx literal, e.g. `DoublePDF[(0.0101;0)(0.0112;0.5)(0.0131;0.5)]`.
    pub fn stoex(&self) -> String {
        let name = if self.integer { "IntPMF" } else { "DoublePDF" };
        let samples: String = self
            .samples
            .iter()
            .map(|(v, p)| format!("({};{})", format_number(*v), format_probability(*p)))
            .collect();
        format!("{name}[{samples}]")
    }

    /// Its mean as a simulator samples it and `beagle predict` composes it
    /// (`beagle_stoex::eval`): a count's frequencies, a box's midpoint (values spread evenly in
    /// it).
    pub fn mean(&self) -> f64 {
        let total: f64 = self.samples.iter().map(|s| s.1).sum();
        let sum: f64 = if self.integer {
            self.samples.iter().map(|(v, p)| v * p).sum()
        } else {
            self.samples.windows(2).map(|w| (w[0].0 + w[1].0) / 2.0 * w[1].1).sum()
        };
        sum / total
    }

    /// The note that says what was published.
    pub fn note(&self) -> String {
        let what = if self.integer {
            "the counts' frequencies (IntPMF)"
        } else {
            "equal shares between quantiles (DoublePDF)"
        };
        format!(
            "published as the distribution of the {} observations: {what}, mean {}",
            self.observations,
            format_number(crate::numeric::round_significant(self.mean(), 3))
        )
    }
}

/// Why a spread is published as a constant after all (its Display is the fit's note).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StaysConstant {
    #[error("published as a constant: {observations} observations, a distribution needs at least {MIN_OBSERVATIONS}")]
    TooFew { observations: usize },
    #[error("published as a constant: {distinct} distinct counts, an IntPMF lists at most {MAX_COUNTS}")]
    TooManyCounts { distinct: usize },
}

/// The distribution of `values` (counts when `integer`); `Ok(None)` when every value is the same
/// (nothing to publish but the constant); `Err` says why a spread stays a constant.
pub fn distribution(values: &[f64], integer: bool) -> Result<Option<Distribution>, StaysConstant> {
    if values.len() < MIN_OBSERVATIONS && values.iter().any(|v| *v != values[0]) {
        return Err(StaysConstant::TooFew {
            observations: values.len(),
        });
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(stats::cmp_f64);
    if sorted.first() == sorted.last() {
        return Ok(None);
    }
    let samples = if integer { counts(&sorted)? } else { boxes(&sorted) };
    Ok(Some(Distribution {
        integer,
        samples: rounded_probabilities(samples),
        observations: values.len(),
    }))
}

/// `(count, share)` of each distinct value of `sorted`.
fn counts(sorted: &[f64]) -> Result<Vec<(f64, f64)>, StaysConstant> {
    let mut out: Vec<(f64, f64)> = Vec::new();
    for v in sorted {
        match out.last_mut() {
            Some((last, n)) if last == v => *n += 1.0,
            _ => out.push((*v, 1.0)),
        }
    }
    if out.len() > MAX_COUNTS {
        return Err(StaysConstant::TooManyCounts { distinct: out.len() });
    }
    let n = sorted.len() as f64;
    Ok(out.into_iter().map(|(v, c)| (v, c / n)).collect())
}

/// Boxes with edges at the quantiles `i/m` of `sorted` (`m` by Sturges' rule, at most
/// [`MAX_BOXES`]); each box's probability is the share of observations in it, the first box
/// holding those on the lower bound too. Edges that hold no new observation (ties) are skipped;
/// a gap between modes is an empty box of its own (so the mean a simulator draws is the
/// observations').
fn boxes(sorted: &[f64]) -> Vec<(f64, f64)> {
    let n = sorted.len();
    let m = ((n as f64).log2().ceil() as usize + 1).clamp(2, MAX_BOXES);
    let mut out = vec![(round_edge(sorted[0], f64::floor), 0.0)];
    let mut taken = 0;
    // The typical box width: a box many times wider spans a gap (see `split_at_gap`).
    let widths: Vec<f64> = (1..=m)
        .map(|i| {
            stats::quantile_sorted(sorted, i as f64 / m as f64)
                - stats::quantile_sorted(sorted, (i - 1) as f64 / m as f64)
        })
        .collect();
    let typical = stats::median(&widths);
    for i in 1..=m {
        // Rounded up, the last edge is at least the largest observation: every observation is in
        // some box.
        let edge = round_edge(stats::quantile_sorted(sorted, i as f64 / m as f64), f64::ceil);
        let upto = sorted.partition_point(|v| *v <= edge);
        let below = out[out.len() - 1].0;
        if edge > below && upto > taken {
            let closed = if edge - below > GAP_WIDTHS * typical {
                split_at_gap(&mut out, &sorted[taken..upto], edge, n)
            } else {
                0
            };
            out.push((edge, (upto - taken - closed) as f64 / n as f64));
            taken = upto;
        }
    }
    out
}

/// Opens an empty box over the widest gap in a box's observations `inside` (from the last edge
/// of `out` up to `edge`) when that gap is more than half the box: a simulator draws evenly
/// within a box, and a box spanning two modes (nine calls in ten at 5-8 µs, the tenth at
/// 35-50 µs, the box from 7.99 to 49.2) would put the slow calls anywhere from 8 µs up, its mean
/// 10 % low. The observations below the gap close a box of their own; returns how many, which
/// the caller's box up to `edge` no longer holds.
fn split_at_gap(out: &mut Vec<(f64, f64)>, inside: &[f64], edge: f64, n: usize) -> usize {
    let below = out[out.len() - 1].0;
    let (mut widest, mut at) = (inside[0] - below, 0);
    for i in 1..inside.len() {
        if inside[i] - inside[i - 1] > widest {
            (widest, at) = (inside[i] - inside[i - 1], i);
        }
    }
    if widest <= (edge - below) / 2.0 {
        return 0;
    }
    let first = inside[at];
    let mut open = round_edge(first, f64::floor);
    if open >= first {
        open = round_edge(first * (1.0 - 1e-3), f64::floor);
    }
    let close = if at == 0 {
        below
    } else {
        round_edge(inside[at - 1], f64::ceil)
    };
    if !(open < first && (at == 0 || (below < close && close < open))) {
        return 0;
    }
    if at > 0 {
        out.push((close, at as f64 / n as f64));
    }
    out.push((open, 0.0));
    at
}

/// `v` rounded to [`EDGE_DIGITS`] significant digits in the direction of `round` (no float
/// residue such as `10.316666666666666` in the model).
fn round_edge(v: f64, round: fn(f64) -> f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let scale = 10f64.powi(EDGE_DIGITS - 1 - v.abs().log10().floor() as i32);
    let r = round(v * scale) / scale;
    // `x / scale` may land a hair beside the decimal; the shortest text of it is what is printed.
    format_number(r).parse().unwrap_or(r)
}

/// The probabilities rounded to [`PROBABILITY_UNIT`] by largest remainder, so that the printed
/// ones sum to exactly 1 (Palladio checks the sum).
fn rounded_probabilities(samples: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    let total_units = (1.0 / PROBABILITY_UNIT).round() as i64;
    let raw: Vec<f64> = samples.iter().map(|(_, p)| p / PROBABILITY_UNIT).collect();
    let mut units: Vec<i64> = raw.iter().map(|u| u.floor() as i64).collect();
    let missing = total_units - units.iter().sum::<i64>();
    let mut order: Vec<usize> = (0..raw.len()).filter(|i| samples[*i].1 > 0.0).collect();
    order.sort_by(|a, b| stats::cmp_f64(&(raw[*b] - raw[*b].floor()), &(raw[*a] - raw[*a].floor())));
    for i in order.iter().cycle().take(missing.max(0) as usize) {
        units[*i] += 1;
    }
    samples
        .into_iter()
        .zip(units)
        .map(|((v, _), u)| (v, u as f64 * PROBABILITY_UNIT))
        .collect()
}

/// A probability with at most four decimals and no float residue (`0.25`, `0.0833`, `0`).
fn format_probability(p: f64) -> String {
    let s = format!("{p:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() {
        "0".to_string()
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn sum(d: &Distribution) -> f64 {
        d.samples.iter().map(|(_, p)| p).sum()
    }

    #[test]
    fn boxes_hold_equal_shares_and_sum_to_one() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for n in [10, 17, 40, 333] {
            let values: Vec<f64> = (0..n).map(|_| 0.01 * (1.0 + rng.random_range(0.0..0.2))).collect();
            let d = distribution(&values, false).unwrap().unwrap();
            assert!((sum(&d) - 1.0).abs() < 1e-9, "{}", d.stoex());
            assert_eq!(d.samples[0].1, 0.0);
            let min = values.iter().copied().fold(f64::INFINITY, f64::min);
            let max = values.iter().copied().fold(0.0, f64::max);
            assert!(d.samples[0].0 <= min && d.samples[0].0 > 0.999 * min, "{}", d.stoex());
            let top = d.samples.last().unwrap().0;
            assert!(top >= max && top < 1.001 * max, "{}", d.stoex());
            assert!(
                d.stoex().len() < 30 + 20 * d.samples.len(),
                "float residue: {}",
                d.stoex()
            );
            let boxes = d.samples.len() - 1;
            assert!((2..=MAX_BOXES).contains(&boxes), "{}", d.stoex());
            for (_, p) in &d.samples[1..] {
                // About equal shares (edges are rounded to four digits).
                assert!((p * boxes as f64 - 1.0).abs() <= 0.3, "{}", d.stoex());
            }
            // Each box's probability is the share of observations in it.
            for w in d.samples.windows(2) {
                let (lo, hi) = (w[0].0, w[1].0);
                let inside = values
                    .iter()
                    .filter(|v| (**v > lo || lo == d.samples[0].0) && **v <= hi)
                    .count() as f64;
                assert!((w[1].1 - inside / n as f64).abs() <= 1e-4, "{}", d.stoex());
            }
        }
    }

    #[test]
    fn a_far_observation_widens_the_last_box_only() {
        let mut values: Vec<f64> = (0..19).map(|i| 10.0 + i as f64 * 0.1).collect();
        values.push(1000.0);
        let d = distribution(&values, false).unwrap().unwrap();
        let edges: Vec<f64> = d.samples.iter().map(|(v, _)| *v).collect();
        assert_eq!(edges.last(), Some(&1000.0), "{}", d.stoex());
        // The gap up to it is an empty box: the far observation is drawn near 1000, not anywhere
        // from 12 up (the mean a simulator draws is the observations' mean).
        let gap = d.samples.len() - 2;
        assert_eq!(d.samples[gap], (999.0, 0.0), "{}", d.stoex());
        assert!(edges[..gap].iter().all(|e| *e < 12.0), "{}", d.stoex());
        let mean = values.iter().sum::<f64>() / 20.0;
        assert!((d.mean() / mean - 1.0).abs() < 0.01, "{} vs {mean}", d.mean());
    }

    #[test]
    fn ties_merge_boxes() {
        let mut values = vec![5.0; 15];
        values.extend([6.0, 7.0, 8.0, 9.0, 10.0]);
        let d = distribution(&values, false).unwrap().unwrap();
        assert!((sum(&d) - 1.0).abs() < 1e-9);
        assert_eq!(d.samples[0], (5.0, 0.0));
        // 5 is the lower bound: its 15 observations are the first box's.
        assert!(d.samples[1].1 >= 0.75, "{}", d.stoex());
        assert!(d.samples.windows(2).all(|w| w[0].0 < w[1].0), "{}", d.stoex());
    }

    #[test]
    fn counts_become_an_int_pmf() {
        let values = [3.0, 4.0, 4.0, 5.0, 3.0, 4.0, 4.0, 4.0, 5.0, 4.0, 3.0, 4.0];
        let d = distribution(&values, true).unwrap().unwrap();
        assert_eq!(d.stoex(), "IntPMF[(3;0.25)(4;0.5833)(5;0.1667)]");
    }

    #[test]
    fn too_few_or_equal_observations_stay_a_constant() {
        let few = distribution(&[1.0, 2.0, 3.0], false).unwrap_err();
        assert_eq!(few, StaysConstant::TooFew { observations: 3 });
        assert!(few.to_string().contains("at least 10"), "{few}");
        assert_eq!(distribution(&[2.0; 12], false), Ok(None));
        assert_eq!(distribution(&[2.0; 3], true), Ok(None));
        let many: Vec<f64> = (0..200).map(|i| i as f64).collect();
        let many = distribution(&many, true).unwrap_err();
        assert_eq!(many, StaysConstant::TooManyCounts { distinct: 200 });
        assert!(many.to_string().contains("distinct counts"), "{many}");
    }

    #[test]
    fn the_literal_parses_as_stoex() {
        let values: Vec<f64> = (0..30).map(|i| 0.002 + i as f64 * 1e-5).collect();
        let text = distribution(&values, false).unwrap().unwrap().stoex();
        assert!(text.starts_with("DoublePDF[(0.002;0)"), "{text}");
        assert!(beagle_stoex::parse(&text).is_ok(), "{text}");
    }
}
