//! Writing into the user's model: the units every demand is written in (`units`: work units of
//! the container measured on, from the workspace's deployment), and on request what a validation
//! found: a calibration factor into the demands (`calibration`) and each SEFF's unmodelled
//! time as an action of its own (`unmodelled`). Each file is edited as a whole and written
//! atomically (`crate::atomic`).
//!
//! Below the analysis, which writes its demands in these units, and the prediction for another
//! platform; what is here reads the validation's report but not the validating.

pub(crate) mod calibration;
pub mod units;
pub(crate) mod unmodelled;
