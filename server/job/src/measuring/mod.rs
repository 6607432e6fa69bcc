//! Measuring: where an analysis's measurements come from. Read from files (`files`: the Beagle
//! events format, Kieker, OpenTelemetry, kept in the store) or measured on the Java system
//! (`java`: the code linked to the model (`links`, with the types the model takes from other
//! files, `referenced`), instrumented and run in rounds of what the
//! preliminary analysis asks (`requests`)); either way the analysis gets a [`measured::Measured`].
//! After an analysis, `counting` runs the Java system again with the counting agent.
//!
//! Below the analysis and the validation, which both measure; what is here uses only the crate's
//! shared modules and its own files.

pub mod counting;
pub mod files;
pub(crate) mod java;
pub(crate) mod links;
pub mod measured;
pub(crate) mod referenced;
pub(crate) mod requests;
