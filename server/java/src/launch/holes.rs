//! Launch points that fill a hole in an element's input (issue 37). A law is not final where an
//! input it uses has a hole of more than a decade unmeasured (`beagle_fit`'s coverage rule), but
//! the Java tool places points by its launches' parameters (`size`), not by the element's inputs
//! (the size compression made of it). So the measured launch points are used as a map: per
//! point, the smallest and the largest value of the input the element saw are fitted as laws of
//! the launch parameters (regression, thresholds, MARS: `data.BYTESIZE = size` comes out exact,
//! and a hash of half-compressed files `0.29·size` to `size`), and a seeded search of the launch
//! space picks the points those laws put inside the hole, spread over it on the logarithm. Where
//! no launch point reaches the hole, it says how near the nearest comes.

use super::config::{Launch, ParameterSpec, PointValue};
use super::points::{dedup, from_unit, Point};
use beagle_fit::{fit, Dataset, FitOptions};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Candidate launch points searched per hole.
const CANDIDATES: usize = 4096;

/// A hole: no measured value of the element's `input` between `below` and `above`.
#[derive(Clone, Debug, PartialEq)]
pub struct Hole {
    pub element: String,
    pub input: String,
    pub below: f64,
    pub above: f64,
}

/// Why no launch point is placed in a hole of the element's `input`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum HoleError {
    /// Fewer than three launch points saw the input: too few to map it.
    #[error("{seen} launch points saw {input}: too few to map it to the launch's parameters")]
    TooFew { seen: usize, input: String },
    /// No law of the launch parameters was found for the input.
    #[error("{input} could not be mapped to the launch's parameters")]
    Unmapped { input: String },
    /// No point of `launch` puts the input inside the hole; `nearest`: the value nearest to it
    /// any launch point gives.
    #[error(
        "the launch `{launch}` does not reach it: by the measured points, the nearest any launch point comes is {}",
        nearest.map_or("nothing".into(), |v| beagle_fit::print::format_number(beagle_fit::numeric::round_significant(v, 3)))
    )]
    Unreached { launch: String, nearest: Option<f64> },
}

/// A launch parameter's value as a number: a number itself, a flag 0 or 1, a text value its
/// index among the launch's values.
fn number(spec: &ParameterSpec, v: &PointValue) -> f64 {
    match (v, spec) {
        (PointValue::Number(x), _) => *x,
        (PointValue::Bool(b), _) => f64::from(u8::from(*b)),
        (text, ParameterSpec::Values(vs)) => vs.iter().position(|x| x == text).unwrap_or(0) as f64,
        _ => 0.0,
    }
}

fn numbers(launch: &Launch, p: &Point) -> Vec<f64> {
    (launch.parameters.iter())
        .map(|(name, spec)| p.get(name).map_or(0.0, |v| number(spec, v)))
        .collect()
}

/// A fitted map from the launch parameters to one statistic of the input.
struct Map(beagle_fit::Expr);

impl Map {
    fn fit(launch: &Launch, seen: &[(Point, f64)]) -> Option<Map> {
        let names: Vec<String> = launch.parameters.keys().cloned().collect();
        let rows: Vec<Vec<f64>> = seen.iter().map(|(p, _)| numbers(launch, p)).collect();
        let columns = (0..names.len()).map(|j| rows.iter().map(|r| r[j]).collect()).collect();
        let y = seen.iter().map(|(_, v)| *v).collect();
        let data = Dataset::new(names, columns, y).ok()?;
        let options = FitOptions {
            gp: None,
            ..FitOptions::default()
        };
        Some(Map(fit(&data, &options).ok()?.expr))
    }

    fn at(&self, x: &[f64]) -> f64 {
        let columns: Vec<Vec<f64>> = x.iter().map(|v| vec![*v]).collect();
        beagle_fit::eval(&self.0, &columns, 1)[0]
    }
}

