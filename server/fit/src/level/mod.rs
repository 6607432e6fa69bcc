//! The published level: the mean a simulator adds, not the median the form is fitted to.
//!
//! Palladio's simulators add up demands, so a demand published as one number or law must
//! predict the **mean** at a point. The form is fitted robustly, to one median per point (and
//! for Java to one median per JVM and point), so that a pause or a wild JVM cannot bend it; a
//! median is no mean where the demand is skewed. A small-file store's `write` takes 5-8 µs nine
//! times in ten and 35-50 µs the tenth: its median is 6 µs, its mean 9.4 µs, and a model built on
//! the median undercounts every write by a third.
//!
//! So once the law is chosen its level is set from the points' means: each point's values (the
//! rows' means where the rows summarise observations: [`crate::Dataset::means`]) within the
//! far-out fences ([`fences`]), averaged. The law set from them is one factor on the robust law
//! ([`refit::scaled`]: the shape, which medians estimate more steadily, stays; lognormal noise
//! scales every coefficient alike), or the law's linear coefficients refitted by weighted least
//! squares ([`refit::linear`]) where that fits the means better than the factor at
//! [`SHAPE_ALPHA`] (a fixed extra cost moves the offset alone). It is published when it departs
//! from the robust law beyond noise (at [`LEVEL_ALPHA`]: the drop in misses counted in each
//! mean's standard error, or a t test of the points' gaps, Bonferroni) and materially (more than
//! [`crate::evidence::NOISE_FLOOR`] on average); a constant becomes the fenced mean when that
//! departs from its median alike ([`constant`]). Otherwise the robust fit stays: under
//! symmetric noise the median and the mean estimate the same value and the median is the
//! steadier estimate. The evidence of the form (held-out checks, the band, the status) stays
//! that of the robust fit; [`Level`] and a note say what was done.

pub mod fences;
mod refit;

pub(crate) use refit::scaled;

use crate::dataset::Dataset;
use crate::eval::eval;
use crate::evidence::{Points, NOISE_FLOOR};
use crate::expr::Expr;
use crate::print::format_number;
use crate::stats;

/// Level of the test that the means depart from the robust fit.
pub const LEVEL_ALPHA: f64 = 0.01;
/// Fewest values at every point for weighting the means by their measured precision.
pub const MIN_FOR_PRECISION: usize = 5;
/// Level of the test that the means need more than a factor on the robust law (its linear
/// coefficients refitted apart).
pub const SHAPE_ALPHA: f64 = 0.05;

// The verdict's types live with the evidence that carries them (modules depend one way).
pub use crate::evidence::level_verdict::{Level, Refit};

/// One point's values within the fences: their mean, count and variance.
struct Fenced {
    mean: f64,
    n: usize,
    var: f64,
}

/// Each point's row means within the fences ([`fences::kept_groups`]).
fn fenced(points: &Points) -> Vec<Fenced> {
    let groups: Vec<Vec<f64>> = points.points.iter().map(|p| p.means.clone()).collect();
    fences::kept_groups(&groups)
        .into_iter()
        .map(|kept| Fenced {
            mean: stats::mean(&kept),
            n: kept.len(),
            var: stats::stddev(&kept).powi(2),
        })
        .collect()
}

/// `t = mean / (sd / √n)` of `g` (infinite when the values agree exactly and are not zero).
fn t_of(g: &[f64]) -> f64 {
    let (m, sd) = (stats::mean(g), stats::stddev(g));
    if sd > 0.0 {
        m / (sd / (g.len() as f64).sqrt())
    } else if m != 0.0 {
        f64::INFINITY
    } else {
        0.0
    }
}

/// Whether the points carry anything about means beyond their medians: repetitions, or rows
/// that summarise observations.
fn informative(points: &Points) -> bool {
    points.has_repetitions() || points.points.iter().any(|p| p.means != p.values)
}

/// A law set from the means: the law, the points with their means as targets (for rounding and
/// intervals), and what was found.
pub(crate) struct Levelled {
    pub expr: Expr,
    pub work: Dataset,
    pub level: Level,
}

/// How much better law `b` fits the targets than law `a`, which has `extra` fewer coefficients
/// fitted to them: the p-value of the drop in misses. Where at least `extra + 1` points have a
/// standard error of their mean (from their repetitions), each miss counts in units of it and
/// the drop in chi-square is tested against `extra` degrees of freedom (heteroscedastic: a fixed
/// extra cost is a large share of a small demand and a small one of a large one); else the
/// weighted misses by an F test against `b`'s residual scatter (`b` having `fitted` coefficients).
struct Misses<'a> {
    targets: &'a [f64],
    se: &'a [Option<f64>],
    weights: &'a [f64],
}

