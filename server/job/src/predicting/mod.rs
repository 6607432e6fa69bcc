//! Predicting: a service's expected demand for given inputs, from the repositories as they are
//! (`predict`, `beagle predict`), on the workspace's deployment or a what-if one (`rates`:
//! its processing rates, with `--on` moves), or on another platform from the analysis's counts
//! (`platform`, `beagle predict --platform`, also what `beagle validate --platform` validates).
//!
//! Above measuring (the counts it stored) and the units demands are written in; below the
//! validating, which compares these predictions with measurements.

pub mod platform;
pub mod predict;
pub mod rates;
