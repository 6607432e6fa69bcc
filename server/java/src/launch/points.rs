//! Which parameter points to measure: a quick first pass that covers the ranges coarsely, then
//! passes that add points where the fitted models disagree or err most (PerfJavaDoc's progressive
//! quality: preliminary results early, precise ones later).
//!
//! The first pass is a maximin Latin hypercube over the range parameters (every range is cut into
//! as many strata as there are points, one point per stratum per parameter, the best of 32 seeded
//! designs by smallest pairwise distance), plus the two corners; parameters with given values take
//! them in turn, balanced. Refinement scores candidate points (a fresh hypercube and the midpoints
//! between each measured point and its nearest neighbours) by the score of nearby measured points
//! (inverse-distance weighted, plus a little for exploration) times their distance from everything
//! measured, and picks greedily.

use super::config::{Launch, ParameterSpec, PointValue};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// Values of a launch's parameters.
pub type Point = BTreeMap<String, PointValue>;

/// `files=12, size=3000`.
pub fn describe(point: &Point) -> String {
    point
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A point's coordinates in `[0,1]` per parameter (values: their index spread over `[0,1]`).
pub(super) fn unit(launch: &Launch, point: &Point) -> Vec<f64> {
    launch
        .parameters
        .iter()
        .map(|(name, spec)| match (spec, point.get(name)) {
            (
                ParameterSpec::Range {
                    from, to, log: true, ..
                },
                Some(PointValue::Number(x)),
            ) if to > from => (x.max(*from).ln() - from.ln()) / (to.ln() - from.ln()),
            (ParameterSpec::Range { from, to, .. }, Some(PointValue::Number(x))) if to > from => {
                (x - from) / (to - from)
            }
            (ParameterSpec::Values(vs), Some(v)) if vs.len() > 1 => {
                vs.iter().position(|x| x == v).unwrap_or(0) as f64 / (vs.len() - 1) as f64
            }
            _ => 0.0,
        })
        .collect()
}

pub(super) fn from_unit(launch: &Launch, u: &[f64]) -> Point {
    launch
        .parameters
        .iter()
        .zip(u)
        .map(|((name, spec), &t)| {
            let t = t.clamp(0.0, 1.0);
            let v = match spec {
                ParameterSpec::Range { from, to, integer, log } => {
                    let x = if *log {
                        (from.ln() + t * (to.ln() - from.ln())).exp()
                    } else {
                        from + t * (to - from)
                    };
                    PointValue::Number(if *integer { x.round() } else { x })
                }
                ParameterSpec::Values(vs) => {
                    vs[((t * (vs.len() - 1) as f64).round() as usize).min(vs.len() - 1)].clone()
                }
            };
            (name.clone(), v)
        })
        .collect()
}

fn distance(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum::<f64>().sqrt()
}

/// A Latin hypercube of `n` points in unit coordinates; value parameters get balanced levels.
fn hypercube(launch: &Launch, n: usize, rng: &mut ChaCha8Rng) -> Vec<Vec<f64>> {
    let columns: Vec<Vec<f64>> = launch
        .parameters
        .values()
        .map(|spec| {
            let mut col: Vec<f64> = match spec {
                ParameterSpec::Range { .. } => (0..n).map(|i| (i as f64 + rng.random::<f64>()) / n as f64).collect(),
                ParameterSpec::Values(vs) => (0..n)
                    .map(|i| {
                        if vs.len() > 1 {
                            (i % vs.len()) as f64 / (vs.len() - 1) as f64
                        } else {
                            0.0
                        }
                    })
                    .collect(),
            };
            col.shuffle(rng);
            col
        })
        .collect();
    (0..n).map(|i| columns.iter().map(|c| c[i]).collect()).collect()
}

fn min_pairwise(points: &[Vec<f64>]) -> f64 {
    let mut best = f64::INFINITY;
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            best = best.min(distance(&points[i], &points[j]));
        }
    }
    best
}

pub(super) fn dedup(launch: &Launch, points: Vec<Point>) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::new();
    for p in points {
        if !out.iter().any(|q| distance(&unit(launch, q), &unit(launch, &p)) < 1e-9) {
            out.push(p);
        }
    }
    out
}

