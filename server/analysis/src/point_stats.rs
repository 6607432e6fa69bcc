//! Statistics per parameter point (PerfJavaDoc's tables): an element's observations grouped by
//! the exact parameter values they were made under, with outliers removed by a documented rule.
//!
//! **Outlier rule** (Tukey's far-out fences, `beagle_fit::level::fences`): within a point of at
//! least [`MIN_FOR_OUTLIERS`] observations, a value below `Q1 − 3·IQR` or above `Q3 + 3·IQR` is
//! an outlier (a GC pause, a JIT recompilation, a descheduled thread) when such values are rare
//! over the element's points: as many as stray events at 1 % explain. More of them are part of
//! the demand (a slow path taken by one call in ten), which the mean a simulator adds must
//! count. Fences of 3 IQR, not the usual 1.5, because timing data are right-skewed and the usual
//! fences would cut a tenth of ordinary runs. Counts (loops, branches, parameter values) are
//! exact and never lose values.

use crate::blackboard::{MeasurementResult, Observation};
use crate::events::Parameters;
use beagle_fit::stats::{mean, quantile_sorted, stddev};
use serde::{Deserialize, Serialize};

/// Fewest observations at a point for the outlier rule to apply.
pub const MIN_FOR_OUTLIERS: usize = beagle_fit::level::fences::MIN_FOR_FENCES;
/// Fence distance in interquartile ranges.
pub const FENCE_IQR: f64 = beagle_fit::level::fences::FENCE_IQR;

/// One parameter point's statistics, after outlier removal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointStats {
    pub parameters: Parameters,
    /// Observations kept.
    pub n: usize,
    /// Observations removed as outliers.
    pub outliers: usize,
    /// Observations made at the point: `n` and `outliers`, and those a full point left out of
    /// its sample (`MeasurementResult::overflow`). The statistics are over the sample.
    #[serde(default)]
    pub measured: u64,
    /// Service executions those observations stand for (an observation may be the mean of an
    /// action's runs in one execution, or of a loop's executions).
    #[serde(default)]
    pub executions: u64,
    pub mean: f64,
    pub median: f64,
    pub std_dev: f64,
    pub q1: f64,
    pub q3: f64,
    pub min: f64,
    pub max: f64,
}

/// Observations grouped by identical parameters, in parameter order.
fn groups(observations: &[Observation]) -> Vec<(Parameters, Vec<usize>)> {
    let mut keyed: Vec<(Vec<(String, u64)>, usize)> = observations
        .iter()
        .enumerate()
        .map(|(i, o)| (o.parameters.iter().map(|(k, v)| (k.clone(), v.to_bits())).collect(), i))
        .collect();
    keyed.sort();
    let mut out: Vec<(Parameters, Vec<usize>)> = Vec::new();
    let mut last: Option<&Vec<(String, u64)>> = None;
    for (key, i) in &keyed {
        if last != Some(key) {
            out.push((observations[*i].parameters.clone(), Vec::new()));
            last = Some(key);
        }
        if let Some(g) = out.last_mut() {
            g.1.push(*i);
        }
    }
    out
}

/// The fences `(low, high)` of each group's sorted values (`beagle_fit::level::fences`: a side
/// whose far-out values are too many to be stray keeps them).
fn fences(groups: &[Vec<f64>]) -> Vec<(f64, f64)> {
    let views: Vec<&[f64]> = groups.iter().map(Vec::as_slice).collect();
    beagle_fit::level::fences::far_out(&views)
}

fn sorted_values(observations: &[Observation], rows: &[usize]) -> Vec<f64> {
    let mut v: Vec<f64> = rows.iter().map(|r| observations[*r].value).collect();
    v.sort_by(f64::total_cmp);
    v
}

/// Removes the outliers of every point (see the module documentation); returns how many.
pub fn remove_outliers(result: &mut MeasurementResult) -> usize {
    let mut drop = vec![false; result.observations.len()];
    let grouped = groups(&result.observations);
    let values: Vec<Vec<f64>> = grouped
        .iter()
        .map(|(_, rows)| sorted_values(&result.observations, rows))
        .collect();
    for ((_, rows), (lo, hi)) in grouped.into_iter().zip(fences(&values)) {
        for r in rows {
            let v = result.observations[r].value;
            drop[r] = v < lo || v > hi;
        }
    }
    let removed = drop.iter().filter(|d| **d).count();
    let mut i = 0;
    result.observations.retain(|_| {
        i += 1;
        !drop[i - 1]
    });
    removed
}

