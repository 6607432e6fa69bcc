//! Issue 35's distortion and calibration (`beagle validate` of a Java workspace): where the
//! instrumented build's totals, net of every probe, lie beyond the noise from the plain build's at
//! the same points, the probes changed what the JIT made of the code (inlining, escape analysis),
//! and the demands measured instrumented carry that. Said per SEFF; and for an outermost SEFF
//! (measured by its thread's CPU clock, the yardstick's measure) whose prediction is off the plain
//! totals beyond the noise, a factor calibrates its demands against them
//! ([`beagle_analysis::validation::Calibration`]).
//!
//! Called SEFFs get no factor: their plain totals are wall-clock times on their caller's thread
//! (less time not running), the less certain measure, and their caller's total holds their time.

use beagle_analysis::predict::{Bindings, Predictor};
use beagle_analysis::validation::{Calibration, Measured, ServiceValidation};
use beagle_pcm::model::{ActionBody, Repository};
use std::collections::{BTreeSet, HashMap};

/// Least departure from 1 that a factor or a distortion must have to be said.
const MATERIAL: f64 = 0.05;
/// Fewest points a distortion or a factor is computed on.
const FEWEST_POINTS: usize = 3;

/// A service point as a key: the SEFF and its inputs' bits.
pub(crate) type PointKey = (String, Vec<(String, u64)>);

pub(crate) fn point_key(service: &str, inputs: &Bindings) -> PointKey {
    (
        service.to_string(),
        inputs.iter().map(|(k, v)| (k.clone(), v.to_bits())).collect(),
    )
}

