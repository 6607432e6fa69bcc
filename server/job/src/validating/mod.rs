//! Validating: does the analysed model predict its services on measurements it was not fitted
//! to? A Java workspace is run at fresh points (`java`), its plain build beside the
//! instrumented one, which tells the probes' distortion and a calibration factor
//! (`calibration`); a workspace of measurements holds a share of its executions out of the
//! analysis (`held_out`). `validate` chooses between the two for `beagle validate`.
//!
//! Above the stages it uses (the analysis: the held-out way analyses a copy; measuring;
//! predicting), below the job. What both ways share, and what a job's output carries, is below
//! them all (`crate::validation`).

pub(crate) mod calibration;
pub(crate) mod held_out;
pub(crate) mod java;
pub mod validate;