/// All that was made at a point, per run the exact tally where the point's sample is full, else
/// its observations.
struct Made {
    observations: u64,
    executions: u64,
    /// The sum of all the values.
    sum: f64,
}

fn made(result: &MeasurementResult, parameters: &Parameters, rows: &[usize]) -> Made {
    let tallies: Vec<_> = result.overflow.iter().filter(|t| &t.parameters == parameters).collect();
    let mut m = Made {
        observations: 0,
        executions: 0,
        sum: 0.0,
    };
    for t in &tallies {
        m.observations += t.observations;
        m.executions += t.executions;
        m.sum += t.sum;
    }
    for r in rows {
        let o = &result.observations[*r];
        if !tallies.iter().any(|t| t.run == o.run) {
            m.observations += 1;
            m.executions += o.executions.max(1);
            m.sum += o.value;
        }
    }
    m
}

/// Statistics per parameter point, outliers left out of them (and counted).
pub fn point_stats(result: &MeasurementResult) -> Vec<PointStats> {
    let grouped = groups(&result.observations);
    let values: Vec<Vec<f64>> = grouped
        .iter()
        .map(|(_, rows)| sorted_values(&result.observations, rows))
        .collect();
    let fenced = fences(&values);
    grouped
        .into_iter()
        .zip(values.into_iter().zip(fenced))
        .map(|((parameters, rows), (all, (lo, hi)))| {
            let Made {
                observations: measured,
                executions,
                ..
            } = made(result, &parameters, &rows);
            let kept: Vec<f64> = all.iter().copied().filter(|v| *v >= lo && *v <= hi).collect();
            PointStats {
                parameters,
                n: kept.len(),
                outliers: all.len() - kept.len(),
                measured,
                executions,
                mean: mean(&kept),
                median: quantile_sorted(&kept, 0.5),
                std_dev: stddev(&kept),
                q1: quantile_sorted(&kept, 0.25),
                q3: quantile_sorted(&kept, 0.75),
                min: kept.first().copied().unwrap_or(f64::NAN),
                max: kept.last().copied().unwrap_or(f64::NAN),
            }
        })
        .collect()
}

/// One observation per parameter point: its median, outliers left out, carrying their mean
/// ([`Observation::mean`]). Timings fitted this way weigh every point alike however often it was
/// measured, and a point's noise shrinks to its median's (PerfJavaDoc fits and shows medians per
/// point); the mean sets the published level, since a simulator adds means (`beagle_fit::level`).
pub fn medians(result: &MeasurementResult) -> MeasurementResult {
    let observations = point_stats(result)
        .into_iter()
        .filter(|s| s.n > 0)
        .map(|s| Observation {
            run: None,
            parameters: s.parameters,
            value: s.median,
            executions: 1,
            mean: Some(s.mean),
        })
        .collect();
    MeasurementResult {
        resolution: result.resolution,
        ..MeasurementResult::new(result.element.clone(), observations)
    }
}

