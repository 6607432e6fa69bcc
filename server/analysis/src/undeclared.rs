//! Inputs the model does not declare. A measurement may name parameters the service's signature
//! lacks (a method with a parameter more than its operation: `findMatches(ownerId,
//! currentItems)` for `find(items)`). Laws use the signature's inputs only, so those parameters
//! are dropped before fitting (`Blackboard::add_result`); but first each is tested: where the
//! values at equal declared inputs rise or fall with it, the element's cost depends on an input
//! the model cannot express, and no law in the declared inputs can be final. The result says so,
//! and which parameter to add to the signature.

use crate::events::Parameters;
use beagle_fit::evidence::hypothesis::trend_p;
use std::collections::BTreeMap;

/// An undeclared parameter the observed values follow.
#[derive(Clone, Debug, PartialEq)]
pub struct Influence {
    pub parameter: String,
    /// The rank test's p value (Spearman, two-sided), before the correction for several tests.
    pub p: f64,
    /// Mean value at the upper third of the parameter over that at the lower third (at equal
    /// declared inputs, or relative to a fit in them).
    pub ratio: f64,
    /// Whether the values were compared at equal declared inputs (else through a fit in them).
    pub at_equal_inputs: bool,
}

/// Significance after Bonferroni over the undeclared parameters tested. With the effect size below
/// it keeps an identifier passed along (an owner id) from passing for a cost input by chance; a
/// perfectly monotone run of 11 points reaches p = 0.0016 (the normal approximation), so a
/// stricter level would need dozens of points at equal declared inputs.
const ALPHA: f64 = 0.01;
/// The least effect worth a reason: the upper third 10 % above or below the lower.
const LEAST_RATIO: f64 = 1.1;

/// The undeclared parameters (`declared` says which are not) that the observed values follow at
/// equal declared inputs, strongest first. `observations`: each one's parameters and value.
pub fn influences(observations: &[(&Parameters, f64)], declared: &dyn Fn(&str) -> bool) -> Vec<Influence> {
    let mut undeclared: Vec<&String> = observations
        .iter()
        .flat_map(|(parameters, _)| parameters.keys())
        .filter(|n| !declared(n))
        .collect();
    undeclared.sort();
    undeclared.dedup();
    let tests = undeclared.len().max(1) as f64;
    // Observations grouped by their declared inputs; each value relative to its group's median.
    let mut groups: BTreeMap<Vec<(String, u64)>, Vec<usize>> = BTreeMap::new();
    for (i, (parameters, _)) in observations.iter().enumerate() {
        let key = parameters
            .iter()
            .filter(|(n, _)| declared(n))
            .map(|(n, v)| (n.clone(), v.to_bits()))
            .collect();
        groups.entry(key).or_default().push(i);
    }
    let mut out = Vec::new();
    for name in undeclared {
        let mut x = Vec::new();
        let mut y = Vec::new();
        for members in groups.values() {
            let with: Vec<usize> = members
                .iter()
                .copied()
                .filter(|i| observations[*i].0.contains_key(name))
                .collect();
            let values: Vec<f64> = with.iter().map(|i| observations[*i].1).collect();
            let xs: Vec<f64> = with.iter().map(|i| observations[*i].0[name]).collect();
            let varies = xs.iter().any(|v| *v != xs[0]);
            let centre = beagle_fit::stats::median(&values);
            if !varies || centre.is_nan() || centre <= 0.0 {
                continue;
            }
            x.extend(xs);
            y.extend(values.iter().map(|v| v / centre));
        }
        // Launch points drawn at random rarely repeat their declared inputs: then each value
        // relative to a power law in the declared inputs instead.
        let mut at_equal_inputs = true;
        if x.len() < LEAST_AT_EQUAL_INPUTS {
            let (fx, fy) = relative_to_declared(observations, declared, name);
            if fx.len() > x.len() {
                (x, y, at_equal_inputs) = (fx, fy, false);
            }
        }
        let Some(p) = trend_p(&x, &y) else { continue };
        if p * tests >= ALPHA {
            continue;
        }
        let ratio = thirds_ratio(&x, &y);
        if ratio.is_finite() && (ratio >= LEAST_RATIO || ratio <= 1.0 / LEAST_RATIO) {
            out.push(Influence {
                parameter: name.clone(),
                p,
                ratio,
                at_equal_inputs,
            });
        }
    }
    out.sort_by(|a, b| a.p.total_cmp(&b.p));
    out
}

