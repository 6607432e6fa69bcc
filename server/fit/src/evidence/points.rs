//! Distinct parameter points: what the evidence for a law is counted in.
//!
//! Rows with identical inputs are repetitions of one point. A thousand repetitions of five points
//! are five points of evidence about how the value depends on the inputs (and a good estimate of
//! the noise at each); fitting them as a thousand independent rows makes a seven-term law look
//! supported. So the fit works on one summary per point (its median: robust to the gross outliers
//! of timing data), and the repetitions measure the noise.
//!
//! Points are kept in the order of their inputs (not of the rows), so the same measurements in
//! any order give the same points, and the same answer.
//!
//! When the rows carry the run they were measured in ([`Dataset::runs`]; for Java, a launch
//! point), the points of one run form a *block*: one upload of 40 files of one size gives a
//! frame 40 distinct compressed sizes within 1 % of each other, measured in one JVM right after
//! one another. They are one piece of evidence about the law, not 40: the held-out checks leave
//! a whole block out, and the complexity bound counts blocks.

use crate::criterion::ErrorScale;
use crate::dataset::Dataset;
use crate::stats::median;

/// The repetitions of one parameter point.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub inputs: Vec<f64>,
    /// The measured values, sorted.
    pub values: Vec<f64>,
    pub median: f64,
    /// The mean each row summarises ([`Dataset::row_mean`]), in the order of `values`: the
    /// values themselves unless the rows are summaries (for Java, one JVM's median each).
    pub means: Vec<f64>,
    /// The first run (smallest label) that measured the point: the block it belongs to (`None`
    /// when the rows carry no runs).
    pub run: Option<u64>,
}

/// A dataset's rows grouped by identical inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct Points {
    pub points: Vec<Point>,
    pub rows: usize,
}

fn key(v: f64) -> f64 {
    // -0.0 and 0.0 are one point.
    if v == 0.0 {
        0.0
    } else {
        v
    }
}

impl Points {
    /// Groups the rows of `data` (see the module documentation).
    pub fn group(data: &Dataset) -> Points {
        let mut order: Vec<usize> = (0..data.len()).collect();
        let cmp_rows = |a: &usize, b: &usize| {
            for c in &data.columns {
                let o = key(c[*a]).total_cmp(&key(c[*b]));
                if o.is_ne() {
                    return o;
                }
            }
            std::cmp::Ordering::Equal
        };
        order.sort_by(|a, b| cmp_rows(a, b).then(data.y[*a].total_cmp(&data.y[*b])));
        let mut points: Vec<Point> = Vec::new();
        let mut last: Option<usize> = None;
        for r in order {
            let same = last.is_some_and(|l| cmp_rows(&l, &r).is_eq());
            if !same {
                points.push(Point {
                    inputs: data.columns.iter().map(|c| key(c[r])).collect(),
                    values: Vec::new(),
                    median: 0.0,
                    means: Vec::new(),
                    run: None,
                });
            }
            if let Some(p) = points.last_mut() {
                p.values.push(data.y[r]);
                p.means.push(data.row_mean(r));
                if let Some(run) = data.runs.get(r) {
                    p.run = Some(p.run.map_or(*run, |q| q.min(*run)));
                }
            }
            last = Some(r);
        }
        for p in &mut points {
            p.median = median(&p.values);
        }
        Points {
            points,
            rows: data.len(),
        }
    }

    pub fn len(&self) -> usize {
        self.points.len()
    }

    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The block of each point, numbered from 0 in the order of the runs' labels (see the module
    /// documentation); without runs every point is a block of its own.
    pub fn blocks(&self) -> Vec<usize> {
        if self.points.iter().any(|p| p.run.is_none()) {
            return (0..self.points.len()).collect();
        }
        let mut labels: Vec<u64> = self.points.iter().filter_map(|p| p.run).collect();
        labels.sort_unstable();
        labels.dedup();
        self.points
            .iter()
            .map(|p| p.run.and_then(|r| labels.binary_search(&r).ok()).unwrap_or(0))
            .collect()
    }

    /// How many blocks the points form ([`Points::blocks`]).
    pub fn block_count(&self) -> usize {
        self.blocks().iter().max().map_or(0, |b| b + 1)
    }

    /// Whether some point was measured more than once.
    pub fn has_repetitions(&self) -> bool {
        self.rows > self.points.len()
    }

    /// `(fewest, median)` repetitions per point.
    pub fn repetitions(&self) -> (usize, usize) {
        let counts: Vec<f64> = self.points.iter().map(|p| p.values.len() as f64).collect();
        let min = counts.iter().copied().fold(f64::INFINITY, f64::min);
        if counts.is_empty() {
            (0, 0)
        } else {
            (min as usize, median(&counts).round() as usize)
        }
    }

    /// Degrees of freedom of the noise estimate: `Σ (nᵢ − 1)` over the points.
    pub fn noise_df(&self) -> usize {
        self.points.iter().map(|p| p.values.len().saturating_sub(1)).sum()
    }