/// The first pass: the two corners and a maximin Latin hypercube of `n` points (fewer when the
/// parameters have fewer distinct combinations).
pub fn coarse_points(launch: &Launch, n: usize, seed: u64) -> Vec<Point> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let dims = launch.parameters.len();
    let mut points = vec![from_unit(launch, &vec![0.0; dims]), from_unit(launch, &vec![1.0; dims])];
    if n > 0 {
        let best = (0..32)
            .map(|_| hypercube(launch, n, &mut rng))
            .max_by(|a, b| min_pairwise(a).total_cmp(&min_pairwise(b)))
            .unwrap_or_default();
        points.extend(best.iter().map(|u| from_unit(launch, u)));
    }
    dedup(launch, points)
}

/// Points for validation: `n` points of a Latin hypercube drawn by its own seed stream, none
/// within `MIN_GAP` (in unit coordinates) of the `used` ones (what the analysis measured), so the
/// model is checked where it was not fitted. A point too close is drawn again, uniformly.
pub fn fresh_points(launch: &Launch, n: usize, seed: u64, used: &[Point]) -> Vec<Point> {
    const MIN_GAP: f64 = 0.02;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_f0e5_b1ea_91e5);
    let used: Vec<Vec<f64>> = used.iter().map(|p| unit(launch, p)).collect();
    let far = |u: &[f64]| used.iter().all(|v| distance(u, v) >= MIN_GAP);
    let mut out: Vec<Point> = Vec::new();
    for mut u in hypercube(launch, n, &mut rng) {
        let point = |u: &[f64]| from_unit(launch, u);
        for _ in 0..100 {
            // Rounded (integers, levels) as it will run.
            if far(&unit(launch, &point(&u))) {
                break;
            }
            u = (0..u.len()).map(|_| rng.random::<f64>()).collect();
        }
        let p = point(&u);
        if far(&unit(launch, &p)) {
            out.push(p);
        }
    }
    dedup(launch, out)
}

/// The next pass: `n` new points where the measured points' `scores` (higher: the models err or
/// disagree more there) and the distance from what is measured are largest.
pub fn refine_points(launch: &Launch, measured: &[(Point, f64)], n: usize, seed: u64) -> Vec<Point> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
    let known: Vec<(Vec<f64>, f64)> = measured.iter().map(|(p, s)| (unit(launch, p), *s)).collect();
    if known.is_empty() || n == 0 {
        return Vec::new();
    }
    let top = known.iter().map(|k| k.1).fold(0.0f64, f64::max).max(1e-12);
    let mut candidates = hypercube(launch, 64, &mut rng);
    for (i, (a, _)) in known.iter().enumerate() {
        let mut near: Vec<(f64, usize)> = known
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(j, (b, _))| (distance(a, b), j))
            .collect();
        near.sort_by(|x, y| x.0.total_cmp(&y.0));
        for (_, j) in near.iter().take(3) {
            candidates.push(a.iter().zip(&known[*j].0).map(|(x, y)| (x + y) / 2.0).collect());
        }
    }
    // Snapped to what can be run (integers, given values), so distances are between real points.
    let candidates: Vec<Vec<f64>> = candidates.iter().map(|c| unit(launch, &from_unit(launch, c))).collect();
    let mut taken: Vec<Vec<f64>> = known.iter().map(|k| k.0.clone()).collect();
    let mut out = Vec::new();
    for _ in 0..n {
        let score = |c: &Vec<f64>| {
            let (mut w, mut s) = (0.0, 0.0);
            for (k, v) in &known {
                let d = distance(c, k).max(1e-6);
                w += 1.0 / (d * d);
                s += v / top / (d * d);
            }
            let gap = taken.iter().map(|t| distance(c, t)).fold(f64::INFINITY, f64::min);
            if gap < 1e-6 {
                return f64::NEG_INFINITY;
            }
            // Error (or disagreement) nearby, times room: a point between two bad points beats one
            // right next to a bad point; a little weight keeps exploring where all is well.
            (s / w + 0.1) * gap
        };
        let Some(best) = candidates.iter().max_by(|a, b| score(a).total_cmp(&score(b))).cloned() else {
            break;
        };
        if score(&best) == f64::NEG_INFINITY {
            break;
        }
        let p = from_unit(launch, &best);
        taken.push(unit(launch, &p));
        out.push(p);
    }
    dedup(launch, out)
}

