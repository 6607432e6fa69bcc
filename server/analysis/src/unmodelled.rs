//! Unmodelled time: per SEFF, what a service measurably costs beyond the composed prediction of
//! its own parts (internal actions, loops, the callees of its calls, each measured on its own):
//! iterating a map, bookkeeping, dispatching calls: code no action of the model carries.
//!
//! It is found where the model is validated: at each point, the plain build's measured total
//! (`beagle validate`) less the model's prediction. Reported per SEFF as a share of the measured
//! time and as a law over the service's inputs, fitted like any demand (regression, thresholds,
//! MARS; no genetic programming on a dozen points) with its evidence.

use crate::validation::ServiceValidation;
pub use crate::validation::Unmodelled;
use beagle_fit::{fit, Dataset, FitOptions, Target};

/// Fewest points a law of the unmodelled time is fitted on.
const FEWEST_POINTS: usize = 3;

/// The unmodelled time of a validated service; `None` with fewer than [`FEWEST_POINTS`] points
/// or when a prediction left something out (then the difference is no unmodelled time).
pub fn unmodelled(v: &ServiceValidation) -> Option<Unmodelled> {
    if v.rows.len() < FEWEST_POINTS || !v.problems.is_empty() {
        return None;
    }
    let rows: Vec<_> = v.rows.iter().filter(|r| r.measured_ms > 0.0).collect();
    if rows.len() < FEWEST_POINTS {
        return None;
    }
    let names: Vec<String> = (rows[0].inputs.keys())
        .filter(|n| rows.iter().all(|r| r.inputs.contains_key(*n)))
        .cloned()
        .collect();
    let columns: Vec<Vec<f64>> = names
        .iter()
        .map(|n| rows.iter().map(|r| r.inputs[n]).collect())
        .collect();
    let y: Vec<f64> = rows.iter().map(|r| r.measured_ms - r.predicted_ms).collect();
    let mut shares: Vec<f64> = rows
        .iter()
        .map(|r| (r.measured_ms - r.predicted_ms) / r.measured_ms)
        .collect();
    shares.sort_by(f64::total_cmp);
    let median_share = shares[shares.len() / 2];
    let share_spread = shares[(3 * shares.len()) / 4] - shares[shares.len() / 4];
    let data = Dataset::new(names, columns, y).ok()?;
    let options = FitOptions {
        gp: None,
        // It may be negative: where the model predicts more than the plain build measures.
        target: Target::Value,
        ..FitOptions::default()
    };
    let result = fit(&data, &options).ok()?;
    Some(Unmodelled {
        median_share,
        share_spread,
        stoex: result.stoex,
        status: result.evidence.status_text(),
        points: rows.len(),
    })
}

/// Least share of the measured time that unmodelled time must have to be written.
pub const MATERIAL_SHARE: f64 = 0.05;

impl Unmodelled {
    /// Whether the time is missing beyond the noise: a share above [`MATERIAL_SHARE`] and above
    /// the spread between points. Written below that, a constant of 3 % of a large call made
    /// a small call's prediction 30 % too high (the fine-grained fixture, items = 201).
    pub fn material(&self) -> bool {
        self.median_share > MATERIAL_SHARE.max(self.share_spread)
    }

    /// Whether the model predicts more than was measured: a negative share, once rounded. Such
    /// a share is no time missing from the model, and is said so rather than as "-6 %".
    pub fn overpredicted(&self) -> bool {
        self.median_share < 0.0 && percent(self.median_share) != percent(0.0)
    }

    /// For a badge: `unmodelled 23 %`, or `the model predicts 6 % more than measured`.
    pub fn label(&self) -> String {
        if self.overpredicted() {
            format!("the model predicts {} more than measured", percent(self.median_share))
        } else {
            format!("unmodelled {}", percent(self.median_share.max(0.0)))
        }
    }

    /// The share in a sentence: `23 % of the measured time`, or `none, the model predicts 6 %
    /// more than measured`.
    pub fn share_text(&self) -> String {
        if self.overpredicted() {
            format!("none, {}", self.label())
        } else {
            format!("{} of the measured time", percent(self.median_share.max(0.0)))
        }
    }

    /// What the law is of: the unmodelled time, or where the model predicts more, the difference
    /// (then negative where it predicts more).
    pub fn law_name(&self) -> &'static str {
        if self.overpredicted() {
            "measured less predicted per call"
        } else {
            "per call"
        }
    }

    /// One line: `unmodelled: 23 % of the measured time (median of 10 points); per call
    /// 0.02 * n.VALUE ms (final)`.
    pub fn describe(&self) -> String {
        format!(
            "unmodelled: {} (median of {} points{}); {} {} ms ({})",
            self.share_text(),
            self.points,
            if self.share_spread > 0.0 {
                format!(
                    ", quartiles {} points apart",
                    percent(self.share_spread).trim_end_matches(" %")
                )
            } else {
                String::new()
            },
            self.law_name(),
            self.stoex,
            self.status
        )
    }
}