/// Up to `n` launch points whose input, by the map that `seen` (per measured launch point, the
/// element's values of the input there) makes, falls inside `hole`, spread over it; `Err` with
/// the reason where none does (the launch range does not reach it, or too few points to map).
pub fn hole_points(
    launch: &Launch,
    seen: &[(Point, Vec<f64>)],
    hole: &Hole,
    n: usize,
    seed: u64,
) -> Result<Vec<Point>, HoleError> {
    let stat = |f: fn(f64, f64) -> f64| -> Vec<(Point, f64)> {
        (seen.iter())
            .filter_map(|(p, vs)| {
                let v = vs.iter().copied().filter(|v| v.is_finite()).reduce(f)?;
                Some((p.clone(), v))
            })
            .collect()
    };
    if seen.len() < 3 {
        return Err(HoleError::TooFew {
            seen: seen.len(),
            input: hole.input.clone(),
        });
    }
    let (Some(low), Some(high)) = (Map::fit(launch, &stat(f64::min)), Map::fit(launch, &stat(f64::max))) else {
        return Err(HoleError::Unmapped {
            input: hole.input.clone(),
        });
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x401e_5eed_0000_0037);
    let dims = launch.parameters.len();
    // The corners too: a hole at the end of a range is reached there or nowhere.
    let corners = [vec![0.0; dims], vec![1.0; dims]];
    let candidates: Vec<(Point, f64, f64)> = (corners.into_iter())
        .chain((0..CANDIDATES).map(|_| (0..dims).map(|_| rng.random::<f64>()).collect()))
        .map(|u: Vec<f64>| {
            let p = from_unit(launch, &u);
            let x = numbers(launch, &p);
            (p, low.at(&x), high.at(&x))
        })
        .collect();
    let inside = |v: f64| v > hole.below && v < hole.above;
    let log_gap = |v: f64, t: f64| {
        if v > 0.0 {
            (v.ln() - t.ln()).abs()
        } else {
            f64::INFINITY
        }
    };
    let mut out: Vec<Point> = Vec::new();
    for j in 0..n {
        // Targets spread evenly over the hole on the logarithm, away from its edges.
        let t = hole.below * (hole.above / hole.below).powf((j as f64 + 0.5) / n as f64);
        let best = (candidates.iter())
            .filter(|(p, lo, hi)| (inside(*lo) || inside(*hi)) && !out.contains(p))
            .min_by(|a, b| {
                let d = |c: &(Point, f64, f64)| log_gap(c.1, t).min(log_gap(c.2, t));
                d(a).total_cmp(&d(b))
            });
        if let Some((p, _, _)) = best {
            out.push(p.clone());
        }
    }
    if out.is_empty() {
        let nearest = (candidates.iter())
            .flat_map(|(_, lo, hi)| [*lo, *hi])
            .filter(|v| *v > 0.0)
            .min_by(|a, b| {
                let miss = |v: f64| log_gap(v, hole.below).min(log_gap(v, hole.above));
                miss(*a).total_cmp(&miss(*b))
            });
        return Err(HoleError::Unreached {
            launch: launch.name.clone(),
            nearest,
        });
    }
    Ok(dedup(launch, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::config::Target;
    use std::collections::BTreeMap;

    fn launch(size: (f64, f64)) -> Launch {
        Launch {
            name: "upload".into(),
            target: Target::Main("Driver".into()),
            args: Vec::new(),
            parameters: BTreeMap::from([
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
                    "size".to_string(),
                    ParameterSpec::Range {
                        from: size.0,
                        to: size.1,
                        integer: true,
                        log: false,
                    },
                ),
            ]),
            env: BTreeMap::new(),
            jvm_args: Vec::new(),
            cwd: None,
        }
    }

    fn point(files: f64, size: f64) -> Point {
        Point::from([
            ("files".to_string(), PointValue::Number(files)),
            ("size".to_string(), PointValue::Number(size)),
        ])
    }

    /// Measured launch points where a callee saw `input(size)`; the coarse pass's sizes leave
    /// nothing between 1 000 and 31 800 bytes.
    fn seen(input: impl Fn(f64) -> f64) -> Vec<(Point, Vec<f64>)> {
        [
            (1.0, 1000.0),
            (40.0, 400000.0),
            (7.0, 31800.0),
            (23.0, 95000.0),
            (12.0, 150000.0),
            (30.0, 270000.0),
        ]
        .iter()
        .map(|(f, s)| (point(*f, *s), vec![input(*s)]))
        .collect()
    }

    fn size(p: &Point) -> f64 {
        match p["size"] {
            PointValue::Number(x) => x,
            _ => panic!(),
        }
    }

    /// Compression's input is the file's size: the hole maps to sizes inside it, spread.
    #[test]
    fn a_hole_in_a_callees_input_maps_back_through_the_call_parameter_law() {
        let hole = Hole {
            element: "compress".into(),
            input: "data.BYTESIZE".into(),
            below: 1000.0,
            above: 31800.0,
        };
        for seed in [1, 2, 3] {
            let points = hole_points(&launch((1000.0, 400000.0)), &seen(|s| s), &hole, 3, seed).unwrap();
            assert_eq!(points.len(), 3, "{points:?}");
            let mut sizes: Vec<f64> = points.iter().map(size).collect();
            sizes.sort_by(f64::total_cmp);
            assert!(sizes.iter().all(|s| *s > 1000.0 && *s < 31800.0), "{sizes:?}");
            // Spread over the hole on the logarithm: one in each third.
            assert!(sizes[0] < 3200.0 && sizes[2] > 10000.0, "{sizes:?}");
        }
        // Through a law with a factor (a callee that gets what compression made: 0.3 of it),
        // the hole 300..9540 of its input asks for sizes of 1 000..31 800.
        let packed = Hole {
            below: 300.0,
            above: 9540.0,
            ..hole.clone()
        };
        let points = hole_points(&launch((1000.0, 400000.0)), &seen(|s| 0.3 * s), &packed, 2, 1).unwrap();
        assert!(
            points.iter().all(|p| size(p) > 1000.0 && size(p) < 31800.0),
            "{points:?}"
        );
    }

    /// A hole below what the launch's range can make is reported as unreachable, with how near
    /// the launch comes.
    #[test]
    fn a_hole_outside_the_launch_range_is_unreachable_and_says_how_near_it_comes() {
        let hole = Hole {
            element: "compress".into(),
            input: "data.BYTESIZE".into(),
            below: 10.0,
            above: 900.0,
        };
        let err = hole_points(&launch((1000.0, 400000.0)), &seen(|s| s), &hole, 3, 1).unwrap_err();
        assert!(
            matches!(&err, HoleError::Unreached { launch, nearest: Some(_) } if launch == "upload"),
            "{err:?}"
        );
        let err = err.to_string();
        assert!(err.contains("does not reach it") && err.contains("1000"), "{err}");
        let few = hole_points(&launch((1000.0, 400000.0)), &seen(|s| s)[..2], &hole, 3, 1).unwrap_err();
        assert_eq!(
            few.to_string(),
            "2 launch points saw data.BYTESIZE: too few to map it to the launch's parameters"
        );
    }
}
