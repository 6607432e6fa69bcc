//! What is left of a parameter point's observations beyond those kept ([`crate::point_sample`]):
//! their count, sum, sum of squares, extremes and executions. Plain data of its own, so the
//! blackboard can hold tallies while the sampling that makes them works on the blackboard's
//! results.

use crate::events::Parameters;
use serde::{Deserialize, Serialize};

/// All observations of one parameter point and run, where more were made than kept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointTally {
    pub parameters: Parameters,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<u64>,
    /// Observations made at the point (kept or not).
    pub observations: u64,
    /// Of them, not kept in [`MeasurementResult::observations`](crate::MeasurementResult::observations).
    pub unkept: u64,
    /// Executions the observations stand for ([`Observation::executions`](crate::Observation::executions)).
    pub executions: u64,
    /// Sum and sum of squares of the observations' values.
    pub sum: f64,
    pub sum_squares: f64,
    pub min: f64,
    pub max: f64,
}

impl PointTally {
    /// Mean of the point's observations.
    pub fn mean(&self) -> f64 {
        self.sum / self.observations.max(1) as f64
    }

    /// Sample standard deviation of the point's observations (0 for one).
    pub fn standard_deviation(&self) -> f64 {
        let n = self.observations as f64;
        if n < 2.0 {
            return 0.0;
        }
        ((self.sum_squares - self.sum * self.sum / n) / (n - 1.0))
            .max(0.0)
            .sqrt()
    }
}