/// A share as a percentage's size: one decimal under 10 % (`3.2 %`), none above (`23 %`).
fn percent(share: f64) -> String {
    let pct = (100.0 * share).abs();
    if format!("{pct:.1}").parse::<f64>().unwrap_or(pct) < 10.0 {
        format!("{pct:.1} %")
    } else {
        format!("{pct:.0} %")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::Row;
    use rand::{RngExt, SeedableRng};

    fn validation(rows: Vec<Row>) -> ServiceValidation {
        ServiceValidation {
            repository: String::new(),
            service: "Core.upload".into(),
            seff: "_upload".into(),
            points: rows.len(),
            median_relative_error: 0.0,
            max_relative_error: 0.0,
            rows,
            problems: Vec::new(),
            notes: Vec::new(),
            unmodelled: None,
            calibration: None,
        }
    }

    /// A service whose parts the model predicts, plus 0.05 ms per file it does not (a loop's own
    /// bookkeeping), with 2 % noise: the law recovers the per-file cost, the share its level.
    #[test]
    fn the_time_no_action_carries_is_a_law_over_the_inputs() {
        for seed in [1u64, 2, 3] {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let rows: Vec<Row> = (0..12)
                .map(|_| {
                    let files = rng.random_range(1..=40) as f64;
                    let size = rng.random_range(1000.0..400000.0_f64);
                    let predicted = files * size * 1e-5;
                    let measured = (predicted + 0.05 * files) * (1.0 + rng.random_range(-0.02..0.02));
                    Row {
                        inputs: [
                            ("files.NUMBER_OF_ELEMENTS".to_string(), files),
                            ("size.VALUE".to_string(), size),
                        ]
                        .into(),
                        predicted_ms: predicted,
                        measured_ms: measured,
                        executions: 30,
                    }
                })
                .collect();
            let u = unmodelled(&validation(rows.clone())).expect("12 points");
            assert_eq!(u.points, 12);
            assert!(u.median_share > 0.0 && u.median_share < 0.5, "{u:?}");
            // The law predicts the unmodelled time at 20 files, 100 KB within the noise's reach.
            let law = beagle_stoex::parse(&u.stoex).expect("a StoEx");
            let at = [("files.NUMBER_OF_ELEMENTS", 20.0), ("size.VALUE", 100_000.0)];
            let value = beagle_stoex::eval_number(&law, &|n: &str| at.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
                .expect("a number");
            let expected = 0.05 * 20.0;
            assert!(
                (value - expected).abs() < 0.6 * expected,
                "seed {seed}: {} gives {value}",
                u.stoex
            );
        }
    }

    #[test]
    fn too_few_points_or_a_prediction_that_left_something_out_is_none() {
        let row = |m: f64| Row {
            inputs: [("n.VALUE".to_string(), m)].into(),
            predicted_ms: m,
            measured_ms: m + 1.0,
            executions: 1,
        };
        assert!(unmodelled(&validation(vec![row(1.0), row(2.0)])).is_none());
        let mut v = validation(vec![row(1.0), row(2.0), row(3.0), row(4.0)]);
        assert!(unmodelled(&v).is_some());
        v.problems.push("_call: not bound".into());
        assert!(unmodelled(&v).is_none());
    }

    /// Written only beyond the noise: 3 % of the measured time is not, nor 8 % when the points'
    /// shares spread over 20 points; 12 % with a spread of 4 points is.
    #[test]
    fn only_a_material_share_is_missing_time() {
        let u = |median_share: f64, share_spread: f64| Unmodelled {
            median_share,
            share_spread,
            stoex: "0.02".into(),
            status: "final".into(),
            points: 10,
        };
        assert!(!u(0.03, 0.01).material());
        assert!(!u(0.08, 0.20).material());
        assert!(u(0.12, 0.04).material());
        assert!(!u(-0.2, 0.01).material(), "the model predicts more");
    }

    fn with_share(median_share: f64) -> Unmodelled {
        Unmodelled {
            median_share,
            share_spread: 0.0,
            stoex: "0.05 * files.NUMBER_OF_ELEMENTS".into(),
            status: "final".into(),
            points: 10,
        }
    }

    /// A positive share is the time missing from the model; a negative one is said as what it
    /// is, the model predicting more than measured, never as a negative unmodelled share.
    #[test]
    fn a_negative_share_is_said_as_the_model_predicting_more() {
        let u = with_share(0.234);
        assert!(!u.overpredicted());
        assert_eq!(u.label(), "unmodelled 23 %");
        assert_eq!(
            u.describe(),
            "unmodelled: 23 % of the measured time (median of 10 points); per call 0.05 * files.NUMBER_OF_ELEMENTS ms (final)"
        );
        assert_eq!(with_share(0.032).label(), "unmodelled 3.2 %");
        assert_eq!(with_share(0.0996).label(), "unmodelled 10 %");

        let over = with_share(-0.061);
        assert!(over.overpredicted());
        assert_eq!(over.label(), "the model predicts 6.1 % more than measured");
        assert_eq!(
            over.describe(),
            "unmodelled: none, the model predicts 6.1 % more than measured (median of 10 points); \
             measured less predicted per call 0.05 * files.NUMBER_OF_ELEMENTS ms (final)"
        );
        assert!(!over.describe().contains('-'), "{}", over.describe());
        // Rounded to nothing, it is no over-prediction either.
        let zero = with_share(-0.0001);
        assert!(!zero.overpredicted());
        assert_eq!(zero.label(), "unmodelled 0.0 %");
    }
}