/// Fewer comparisons at equal declared inputs than this: compare through a fit instead, where
/// that compares more.
const LEAST_AT_EQUAL_INPUTS: usize = 12;
/// Observations beyond the fit's coefficients it needs.
const LEAST_FIT_RESIDUALS: usize = 8;

/// The values of undeclared parameter `name` and each observation's value over a power law in the
/// declared inputs (least squares of `ln y` on `ln(1 + x)` of each declared input): what the
/// declared inputs leave unexplained, as a factor. A cost of `N·W` with `W` undeclared leaves
/// exactly `W`. Empty when there are too few observations for the fit.
fn relative_to_declared(
    observations: &[(&Parameters, f64)],
    declared: &dyn Fn(&str) -> bool,
    name: &str,
) -> (Vec<f64>, Vec<f64>) {
    let used: Vec<&(&Parameters, f64)> = observations
        .iter()
        .filter(|(p, v)| p.contains_key(name) && *v > 0.0 && v.is_finite())
        .collect();
    let mut inputs: Vec<&String> = used
        .iter()
        .flat_map(|(p, _)| p.keys())
        .filter(|n| declared(n))
        .collect();
    inputs.sort();
    inputs.dedup();
    // Inputs every observation has, and that vary.
    inputs.retain(|n| {
        let values: Vec<f64> = used.iter().filter_map(|(p, _)| p.get(*n).copied()).collect();
        values.len() == used.len() && values.iter().all(|v| *v >= 0.0) && values.iter().any(|v| *v != values[0])
    });
    if used.len() < inputs.len() + 1 + LEAST_FIT_RESIDUALS {
        return (Vec::new(), Vec::new());
    }
    let logs: Vec<f64> = used.iter().map(|(_, v)| v.ln()).collect();
    let mut columns = vec![vec![1.0; used.len()]];
    columns.extend(inputs.iter().map(|n| used.iter().map(|(p, _)| p[*n].ln_1p()).collect()));
    let Some(c) = beagle_fit::linalg::lstsq(columns.clone(), logs.clone()) else {
        return (Vec::new(), Vec::new());
    };
    let y = (0..used.len())
        .map(|i| (logs[i] - columns.iter().zip(&c).map(|(col, k)| col[i] * k).sum::<f64>()).exp())
        .collect();
    (used.iter().map(|(p, _)| p[name]).collect(), y)
}

/// Mean of `y` where `x` is in its upper third over its mean where `x` is in its lower third.
fn thirds_ratio(x: &[f64], y: &[f64]) -> f64 {
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|a, b| x[*a].total_cmp(&x[*b]));
    let third = (order.len() / 3).max(1);
    let mean = |idx: &[usize]| idx.iter().map(|i| y[*i]).sum::<f64>() / idx.len() as f64;
    mean(&order[order.len() - third..]) / mean(&order[..third])
}