/// `n` new points for an element that only some launch points reach (the large-file write: only
/// compressed files above 200 KB): midpoints of two points of `reaching` (snapped to what can be
/// run), which lie in the same corner where it is convex, farthest first from everything
/// `measured`. Fewer when the pairs give fewer new points.
pub fn reaching_points(launch: &Launch, reaching: &[Point], measured: &[Point], n: usize) -> Vec<Point> {
    let reach: Vec<Vec<f64>> = reaching.iter().map(|p| unit(launch, p)).collect();
    let mut candidates: Vec<Vec<f64>> = Vec::new();
    for (i, a) in reach.iter().enumerate() {
        for b in &reach[i + 1..] {
            let mid: Vec<f64> = a.iter().zip(b).map(|(x, y)| (x + y) / 2.0).collect();
            candidates.push(unit(launch, &from_unit(launch, &mid)));
        }
    }
    let mut taken: Vec<Vec<f64>> = measured.iter().map(|p| unit(launch, p)).collect();
    let mut out = Vec::new();
    while out.len() < n {
        let gap = |c: &Vec<f64>| taken.iter().map(|t| distance(c, t)).fold(f64::INFINITY, f64::min);
        let Some(best) = candidates.iter().max_by(|a, b| gap(a).total_cmp(&gap(b))).cloned() else {
            break;
        };
        if gap(&best) < 1e-9 {
            break;
        }
        taken.push(best.clone());
        out.push(from_unit(launch, &best));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::config::Target;

    fn launch() -> Launch {
        Launch {
            name: "l".into(),
            target: Target::Main("M".into()),
            args: vec![],
            parameters: [
                (
                    "files".to_string(),
                    ParameterSpec::Range {
                        from: 1.0,
                        to: 40.0,
                        integer: true,
                        log: false,
                    },
                ),
                (
                    "share".to_string(),
                    ParameterSpec::Values(vec![
                        PointValue::Number(0.0),
                        PointValue::Number(0.5),
                        PointValue::Number(1.0),
                    ]),
                ),
            ]
            .into(),
            env: Default::default(),
            jvm_args: vec![],
            cwd: None,
        }
    }

    fn files(p: &Point) -> f64 {
        match p["files"] {
            PointValue::Number(x) => x,
            _ => panic!(),
        }
    }

    fn at(files: f64, share: f64) -> Point {
        [
            ("files".to_string(), PointValue::Number(files)),
            ("share".to_string(), PointValue::Number(share)),
        ]
        .into()
    }

    /// Issue 37: an element reached only in a corner (here: 30 files and more, a share of 0.5 or
    /// 1) gets new points in that corner, none measured before.
    #[test]
    fn points_for_a_corner_element_stay_in_its_corner() {
        let l = launch();
        let reaching = [at(30.0, 1.0), at(40.0, 0.5), at(34.0, 1.0)];
        let mut measured: Vec<Point> = reaching.to_vec();
        measured.extend([at(1.0, 0.0), at(20.0, 0.5), at(10.0, 1.0)]);
        let new = reaching_points(&l, &reaching, &measured, 3);
        assert_eq!(new.len(), 3, "{new:?}");
        for p in &new {
            assert!(files(p) >= 30.0 && p["share"] != PointValue::Number(0.0), "{p:?}");
            assert!(!measured.contains(p), "{p:?}");
        }
        // Nothing new between points already measured.
        assert!(reaching_points(&l, &reaching[..1], &measured, 2).is_empty());
    }

    #[test]
    fn coarse_pass_covers_the_range_with_integers_and_every_value() {
        let l = launch();
        let ps = coarse_points(&l, 12, 7);
        assert!(ps.len() >= 12, "{}", ps.len());
        let fs: Vec<f64> = ps.iter().map(files).collect();
        assert!(fs.iter().all(|f| f.fract() == 0.0 && (1.0..=40.0).contains(f)));
        assert!(fs.contains(&1.0) && fs.contains(&40.0), "corners: {fs:?}");
        // One point per stratum: the hypercube's 12 values of files are spread, not clumped.
        let mut sorted = fs.clone();
        sorted.sort_by(f64::total_cmp);
        sorted.dedup();
        assert!(sorted.len() >= 10, "{sorted:?}");
        for v in [0.0, 0.5, 1.0] {
            let n = ps.iter().filter(|p| p["share"] == PointValue::Number(v)).count();
            assert!(n >= 4, "share {v}: {n} points");
        }
        assert_eq!(ps, coarse_points(&l, 12, 7), "seeded");
        assert_ne!(ps, coarse_points(&l, 12, 8));
    }

    #[test]
    fn a_log_range_puts_as_many_points_in_each_decade() {
        let mut l = launch();
        l.parameters.insert(
            "files".into(),
            ParameterSpec::Range {
                from: 1000.0,
                to: 1_000_000.0,
                integer: true,
                log: true,
            },
        );
        let ps = coarse_points(&l, 12, 3);
        let decade = |lo: f64, hi: f64| ps.iter().map(files).filter(|f| (lo..hi).contains(f)).count();
        let (a, b, c) = (
            decade(1000.0, 10_000.0),
            decade(10_000.0, 100_000.0),
            decade(100_000.0, 1_000_001.0),
        );
        assert!(
            a >= 3 && b >= 3 && c >= 3,
            "{a} {b} {c}: {:?}",
            ps.iter().map(files).collect::<Vec<_>>()
        );
        assert!(ps
            .iter()
            .map(files)
            .all(|f| (1000.0..=1_000_000.0).contains(&f) && f.fract() == 0.0));
        // Refinement measures distances in the same coordinates: a point between 1 and 10 KB is
        // as far from both as one between 100 KB and 1 MB is from those.
        let at = |x: f64| {
            let mut p = ps[0].clone();
            p.insert("files".into(), PointValue::Number(x));
            unit(&l, &p)[0]
        };
        assert!((at(10_000.0) - at(1000.0) - (at(1_000_000.0) - at(100_000.0))).abs() < 1e-9);
    }

    #[test]
    fn refinement_goes_where_the_error_is() {
        let l = launch();
        let measured: Vec<(Point, f64)> = coarse_points(&l, 12, 1)
            .into_iter()
            .map(|p| {
                let bad = files(&p) > 30.0;
                (p, if bad { 1.0 } else { 0.01 })
            })
            .collect();
        let new = refine_points(&l, &measured, 6, 1);
        assert_eq!(new.len(), 6);
        let high = new.iter().filter(|p| files(p) > 25.0).count();
        assert!(
            high >= 4,
            "most new points near the large errors: {:?}",
            new.iter().map(files).collect::<Vec<_>>()
        );
        for p in &new {
            assert!(!measured.iter().any(|(q, _)| q == p), "no point measured twice");
        }
    }

    #[test]
    fn fresh_points_keep_away_from_the_measured_ones_and_stay_in_range() {
        let l = launch();
        for seed in 0..20 {
            let used = coarse_points(&l, 12, seed);
            let fresh = fresh_points(&l, 8, seed, &used);
            assert!(fresh.len() >= 6, "seed {seed}: {fresh:?}");
            for p in &fresh {
                let u = unit(&l, p);
                assert!(used.iter().all(|q| distance(&u, &unit(&l, q)) >= 0.02), "{p:?}");
                let PointValue::Number(files) = p["files"] else {
                    panic!()
                };
                assert!((1.0..=40.0).contains(&files) && files.fract() == 0.0, "{p:?}");
            }
            // Seeded: the same seed, the same points; another, others.
            assert_eq!(fresh_points(&l, 8, seed, &used), fresh);
        }
        assert_ne!(fresh_points(&l, 8, 1, &[]), fresh_points(&l, 8, 2, &[]));
    }
}