/// One observation per parameter point: the mean of all its values, exact where a full point's
/// tally holds more than its sample, standing for every execution they came from. What a passed
/// value is fitted as: the model's value is what one call passes on average, and where the
/// values at one point differ they are a mixture (half the files of an upload compressed, half
/// not), whose median would be one of its sizes. Nothing is an outlier: values are exact.
pub fn means(result: &MeasurementResult) -> MeasurementResult {
    let observations = groups(&result.observations)
        .into_iter()
        .map(|(parameters, rows)| {
            let m = made(result, &parameters, &rows);
            Observation {
                run: None,
                parameters,
                value: m.sum / m.observations.max(1) as f64,
                executions: m.executions,
                mean: None,
            }
        })
        .collect();
    MeasurementResult {
        resolution: result.resolution,
        ..MeasurementResult::new(result.element.clone(), observations)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(points: &[(f64, &[f64])]) -> MeasurementResult {
        MeasurementResult {
            element: "e".into(),
            observations: points
                .iter()
                .flat_map(|(n, values)| {
                    values.iter().map(move |v| Observation {
                        run: None,
                        parameters: [("n.VALUE".to_string(), *n)].into(),
                        value: *v,
                        executions: 1,
                        mean: None,
                    })
                })
                .collect(),
            overflow: Vec::new(),
            thinned: 0,
            resolution: None,
        }
    }

    #[test]
    fn a_gc_pause_is_an_outlier_ordinary_spread_is_not() {
        let mut r = result(&[
            (1.0, &[10.0, 10.5, 9.8, 10.2, 11.0, 250.0]),
            (2.0, &[20.0, 21.0, 19.0, 20.5, 60.0]),
        ]);
        let stats = point_stats(&r);
        assert_eq!(stats.len(), 2);
        assert_eq!((stats[0].n, stats[0].outliers), (5, 1));
        assert_eq!(stats[0].median, 10.2);
        assert_eq!((stats[0].min, stats[0].max), (9.8, 11.0));
        // Second point: Q1 20, Q3 21, so 60 is far beyond the fence at 24.
        assert_eq!((stats[1].n, stats[1].outliers), (4, 1));
        assert_eq!(remove_outliers(&mut r), 2);
        assert_eq!(r.observations.len(), 9);
        assert!(r.observations.iter().all(|o| o.value < 50.0));
        assert_eq!(remove_outliers(&mut r), 0, "idempotent on clean data");
        let m = medians(&r);
        assert_eq!(
            m.observations.iter().map(|o| o.value).collect::<Vec<_>>(),
            vec![10.2, 20.25]
        );
    }

    #[test]
    fn a_mixture_of_passed_values_is_its_mean_beyond_the_sample_too() {
        // Point 1: an upload of which 3 in 7 files were compressed, passed 200 times over
        // (beyond the per-point sample); point 2: 100, 29, 100, 29; point 3: five 100s and four
        // 29s, whose median is 100 and whose mean, what a call passes on average, 68.4.
        let mut all: Vec<Observation> = Vec::new();
        let mut add = |n: f64, v: f64| {
            all.push(Observation {
                run: None,
                parameters: [("n.VALUE".to_string(), n)].into(),
                value: v,
                executions: 1,
                mean: None,
            })
        };
        for i in 0..1400 {
            add(1.0, if i % 7 < 3 { 700.0 } else { 203.0 });
        }
        for v in [100.0, 29.0, 100.0, 29.0] {
            add(2.0, v);
        }
        for v in [100.0, 100.0, 100.0, 100.0, 100.0, 29.0, 29.0, 29.0, 29.0] {
            add(3.0, v);
        }
        let r = MeasurementResult::new("e", all);
        assert!(!r.overflow.is_empty(), "point 1 is beyond its sample");
        let m = means(&r);
        let got: Vec<(f64, u64)> = m.observations.iter().map(|o| (o.value, o.executions)).collect();
        let mixture = (3.0 * 700.0 + 4.0 * 203.0) / 7.0;
        assert!((got[0].0 - mixture).abs() < 1e-9, "{got:?}");
        assert_eq!(got[0].1, 1400);
        assert_eq!(got[1], (64.5, 4));
        assert!((got[2].0 - (500.0 + 116.0) / 9.0).abs() < 1e-9, "{got:?}");
    }

    #[test]
    fn small_points_keep_everything() {
        let mut r = result(&[(1.0, &[1.0, 1.0, 1000.0])]);
        assert_eq!(remove_outliers(&mut r), 0);
        let s = &point_stats(&r)[0];
        assert_eq!((s.n, s.q1, s.median, s.q3), (3, 1.0, 1.0, 500.5));
    }

    #[test]
    fn a_point_tells_how_much_was_measured_beyond_its_sample() {
        let obs = |n: f64, run: u64, count: usize, executions: u64| {
            (0..count).map(move |i| Observation {
                run: Some(run),
                parameters: [("n.VALUE".to_string(), n)].into(),
                value: 1.0 + (i % 10) as f64 / 100.0,
                executions,
                mean: None,
            })
        };
        // Point 1: two runs, one far beyond the sample bound; point 2: a handful.
        let all: Vec<Observation> = obs(1.0, 0, 10_000, 3)
            .chain(obs(1.0, 1, 7, 2))
            .chain(obs(2.0, 0, 5, 1))
            .collect();
        let stats = point_stats(&MeasurementResult::new("e", all));
        assert_eq!(stats.len(), 2);
        let big = &stats[0];
        assert_eq!((big.measured, big.executions), (10_007, 30_014));
        assert!(
            big.n + big.outliers < 200,
            "the statistics are over the sample: {}",
            big.n
        );
        let small = &stats[1];
        assert_eq!((small.measured, small.executions), (5, 5));
        assert_eq!(small.n + small.outliers, 5);
    }
}