/// Median and quartiles of `values` (at least [`FEWEST_POINTS`]).
fn quartiles(mut values: Vec<f64>) -> Option<(f64, f64, f64)> {
    if values.len() < FEWEST_POINTS {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some((values[n / 4], values[n / 2], values[(3 * n) / 4]))
}

/// Whether a median ratio departs from 1 materially and beyond the spread between points (the
/// noise of two JVMs' timings).
fn departs((q1, median, q3): (f64, f64, f64)) -> bool {
    let spread = q3 - q1;
    (median - 1.0).abs() > MATERIAL && (median > 1.0 + spread || median < 1.0 - spread)
}

/// How far the instrumented build's totals of `seff` (net of every probe) lie from the plain
/// build's at the same points: `(q1, median, q3, points)` of their ratio, where it departs from 1
/// ([`departs`]).
pub(crate) fn distortion(
    seff: &str,
    plain: &[Measured],
    instrumented: &HashMap<PointKey, f64>,
) -> Option<(f64, f64, f64, usize)> {
    let ratios: Vec<f64> = plain
        .iter()
        .filter(|p| p.service == seff && p.total_ms > 0.0)
        .filter_map(|p| Some(instrumented.get(&point_key(seff, &p.inputs))? / p.total_ms))
        .collect();
    let n = ratios.len();
    let q = quartiles(ratios)?;
    departs(q).then_some((q.0, q.1, q.2, n))
}

/// The distortion note of a SEFF.
pub(crate) fn distortion_note((q1, median, q3, n): (f64, f64, f64, usize)) -> String {
    format!(
        "the instrumented build's totals (net of every probe) are {:+.0} % of the plain build's (median of {n} points, quartiles {:+.0} % and {:+.0} %): the probes change what the JIT makes of this code, so its demands, measured instrumented, are off by about as much",
        100.0 * (median - 1.0),
        100.0 * (q1 - 1.0),
        100.0 * (q3 - 1.0)
    )
}

/// The factor of an outermost SEFF whose measurement is distorted (`distortion`, the median
/// ratio): the median of the plain totals over the prediction, where that departs from 1
/// beyond the noise. `None` otherwise.
pub(crate) fn factor(v: &ServiceValidation, distortion: f64) -> Option<Calibration> {
    let ratios: Vec<f64> = (v.rows.iter())
        .filter(|r| r.predicted_ms > 0.0 && r.measured_ms > 0.0)
        .map(|r| r.measured_ms / r.predicted_ms)
        .collect();
    let points = ratios.len();
    let q = quartiles(ratios)?;
    departs(q).then(|| Calibration {
        distortion,
        factor: q.1,
        points,
        actions: Vec::new(),
        not_writable: None,
    })
}

/// Fills in what a calibration of `seff` multiplies: every internal action its predictions at
/// the validated points ran (its own and its callees'), and whether the factor can be written
/// (no callee is called from outside the SEFF's calls as well).
pub(crate) fn scope(c: &mut Calibration, predictor: &Predictor, repo: &Repository, v: &ServiceValidation) {
    let mut actions = BTreeSet::new();
    let mut reached = BTreeSet::from([v.seff.clone()]);
    for r in &v.rows {
        let p = predictor.predict(&v.seff, &r.inputs);
        actions.extend(p.actions.keys().cloned());
        reached.extend(p.calls.iter().map(|c| c.seff.clone()));
    }
    c.actions = actions.into_iter().collect();
    c.not_writable = shared_callee(repo, &reached, &v.seff);
}

/// A SEFF reached from `seff` (other than itself) that a SEFF outside `reached` calls too, named.
fn shared_callee(repo: &Repository, reached: &BTreeSet<String>, seff: &str) -> Option<String> {
    let signature_of = |id: &str| {
        (repo.seffs())
            .find(|(_, s)| s.id.as_deref() == Some(id))
            .and_then(|(_, s)| s.described_service.as_ref())
            .and_then(|r| r.target.id().map(str::to_string))
    };
    let callees: BTreeSet<String> = (reached.iter())
        .filter(|s| s.as_str() != seff)
        .filter_map(|s| signature_of(s))
        .collect();
    for (component, s) in repo.seffs() {
        if s.id.as_deref().is_some_and(|id| reached.contains(id)) {
            continue;
        }
        let calls_one = s.behaviour.walk().into_iter().any(|a| match &a.body {
            ActionBody::ExternalCall { called_service, .. } => (called_service.as_ref())
                .and_then(|r| r.target.id())
                .is_some_and(|sig| callees.contains(sig)),
            _ => false,
        });
        if calls_one {
            return Some(format!(
                "a SEFF of {} calls one of its callees too, whose demands the factor would change",
                component.name.as_deref().unwrap_or("another component")
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use beagle_analysis::validation::Row;

    fn validation(ratios: &[f64]) -> ServiceValidation {
        ServiceValidation {
            repository: String::new(),
            service: "Ranker.rank".into(),
            seff: "_rank".into(),
            points: ratios.len(),
            median_relative_error: 0.0,
            max_relative_error: 0.0,
            rows: (ratios.iter().enumerate())
                .map(|(i, r)| Row {
                    inputs: [("items.VALUE".to_string(), i as f64)].into(),
                    predicted_ms: 1.0 + i as f64,
                    measured_ms: r * (1.0 + i as f64),
                    executions: 30,
                })
                .collect(),
            problems: Vec::new(),
            notes: Vec::new(),
            unmodelled: None,
            calibration: None,
        }
    }

    #[test]
    fn a_factor_is_the_median_of_measured_over_predicted_where_it_departs_beyond_the_noise() {
        let c = factor(&validation(&[0.90, 0.91, 0.88, 0.92, 0.89]), 1.4).expect("10 % off, spread 3 %");
        assert!((c.factor - 0.90).abs() < 1e-9, "{c:?}");
        assert_eq!(c.points, 5);
        assert!(c.describe().contains("× 0.900"), "{}", c.describe());
        assert!(c.describe().contains("+40 %"), "{}", c.describe());
    }

    #[test]
    fn no_factor_within_five_per_cent_or_within_the_spread() {
        assert!(factor(&validation(&[0.97, 0.96, 0.98, 0.97]), 1.4).is_none(), "3 % off");
        assert!(
            factor(&validation(&[0.6, 1.2, 0.8, 1.3, 0.7]), 1.4).is_none(),
            "20 % off at the median, but the points spread wider"
        );
        assert!(factor(&validation(&[0.8, 0.8]), 1.4).is_none(), "two points");
    }

    #[test]
    fn a_distortion_is_the_ratio_of_the_builds_totals_at_the_same_points() {
        let plain: Vec<Measured> = (0..6)
            .map(|i| Measured {
                service: "_s".into(),
                inputs: [("n.VALUE".to_string(), i as f64)].into(),
                total_ms: 1.0 + i as f64,
                executions: 30,
            })
            .collect();
        let at = |k: f64| -> HashMap<PointKey, f64> {
            (plain.iter())
                .map(|p| (point_key(&p.service, &p.inputs), k * p.total_ms))
                .collect()
        };
        let (_, median, _, n) = distortion("_s", &plain, &at(1.3)).expect("30 % more");
        assert!((median - 1.3).abs() < 1e-9 && n == 6);
        assert!(distortion("_s", &plain, &at(1.02)).is_none(), "2 %: noise");
        assert!(distortion("_other", &plain, &at(1.3)).is_none(), "no points");
    }
}