    /// One row per point, its median as the target, in the order of the points.
    pub fn medians(&self, data: &Dataset) -> Dataset {
        let k = data.k();
        let columns = (0..k)
            .map(|i| self.points.iter().map(|p| p.inputs[i]).collect())
            .collect();
        Dataset {
            names: data.names.clone(),
            columns,
            y: self.points.iter().map(|p| p.median).collect(),
            target_name: data.target_name.clone(),
            runs: Vec::new(),
            means: Vec::new(),
            resolution: data.resolution,
        }
    }

    /// The values of every point, one `Vec` per point (for the rank test).
    pub fn groups(&self) -> Vec<Vec<f64>> {
        self.points.iter().map(|p| p.values.clone()).collect()
    }

    /// The noise of a single observation, from the repetitions: a pooled robust standard
    /// deviation of the deviations from each point's median (`1.4826·median|dev|`, each deviation
    /// corrected by `sqrt(n/(n-1))` for its point's size), scaled like the residuals of the
    /// selection (relative to the point's median for [`ErrorScale::Relative`], else to the RMS of
    /// all values). `None` without repetitions; 0 for exactly repeated values.
    pub fn noise(&self, scale: ErrorScale) -> Option<f64> {
        let all: Vec<f64> = self.points.iter().flat_map(|p| p.values.iter().copied()).collect();
        let relative = crate::criterion::is_relative(&all, scale);
        let rms = (all.iter().map(|v| v * v).sum::<f64>() / all.len().max(1) as f64).sqrt();
        let mut dev = Vec::new();
        for p in self.points.iter().filter(|p| p.values.len() >= 2) {
            let n = p.values.len() as f64;
            let correction = (n / (n - 1.0)).sqrt();
            let s = if relative { p.median.abs() } else { rms };
            if s == 0.0 || !s.is_finite() {
                continue;
            }
            dev.extend(p.values.iter().map(|v| correction * (v - p.median).abs() / s));
        }
        if dev.is_empty() {
            return None;
        }
        Some(1.4826 * median(&dev))
    }

    /// Whether some input takes more than one value over the points.
    pub fn inputs_vary(&self) -> bool {
        self.points.len() > 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_in_input_order_whatever_the_row_order() {
        let a = Dataset::unnamed(vec![vec![2.0, 1.0, 2.0, 1.0, -0.0]], vec![5.0, 1.0, 7.0, 3.0, 9.0]).unwrap();
        let p = Points::group(&a);
        assert_eq!(p.len(), 3);
        assert_eq!(p.points[0].inputs, vec![0.0]);
        assert_eq!(p.points[1].values, vec![1.0, 3.0]);
        assert_eq!(p.points[2].median, 6.0);
        assert!(p.has_repetitions());
        assert_eq!(p.repetitions(), (1, 2));
        let shuffled = a.subset(&[4, 2, 0, 3, 1]);
        assert_eq!(Points::group(&shuffled), p);
        let m = p.medians(&a);
        assert_eq!(m.y, vec![9.0, 2.0, 6.0]);
    }

    #[test]
    fn points_of_one_run_form_a_block_whatever_the_row_order() {
        // Run 7 measured x = 10.0 and 10.1 (one upload of similar files); run 3 measured 50 and,
        // in a replicate, 10.0 again: the point belongs to its first run's block.
        let d = Dataset::unnamed(vec![vec![10.0, 10.1, 50.0, 10.0]], vec![1.0, 1.1, 5.0, 1.0])
            .unwrap()
            .with_runs(vec![7, 7, 3, 3])
            .unwrap();
        let p = Points::group(&d);
        assert_eq!(p.len(), 3);
        assert_eq!(p.blocks(), vec![0, 1, 0], "10.0 (runs 3, 7), 10.1 (run 7), 50 (run 3)");
        assert_eq!(p.block_count(), 2);
        assert_eq!(Points::group(&d.subset(&[3, 1, 0, 2])).blocks(), p.blocks());
        let plain = Dataset::unnamed(vec![vec![10.0, 10.1, 50.0]], vec![1.0, 1.1, 5.0]).unwrap();
        assert_eq!(
            Points::group(&plain).blocks(),
            vec![0, 1, 2],
            "without runs, a block per point"
        );
        assert!(d.clone().with_runs(vec![1]).is_err());
    }

    #[test]
    fn noise_of_repetitions() {
        let exact = Dataset::unnamed(vec![vec![1.0, 1.0, 2.0, 2.0]], vec![3.0, 3.0, 4.0, 4.0]).unwrap();
        assert_eq!(Points::group(&exact).noise(ErrorScale::Auto), Some(0.0));
        let single = Dataset::unnamed(vec![vec![1.0, 2.0]], vec![3.0, 4.0]).unwrap();
        assert_eq!(Points::group(&single).noise(ErrorScale::Auto), None);
        // 10 % relative noise, many repetitions: about 0.1.
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for p in 1..=5 {
            for _ in 0..200 {
                x.push(p as f64);
                y.push(100.0 * p as f64 * (1.0 + 0.1 * crate::stats::standard_normal(&mut rng)));
            }
        }
        let d = Dataset::unnamed(vec![x], y).unwrap();
        let s = Points::group(&d).noise(ErrorScale::Auto).unwrap();
        assert!((s - 0.1).abs() < 0.01, "{s}");
    }
}