/// The reason an element's laws stay preliminary.
pub fn reason(element: &str, influence: &Influence) -> String {
    let (how, factor) = if influence.ratio >= 1.0 {
        ("rises", influence.ratio)
    } else {
        ("falls", 1.0 / influence.ratio)
    };
    format!(
        "{element}: its cost {how} with `{}` ({factor:.1} times from its lower to its upper third, {}; rank test {}), which the service's signature does not declare: add it to the signature to get a law",
        influence.parameter,
        if influence.at_equal_inputs {
            "at equal declared inputs"
        } else {
            "beyond what the declared inputs explain"
        },
        beagle_fit::evidence::p_text(influence.p)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn observation(items: f64, owner: f64, extra: f64, value: f64) -> (Parameters, f64) {
        let parameters: Parameters = [
            ("items.NUMBER_OF_ELEMENTS".to_string(), items),
            ("ownerId.VALUE".to_string(), owner),
            ("currentItems.NUMBER_OF_ELEMENTS".to_string(), extra),
        ]
        .into();
        (parameters, value)
    }

    fn refs(obs: &[(Parameters, f64)]) -> Vec<(&Parameters, f64)> {
        obs.iter().map(|(p, v)| (p, *v)).collect()
    }

    #[test]
    fn a_cost_that_follows_an_undeclared_input_is_found_and_an_identifier_is_not() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut obs = Vec::new();
        for items in [10.0, 20.0, 40.0] {
            for _ in 0..20 {
                let extra: f64 = rng.random_range(1.0..200.0);
                let owner: f64 = rng.random_range(1.0..1e6);
                let noise: f64 = rng.random_range(0.95..1.05);
                obs.push(observation(items, owner, extra, (0.01 * items + 0.002 * extra) * noise));
            }
        }
        let declared = |n: &str| n.starts_with("items.");
        let found = influences(&refs(&obs), &declared);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].parameter, "currentItems.NUMBER_OF_ELEMENTS");
        assert!(found[0].ratio > 1.5, "{found:?}");
        let text = reason("_find", &found[0]);
        assert!(text.contains("rises with `currentItems.NUMBER_OF_ELEMENTS`"), "{text}");
        assert!(text.ends_with("add it to the signature to get a law"), "{text}");
        // Noise alone, over other seeds: nothing.
        for seed in 0..20 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let obs: Vec<(Parameters, f64)> = (0..60)
                .map(|i| {
                    let v: f64 = rng.random_range(0.9..1.1);
                    observation(
                        10.0 * (1 + i % 3) as f64,
                        rng.random_range(1.0..1e6),
                        rng.random_range(1.0..200.0),
                        v,
                    )
                })
                .collect();
            assert!(influences(&refs(&obs), &declared).is_empty(), "seed {seed}");
        }
    }

    /// Random launch points never repeat their declared inputs: the comparison goes through a
    /// fit in them. A digest of `N` results at `W` columns each costs `N·W`; `W` is found, and
    /// nothing is where the cost follows the declared input alone (a line with a floor, which a
    /// power law does not fit exactly), over seeds.
    #[test]
    fn without_repeated_declared_inputs_the_undeclared_input_is_found_through_a_fit() {
        let declared = |n: &str| n.starts_with("items.");
        let draw = |seed: u64, cost: &dyn Fn(f64, f64) -> f64| -> Vec<(Parameters, f64)> {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            (0..30)
                .map(|_| {
                    let items: f64 = rng.random_range(20.0..1000.0_f64).round();
                    let width: f64 = rng.random_range(1.0..32.0_f64).round();
                    let noise: f64 = rng.random_range(0.9..1.1);
                    let parameters: Parameters = [
                        ("items.NUMBER_OF_ELEMENTS".to_string(), items),
                        ("width.VALUE".to_string(), width),
                    ]
                    .into();
                    (parameters, cost(items, width) * noise)
                })
                .collect()
        };
        for seed in 0..10 {
            let obs = draw(seed, &|n, w| 1e-6 * n * w);
            let found = influences(&refs(&obs), &declared);
            assert_eq!(found.len(), 1, "seed {seed}: {found:?}");
            assert_eq!(found[0].parameter, "width.VALUE");
            assert!(!found[0].at_equal_inputs);
            assert!(found[0].ratio > 2.0, "seed {seed}: {found:?}");
            assert!(reason("_digest", &found[0]).contains("beyond what the declared inputs explain"));
            let obs = draw(seed, &|n, _| 0.3 + 1e-3 * n);
            assert!(influences(&refs(&obs), &declared).is_empty(), "seed {seed}");
        }
    }

    /// Eleven launches at one declared input (20 files), each with another share already
    /// compressed: too few for the fit, the comparison at equal declared inputs still finds it.
    #[test]
    fn eleven_observations_at_one_declared_input_are_compared_as_they_are() {
        let obs: Vec<(Parameters, f64)> = (0..11)
            .map(|i| {
                let compressed = 2.0 * i as f64;
                let parameters: Parameters = [
                    ("files.NUMBER_OF_ELEMENTS".to_string(), 20.0),
                    ("alreadyCompressed.NUMBER_OF_ELEMENTS".to_string(), compressed),
                ]
                .into();
                (parameters, 20.0 - compressed + 0.01 * (i % 3) as f64)
            })
            .collect();
        let found = influences(&refs(&obs), &|n: &str| n.starts_with("files."));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].at_equal_inputs);
        assert!(reason("_loop", &found[0]).contains("falls with `alreadyCompressed.NUMBER_OF_ELEMENTS`"));
    }
}