impl Misses<'_> {
    fn p(&self, a: &[f64], b: &[f64], extra: usize, fitted: usize) -> f64 {
        use crate::evidence::hypothesis::{chi_square_sf, f_sf};
        let n = self.targets.len();
        let with_se = self.se.iter().flatten().count();
        if with_se > extra {
            let drop: f64 = (0..n)
                .filter_map(|p| {
                    self.se[p]
                        .map(|se| ((self.targets[p] - a[p]).powi(2) - (self.targets[p] - b[p]).powi(2)) / (se * se))
                })
                .sum();
            return chi_square_sf(drop.max(0.0), extra as f64);
        }
        if n <= fitted {
            return 1.0;
        }
        let sse = |f: &[f64]| -> f64 { (0..n).map(|p| self.weights[p] * (self.targets[p] - f[p]).powi(2)).sum() };
        let (plain, full) = (sse(a), sse(b));
        if full <= 0.0 {
            return if plain > 0.0 { 0.0 } else { 1.0 };
        }
        let df = (n - fitted) as f64;
        f_sf((plain - full).max(0.0) / extra as f64 / (full / df), extra as f64, df)
    }
}

/// The chosen `law` (fitted to the medians `work`, one row per point of `points`, residual scales
/// `scales`, relative or not) with its level set from the points' means, when they depart from it
/// (see the module documentation); `Err` with what was found when the law stays, `Err(None)` when
/// the points carry no means apart from their medians.
pub(crate) fn law(
    law: &Expr,
    work: &Dataset,
    points: &Points,
    scales: &[f64],
    relative: bool,
) -> Result<Levelled, Option<Level>> {
    if !informative(points) || work.len() != points.len() {
        return Err(None);
    }
    let n = work.len();
    let levels = fenced(points);
    let targets: Vec<f64> = levels.iter().map(|l| l.mean).collect();
    let f = eval(law, &work.columns, n);
    let gaps: Vec<f64> = (0..n).map(|p| (targets[p] - f[p]) / scales[p]).collect();
    if gaps.iter().any(|g| !g.is_finite()) {
        return Err(None);
    }
    let se: Vec<Option<f64>> = levels
        .iter()
        .map(|l| {
            let se = (l.var / l.n.max(1) as f64).sqrt();
            (l.n >= 2 && se > 0.0 && se.is_finite()).then_some(se)
        })
        .collect();
    // Weighted by each mean's precision where every point measures it from enough repetitions
    // (least squares on means of known precision; the tests below weigh misses alike); else as
    // the selection weighs residuals, by the law's own values rather than the noisy means
    // (weights from measured values lean towards the smallest points).
    let precise = levels.iter().all(|l| l.n >= MIN_FOR_PRECISION) && se.iter().all(Option::is_some);
    let weights: Vec<f64> = (0..n)
        .map(|p| {
            let s = match se[p] {
                // A mean known to better than 0.1 % weighs as one known to 0.1 %.
                Some(se) if precise => se.max(1e-3 * f[p].abs()),
                _ if relative && f[p] > 0.0 => f[p],
                _ => scales[p],
            };
            1.0 / (s * s).max(f64::MIN_POSITIVE)
        })
        .collect();
    let misses = Misses {
        targets: &targets,
        se: &se,
        weights: &weights,
    };
    // The law set from the means: one factor keeps the robust fit's shape, which medians estimate
    // more steadily than means (lognormal noise scales every coefficient alike); the linear
    // coefficients move apart where the means show it (a fixed extra cost moves the offset alone,
    // and a factor would miss the small points by it). The departure is judged on the most the
    // means can say (the linear refit where there is one), the choice between the two at
    // [`SHAPE_ALPHA`].
    // The factor is the ratio of the sums, unweighted: the level at which the law's total over
    // the measured points is the means' total, which is what a simulator adds up. (Weighted by
    // the means' precision, the few smallest points, whose means a fixed cost the robust law
    // left out can make several times its value, set the factor for all: a fileshare hash law
    // was scaled by 8 where its means lay 60 % above it.)
    let (num, den) = (0..n).fold((0.0, 0.0), |(a, b), p| (a + targets[p], b + f[p]));
    let factor = if den > 0.0 && num > 0.0 { num / den } else { 1.0 };
    let scaled = refit::scaled(law, factor);
    let on_scaled = eval(&scaled, &work.columns, n);
    let positive = targets.iter().all(|t| *t > 0.0);
    let linear = refit::linear(law, &work.columns, &targets, &weights)
        .map(|(e, k)| {
            let v = eval(&e, &work.columns, n);
            (e, k, v)
        })
        // A refit that turns a positive law non-positive at a point is no level of its form.
        .filter(|(_, k, v)| *k >= 2 && (!positive || v.iter().all(|v| *v > 0.0)));
    // Does the law set from the means depart from the robust one beyond noise? Two views, either
    // may show it (Bonferroni): the drop in misses, the means' own noise measured by the
    // repetitions; and a t test of the points' gaps, where the law's own misfit counts as noise.
    let (most, k) = linear.as_ref().map_or((&on_scaled, 1), |(_, k, v)| (v, *k));
    let mut p_values = vec![misses.p(&f, most, k, k)];
    if n >= 3 {
        let t = t_of(&gaps);
        let df = (n - 1) as f64;
        p_values.push(if t.is_finite() {
            crate::evidence::hypothesis::t_two_sided(t, df)
        } else {
            0.0
        });
    }
    let (expr, how) = match linear {
        Some((e, k, v)) if misses.p(&on_scaled, &v, k - 1, k) < SHAPE_ALPHA => (e, Refit::Linear(k)),
        _ => (scaled, Refit::Factor(factor)),
    };
    let p = p_values.iter().fold(1.0f64, |a, b| a.min(*b)) * p_values.len() as f64;
    let level = Level {
        robust: stats::mean(&f),
        mean: stats::mean(&targets),
        p: p.min(1.0),
        from_means: false,
        how: Refit::Kept,
    };
    if !(p < LEVEL_ALPHA && stats::mean(&gaps).abs() > NOISE_FLOOR) {
        return Err(Some(level));
    }
    let mut means = work.clone();
    means.y = targets;
    Ok(Levelled {
        expr,
        work: means,
        level: Level {
            from_means: true,
            how,
            ..level
        },
    })
}

