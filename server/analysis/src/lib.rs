//! Beagle's analysis core (issue 4, being built): the blackboard with layered views, the analysis
//! loop, the measurement controller, the final judge and the result store. Plain data and
//! synchronous functions; the CLI and the language server drive it.
//!
//! [`events`] is the contract with the measurement tools: every tool (Kieker import, the Beagle
//! events format, the Java tool) delivers time-ordered [`events::MeasurementEvent`]s keyed by PCM
//! ids.

pub mod events;

pub use events::{MeasurementEvent, Parameters};