/// The fenced mean of a constant's observations (all points pooled: they do not differ) against
/// its robust value `median`: `Ok((mean, standard error))` when it departs beyond noise and
/// materially (scaled by `scale`), else `Err` with what was found.
pub(crate) fn constant(points: &Points, median: f64, scale: f64) -> Result<(f64, f64, Level), Option<Level>> {
    if !informative(points) || scale.is_nan() || scale <= 0.0 {
        return Err(None);
    }
    let groups: Vec<Vec<f64>> = points.points.iter().map(|p| p.means.clone()).collect();
    let kept: Vec<f64> = fences::kept_groups(&groups).concat();
    let (mean, sd, n) = (stats::mean(&kept), stats::stddev(&kept), kept.len());
    if n < 2 || !mean.is_finite() {
        return Err(None);
    }
    let se = sd / (n as f64).sqrt();
    let p = if se > 0.0 {
        crate::evidence::hypothesis::t_two_sided((mean - median) / se, (n - 1) as f64)
    } else if mean != median {
        0.0
    } else {
        1.0
    };
    let level = Level {
        robust: median,
        mean,
        p,
        from_means: false,
        how: Refit::Kept,
    };
    if p < LEVEL_ALPHA && ((mean - median) / scale).abs() > NOISE_FLOOR {
        Ok((
            mean,
            se,
            Level {
                from_means: true,
                how: Refit::Mean,
                ..level
            },
        ))
    } else {
        Err(Some(level))
    }
}

/// The note that says what was done.
pub(crate) fn note(level: &Level, constant: bool) -> String {
    let number = |v: f64| format_number(crate::numeric::round_significant(v, 3));
    let percent = format!("{:+.0} %", 100.0 * (level.ratio() - 1.0));
    let t = crate::evidence::p_text(level.p);
    let what = if constant {
        format!("median {}, mean {}", number(level.robust), number(level.mean))
    } else {
        format!(
            "over the points the robust law averages {}, the means {}",
            number(level.robust),
            number(level.mean)
        )
    };
    let how = match level.how {
        Refit::Kept | Refit::Mean => String::new(),
        Refit::Linear(1) => "; its coefficient refitted to them".to_string(),
        Refit::Linear(k) => format!("; its {k} linear coefficients refitted to them"),
        Refit::Factor(f) => format!("; scaled by {}", number(f)),
    };
    if level.from_means {
        format!("level set from means (a simulator adds means): {what} ({percent}, {t}; far-out values fenced){how}")
    } else {
        format!("level kept: the means depart from the robust fit within noise ({what}, {percent}, {t})")
    }
}
